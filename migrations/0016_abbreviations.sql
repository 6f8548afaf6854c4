-- WM D.III(1): a player's own abbreviations list, registered at the outset (or by a replacement
-- with the first orders), subject to the GM's veto before the first deadline, public to all.
-- list: JSON {"abbreviation": "province code", ...}, abbreviations normalised.
CREATE TABLE abbreviation_lists (
    game_id TEXT NOT NULL,
    power   TEXT NOT NULL,
    list    TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, power)
);
-- Whether a replacement has sent orders yet.
CREATE INDEX submissions_by_power ON submissions (game_id, power, submitted_at);
