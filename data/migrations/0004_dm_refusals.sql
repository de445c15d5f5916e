-- Players whose direct messages refused a match's hand: they were told once, in the match thread, to
-- use the "My hand" button instead. Kept here so a restart does not tell them again.

CREATE TABLE dm_refusals (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id  INTEGER NOT NULL,
    told_at  TEXT    NOT NULL,
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;
