-- The manners of a long game: a third reminder of a turn (80% of its time gone, between half time and a
-- tenth left), each player's one extension of 24 hours a match (/game extend), and the daily digest of
-- the matches waiting for a person (/settings digest).
--
-- SQLite cannot change a CHECK constraint, so ``seat_clocks`` is built again with ``reminded`` up to 3.
-- A row that had sent its last reminder (2 of old) has dealt with all three now (3).

CREATE TABLE seat_clocks_new (
    match_id          INTEGER NOT NULL REFERENCES matches (id),
    seat              INTEGER NOT NULL CHECK (seat >= 0),
    user_id           INTEGER NOT NULL,
    bank_seconds      REAL    NOT NULL DEFAULT 0 CHECK (bank_seconds >= 0),
    started_at        TEXT,
    deadline          TEXT,
    reminded          INTEGER NOT NULL DEFAULT 0 CHECK (reminded BETWEEN 0 AND 3),
    due_at            TEXT,
    timeouts          INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    last_started      TEXT,
    last_deadline     TEXT,
    last_bank_seconds REAL CHECK (last_bank_seconds >= 0),
    quarantined       TEXT,
    used_seconds      REAL    NOT NULL DEFAULT 0 CHECK (used_seconds >= 0),
    last_used_seconds REAL CHECK (last_used_seconds >= 0),
    -- What /game extend added to the seat's running (or last) turn, and whether its player used their
    -- one extension of the match.
    extended_seconds  REAL    NOT NULL DEFAULT 0 CHECK (extended_seconds >= 0),
    extension_used    INTEGER NOT NULL DEFAULT 0 CHECK (extension_used IN (0, 1)),
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

INSERT INTO seat_clocks_new (
    match_id, seat, user_id, bank_seconds, started_at, deadline, reminded, due_at, timeouts,
    last_started, last_deadline, last_bank_seconds, quarantined, used_seconds, last_used_seconds
)
SELECT match_id, seat, user_id, bank_seconds, started_at, deadline,
       CASE WHEN reminded >= 2 THEN 3 ELSE reminded END, due_at, timeouts,
       last_started, last_deadline, last_bank_seconds, quarantined, used_seconds, last_used_seconds
FROM seat_clocks;

DROP TABLE seat_clocks;
ALTER TABLE seat_clocks_new RENAME TO seat_clocks;
CREATE INDEX seat_clocks_due ON seat_clocks (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX seat_clocks_by_user ON seat_clocks (user_id);

-- A person's daily digest: at ``hour`` o'clock in time zone ``zone``, one direct message listing every
-- match waiting for them. ``next_at`` (ISO-8601 UTC) is when it is next due; the sweep that sends it
-- first moves it on, so two sweeps never send it twice.
CREATE TABLE digests (
    user_id INTEGER NOT NULL PRIMARY KEY,
    hour    INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    zone    TEXT    NOT NULL,
    next_at TEXT    NOT NULL
) WITHOUT ROWID;

CREATE INDEX digests_due ON digests (next_at);

