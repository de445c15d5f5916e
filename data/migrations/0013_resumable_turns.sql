-- A seat's last turn as it stood before it ended, so a move taken back resumes that turn with the time
-- it had instead of starting a fresh one (see engine/host/clock.py ``resume_turn``).

ALTER TABLE seat_clocks ADD COLUMN last_started TEXT;
ALTER TABLE seat_clocks ADD COLUMN last_deadline TEXT;
ALTER TABLE seat_clocks ADD COLUMN last_bank_seconds REAL CHECK (last_bank_seconds >= 0);
