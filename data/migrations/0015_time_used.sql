-- The time each seat's player took over their turns, for the statistics under a finished match; and the
-- figure before their last turn ended, so a move taken back does not count that turn twice.

ALTER TABLE seat_clocks ADD COLUMN used_seconds REAL NOT NULL DEFAULT 0 CHECK (used_seconds >= 0);
ALTER TABLE seat_clocks ADD COLUMN last_used_seconds REAL CHECK (last_used_seconds >= 0);
