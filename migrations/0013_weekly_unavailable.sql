-- WM D.VII(2): a player's weekly unavailable period (in the player's own zone, across DST
-- changes) is kept as its occurrences for the next two years, marked weekly, so that every
-- deadline computation sees them like one-off periods; withdrawn, its future ones are deleted.
ALTER TABLE unavailable ADD COLUMN weekly INTEGER NOT NULL DEFAULT 0;
CREATE INDEX unavailable_by_end ON unavailable (game_id, to_ts);
