-- Chancery's store. Times are unix seconds (GMT). JSON columns hold the pure core's types.

CREATE TABLE games (
    id              TEXT PRIMARY KEY,          -- short name used in subjects, e.g. wm1
    variant         TEXT NOT NULL,
    rules           TEXT NOT NULL,             -- JSON: the full house-rules struct
    gm_address      TEXT NOT NULL,
    confirm_address TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'forming' CHECK (status IN ('forming', 'active', 'finished')),
    created_at      INTEGER NOT NULL
);

CREATE TABLE players (
    game_id             TEXT NOT NULL REFERENCES games(id),
    power               TEXT NOT NULL,
    address             TEXT NOT NULL,
    name                TEXT NOT NULL DEFAULT '',
    tz                  TEXT NOT NULL DEFAULT 'UTC',
    secret              TEXT NOT NULL,
    extension_days_used INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, power)
);
CREATE INDEX players_address ON players(address);

-- One row per phase of a game, in order. The last row is the current phase.
CREATE TABLE phases (
    game_id                 TEXT NOT NULL REFERENCES games(id),
    seq                     INTEGER NOT NULL,
    phase                   TEXT NOT NULL,
    board                   TEXT NOT NULL,     -- JSON, the `chancery adjudicate` input shape
    started_at              INTEGER NOT NULL,
    deadline                INTEGER NOT NULL,
    adjudication_started_at INTEGER,
    adjudicated_at          INTEGER,
    results                 TEXT,              -- JSON, the `chancery adjudicate` output shape
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX phases_due ON phases(deadline) WHERE adjudicated_at IS NULL;

-- Every message received, in either mailbox, exactly as received.
CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    mailbox      TEXT NOT NULL,                -- 'gm' or 'confirm'
    uidvalidity  INTEGER NOT NULL,
    uid          INTEGER NOT NULL,
    message_id   TEXT,
    sha256       TEXT NOT NULL,
    raw          BLOB NOT NULL,
    received_at  INTEGER NOT NULL,
    from_address TEXT,
    subject      TEXT,
    game_id      TEXT,
    power        TEXT,
    phase        TEXT,
    outcome      TEXT NOT NULL,                -- accepted, rejected, auto, receipt, unknown
    UNIQUE (mailbox, uidvalidity, uid)
);
CREATE INDEX messages_message_id ON messages(message_id);

-- The ledger of processed messages: a message's effects and its row commit together.
CREATE TABLE ledger (
    mailbox      TEXT NOT NULL,
    uidvalidity  INTEGER NOT NULL,
    uid          INTEGER NOT NULL,
    message_id   TEXT,
    processed_at INTEGER NOT NULL,
    PRIMARY KEY (mailbox, uidvalidity, uid)
);
CREATE UNIQUE INDEX ledger_message_id ON ledger(mailbox, message_id) WHERE message_id IS NOT NULL;

-- When the confirmation box received a message (WM D.VII(1), D.VII(7)), by Message-ID.
CREATE TABLE confirmations (
    message_id   TEXT PRIMARY KEY,
    received_at  INTEGER NOT NULL,
    from_address TEXT
);

-- Every accepted order mail, as read.
CREATE TABLE submissions (
    id           INTEGER PRIMARY KEY,
    game_id      TEXT NOT NULL,
    phase        TEXT NOT NULL,
    power        TEXT NOT NULL,
    message_id   TEXT,
    submitted_at INTEGER NOT NULL,
    final        INTEGER NOT NULL,
    late         INTEGER NOT NULL,
    read         TEXT NOT NULL                 -- JSON: what the reader understood, line by line
);

-- The order set each power stands on now, exactly as it will be adjudicated.
CREATE TABLE standing_orders (
    game_id    TEXT NOT NULL,
    phase      TEXT NOT NULL,
    power      TEXT NOT NULL,
    orders     TEXT NOT NULL,                  -- JSON: [{"order": canonical, "written": text}]
    final      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, phase, power)
);

CREATE TABLE press (
    id         INTEGER PRIMARY KEY,
    game_id    TEXT NOT NULL,
    phase      TEXT NOT NULL,
    author     TEXT NOT NULL,                  -- never published for grey press
    recipients TEXT NOT NULL,                  -- JSON list of powers, empty for all
    grey       INTEGER NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE votes (
    game_id  TEXT NOT NULL,
    phase    TEXT NOT NULL,
    power    TEXT NOT NULL,
    proposal TEXT NOT NULL,
    ballot   TEXT NOT NULL,
    cast_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, power, proposal)
);

CREATE TABLE unavailable (
    game_id TEXT NOT NULL,
    power   TEXT NOT NULL,
    from_ts INTEGER NOT NULL,
    to_ts   INTEGER NOT NULL
);

-- Outgoing mail. Rows are written in the same transaction as the effects that cause them, and
-- sent afterwards; Message-IDs are fixed when the row is written, so a retry is the same mail.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    kind            TEXT NOT NULL,             -- receipt, ack, rejection, report, results, digest, reminder
    message_id      TEXT NOT NULL UNIQUE,
    from_address    TEXT NOT NULL,
    to_address      TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    in_reply_to     TEXT,
    refs            TEXT NOT NULL DEFAULT '',
    auto_submitted  TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    sending_since   INTEGER,
    sent_at         INTEGER,
    failed_at       INTEGER,
    last_error      TEXT
);
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
