-- Issue 12, WM D.VII(6), B.8: a reliability record per player (by address): who NMRed, who was
-- late, who took extensions. The address is the player's at the time.
ALTER TABLE nmrs ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE extensions ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE TABLE late_orders (
    game_id  TEXT NOT NULL,
    power    TEXT NOT NULL,
    address  TEXT NOT NULL,
    phase    TEXT NOT NULL,
    at       INTEGER NOT NULL,
    -- 1: accepted until the adjudication began (WM D.VII(3) Alternative Rule); 0: refused.
    accepted INTEGER NOT NULL
);
