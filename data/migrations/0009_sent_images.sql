-- A digest of the last image each reader received of a match: the board of its live post (seat -1) and
-- each seat's hand by DM. An image that has not changed since is not uploaded again.

CREATE TABLE sent_images (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    digest   TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
