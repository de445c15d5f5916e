-- The first schema: matches, their players, the append-only action log, snapshots and the outbox.
-- Discord ids and seeds are 64-bit integers. Times are ISO-8601 UTC text. JSON columns hold text.

CREATE TABLE matches (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL DEFAULT '[]',          -- JSON array of option ids, sorted
    seat_count  INTEGER NOT NULL CHECK (seat_count > 0),
    seed        INTEGER NOT NULL,                       -- signed 64-bit
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    creator_id  INTEGER,
    guild_id    INTEGER,
    channel_id  INTEGER,
    thread_id   INTEGER,
    state_json  TEXT,                                   -- latest snapshot; NULL in the lobby
    result_json TEXT,                                   -- the Outcome once finished
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

-- Listings filter by status (and guild) and show the newest first (by id). Neither index covers
-- updated_at, so a committed move never has to touch an index of this table.
CREATE INDEX matches_by_status ON matches (status);
CREATE INDEX matches_by_guild ON matches (guild_id, status);
CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE players (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    joined   INTEGER NOT NULL,                          -- join order within the match, from 0
    user_id  INTEGER,                                   -- NULL for a computer player
    name     TEXT    NOT NULL,
    bot      TEXT,                                      -- policy name of a computer player
    seat     INTEGER CHECK (seat >= 0),                 -- assigned when the match starts
    PRIMARY KEY (match_id, joined)
) WITHOUT ROWID;

CREATE UNIQUE INDEX players_one_per_user ON players (match_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX players_by_user ON players (user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX players_one_per_seat ON players (match_id, seat) WHERE seat IS NOT NULL;

-- The action log: one row per accepted action, numbered by the match version it produced.
CREATE TABLE actions (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    notation   TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, version)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- The state after each version that changed it (start and every action). Rows are a few KB, so this
-- keeps a rowid table (WITHOUT ROWID suits small rows only).
CREATE TABLE snapshots (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    version    INTEGER NOT NULL,
    state_json TEXT    NOT NULL,
    PRIMARY KEY (match_id, version)
);

-- The outbox: notices recorded with the commit that caused them, sent (and marked) afterwards.
CREATE TABLE deliveries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    version    INTEGER NOT NULL,
    seat       INTEGER,                                 -- NULL: the match thread (public)
    payload    TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT    NOT NULL,
    sent_at    TEXT
);

CREATE INDEX deliveries_pending ON deliveries (id) WHERE status = 'pending';
CREATE INDEX deliveries_by_match ON deliveries (match_id, version);
