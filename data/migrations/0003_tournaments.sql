-- Tournaments: the whole record as JSON (it changes a few times per round, never per move), guarded by
-- a version like matches, and an index from each table's match back to its tournament.

CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER,
    status     TEXT    NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    record     TEXT    NOT NULL,                         -- TournamentRecord JSON
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);

CREATE INDEX tournaments_by_status ON tournaments (status, guild_id);

CREATE TABLE tournament_matches (
    match_id      INTEGER PRIMARY KEY REFERENCES matches (id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id)
);

-- Per-server settings, such as the role allowed to run tournaments.
CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;
