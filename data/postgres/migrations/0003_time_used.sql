-- The time each seat's player took over their turns (see the SQLite migration 0015).

ALTER TABLE seat_clocks ADD COLUMN used_seconds DOUBLE PRECISION NOT NULL DEFAULT 0 CHECK (used_seconds >= 0);
ALTER TABLE seat_clocks ADD COLUMN last_used_seconds DOUBLE PRECISION CHECK (last_used_seconds >= 0);
