-- A third reminder of a turn, each player's one extension a match, and the daily digest (see the SQLite
-- migration 0021).
ALTER TABLE seat_clocks DROP CONSTRAINT seat_clocks_reminded_check;
UPDATE seat_clocks SET reminded = 3 WHERE reminded >= 2;
ALTER TABLE seat_clocks ADD CONSTRAINT seat_clocks_reminded_check CHECK (reminded BETWEEN 0 AND 3);
ALTER TABLE seat_clocks ADD COLUMN extended_seconds DOUBLE PRECISION NOT NULL DEFAULT 0
    CHECK (extended_seconds >= 0);
ALTER TABLE seat_clocks ADD COLUMN extension_used INTEGER NOT NULL DEFAULT 0 CHECK (extension_used IN (0, 1));

CREATE TABLE digests (
    user_id BIGINT  NOT NULL PRIMARY KEY,
    hour    INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    zone    TEXT    NOT NULL,
    next_at TEXT    NOT NULL
);
CREATE INDEX digests_due ON digests (next_at);
