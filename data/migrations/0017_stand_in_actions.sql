-- An action a computer played for the person of its seat (their time ran out, or it kept or took over
-- their seat) is marked, so that person can never take it back, even once the seat is theirs again.
-- Actions logged before this were not told apart: they count as their seat's own.
ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0 CHECK (stand_in IN (0, 1));
