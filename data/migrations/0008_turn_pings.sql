-- How each player to act is told of their turn (see engine/host/notify.py): one row per turn and seat,
-- written with the post that begins the turn. A row not yet sent is a mention or message held until
-- ``due_at`` (their quiet hours, or a "waited" player's hours); once sent it stays sent, so a turn never
-- pings anyone twice, restarts included. Rows of earlier turns are dropped when a new turn begins.

CREATE TABLE turn_pings (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    turn       INTEGER NOT NULL,  -- the match version whose post began the turn
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    user_id    INTEGER NOT NULL,
    started_at TEXT    NOT NULL,  -- when the turn began (ISO-8601 UTC)
    due_at     TEXT    NOT NULL,  -- when to decide again whether to tell them, while not sent
    via        TEXT    NOT NULL DEFAULT ''
               CHECK (via IN ('', 'mention', 'dm', 'hand')),  -- how they were told ('' while held)
    sent       INTEGER NOT NULL DEFAULT 0 CHECK (sent IN (0, 1)),
    PRIMARY KEY (match_id, turn, seat)
) WITHOUT ROWID;

CREATE INDEX turn_pings_due ON turn_pings (due_at) WHERE sent = 0;
