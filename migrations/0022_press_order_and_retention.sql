-- Issue 21: a game's own secret key for the order anonymous press is published in (WM D.X(2);
-- Maharajiad B.XI(2)). Black and grey press went out in the order it arrived, next to the
-- author's own white press sent in the same mail; it is now published in a keyed order no
-- reader can work out. 32 bytes from SQLite's generator (ChaCha20, seeded by the OS); never
-- sent, never shown.
ALTER TABLE games ADD COLUMN press_key BLOB NOT NULL DEFAULT X'';
UPDATE games SET press_key = randomblob(32);

-- Issue 21: press, what each submission was read as, and the bodies of outgoing mail (start
-- mails carry secrets) are kept `raw_retention_days` like raw mail, then emptied; the rows
-- stay. Each purge finds what is left to empty through these.
CREATE INDEX press_kept ON press (created_at) WHERE body <> '';
CREATE INDEX submissions_kept ON submissions (submitted_at) WHERE read <> '';
CREATE INDEX outbox_kept ON outbox (created_at)
    WHERE body <> '' AND (sent_at IS NOT NULL OR failed_at IS NOT NULL);
