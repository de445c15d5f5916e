-- The share of turns played in time a person waiting in a queue asks of the others at their table.
ALTER TABLE queue_entries ADD COLUMN least_reliability REAL NOT NULL DEFAULT 0
    CHECK (least_reliability >= 0 AND least_reliability <= 1);
