-- Agora BT3: the seats the Judge announced as winners (a JSON list), with notice: the contest
-- is concluded at `declared_end_at`.
ALTER TABLE games ADD COLUMN declared_winners TEXT;
