-- The share of turns played in time a lobby asks of the people who join it (see the SQLite migration
-- 0024).
ALTER TABLE matches ADD COLUMN least_reliability DOUBLE PRECISION NOT NULL DEFAULT 0
    CHECK (least_reliability >= 0 AND least_reliability <= 1);
