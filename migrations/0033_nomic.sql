-- Issue 25: the Nomic, a kind of game of its own.

-- `games.kind` takes 'nomic' too. SQLite cannot change a CHECK, so the column is made again:
-- a new column with the new CHECK, the values copied, the old column (and its index) dropped.
ALTER TABLE games ADD COLUMN game_kind TEXT NOT NULL DEFAULT 'diplomacy'
    CHECK (game_kind IN ('diplomacy', 'nomic'));
UPDATE games SET game_kind = kind;
DROP INDEX games_due;
ALTER TABLE games DROP COLUMN kind;
ALTER TABLE games RENAME COLUMN game_kind TO kind;
CREATE INDEX games_due ON games(kind, due_at);

-- A Nomic's own facts: when it began (Nomic 101, 201: the first circuit) and its winner
-- (Nomic 210).
CREATE TABLE nomic_games (
    game_id    TEXT PRIMARY KEY REFERENCES games(id),
    started_at INTEGER,
    winner     TEXT,
    won_at     INTEGER
);

-- Each player's allocated day (Nomic 201); the player is `players.power` (their name).
CREATE TABLE nomic_seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    player  TEXT NOT NULL,
    day     TEXT NOT NULL CHECK (day IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday')),
    PRIMARY KEY (game_id, player)
);
CREATE UNIQUE INDEX nomic_seats_day ON nomic_seats(game_id, day);

-- Every rule-change submitted (Nomic 107), proper or not: Nomic 202 counts only the first of
-- a day; a proper one has its number (`office_proposals.number`), an improper one why not.
CREATE TABLE nomic_submissions (
    id       INTEGER PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games(id),
    player   TEXT NOT NULL,
    at       INTEGER NOT NULL,
    text     TEXT NOT NULL,
    number   INTEGER,
    improper TEXT,
    CHECK ((number IS NULL) <> (improper IS NULL))
);
CREATE INDEX nomic_submissions_player ON nomic_submissions(game_id, player, at);

-- The voting thread (Nomic 113; public in the Nomic): every vote mail, counted or not, and why
-- not. The office's `office_ballots` counts the counted ones.
CREATE TABLE nomic_votes (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    number  INTEGER NOT NULL,
    voter   TEXT NOT NULL,
    at      INTEGER NOT NULL,
    choice  TEXT NOT NULL CHECK (choice IN ('yes', 'no')),
    refused TEXT
);
CREATE INDEX nomic_votes_proposal ON nomic_votes(game_id, number);

-- The points thread (Nomic 209): each change of a player's points and the rule it came from.
CREATE TABLE nomic_points (
    id       INTEGER PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games(id),
    player   TEXT NOT NULL,
    at       INTEGER NOT NULL,
    points   INTEGER NOT NULL,
    rule     TEXT NOT NULL CHECK (rule IN ('adopted_203', 'against_205', 'defeated_207')),
    proposal INTEGER
);
CREATE INDEX nomic_points_game ON nomic_points(game_id, player);

-- Points of Order (Nomic 214): each raised, and each mail about it (a Judgement, a dispute,
-- an opinion). `told` counts the steps of its course the players have been told.
CREATE TABLE nomic_points_of_order (
    game_id    TEXT NOT NULL REFERENCES games(id),
    number     INTEGER NOT NULL CHECK (number >= 1),
    raised_by  TEXT NOT NULL,
    raised_at  INTEGER NOT NULL,
    question   TEXT NOT NULL,
    concerns   INTEGER,
    settled_at INTEGER,
    told       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, number)
);
CREATE INDEX nomic_points_of_order_open ON nomic_points_of_order(game_id) WHERE settled_at IS NULL;

CREATE TABLE nomic_order_events (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    number  INTEGER NOT NULL,
    event   TEXT NOT NULL CHECK (event IN ('judgement', 'dispute', 'agree', 'disagree')),
    by      TEXT NOT NULL,
    at      INTEGER NOT NULL,
    text    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX nomic_order_events_point ON nomic_order_events(game_id, number);
