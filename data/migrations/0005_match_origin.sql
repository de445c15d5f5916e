-- Where a match was made by the bot itself (a tournament's table): creating it again with the same
-- origin finds the match already made, so a restart in the middle never leaves a second copy behind.

ALTER TABLE matches ADD COLUMN origin TEXT;

CREATE UNIQUE INDEX matches_by_origin ON matches (origin) WHERE origin IS NOT NULL;
