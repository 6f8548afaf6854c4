-- Issue 21 (trust): keyed Message-IDs, mail after a rollback, duplicates that are counted,
-- answers that all count against the limits, and redeliveries recognised by content.

-- Server secrets, generated from the OS random generator at first start and kept here: the key
-- of every Message-ID a reader must not be able to invert (HMAC-SHA-256), and of the order in
-- which anonymous press is shown.
CREATE TABLE server_keys (
    name       TEXT PRIMARY KEY,
    key        BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

-- How many times the game was rolled back (WM D.VIII(1)): every mail derived from the game's
-- course names it, so the corrected results of a phase are a new mail, not a duplicate.
ALTER TABLE games ADD COLUMN rollbacks INTEGER NOT NULL DEFAULT 0;

-- Results mails a rollback undid: HISTORY no longer serves them.
ALTER TABLE outbox ADD COLUMN superseded_at INTEGER;

-- A mail not enqueued because one with its Message-ID is already there: logged and counted,
-- never silent. Alerts to the masters are coalesced through it (one per kind per hour, and
-- the next one says how many were held back).
CREATE TABLE outbox_duplicates (
    message_id TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    count      INTEGER NOT NULL,
    first_at   INTEGER NOT NULL,
    last_at    INTEGER NOT NULL
);
CREATE INDEX outbox_duplicates_recent ON outbox_duplicates(last_at);

-- The content digest of a message without its trace headers (Received, Return-Path,
-- Delivered-To...): the same message delivered in two SMTP transactions is one message.
ALTER TABLE ledger ADD COLUMN content_sha256 TEXT;
CREATE INDEX ledger_content ON ledger(mailbox, content_sha256) WHERE content_sha256 IS NOT NULL;
