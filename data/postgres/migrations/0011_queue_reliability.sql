-- The share of turns played in time a person waiting in a queue asks of the others (see the SQLite
-- migration 0023).
ALTER TABLE queue_entries ADD COLUMN least_reliability DOUBLE PRECISION NOT NULL DEFAULT 0
    CHECK (least_reliability >= 0 AND least_reliability <= 1);
