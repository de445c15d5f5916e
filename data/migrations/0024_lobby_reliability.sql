-- The share of turns played in time a lobby asks of the people who join it (0: anyone may join).
ALTER TABLE matches ADD COLUMN least_reliability REAL NOT NULL DEFAULT 0
    CHECK (least_reliability >= 0 AND least_reliability <= 1);
