-- The TD's consents to what a GM may not do alone (WM D.VIII(1): rolling a game back). A
-- consent is for one thing (`ROLLBACK S1902M`) and is used once.
CREATE TABLE consents (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    what    TEXT NOT NULL,
    by      TEXT NOT NULL,
    at      INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX consents_open ON consents(game_id, what) WHERE used_at IS NULL;
