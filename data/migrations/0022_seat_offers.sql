-- A seat a computer holds for a person who left it (timeouts or a resignation), offered to a new person
-- by the match's creator or an admin: the offer's button carries the row's id. The first eligible person
-- who takes it is written here with the version their seat began at and who left it, so the rating can
-- count the person who resigned last and the newcomer from their first move.

CREATE TABLE seat_offers (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id        INTEGER NOT NULL REFERENCES matches (id),
    seat            INTEGER NOT NULL CHECK (seat >= 0),
    offered_by      INTEGER NOT NULL,
    offered_version INTEGER NOT NULL,
    offered_at      TEXT    NOT NULL,
    taken_by        INTEGER,                                -- NULL while the offer stands
    taken_version   INTEGER,                                -- the match version the newcomer's seat began at
    taken_at        TEXT,
    leaver_id       INTEGER,                                -- the person who had left the seat
    leaver_name     TEXT,
    leaver_resigned INTEGER NOT NULL DEFAULT 0 CHECK (leaver_resigned IN (0, 1))
);

CREATE INDEX seat_offers_by_match ON seat_offers (match_id, seat);
