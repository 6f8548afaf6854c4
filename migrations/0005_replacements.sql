-- Replacements of players (WM B.8): who played a power from which phase, for proration later.
-- The player before `phase` is old_address; from `phase` on it is new_address.
CREATE TABLE replacements (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT NOT NULL,
    power       TEXT NOT NULL,
    phase       TEXT NOT NULL,
    at          INTEGER NOT NULL,
    old_address TEXT NOT NULL,
    new_address TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('temporary', 'permanent'))
);
CREATE INDEX replacements_game ON replacements(game_id, id);
