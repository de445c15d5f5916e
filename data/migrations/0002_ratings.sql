-- Player ratings (openskill Plackett-Luce, see engine/host/ratings.py): the current rating per game and
-- player, the finished matches already counted (so none is counted twice) and every player's change per
-- rated match. Ratings are derived data: they can be rebuilt by re-rating the finished matches in order.

CREATE TABLE ratings (
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (game, user_id)
) WITHOUT ROWID;

-- A profile lists one player's ratings in every game.
CREATE INDEX ratings_by_user ON ratings (user_id);

-- One row per finished match that was looked at, rated or not (fewer than two humans, no result), so
-- recording it again is a no-op.
CREATE TABLE rated_matches (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    game     TEXT    NOT NULL,
    rated    INTEGER NOT NULL CHECK (rated >= 0),      -- players whose rating changed (0: none)
    rated_at TEXT    NOT NULL
);

-- One row per rated player per rated match; ``id`` gives the order the matches were rated in, which
-- is the order the ratings changed in.
CREATE TABLE rating_history (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES rated_matches (match_id),
    game         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    seats        INTEGER NOT NULL CHECK (seats > seat),   -- the match's seat count
    place        INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    rated_at     TEXT    NOT NULL
);

CREATE UNIQUE INDEX rating_history_one_per_player ON rating_history (match_id, user_id);
CREATE INDEX rating_history_by_user ON rating_history (user_id, id);
