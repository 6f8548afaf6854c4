-- WM D.II(5); Maharajiad B.III(5): retreat, build and disband orders sent with the movement
-- orders, for the phase that follows; the latest block of each power counts. lines: as written.
CREATE TABLE conditional_orders (
    game_id TEXT NOT NULL,
    power   TEXT NOT NULL,
    phase   TEXT NOT NULL,
    lines   TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, phase, power)
);
