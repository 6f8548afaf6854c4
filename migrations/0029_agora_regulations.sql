-- The Agora Birthday Tournament's regulations (issue 24: BT2, BT5, BT8), changed by proposal and
-- private vote in the office's tables.

-- When a passed proposal's effect was carried out. A regulation's new text is enacted at once;
-- a setting of the game (`PROPOSE SET`) enacted after the ordering period ended waits for that
-- turn's adjudication, which follows the regulations as they were at its end (Agora BT15):
-- NULL until then.
ALTER TABLE office_proposals ADD COLUMN applied_at INTEGER;
-- A free-text proposal, once enacted, is carried out by the Gamemaster, who confirms it: when,
-- by whom, and what was done. NULL: an open item for the masters.
ALTER TABLE office_proposals ADD COLUMN confirmed_at INTEGER;
ALTER TABLE office_proposals ADD COLUMN confirmed_by TEXT;
ALTER TABLE office_proposals ADD COLUMN confirmation TEXT;

-- Who made a revision no proposal made: NULL for the initial set, the master's address for the
-- Gamemaster's own amendments (Agora BT2).
ALTER TABLE rule_revisions ADD COLUMN made_by TEXT;
