-- Agora BT1, BT6, BT7 (issue 24): contestants who enter a game by announcement before the draw
-- of powers, the draw's seed, the close of entry the masters set, and the assistants a
-- contestant announces.
CREATE TABLE game_entries (
    game_id    TEXT NOT NULL REFERENCES games(id),
    address    TEXT NOT NULL,                  -- lower case
    name       TEXT NOT NULL DEFAULT '',
    entered_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, address)
) WITHOUT ROWID;

-- Agora BT6: the draw's seed (16 hex digits from the OS random generator), fixed at the first
-- entry; its SHA-256 is in every entry's acknowledgement, the seed itself in the draw's mail.
ALTER TABLE games ADD COLUMN draw_seed TEXT;
-- Agora BT1: the date the masters set for the close of entry (the later of it and 7 days after
-- the game's creation counts).
ALTER TABLE games ADD COLUMN entry_until INTEGER;

-- Agora BT7: the non-contestants who assist a contestant, as it announced them (published to
-- every player and master).
CREATE TABLE assistants (
    game_id      TEXT NOT NULL REFERENCES games(id),
    power        TEXT NOT NULL,
    address      TEXT NOT NULL,                -- lower case
    help         TEXT NOT NULL DEFAULT '',     -- what assistance, in the contestant's words
    announced_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, power, address)
) WITHOUT ROWID;
CREATE INDEX assistants_address ON assistants(address);
