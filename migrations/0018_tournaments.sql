-- Tournaments (issue 14): WM 2004 and the Maharajiad I, rounds of boards, each board a game.
CREATE TABLE tournaments (
    id              TEXT PRIMARY KEY,          -- short name used in subjects: "<id> TD"
    rulebook        TEXT NOT NULL CHECK (rulebook IN ('wm2004', 'maharajiad')),
    preset          TEXT NOT NULL,             -- the house rules of its games
    variant         TEXT NOT NULL,
    gm_address      TEXT NOT NULL,             -- the GM box its games use
    confirm_address TEXT NOT NULL,
    seed            TEXT NOT NULL,             -- published seed of the dice and the seating
    options         TEXT NOT NULL DEFAULT '[]', -- JSON [[option, value]]: set in every game
    released        INTEGER NOT NULL DEFAULT 0, -- standings go to every player once released
    created_at      INTEGER NOT NULL
);

-- The tournament directors: they authenticate their command mails as masters do.
CREATE TABLE tournament_directors (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    address       TEXT NOT NULL,
    tz            TEXT NOT NULL DEFAULT 'UTC',
    secret        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, address)
);

-- Who plays: WM B.2 teams with their captains; reserves (B.2, B.8(d)); round one powers the
-- team gave (B.5); declines of the next round (C.10, Maharajiad A.21).
CREATE TABLE entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    address       TEXT NOT NULL,
    name          TEXT NOT NULL DEFAULT '',
    tz            TEXT NOT NULL DEFAULT 'UTC',
    team          TEXT,
    captain       INTEGER NOT NULL DEFAULT 0,
    power         TEXT,
    reserve       INTEGER NOT NULL DEFAULT 0,
    declined      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, address)
);

-- Each board of each round is one game.
CREATE TABLE boards (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    game_id       TEXT NOT NULL UNIQUE REFERENCES games(id),
    PRIMARY KEY (tournament_id, round, board)
);

-- How a finished game ended, for scoring: JSON {"end": "played"|"solo"|"conceded_solo"|"vote",
-- "winner": power or null, "after": last phase, "centres": {power: n}}.
ALTER TABLE games ADD COLUMN ended TEXT;
