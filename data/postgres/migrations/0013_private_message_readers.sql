-- Whom each living private message was sent to (see the SQLite migration 0025).
ALTER TABLE private_messages ADD COLUMN user_id BIGINT;
