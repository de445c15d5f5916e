-- /game history lists a server's finished matches by the time they ended, latest first. Only finished
-- matches are indexed, so a move of a match being played never touches this index.
CREATE INDEX matches_finished_by_end ON matches (guild_id, updated_at) WHERE status = 'finished';
