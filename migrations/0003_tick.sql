-- Lookups that the tick and the engine make once per game or per message must not scan a
-- table: a scan per game made the deadline storm quadratic in the number of games.

-- Game names are matched without regard to case (`store::game`).
CREATE INDEX games_lower_id ON games(lower(id));
-- The open phases, in game order: what a tick looks at.
CREATE INDEX phases_open ON phases(game_id) WHERE adjudicated_at IS NULL;
CREATE INDEX press_phase ON press(game_id, phase);
CREATE INDEX unavailable_game ON unavailable(game_id);
CREATE INDEX ledger_poisoned ON ledger(processed_at) WHERE status = 'poisoned';

-- When the players of a phase were reminded and its masters sent the digest: after that, the
-- tick looks at the phase again only at its deadline (or when orders are marked final).
ALTER TABLE phases ADD COLUMN reminded_at INTEGER;
