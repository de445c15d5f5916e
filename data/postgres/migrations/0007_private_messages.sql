-- The one living private message of each seat of a match (see the SQLite migration 0019).
CREATE TABLE private_messages (
    match_id   BIGINT  NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    channel_id BIGINT  NOT NULL,
    message_id BIGINT  NOT NULL,
    version    BIGINT  NOT NULL,
    turn       INTEGER NOT NULL CHECK (turn IN (0, 1)),
    image      INTEGER NOT NULL CHECK (image IN (0, 1)),
    text       TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
