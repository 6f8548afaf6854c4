-- WM D.VII(5); Maharajiad B.VIII(5): every extension granted, per position (the ledger STATUS
-- shows), and requests beyond the guaranteed ones, waiting for the GM's decision.
CREATE TABLE extensions (
    game_id TEXT NOT NULL,
    power   TEXT NOT NULL,
    phase   TEXT NOT NULL,
    days    INTEGER NOT NULL,
    -- guaranteed | discretionary
    kind    TEXT NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX extensions_by_game ON extensions (game_id, power);

CREATE TABLE extension_requests (
    game_id  TEXT NOT NULL,
    power    TEXT NOT NULL,
    phase    TEXT NOT NULL,
    days     INTEGER NOT NULL,
    asked_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, power)
);

-- WM D.VII(2): one-off periods are looked up per player (chaining is refused).
CREATE INDEX unavailable_by_power ON unavailable (game_id, power);
