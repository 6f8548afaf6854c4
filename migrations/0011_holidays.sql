-- WM D.VII(5); Maharajiad B.VIII(5): holidays the TD declares eligible for extensions that are
-- never charged. taken_at: when a player or the GM took this game's extension for it.
CREATE TABLE holidays (
    game_id  TEXT NOT NULL,
    name     TEXT NOT NULL,
    from_ts  INTEGER NOT NULL,
    to_ts    INTEGER NOT NULL,
    taken_at INTEGER,
    PRIMARY KEY (game_id, name)
);
