-- Agora BT8 (issue 24): a proposal that a vote brought over its threshold is enacted by the
-- tick at this time (the next full hour), if it still passes then, never at the moment the
-- deciding vote arrived: the enactment's mail must not tell its readers when, and so whose,
-- vote decided it.
ALTER TABLE office_proposals ADD COLUMN check_at INTEGER;
