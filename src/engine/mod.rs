//! The engine: what one received message, or one tick of the clock, does to the store; the
//! part every kind of game shares (a kind's own part is in `src/games/<kind>/`).
//!
//! Each entry point runs in one transaction: the message's effects (submission, standing orders,
//! press, votes, requests), the mail it causes (in the outbox) and its ledger row commit together,
//! so a crash at any point loses nothing and repeats nothing. `receive::handle_batch` commits
//! several messages in one transaction, each in a savepoint of its own: all or nothing per
//! message still. The decisions themselves are each kind's pure core's; mail text comes from
//! `outgoing`.
//!
//! This is what every kind of game shares; it never names a kind nor a kind's types. Where a
//! step needs a kind's part (a player's mail, a game's own commands, its house rules),
//! `src/games` supplies it through a trait (`receive::Boxes`, `office::Execute`,
//! `house::House`) and calls these steps from its entry points.

use crate::message::{MessageError, MessageHead, ReadMessage, read_head, read_message};
use crate::outgoing::compose;
use crate::store::{self, GameRow, StoreError};
use crate::time::{Ts, Window};

pub mod admin;
pub mod announce;
pub mod extension;
pub mod gm_mail;
pub mod house;
pub mod master_mail;
pub mod office;
mod panic;
mod query_mail;
pub mod receipt;
pub mod receive;
mod retention;
pub mod route;
pub mod seat;
pub mod secret;
pub mod tick;
pub mod timeliness;

pub use receive::*;
pub use retention::purge_expired;
pub use tick::{Outcome, TickReport, TickStep, panic_text};

/// Why the engine could not finish a message or a tick (its transaction is rolled back).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("store: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("game {game}: unknown variant '{variant}'")]
    UnknownVariant { game: String, variant: String },
    #[error("stored board: {0}")]
    StoredBoard(String),
    /// A game's web page that could not be made (a template error).
    #[error("the game's page: {0}")]
    Page(String),
    /// A phase as stored that its kind cannot read.
    #[error("stored phase: {0}")]
    StoredPhase(String),
    #[error("no game '{0}'")]
    NoGame(String),
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Secret(#[from] secret::SecretError),
    #[error("template: {0}")]
    Template(#[from] crate::outgoing::render::RenderError),
}

impl From<serde_json::Error> for EngineError {
    fn from(e: serde_json::Error) -> EngineError {
        EngineError::Store(StoreError::Json(e))
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;

pub use crate::config::{Env, Limits};
use crate::store::Conn;
use crate::store::Pool;

/// What became of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processed {
    /// Processed before (by mailbox position or content): nothing done again.
    AlreadyDone,
    /// Another Chancery instance on the same database is handling it now (issue 28): nothing
    /// done here, and it is looked at again after this poll (answered there, or here if that
    /// instance died first).
    Claimed,
    Accepted,
    Rejected,
    /// Automatic mail: recorded, never answered.
    Auto,
    /// A confirmation-box message, receipted.
    Receipted,
    /// Read and recorded, and deliberately not answered (a stranger to the confirmation box).
    Dropped,
}

impl Processed {
    /// Whether a person should still see the message as unread in the mailbox (Chancery only
    /// marks it as handled): mail it did not answer, such as alerts sent to the GM box.
    pub fn leave_unread(self) -> bool {
        matches!(self, Processed::Auto | Processed::Dropped)
    }
}

/// One received message, where it was found.
#[derive(Clone, Copy, Debug)]
pub struct Incoming<'a> {
    /// `gm` or `confirm`.
    pub mailbox: &'a str,
    pub uidvalidity: u32,
    pub uid: u32,
    pub raw: &'a [u8],
    /// When the receiving server got it (IMAP INTERNALDATE), in game time. Timeliness is judged
    /// by this, not by when Chancery read it: an outage or a late poll makes nothing late.
    pub arrived: Option<Ts>,
    /// Another Chancery instance had it when it was first looked at (issue 28): this time its
    /// claim is waited for ([`Processed::Claimed`] is not given), and it is then found done.
    pub wait_for_claim: bool,
    /// The games whose mail the mailbox reader's pass has passed over so far: a mail of one of
    /// them is passed over too. None: a message looked at alone, or again.
    pub passed_over: Option<&'a PassedOver>,
}

/// The games whose mail a mailbox reader's pass has passed over (their rows held, by a tick or
/// another instance's mail, when it was looked at; issue 28). The pass passes over their later
/// mail too, and looks at all of it again at its end in the order it arrived: a player's two
/// mails are never handled newest first (the older would be refused as a replay, its press
/// and votes lost, and with merged order sets its orders).
#[derive(Debug, Default)]
pub struct PassedOver(std::sync::Mutex<std::collections::BTreeSet<String>>);

impl PassedOver {
    /// Whether mail of game `id` has been passed over.
    pub fn has(&self, id: &str) -> bool {
        self.games().contains(id)
    }

    /// Game `id`'s mail has been passed over.
    pub fn add(&self, id: &str) {
        self.games().insert(id.to_string());
    }

    /// The pass is over: its games' mail has been looked at again.
    pub fn clear(&self) {
        self.games().clear();
    }

    fn games(&self) -> std::sync::MutexGuard<'_, std::collections::BTreeSet<String>> {
        // A set of names: a panic elsewhere while it was held leaves it whole.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A message as read, before the store is touched: pure and CPU-bound, so the service runs it
/// off the async workers.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The SHA-256 of the raw bytes, as received (the receipt gives it).
    pub sha256: String,
    /// The SHA-256 of the message without the header fields each delivery adds: the same
    /// message delivered twice is one message (issue 21.13). Seeds the answers' Message-IDs.
    pub content_sha256: String,
    /// The header block, read even when the whole message cannot be.
    pub head: MessageHead,
    pub message: std::result::Result<ReadMessage, MessageError>,
}

/// Read a raw message. Bounded and linear in its size; never panics on its input.
pub fn read(raw: &[u8]) -> Reading {
    Reading {
        sha256: sha256_hex(raw),
        content_sha256: content_sha256(raw),
        head: read_head(raw),
        message: read_message(raw),
    }
}

/// Read a fetched message the server said is `size` bytes. One over the size limit was fetched
/// as its header block only (issue 21.11): it is refused as too large, and answered from that
/// header block; only the header block is kept.
pub fn read_fetched(raw: &[u8], oversized: Option<usize>) -> Reading {
    match oversized {
        Some(bytes) if bytes > crate::message::MAX_MESSAGE_BYTES => Reading {
            sha256: sha256_hex(raw),
            content_sha256: content_sha256(raw),
            head: read_head(raw),
            message: Err(MessageError::TooLarge {
                bytes,
                limit: crate::message::MAX_MESSAGE_BYTES,
            }),
        },
        _ => read(raw),
    }
}

fn content_sha256(raw: &[u8]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for part in crate::message::content_parts(raw) {
        h.update(part);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256_hex(raw: &[u8]) -> String {
    // FNV would do for identity, but the receipt promises a digest players can check.
    crate::outgoing::ids::sha256_hex(raw)
}

pub(crate) fn windows(rows: &[(Ts, Ts)]) -> Vec<Window> {
    rows.iter()
        .map(|(from, to)| Window {
            from: *from,
            to: *to,
        })
        .collect()
}

// Write transactions begin with `store::begin_write`: a transaction that reads and then writes
// must hold the write lock from its start, or it fails at once if another writer committed in
// between, where it should wait its turn under the busy timeout.

/// Everything the engine needs besides the store: the configuration's part, and the server key
/// that the store keeps (made at first start).
pub async fn env(pool: &Pool, cfg: &crate::config::Config, now: Ts) -> Result<Env> {
    keyed(pool, cfg.env_without_key(), now).await
}

/// `env` with the server key from the store.
pub async fn keyed(pool: &Pool, mut env: Env, now: Ts) -> Result<Env> {
    let mut c = pool.acquire().await?;
    let key = store::server_key(&mut c, store::MAIL_KEY, now).await?;
    env.key = crate::config::ServerKey::new(&key);
    Ok(env)
}
