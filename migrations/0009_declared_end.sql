-- Agora BT9: the GM declares the game a draw with two days' notice; the game ends at the first
-- deadline at or after this time, instead of its adjudication. NULL: no declared end.
ALTER TABLE games ADD COLUMN declared_end_at INTEGER;
