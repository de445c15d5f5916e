-- Moves taken back (undo). The action log stays append-only: an undone action keeps its row and is
-- listed here as void, with the version of the undo that voided it. Every read of the log that replays
-- or counts moves skips void actions, so the seed and the kept log still reproduce the snapshot.

CREATE TABLE void_actions (
    match_id  INTEGER NOT NULL,
    version   INTEGER NOT NULL,  -- the undone action's version
    undone_at INTEGER NOT NULL,  -- the match version the undo committed
    PRIMARY KEY (match_id, version),
    FOREIGN KEY (match_id, version) REFERENCES actions (match_id, version),
    CHECK (undone_at > version)
) WITHOUT ROWID;

CREATE TRIGGER void_actions_no_update BEFORE UPDATE ON void_actions
BEGIN
    SELECT RAISE(ABORT, 'an undone action stays undone');
END;

CREATE TRIGGER void_actions_no_delete BEFORE DELETE ON void_actions
BEGIN
    SELECT RAISE(ABORT, 'an undone action stays undone');
END;
