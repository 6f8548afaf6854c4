-- The people of a game besides its players: its masters (the GM, and the TD who has powers
-- above the GM: WM A, D.VIII(1)) and its observers. Masters authenticate as players do (their
-- secret and/or DKIM, WM D.X(6)); digests, alerts, reports and command replies go to them.
CREATE TABLE members (
    game_id  TEXT NOT NULL REFERENCES games(id),
    role     TEXT NOT NULL CHECK (role IN ('gm', 'td', 'observer')),
    address  TEXT NOT NULL,
    name     TEXT NOT NULL DEFAULT '',
    tz       TEXT NOT NULL DEFAULT 'UTC',
    secret   TEXT NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, address)
);
CREATE INDEX members_address ON members(address);

-- Every master's command, by mail or at the console: who, when, the command, what it did.
CREATE TABLE audit (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    at      INTEGER NOT NULL,
    actor   TEXT NOT NULL,                 -- the master's address, or 'console'
    via     TEXT NOT NULL CHECK (via IN ('mail', 'console')),
    command TEXT NOT NULL,
    effect  TEXT NOT NULL
);
CREATE INDEX audit_game ON audit(game_id, id);

-- A paused game keeps the time that was left before its deadline; NULL when running.
ALTER TABLE games ADD COLUMN paused_remaining INTEGER;
