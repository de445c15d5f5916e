-- The thread post that shows a match's current turn. While the same players keep acting it is edited in
-- place (the board and the lines of the turn so far); a new turn gets a new post, and this one loses its
-- buttons. Kept here so a restart edits the right post.

CREATE TABLE live_posts (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    to_act     TEXT    NOT NULL,  -- JSON list of the seats the post calls to act; [] once none may continue it
    lines      TEXT    NOT NULL,  -- JSON list of the post's body lines so far, as shown
    version    INTEGER NOT NULL,  -- the match version the post shows
    history    TEXT    NOT NULL DEFAULT '[]'  -- JSON list of the latest earlier turns: {"seats": [...], "lines": [...]}
);
