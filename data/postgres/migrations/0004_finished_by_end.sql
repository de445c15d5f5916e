-- Finished matches by the time they ended (see the SQLite migration 0016).
CREATE INDEX matches_finished_by_end ON matches (guild_id, updated_at) WHERE status = 'finished';
