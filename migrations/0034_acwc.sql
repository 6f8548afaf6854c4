-- Issue 26: the Antichess World Championship's office, a kind of game of its own: one
-- championship a game, its entrants as seats, its rounds as turns.

-- `games.kind` takes 'acwc' too (SQLite cannot change a CHECK: the column is made again).
ALTER TABLE games ADD COLUMN game_kind TEXT NOT NULL DEFAULT 'diplomacy'
    CHECK (game_kind IN ('diplomacy', 'nomic', 'acwc'));
UPDATE games SET game_kind = kind;
DROP INDEX games_due;
ALTER TABLE games DROP COLUMN kind;
ALTER TABLE games RENAME COLUMN game_kind TO kind;
CREATE INDEX games_due ON games(kind, due_at);

-- Every entry (ACWC "Player eligibility"): the account, its ratings (the seeding rating is the
-- average of the two, "Format"), and what became of it. An approved entrant has a seat
-- (`players.power` is the account).
CREATE TABLE acwc_entrants (
    game_id      TEXT NOT NULL REFERENCES games(id),
    account      TEXT NOT NULL,
    address      TEXT NOT NULL,
    cutoff       INTEGER NOT NULL CHECK (cutoff >= 0),
    peak         INTEGER NOT NULL CHECK (peak >= 0),
    entered_at   INTEGER NOT NULL,
    approved_at  INTEGER,
    refused      TEXT,
    withdrawn_at INTEGER,
    disqualified TEXT CHECK (disqualified IN ('engine', 'booster', 'two_forfeits',
                                              'public_accusation', 'other')),
    PRIMARY KEY (game_id, account)
);
CREATE INDEX acwc_entrants_address ON acwc_entrants(game_id, address);

-- Each round published: its stage, number, publication, deadline and the pairing transcript
-- the pairings mail carried (JSON lines), so anyone can check it later.
CREATE TABLE acwc_rounds (
    game_id      TEXT NOT NULL REFERENCES games(id),
    stage        TEXT NOT NULL CHECK (stage IN ('swiss', 'candidates', 'final')),
    round        INTEGER NOT NULL CHECK (round >= 1),
    published_at INTEGER NOT NULL,
    deadline     INTEGER,
    transcript   TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id, stage, round)
);

-- Each pairing of a round (a bye has no `b`), its agreed time and its result: the score in
-- half games for `a` and `b`, or a forfeit's winner.
CREATE TABLE acwc_matches (
    game_id      TEXT NOT NULL REFERENCES games(id),
    stage        TEXT NOT NULL CHECK (stage IN ('swiss', 'candidates', 'final')),
    round        INTEGER NOT NULL,
    board        INTEGER NOT NULL CHECK (board >= 1),
    a            TEXT NOT NULL,
    b            TEXT,
    agreed_at    INTEGER,
    score_a      INTEGER CHECK (score_a >= 0),
    score_b      INTEGER CHECK (score_b >= 0),
    forfeit_to   TEXT,
    decided_at   INTEGER,
    PRIMARY KEY (game_id, stage, round, board)
);
CREATE INDEX acwc_matches_player_a ON acwc_matches(game_id, a);
CREATE INDEX acwc_matches_player_b ON acwc_matches(game_id, b);

-- Every mail about a match, as the pure rules replay them: offers and acceptances of a time
-- (ACWC "Match negotiations"), the arbiter's findings and assignments, result reports,
-- confirmations, disputes and rulings. `times` is a JSON list; `score_*` in half games.
CREATE TABLE acwc_match_events (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    stage   TEXT NOT NULL,
    round   INTEGER NOT NULL,
    board   INTEGER NOT NULL,
    event   TEXT NOT NULL CHECK (event IN ('offer', 'accept', 'choose', 'assign', 'finding',
                                           'report', 'confirm', 'dispute', 'ruling', 'bid')),
    by      TEXT,
    at      INTEGER NOT NULL,
    times   TEXT NOT NULL DEFAULT '[]',
    score_a INTEGER,
    score_b INTEGER
);
CREATE INDEX acwc_match_events_match ON acwc_match_events(game_id, stage, round, board);

-- A championship's own facts: when its Swiss ended (its ranking and who proceeds announced).
CREATE TABLE acwc_championships (
    game_id       TEXT PRIMARY KEY REFERENCES games(id),
    swiss_done_at INTEGER
);
