-- WM D.VII(2): a player has one unavailable period a week. A new period is checked in one
-- statement: the player's period that starts nearest it (by its start), and how many dated ones
-- are still to come (the server's limit). The first index replaces unavailable_by_power, its
-- prefix.
CREATE INDEX unavailable_by_start ON unavailable (game_id, power, from_ts);
DROP INDEX unavailable_by_power;
CREATE INDEX unavailable_dated ON unavailable (game_id, power, to_ts) WHERE weekly = 0;

-- WM D.VII(6)(b): an NMR in a phase that allows none holds its results. The phase keeps its
-- published deadline (it stays closed: only the replacement the GM names may send orders);
-- held_until is when the tick looks at it again (the masters are reminded daily), or sooner
-- when the replacement's orders come. NULL: not held.
ALTER TABLE phases ADD COLUMN held_until INTEGER;
