-- Proposals the GM has refused as repetitive (WM IX(2)): votes on them are not counted.
CREATE TABLE refused_proposals (
    game_id  TEXT NOT NULL,
    proposal TEXT NOT NULL,
    by       TEXT NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, proposal)
);
