-- The one living private message of each seat of a match: its hand, edited in place as it changes, and
-- while it is the seat's turn the turn's controls. A new message is sent only to call the person to play
-- (that one notifies); the previous one then loses its controls. ``image``: it shows the hand's image.

CREATE TABLE private_messages (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    turn       INTEGER NOT NULL CHECK (turn IN (0, 1)),
    image      INTEGER NOT NULL CHECK (image IN (0, 1)),
    text       TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
