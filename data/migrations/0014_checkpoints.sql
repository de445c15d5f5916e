-- A smaller store: instead of the state after every version, a match keeps checkpoints, compressed
-- (see data/checkpoints.py): its opening, every version that is a multiple of 32, and every undo. The
-- state at any other version is the nearest checkpoint plus a replay of the action log after it; the
-- latest state stays in matches.state_json. Existing snapshots are thinned out the same way, and the
-- file is vacuumed afterwards so the space comes back.
-- after: VACUUM

CREATE TABLE checkpoints (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    version  INTEGER NOT NULL,
    state    BLOB    NOT NULL,                          -- zlib-compressed state JSON
    PRIMARY KEY (match_id, version)
);

-- pack_state is data.checkpoints.pack_state, given to the connection by data.db.migrate.
INSERT INTO checkpoints (match_id, version, state)
SELECT s.match_id, s.version, pack_state(s.state_json)
FROM snapshots AS s
WHERE s.version % 32 = 0
   OR s.version = (SELECT MIN(f.version) FROM snapshots AS f WHERE f.match_id = s.match_id)
   OR EXISTS (SELECT 1 FROM void_actions AS v WHERE v.match_id = s.match_id AND v.undone_at = s.version);

DROP TABLE snapshots;
