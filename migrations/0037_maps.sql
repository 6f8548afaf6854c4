-- Issue 27: the maps.

-- A picture a mail shows inline in its HTML part (a phase's map): one a game and phase, named
-- by every reader's mail (outbox.picture_id), never drawn per reader. The tick records what to
-- draw (the game's phase, whose board and results are in `phases`); the outbox draws it once,
-- outside any transaction, before the first mail that shows it is sent, and keeps the drawing
-- in memory, not here: the same phase always draws the same bytes.
CREATE TABLE outbox_pictures (
    id         INTEGER PRIMARY KEY,
    key        TEXT NOT NULL UNIQUE,      -- what it shows: "map|<game>|<rollbacks>|<phase>"
    game_id    TEXT,
    phase      TEXT,                      -- the phase drawn
    alt        TEXT NOT NULL,             -- the text alternative (the HTML img's alt)
    created_at INTEGER NOT NULL
);
CREATE INDEX outbox_pictures_game ON outbox_pictures(game_id);
CREATE INDEX outbox_pictures_made ON outbox_pictures(created_at);
ALTER TABLE outbox ADD COLUMN picture_id INTEGER REFERENCES outbox_pictures(id);
-- The retention lets go of a picture once no mail names it (`purge_pictures`).
CREATE INDEX outbox_picture ON outbox(picture_id) WHERE picture_id IS NOT NULL;

-- A reader who said MAP OFF (a player or an observer, by address): their mails are plain
-- text only until MAP ON.
CREATE TABLE maps_off (
    game_id TEXT NOT NULL REFERENCES games(id),
    address TEXT NOT NULL,
    since   INTEGER NOT NULL,
    PRIMARY KEY (game_id, address)
);

-- The game's read-only web page, at an unguessable link (a token from the OS's random
-- generator), made when first asked for.
CREATE TABLE game_pages (
    game_id    TEXT PRIMARY KEY REFERENCES games(id),
    token      TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
