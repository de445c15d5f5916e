-- A player who resigned: a computer plays their seat, and the rating counts them last.

ALTER TABLE players ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0;
