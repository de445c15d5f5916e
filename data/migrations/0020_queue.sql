-- The people of each server waiting for a game (``/game find``): one entry per person and game, with
-- what they asked for. An entry leaves when its person is seated or leaves the queue.
CREATE TABLE queue_entries (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    channel_id  INTEGER,                                -- where the table's thread opens
    pace        TEXT    NOT NULL,
    seat_counts TEXT    NOT NULL,                       -- the table sizes accepted, comma separated
    computers   TEXT,                                   -- the computer level that may fill, NULL for none
    patience_s  INTEGER NOT NULL CHECK (patience_s >= 0),
    since       TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
) WITHOUT ROWID;
