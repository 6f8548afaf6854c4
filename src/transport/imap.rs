//! The IMAP side: one connection watching one folder.
//!
//! Usage: [`Mailbox::connect`], then loop: [`Mailbox::fetch_after`] the last processed UID,
//! handle each message, [`Mailbox::mark_processed`] it, and [`Mailbox::wait`] for more. Keep
//! [`Mailbox::uidvalidity`] with the last UID: when it changes, UIDs start over.
//!
//! Any error leaves the connection unusable (later calls fail fast with a transient error): drop
//! the `Mailbox`, connect again and resynchronise by UID.

use std::fmt;
use std::time::Duration;

use async_imap::imap_proto::{MailboxDatum, Response, Status};
use async_imap::types::UnsolicitedResponse;
use futures::StreamExt;
use tokio::time::Instant;

use super::socket::{Stream, tcp_connect, tls_wrap};
use super::{IO_TIMEOUT, ServerConfig, Tls, TransportError, init_crypto, with_timeout};

/// How often [`Mailbox::wait`] polls with NOOP when the server has no IDLE.
const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// The shortest NOOP interval [`Mailbox::poll_every`] takes: below it the server's own work a
/// NOOP would be most of its time.
pub const MIN_POLL_INTERVAL: Duration = Duration::from_millis(20);
/// How long LOGOUT may take before the connection is simply dropped.
const LOGOUT_TIMEOUT: Duration = Duration::from_secs(2);
/// The keyword set on processed messages (besides `\Seen`).
pub const DONE_KEYWORD: &str = "$ChanceryDone";

/// How a mailbox's reader waits for new mail (`poll_ms` in the configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watch {
    /// IDLE where the server offers it, else NOOP every second.
    Idle,
    /// NOOP at this interval (see [`Mailbox::poll_every`]).
    Poll(Duration),
}

/// One message as fetched from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    pub uid: u32,
    /// The whole message (RFC 5322 bytes, as stored); for a message over the mailbox's size
    /// limit, only the start of its header block (at most [`HEAD_BYTES`]).
    pub raw: Vec<u8>,
    /// The server's INTERNALDATE (arrival time) in Unix seconds.
    pub internal_date: Option<i64>,
    /// The message's size as the server gave it (RFC822.SIZE), when it is over the limit and
    /// `raw` holds its header block only.
    pub oversized: Option<usize>,
}

/// How much of an oversized message's header block is fetched.
pub const HEAD_BYTES: usize = 64 * 1024;

/// Messages over this size are not downloaded unless [`Mailbox::set_max_message_bytes`] says
/// otherwise: only their header block, so that an answer can say why.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 5 * 1024 * 1024;

/// What a FETCH asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FetchWhat {
    /// UID and RFC822.SIZE only.
    Sizes,
    /// The whole message.
    Whole,
    /// The start of the header block.
    Head,
}

/// One batch of messages from [`Mailbox::fetch_after`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// The messages, lowest UID first.
    pub messages: Vec<Fetched>,
    /// UIDs the server listed, at or below the last message of the batch, whose FETCH returned
    /// no body. They must not be skipped: retry them (the caller's high-water mark passes them).
    pub missing: Vec<u32>,
    /// More messages wait above this batch.
    pub more: bool,
}

/// A batch stops growing past this many bytes (it always holds at least one message).
pub const BATCH_BYTES: usize = 20 * 1024 * 1024;

/// The result of [`Mailbox::wait`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// The folder has (or may have) new messages: call [`Mailbox::fetch_after`].
    NewMail,
    /// Nothing arrived within the timeout.
    Timeout,
}

type Session = async_imap::Session<Stream>;
type Client = async_imap::Client<Stream>;

/// One IMAP connection with one folder selected.
pub struct Mailbox {
    /// `None` once the connection is broken (an error or timeout left it in an unknown state).
    session: Option<Session>,
    folder: String,
    uidvalidity: u32,
    /// The last message count the server told us (EXISTS, minus EXPUNGEs since).
    exists: u32,
    /// An EXISTS above `exists` was seen and not yet reported by [`Mailbox::wait`].
    new_mail: bool,
    idle: bool,
    /// How often [`Mailbox::wait`] polls with NOOP when it does not use IDLE.
    poll_interval: Duration,
    /// Messages larger than this are fetched as their header block only.
    max_message_bytes: usize,
}

impl fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mailbox")
            .field("folder", &self.folder)
            .field("uidvalidity", &self.uidvalidity)
            .field("exists", &self.exists)
            .field("idle", &self.idle)
            .field("connected", &self.session.is_some())
            .finish()
    }
}

/// Map an IMAP library error. A `NO` is permanent (the server refused: bad credentials, no such
/// folder) unless its response code marks it as temporary; everything else is transient.
fn imap_err(what: &str, e: async_imap::error::Error) -> TransportError {
    use async_imap::error::Error;
    match e {
        Error::No(msg) => {
            let temporary = ["[UNAVAILABLE]", "[INUSE]", "[LIMIT]", "[SERVERBUG]"]
                .iter()
                .any(|code| msg.contains(code));
            let text = format!("{what}: server said NO: {}", msg.trim());
            if temporary {
                TransportError::transient(text)
            } else {
                TransportError::permanent(text)
            }
        }
        Error::Bad(msg) => {
            TransportError::transient(format!("{what}: server said BAD: {}", msg.trim()))
        }
        Error::Validate(v) => TransportError::permanent(format!("{what}: {v}")),
        other => TransportError::transient(format!("{what}: {other}")),
    }
}

fn lost(what: &str) -> TransportError {
    TransportError::transient(format!(
        "{what}: the IMAP connection was lost after an earlier error; reconnect"
    ))
}

/// Read the server greeting: `* OK` (or `* PREAUTH`) is fine, `* BYE` or junk is an error.
async fn read_greeting(client: &mut Client) -> Result<(), TransportError> {
    let resp = with_timeout(IO_TIMEOUT, "IMAP greeting", async {
        client
            .read_response()
            .await
            .map_err(|e| TransportError::transient(format!("IMAP greeting: {e}")))
    })
    .await?;
    let Some(resp) = resp else {
        return Err(TransportError::transient(
            "IMAP greeting: the server closed the connection",
        ));
    };
    match resp.parsed() {
        Response::Data {
            status: Status::Ok | Status::PreAuth,
            ..
        } => Ok(()),
        Response::Data {
            status: Status::Bye,
            outcome,
        } => Err(TransportError::transient(format!(
            "IMAP greeting: server said BYE: {}",
            outcome.information.as_deref().unwrap_or("")
        ))),
        other => Err(TransportError::transient(format!(
            "IMAP greeting: unexpected response {other:?}"
        ))),
    }
}

impl Mailbox {
    /// Connect, read the greeting, (upgrade to TLS), log in, and SELECT `folder`.
    pub async fn connect(cfg: &ServerConfig, folder: &str) -> Result<Mailbox, TransportError> {
        init_crypto();
        let tcp = tcp_connect(cfg, "IMAP").await?;
        let mut client = match cfg.tls {
            Tls::None => Client::new(Stream::Plain(tcp)),
            Tls::Implicit => Client::new(tls_wrap(cfg, tcp, "IMAP").await?),
            Tls::StartTls => Client::new(Stream::Plain(tcp)),
        };
        read_greeting(&mut client).await?;
        if cfg.tls == Tls::StartTls {
            with_timeout(IO_TIMEOUT, "IMAP STARTTLS", async {
                client
                    .run_command_and_check_ok("STARTTLS", None)
                    .await
                    .map_err(|e| imap_err("IMAP STARTTLS", e))
            })
            .await?;
            let Stream::Plain(tcp) = client.into_inner() else {
                return Err(TransportError::permanent("IMAP STARTTLS on a TLS stream"));
            };
            client = Client::new(tls_wrap(cfg, tcp, "IMAP").await?);
        }

        let mut session = with_timeout(IO_TIMEOUT, "IMAP LOGIN", async {
            client
                .login(&cfg.username, &cfg.password)
                .await
                .map_err(|(e, _)| imap_err(&format!("IMAP LOGIN as {}", cfg.username), e))
        })
        .await?;

        let idle = with_timeout(IO_TIMEOUT, "IMAP CAPABILITY", async {
            session
                .capabilities()
                .await
                .map(|caps| caps.has_str("IDLE"))
                .map_err(|e| imap_err("IMAP CAPABILITY", e))
        })
        .await?;

        let selected = with_timeout(IO_TIMEOUT, "IMAP SELECT", async {
            session
                .select(folder)
                .await
                .map_err(|e| imap_err(&format!("IMAP SELECT {folder}"), e))
        })
        .await?;
        let uidvalidity = selected.uid_validity.ok_or_else(|| {
            TransportError::permanent(format!(
                "IMAP SELECT {folder}: the server sent no UIDVALIDITY"
            ))
        })?;

        let mut mailbox = Mailbox {
            session: Some(session),
            folder: folder.to_owned(),
            uidvalidity,
            exists: selected.exists,
            new_mail: false,
            idle,
            poll_interval: POLL_INTERVAL,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        };
        mailbox.drain();
        Ok(mailbox)
    }

    /// Messages larger than `bytes` are fetched as their header block only
    /// ([`Fetched::oversized`]).
    pub fn set_max_message_bytes(&mut self, bytes: usize) {
        self.max_message_bytes = bytes;
    }

    /// How many messages the folder holds, as the server last said (EXISTS).
    pub fn exists(&self) -> u32 {
        self.exists
    }

    /// The folder's UIDVALIDITY at SELECT time.
    pub fn uidvalidity(&self) -> u32 {
        self.uidvalidity
    }

    /// Whether [`Mailbox::wait`] uses IDLE (the server advertised it) rather than NOOP polling.
    pub fn uses_idle(&self) -> bool {
        self.idle
    }

    /// How often [`Mailbox::wait`] polls when it does not use IDLE.
    pub fn poll_interval(&self) -> Duration {
        self.poll_interval
    }

    /// Make [`Mailbox::wait`] poll with NOOP even when the server has IDLE (for tests, and for
    /// servers whose IDLE misbehaves).
    pub fn force_polling(&mut self) {
        self.idle = false;
    }

    /// Wait for new mail as configured: with [`Watch::Poll`], NOOP every interval instead of IDLE (issue 22).
    /// Dovecot holds every IDLE notification back 500 ms to batch inotify events
    /// (`NOTIFY_DELAY_MSECS`, not configurable), while a NOOP sees a delivered mail within a few
    /// milliseconds: a mailbox whose mail is answered at once (the confirmation box's receipts)
    /// is watched this way at the cost of a NOOP every `interval`.
    pub fn watch(&mut self, watch: Watch) {
        if let Watch::Poll(interval) = watch {
            self.poll_every(interval);
        }
    }

    /// Poll with NOOP every `interval` (at least [`MIN_POLL_INTERVAL`]) instead of IDLE.
    pub fn poll_every(&mut self, interval: Duration) {
        self.idle = false;
        self.poll_interval = interval.max(MIN_POLL_INTERVAL);
    }

    /// Every message with a UID above `after_uid`, oldest first, without setting `\Seen`.
    ///
    /// `UID FETCH n:*` always matches the highest message even when its UID is below `n`
    /// (RFC 3501 §6.4.8), so the result is filtered to `uid > after_uid`.
    /// The messages with a UID above `after_uid`, oldest first, at most `limit` of them and
    /// about [`BATCH_BYTES`] at most, without setting `\\Seen`: the backlog is read a batch at a
    /// time, never into memory in one go. Call again while [`Batch::more`].
    pub async fn fetch_after(
        &mut self,
        after_uid: u32,
        limit: usize,
    ) -> Result<Batch, TransportError> {
        let Some(first) = after_uid.checked_add(1) else {
            return Ok(Batch::default());
        };
        // `UID n:*` always matches the highest message even when its UID is below n
        // (RFC 3501 §6.4.8): filter.
        let mut uids: Vec<u32> = self
            .search(&format!("UID {first}:*"))
            .await?
            .into_iter()
            .filter(|u| *u > after_uid)
            .collect();
        if uids.is_empty() {
            return Ok(Batch::default());
        }
        let more = uids.len() > limit.max(1);
        uids.truncate(limit.max(1));
        let mut fetched = self.fetch_bounded(&uids).await?;
        fetched.sort_by_key(|f| f.uid);
        fetched.dedup_by_key(|f| f.uid);
        // Keep the lowest UIDs up to the byte bound; what is cut comes in the next batch.
        let mut batch = Batch {
            more,
            ..Batch::default()
        };
        let mut bytes = 0usize;
        let mut by_uid = fetched.into_iter().peekable();
        for uid in uids {
            if bytes >= BATCH_BYTES {
                batch.more = true;
                break;
            }
            while by_uid.peek().is_some_and(|f| f.uid < uid) {
                by_uid.next();
            }
            match by_uid.peek() {
                Some(f) if f.uid == uid => {
                    let f = by_uid.next().expect("peeked");
                    bytes += f.raw.len();
                    batch.messages.push(f);
                }
                _ => batch.missing.push(uid),
            }
        }
        Ok(batch)
    }

    /// UIDs of the messages Chancery has not marked as handled (no `$ChanceryDone`), wherever
    /// they are: a crash between commit and flag, or a body the server did not return once.
    pub async fn unflagged_uids(&mut self) -> Result<Vec<u32>, TransportError> {
        self.search(&format!("UNKEYWORD {DONE_KEYWORD}")).await
    }

    /// `UID SEARCH`, sorted.
    async fn search(&mut self, query: &str) -> Result<Vec<u32>, TransportError> {
        let what = "IMAP UID SEARCH";
        let session = self.session.as_mut().ok_or_else(|| lost(what))?;
        let result = with_timeout(IO_TIMEOUT, what, async {
            session
                .uid_search(query)
                .await
                .map_err(|e| imap_err(what, e))
        })
        .await;
        let found = self.check(result)?;
        self.drain();
        let mut uids: Vec<u32> = found.into_iter().collect();
        uids.sort_unstable();
        Ok(uids)
    }

    /// FETCH the given UID set (UID, INTERNALDATE and the whole message, without `\\Seen`).
    /// Only the messages whose size is within the limit are downloaded whole: RFC822.SIZE is
    /// asked first, and an oversized message is fetched as the start of its header block
    /// (issue 21.11: a 50 MB mail must not be downloaded, nor kept, to be refused).
    async fn fetch_bounded(&mut self, uids: &[u32]) -> Result<Vec<Fetched>, TransportError> {
        let set = |u: &[u32]| u.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let sizes = self.fetch_uids(&set(uids), FetchWhat::Sizes).await?;
        let big: std::collections::HashMap<u32, usize> = sizes
            .iter()
            .filter_map(|f| f.oversized.map(|s| (f.uid, s)))
            .filter(|(_, s)| *s > self.max_message_bytes)
            .collect();
        let small: Vec<u32> = uids
            .iter()
            .copied()
            .filter(|u| !big.contains_key(u))
            .collect();
        let mut out = Vec::with_capacity(uids.len());
        if !small.is_empty() {
            out.extend(self.fetch_uids(&set(&small), FetchWhat::Whole).await?);
        }
        if !big.is_empty() {
            let big_uids: Vec<u32> = big.keys().copied().collect();
            for mut f in self.fetch_uids(&set(&big_uids), FetchWhat::Head).await? {
                f.oversized = big.get(&f.uid).copied();
                out.push(f);
            }
        }
        Ok(out)
    }

    async fn fetch_uids(
        &mut self,
        set: &str,
        fetch: FetchWhat,
    ) -> Result<Vec<Fetched>, TransportError> {
        let what = "IMAP UID FETCH";
        let items = match fetch {
            FetchWhat::Sizes => "(UID RFC822.SIZE)".to_string(),
            FetchWhat::Whole => "(UID INTERNALDATE BODY.PEEK[])".to_string(),
            FetchWhat::Head => format!("(UID INTERNALDATE BODY.PEEK[HEADER]<0.{HEAD_BYTES}>)"),
        };
        let session = self.session.as_mut().ok_or_else(|| lost(what))?;
        let result = async {
            let mut stream = with_timeout(IO_TIMEOUT, what, async {
                session
                    .uid_fetch(set, &items)
                    .await
                    .map_err(|e| imap_err(what, e))
            })
            .await?;
            let mut out: Vec<Fetched> = Vec::new();
            loop {
                // Bound the wait for each response, not the whole (possibly large) transfer.
                let next = tokio::time::timeout(IO_TIMEOUT, stream.next())
                    .await
                    .map_err(|_| {
                        TransportError::transient(format!(
                            "{what}: timed out after {} s",
                            IO_TIMEOUT.as_secs()
                        ))
                    })?;
                let Some(item) = next else { break };
                let item = item.map_err(|e| imap_err(what, e))?;
                let body = match fetch {
                    // The size rides in `oversized` until the caller compares it.
                    FetchWhat::Sizes => item.size.map(|_| &[][..]),
                    FetchWhat::Whole => item.body(),
                    FetchWhat::Head => item.header(),
                };
                let (Some(uid), Some(body)) = (item.uid, body) else {
                    // A FETCH without UID or body: an unsolicited flag update, not ours.
                    continue;
                };
                out.push(Fetched {
                    uid,
                    raw: body.to_vec(),
                    internal_date: item.internal_date().map(|d| d.timestamp()),
                    oversized: item.size.map(|s| s as usize),
                });
            }
            Ok(out)
        }
        .await;
        let mut out = self.check(result)?;
        self.drain();
        out.sort_by_key(|f| f.uid);
        out.dedup_by_key(|f| f.uid);
        Ok(out)
    }

    /// Is a message with this Message-ID (given without angle brackets) in the folder?
    pub async fn has_message_id(&mut self, message_id: &str) -> Result<bool, TransportError> {
        let what = "IMAP UID SEARCH";
        // The id goes into a quoted IMAP string: refuse what could break out of it.
        if message_id.is_empty() || message_id.contains(['"', '\\', '\r', '\n']) {
            return Err(TransportError::permanent(format!(
                "{what}: unusable Message-ID"
            )));
        }
        let session = self.session.as_mut().ok_or_else(|| lost(what))?;
        let query = format!("HEADER Message-ID \"<{message_id}>\"");
        let result = with_timeout(IO_TIMEOUT, what, async {
            session
                .uid_search(query)
                .await
                .map_err(|e| imap_err(what, e))
        })
        .await;
        let found = self.check(result)?;
        self.drain();
        Ok(!found.is_empty())
    }

    /// Flag a message as handled: `$ChanceryDone`, and `\Seen` when `seen` (mail a person
    /// should still read, such as alerts in the GM box, stays unread).
    pub async fn mark_processed(&mut self, uid: u32, seen: bool) -> Result<(), TransportError> {
        self.mark_processed_many(&[uid], seen).await
    }

    /// [`Mailbox::mark_processed`] for many messages in one command (one round trip for a
    /// whole batch). Does nothing for an empty list.
    pub async fn mark_processed_many(
        &mut self,
        uids: &[u32],
        seen: bool,
    ) -> Result<(), TransportError> {
        if uids.is_empty() {
            return Ok(());
        }
        let flags = if seen {
            format!("+FLAGS.SILENT (\\Seen {DONE_KEYWORD})")
        } else {
            format!("+FLAGS.SILENT ({DONE_KEYWORD})")
        };
        let set = uid_set(uids);
        let what = "IMAP UID STORE";
        let session = self.session.as_mut().ok_or_else(|| lost(what))?;
        let result = async {
            let mut stream = with_timeout(IO_TIMEOUT, what, async {
                session
                    .uid_store(set, &flags)
                    .await
                    .map_err(|e| imap_err(what, e))
            })
            .await?;
            loop {
                let next = tokio::time::timeout(IO_TIMEOUT, stream.next())
                    .await
                    .map_err(|_| {
                        TransportError::transient(format!(
                            "{what}: timed out after {} s",
                            IO_TIMEOUT.as_secs()
                        ))
                    })?;
                match next {
                    None => break,
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(imap_err(what, e)),
                }
            }
            Ok(())
        }
        .await;
        self.check(result)?;
        self.drain();
        Ok(())
    }

    /// Wait until new mail arrives or `timeout` passes.
    ///
    /// Uses IDLE when the server advertises it, else NOOP every second. New mail that the server
    /// announced during earlier commands (an EXISTS above the known count) returns at once. A
    /// spurious [`Wait::NewMail`] is possible (the caller then fetches nothing new); a missed
    /// one is not.
    pub async fn wait(&mut self, timeout: Duration) -> Result<Wait, TransportError> {
        self.wait_or(timeout, &tokio::sync::Notify::new()).await
    }

    /// [`Mailbox::wait`], cut short (as a [`Wait::Timeout`]) when `wake` is notified, with IDLE
    /// ended properly so that the connection stays usable: the scheduler uses it to have the
    /// mailbox read at once when a deadline waits for it.
    pub async fn wait_or(
        &mut self,
        timeout: Duration,
        wake: &tokio::sync::Notify,
    ) -> Result<Wait, TransportError> {
        let deadline = Instant::now() + timeout;
        if self.session.is_none() {
            return Err(lost("IMAP wait"));
        }
        self.drain();
        if std::mem::take(&mut self.new_mail) {
            return Ok(Wait::NewMail);
        }
        if self.idle {
            self.wait_idle(deadline, wake).await
        } else {
            self.wait_poll(deadline, wake).await
        }
    }

    async fn wait_poll(
        &mut self,
        deadline: Instant,
        wake: &tokio::sync::Notify,
    ) -> Result<Wait, TransportError> {
        loop {
            let session = self.session.as_mut().ok_or_else(|| lost("IMAP NOOP"))?;
            let result = with_timeout(IO_TIMEOUT, "IMAP NOOP", async {
                session.noop().await.map_err(|e| imap_err("IMAP NOOP", e))
            })
            .await;
            self.check(result)?;
            self.drain();
            if std::mem::take(&mut self.new_mail) {
                return Ok(Wait::NewMail);
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(Wait::Timeout);
            }
            tokio::select! {
                _ = tokio::time::sleep((deadline - now).min(self.poll_interval)) => {}
                _ = wake.notified() => return Ok(Wait::Timeout),
            }
        }
    }

    async fn wait_idle(
        &mut self,
        deadline: Instant,
        wake: &tokio::sync::Notify,
    ) -> Result<Wait, TransportError> {
        let session = self.session.take().ok_or_else(|| lost("IMAP IDLE"))?;
        // What the server says before its "+ idling" (an EXISTS for mail delivered since our
        // last command) is queued by the library as unsolicited, not returned by the wait: it
        // is read from this copy of the queue right after IDLE starts, else that mail would
        // wait for the next poll, up to `poll_seconds` later.
        let early = session.unsolicited_responses.clone();
        let mut handle = session.idle();
        // From here on, any error drops the handle and with it the connection.
        with_timeout(IO_TIMEOUT, "IMAP IDLE", async {
            handle.init().await.map_err(|e| imap_err("IMAP IDLE", e))
        })
        .await?;
        while let Ok(response) = early.try_recv() {
            self.note(response);
        }

        let outcome = loop {
            if self.new_mail {
                break Ok(Wait::NewMail);
            }
            let now = Instant::now();
            if now >= deadline {
                break Ok(Wait::Timeout);
            }
            let remaining = deadline - now;
            // Keep the StopSource alive: dropping it ends the wait at once (ManualInterrupt).
            let (fut, _stop) = handle.wait_with_timeout(remaining);
            // The library's timeout restarts on every response (keepalives included), so bound
            // the whole wait here as well.
            let waited = tokio::select! {
                r = tokio::time::timeout(remaining, fut) => Some(r),
                _ = wake.notified() => None,
            };
            let Some(waited) = waited else {
                break Ok(Wait::Timeout);
            };
            let response = match waited {
                Err(_) => break Ok(Wait::Timeout),
                Ok(Err(e)) => break Err(imap_err("IMAP IDLE", e)),
                Ok(Ok(r)) => r,
            };
            match response {
                async_imap::extensions::idle::IdleResponse::Timeout => continue,
                async_imap::extensions::idle::IdleResponse::ManualInterrupt => {
                    // The stop source is alive, so this means the stream ended.
                    break Err(TransportError::transient(
                        "IMAP IDLE: the server closed the connection",
                    ));
                }
                async_imap::extensions::idle::IdleResponse::NewData(data) => {
                    match data.parsed() {
                        Response::MailboxData(MailboxDatum::Exists(n)) => {
                            let grew = *n > self.exists;
                            self.exists = *n;
                            if grew {
                                break Ok(Wait::NewMail);
                            }
                        }
                        Response::Expunge(_) => self.exists = self.exists.saturating_sub(1),
                        Response::Data {
                            status: Status::Bye,
                            outcome,
                        } => {
                            break Err(TransportError::transient(format!(
                                "IMAP IDLE: server said BYE: {}",
                                outcome.information.as_deref().unwrap_or("")
                            )));
                        }
                        // RECENT, flag changes, other chatter: keep waiting.
                        _ => {}
                    }
                }
            }
        };
        let wait = outcome?;

        let session = with_timeout(IO_TIMEOUT, "IMAP DONE", async {
            handle.done().await.map_err(|e| imap_err("IMAP DONE", e))
        })
        .await?;
        self.session = Some(session);
        self.drain();
        // Mail that arrived between the end of the wait and DONE counts too.
        if std::mem::take(&mut self.new_mail) || wait == Wait::NewMail {
            return Ok(Wait::NewMail);
        }
        Ok(Wait::Timeout)
    }

    /// Say LOGOUT (briefly) and close the connection.
    pub async fn logout(mut self) {
        if let Some(mut session) = self.session.take() {
            let _ = tokio::time::timeout(LOGOUT_TIMEOUT, session.logout()).await;
        }
    }

    /// Keep the session only if `result` is a success; an error leaves the connection in an
    /// unknown state (half-read responses), so it is dropped.
    fn check<T>(&mut self, result: Result<T, TransportError>) -> Result<T, TransportError> {
        if result.is_err() {
            self.session = None;
        }
        result
    }

    /// Empty the unsolicited-response channel (it holds 100 and then drops silently), noting
    /// growth of the folder.
    fn drain(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let mut queued = Vec::new();
        while let Ok(response) = session.unsolicited_responses.try_recv() {
            queued.push(response);
        }
        for response in queued {
            self.note(response);
        }
    }

    /// Take note of what the server said unasked: a mailbox that grew has new mail.
    fn note(&mut self, response: UnsolicitedResponse) {
        match response {
            UnsolicitedResponse::Exists(n) => {
                if n > self.exists {
                    self.new_mail = true;
                }
                self.exists = n;
            }
            UnsolicitedResponse::Expunge(_) => {
                self.exists = self.exists.saturating_sub(1);
            }
            _ => {}
        }
    }
}

/// An IMAP sequence set for `uids` ("3:5,9"): sorted, runs collapsed, so a batch of any size
/// is one short command.
fn uid_set(uids: &[u32]) -> String {
    let mut sorted = uids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = String::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end.saturating_add(1) {
            i += 1;
            end = sorted[i];
        }
        if !out.is_empty() {
            out.push(',');
        }
        if start == end {
            out.push_str(&start.to_string());
        } else {
            out.push_str(&format!("{start}:{end}"));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uid_set;

    #[test]
    fn uid_sets_collapse_runs() {
        assert_eq!(uid_set(&[7]), "7");
        assert_eq!(uid_set(&[5, 3, 4, 9, 11, 10, 3]), "3:5,9:11");
        assert_eq!(uid_set(&[1, 3, 5]), "1,3,5");
        assert_eq!(uid_set(&[u32::MAX, u32::MAX - 1]), "4294967294:4294967295");
    }
}
