-- Matches that live for days (see engine/host/clock.py): each match's pace, each seat's clock with its
-- reminders and deadline, the timeouts counted in a player's profile, and players' absences.

ALTER TABLE matches ADD COLUMN pace TEXT NOT NULL DEFAULT 'none'
    CHECK (pace IN ('none', 'relaxed', 'daily', 'fast'));

-- A computer plays this seat because its player let the clock run out twice in a row; /game return
-- gives it back.
ALTER TABLE players ADD COLUMN absent INTEGER NOT NULL DEFAULT 0 CHECK (absent IN (0, 1));

-- One row per seat held by a person in a match with a clock, written with the move that changes it.
-- ``due_at`` is when the next reminder or the timeout falls; the scheduler fires what is due.
CREATE TABLE seat_clocks (
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER NOT NULL,
    bank_seconds REAL    NOT NULL DEFAULT 0 CHECK (bank_seconds >= 0),
    started_at   TEXT,                 -- the seat's turn began (ISO-8601 UTC); NULL: not its turn
    deadline     TEXT,
    reminded     INTEGER NOT NULL DEFAULT 0 CHECK (reminded BETWEEN 0 AND 2),
    due_at       TEXT,
    timeouts     INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),  -- in a row
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

CREATE INDEX seat_clocks_due ON seat_clocks (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX seat_clocks_by_user ON seat_clocks (user_id);

-- Every turn a computer played because its player's time ran out.
CREATE TABLE timeouts (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    at       TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat, at)
) WITHOUT ROWID;

CREATE INDEX timeouts_by_user ON timeouts (user_id);

-- A player's absences (/away): their clocks stand still from ``starts_at`` to ``ends_at``.
CREATE TABLE absences (
    user_id   INTEGER NOT NULL,
    starts_at TEXT    NOT NULL,
    ends_at   TEXT    NOT NULL,
    PRIMARY KEY (user_id, starts_at)
) WITHOUT ROWID;
