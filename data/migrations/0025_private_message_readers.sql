-- Whom each living private message was sent to: when a seat changes hands, its new person never gets the
-- message of the one who left it edited for them, even should a send to the leaver finish afterwards.
ALTER TABLE private_messages ADD COLUMN user_id INTEGER;
