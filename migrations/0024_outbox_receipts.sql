-- Issue 22: the outbox's due rows are read by index, receipts first, without sorting every
-- pending row at each claim (a storm leaves 80,000 of them).
CREATE INDEX outbox_receipts_due ON outbox(next_attempt_at)
    WHERE sent_at IS NULL AND failed_at IS NULL AND kind = 'receipt';
