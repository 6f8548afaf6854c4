-- Hostile, broken and late mail: isolation, timeliness by arrival, dedup by content, liveness,
-- silent drops, answer limits, secret failures and raw-mail retention.

-- When the receiving server got the message (IMAP INTERNALDATE, in game time): timeliness is
-- judged by it, not by when Chancery happened to read the mail. received_at stays the
-- processing time.
ALTER TABLE messages ADD COLUMN internal_date INTEGER;
-- Raw mail is kept for a configured time (400 days by default); then only the ledger row and
-- the message's metadata remain, and raw is emptied.
ALTER TABLE messages ADD COLUMN raw_purged_at INTEGER;
CREATE INDEX messages_received ON messages(received_at) WHERE raw_purged_at IS NULL;

-- A Message-ID is written by the sender and may be reused by a new mail: it no longer decides
-- that a message was processed. The content hash does (with the mailbox position).
DROP INDEX ledger_message_id;
ALTER TABLE ledger ADD COLUMN sha256 TEXT;
-- 'done', or 'poisoned': handling the message failed (a panic or an error) and it was set aside
-- so that the mailbox goes on; error says why.
ALTER TABLE ledger ADD COLUMN status TEXT NOT NULL DEFAULT 'done';
ALTER TABLE ledger ADD COLUMN error TEXT;
CREATE INDEX ledger_sha256 ON ledger(mailbox, sha256) WHERE sha256 IS NOT NULL;

-- Liveness of each mailbox reader, for `chancery status` and the silent-mailbox alert.
CREATE TABLE mailbox_state (
    mailbox            TEXT PRIMARY KEY,
    last_poll_started  INTEGER,                -- game time at the start of the last good poll
    last_poll_ok       INTEGER,                -- game time it finished
    last_uid           INTEGER,                -- last UID handled (processed or poisoned)
    last_error         TEXT,
    last_error_at      INTEGER,
    polls              INTEGER NOT NULL DEFAULT 0
);

-- Mail read and deliberately not answered (strangers over their daily answer, failed sender
-- authentication, automatic mail, rate limits, ...). Counted in the masters' digest.
CREATE TABLE drops (
    id           INTEGER PRIMARY KEY,
    mailbox      TEXT NOT NULL,
    uid          INTEGER NOT NULL,
    from_address TEXT,
    game_id      TEXT,
    reason       TEXT NOT NULL,
    at           INTEGER NOT NULL
);
CREATE INDEX drops_at ON drops(at);

-- Wrong secrets per power (no lockout: a forger could use one to lock the real player out).
ALTER TABLE players ADD COLUMN wrong_secrets INTEGER NOT NULL DEFAULT 0;

-- Which game an outgoing mail belongs to (answer rate limits per game), and an index for the
-- per-address answer counts.
ALTER TABLE outbox ADD COLUMN game_id TEXT;
CREATE INDEX outbox_to ON outbox(to_address, created_at);
CREATE INDEX outbox_game ON outbox(game_id, created_at) WHERE game_id IS NOT NULL;
