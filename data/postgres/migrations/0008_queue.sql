-- The people of each server waiting for a game (see the SQLite migration 0020).
CREATE TABLE queue_entries (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    channel_id  BIGINT,
    pace        TEXT    NOT NULL,
    seat_counts TEXT    NOT NULL,
    computers   TEXT,
    patience_s  BIGINT  NOT NULL CHECK (patience_s >= 0),
    since       TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
);
