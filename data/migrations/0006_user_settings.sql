-- Per-person settings (such as the language the bot speaks to them), like guild_settings per server.

CREATE TABLE user_settings (
    user_id INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
) WITHOUT ROWID;
