-- Actions a computer played for the person of their seat (see the SQLite migration 0017).
ALTER TABLE actions ADD COLUMN stand_in BOOLEAN NOT NULL DEFAULT FALSE;
