-- Issue 21: press, what each submission was read as, and the bodies of outgoing mail (start
-- mails carry secrets) are kept `raw_retention_days` like raw mail, then emptied; the rows
-- stay. Each purge finds what is left to empty through these.
CREATE INDEX press_kept ON press (created_at) WHERE body <> '';
CREATE INDEX submissions_kept ON submissions (submitted_at) WHERE read <> '';
CREATE INDEX outbox_kept ON outbox (created_at)
    WHERE body <> '' AND (sent_at IS NOT NULL OR failed_at IS NOT NULL);
