-- Issue 26: the ACWC office's no-shows, forfeits, withdrawals and disqualifications by mail
-- (ACWC "Match rules", "Disqualification and withdrawals").

-- A match's mails take the no-show claim's messages, the appearing player's choice and the
-- forfeit itself (SQLite cannot change a CHECK: the table is made again). `note` says why a
-- forfeit was given.
CREATE TABLE acwc_match_events_new (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    stage   TEXT NOT NULL,
    round   INTEGER NOT NULL,
    board   INTEGER NOT NULL,
    event   TEXT NOT NULL CHECK (event IN ('offer', 'accept', 'choose', 'assign', 'finding',
                                           'report', 'confirm', 'dispute', 'ruling', 'bid',
                                           'noshow', 'claim', 'reschedule', 'forfeit')),
    by      TEXT,
    at      INTEGER NOT NULL,
    times   TEXT NOT NULL DEFAULT '[]',
    score_a INTEGER,
    score_b INTEGER,
    note    TEXT CHECK (note IN ('no_show', 'rescheduling_failed', 'left_the_match',
                                 'no_rematch'))
);
INSERT INTO acwc_match_events_new (id, game_id, stage, round, board, event, by, at, times,
                                   score_a, score_b)
    SELECT id, game_id, stage, round, board, event, by, at, times, score_a, score_b
    FROM acwc_match_events;
DROP INDEX acwc_match_events_match;
DROP TABLE acwc_match_events;
ALTER TABLE acwc_match_events_new RENAME TO acwc_match_events;
CREATE INDEX acwc_match_events_match ON acwc_match_events(game_id, stage, round, board);

-- Where a player left: the number of Swiss rounds published when they did ("will not be
-- included in later pairings"), the stage they left, and why (`disqualified`, none for a
-- withdrawal).
ALTER TABLE acwc_entrants ADD COLUMN left_after_round INTEGER;
ALTER TABLE acwc_entrants ADD COLUMN left_stage TEXT
    CHECK (left_stage IN ('swiss', 'candidates', 'final'));
