-- WM D.VII(6)(a); Maharajiad B.VIII(6)(a): a player who NMRed must contact the GM within 48
-- hours of the results (96 if the period includes a weekend), or the replacement procedure
-- starts. One row per NMR; due_at: the end of the contact window.
CREATE TABLE nmrs (
    game_id      TEXT NOT NULL,
    power        TEXT NOT NULL,
    phase        TEXT NOT NULL,
    published_at INTEGER NOT NULL,
    due_at       INTEGER NOT NULL,
    contacted_at INTEGER,
    notified_at  INTEGER,
    PRIMARY KEY (game_id, power, phase)
);
CREATE INDEX nmrs_waiting ON nmrs (due_at) WHERE contacted_at IS NULL AND notified_at IS NULL;
