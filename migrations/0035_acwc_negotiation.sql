-- Issue 26: the ACWC match-time negotiation by mail (ACWC "Match negotiations"): the moment
-- through which a championship's tick has told its negotiations' reminders and turns (the
-- Wednesday deadline, the weekend, a lapsed choice), so none is told twice.
ALTER TABLE acwc_championships ADD COLUMN negotiation_told_through INTEGER;
