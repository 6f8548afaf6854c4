//! The engine: what one received message, or one tick of the clock, does to the store.
//!
//! Each entry point runs in one transaction: the message's effects (submission, standing orders,
//! press, votes, requests), the mail it causes (in the outbox) and its ledger row commit together,
//! so a crash at any point loses nothing and repeats nothing. The decisions themselves are the
//! pure core's (`game`, `orderset`, `adjudicator`); mail text comes from `render`.

use crate::adjudicator::{Board, adjudicate};
use crate::policy::{self, Ts, Window};
use crate::acceptance;
use crate::json;
use crate::outgoing::compose;
use crate::map::{Map, Power};
use crate::message::{MessageError, MessageHead, ReadMessage, read_head, read_message};
use crate::order::{Order, parse_order};
use crate::orderset::{MailRead, RequestOut, read_body};
use crate::phase::{Phase, PhaseKind};
use crate::reader::ReadContext;
use crate::rules::Rules;
use crate::store::{self, GameRow, PhaseRow, PlayerRow, StoreError};

pub mod admin;
pub mod secret;

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
    #[error("stored phase: {0}")]
    StoredPhase(#[from] crate::phase::PhaseError),
    #[error("no game '{0}'")]
    NoGame(String),
    #[error("{0}")]
    Refused(String),
}

impl From<serde_json::Error> for EngineError {
    fn from(e: serde_json::Error) -> EngineError {
        EngineError::Store(StoreError::Json(e))
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;

pub use crate::config::{Env, Limits};
pub use crate::store::StandingOrder;
use sqlx::SqliteConnection;
use sqlx::SqlitePool;
use std::collections::HashMap;

/// What became of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processed {
    /// Processed before (by mailbox position or content): nothing done again.
    AlreadyDone,
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
}

/// A message as read, before the store is touched: pure and CPU-bound, so the service runs it
/// off the async workers.
#[derive(Clone, Debug)]
pub struct Reading {
    pub sha256: String,
    /// The header block, read even when the whole message cannot be.
    pub head: MessageHead,
    pub message: std::result::Result<ReadMessage, MessageError>,
}

/// Read a raw message. Bounded and linear in its size; never panics on its input.
pub fn read(raw: &[u8]) -> Reading {
    Reading {
        sha256: sha256_hex(raw),
        head: read_head(raw),
        message: read_message(raw),
    }
}

fn sha256_hex(raw: &[u8]) -> String {
    // FNV would do for identity, but the receipt promises a digest players can check.
    crate::outgoing::ids::sha256_hex(raw)
}

fn rules_of(game: &GameRow) -> Result<Rules> {
    Ok(serde_json::from_str(&game.rules)?)
}

fn map_of(game: &GameRow) -> Result<&'static Map> {
    Map::variant(&game.variant)
        .ok_or_else(|| EngineError::UnknownVariant {
        game: game.id.clone(),
        variant: game.variant.clone(),
    })
}

/// Read a stored board (the `adjudicate` input shape).
pub fn board_from_json(text: &str, phase: &str) -> Result<Board> {
    let mut input: json::PhaseInput = serde_json::from_str(text)?;
    input.phase = phase.to_string();
    input.orders.clear();
    json::prepare(&input)
        .map(|p| p.board)
        .map_err(|e| EngineError::StoredBoard(e.to_string()))
}

fn windows(rows: &[(Ts, Ts)]) -> Vec<Window> {
    rows.iter()
        .map(|(from, to)| Window {
            from: *from,
            to: *to,
        })
        .collect()
}

// Write transactions begin IMMEDIATE: in WAL mode a deferred transaction that reads and then
// writes fails at once ("database is locked") if another writer committed in between, while an
// immediate one waits its turn under the busy timeout.

/// Process one received message: its effects, its answers (through the outbox, within the
/// limits) and its ledger row, in one transaction.
pub async fn process_message(
    pool: &SqlitePool,
    env: &Env,
    inc: &Incoming<'_>,
    reading: &Reading,
    now: Ts,
) -> Result<Processed> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    if store::processed(
        &mut tx,
        inc.mailbox,
        inc.uidvalidity,
        inc.uid,
        &reading.sha256,
    )
    .await?
    {
        tx.rollback().await?;
        return Ok(Processed::AlreadyDone);
    }
    // A server clock ahead of ours must not date a mail in the future.
    let arrived = inc.arrived.map_or(now, |a| a.min(now));
    let head = &reading.head;
    let ctx = Ctx {
        inc,
        key: &reading.sha256,
        arrived,
        now,
    };
    // Automatic mail first (RFC 3834): never answered, whether or not it can be read.
    let auto = match &reading.message {
        Ok(m) => m.auto,
        Err(_) => head.auto,
    };
    let (outcome, tag) = match (&reading.message, auto) {
        (_, Some(kind)) => {
            let reason = format!("automatic mail ({}): never answered", kind.as_str());
            drop_mail(&mut tx, &ctx, head.from_address.as_deref(), None, &reason).await?;
            (Processed::Auto, Tag::default())
        }
        (Err(e), None) => (
            unreadable(&mut tx, env, &ctx, head, e).await?,
            Tag::default(),
        ),
        (Ok(msg), None) if inc.mailbox == "confirm" => (
            receipt(&mut tx, env, &ctx, msg, inc.raw.len() as u64).await?,
            Tag::default(),
        ),
        (Ok(msg), None) => order_mail(&mut tx, env, &ctx, msg).await?,
    };
    let m = reading.message.as_ref().ok();
    let subject = m.map_or(head.subject.as_str(), |m| m.subject.as_str());
    store::record_message(
        &mut tx,
        inc.mailbox,
        inc.uidvalidity,
        inc.uid,
        m.map_or(head.message_id.as_deref(), |m| m.message_id.as_deref()),
        inc.raw,
        &reading.sha256,
        now,
        inc.arrived,
        m.map_or(head.from_address.as_deref(), |m| m.from_address.as_deref()),
        &crate::outgoing::compose::echo_subject(subject),
        tag.game.as_deref(),
        tag.power.as_deref(),
        tag.phase.as_deref(),
        match outcome {
            Processed::Accepted => "accepted",
            Processed::Rejected => "rejected",
            Processed::Auto => "auto",
            Processed::Receipted => "receipt",
            Processed::Dropped => "dropped",
            Processed::AlreadyDone => "duplicate",
        },
    )
    .await?;
    tx.commit().await?;
    Ok(outcome)
}

/// Set a message aside after its handling failed (a panic or a persistent error), so that the
/// mailbox goes on with the next one; the masters are alerted once (the alert's Message-ID is
/// fixed by the message).
pub async fn poison_message(
    pool: &SqlitePool,
    env: &Env,
    inc: &Incoming<'_>,
    error: &str,
    now: Ts,
) -> Result<()> {
    let sha = sha256_hex(inc.raw);
    let head = read_head(inc.raw);
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    if store::processed(&mut tx, inc.mailbox, inc.uidvalidity, inc.uid, &sha).await? {
        tx.rollback().await?;
        return Ok(());
    }
    store::record_poisoned(
        &mut tx,
        inc.mailbox,
        inc.uidvalidity,
        inc.uid,
        head.message_id.as_deref(),
        inc.raw,
        &sha,
        now,
        inc.arrived,
        error,
    )
    .await?;
    let body = format!(
        "A message in the {mailbox} mailbox could not be handled and was set aside, so that the\n\
         mailbox goes on with the next one. Nothing it asked for was done, and it was not answered.\n\n\
         Mailbox:     {mailbox} (UIDVALIDITY {uv}, UID {uid})\n\
         Message-ID:  {mid}\n\
         From:        {from}\n\
         Subject:     {subject}\n\
         SHA-256:     {sha}\n\
         Error:       {error}\n\n\
         The raw message is kept in the store (messages, outcome 'poisoned') so that it can be\n\
         replayed in a test. If it was a player's orders, ask the player to send them again.\n",
        mailbox = inc.mailbox,
        uv = inc.uidvalidity,
        uid = inc.uid,
        mid = head.message_id.as_deref().unwrap_or("(none)"),
        from = head.from_address.as_deref().unwrap_or("(unknown)"),
        subject = crate::outgoing::compose::echo_subject(&head.subject),
    );
    alert_masters(
        &mut tx,
        env,
        None,
        &format!("poison|{}|{}|{}", inc.mailbox, inc.uidvalidity, inc.uid),
        &format!("a message in the {} mailbox was set aside", inc.mailbox),
        &body,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Where alerts about `game` go: the masters, else the game's GM address, else our own.
fn masters_of(env: &Env, game: Option<&GameRow>) -> Vec<String> {
    if !env.masters.is_empty() {
        return env.masters.clone();
    }
    match game {
        Some(g) => vec![g.gm_address.clone()],
        None => vec![env.alert_from.clone()],
    }
}

/// Alert the masters, once per `key`.
pub async fn alert_masters(
    c: &mut SqliteConnection,
    env: &Env,
    game: Option<&GameRow>,
    key: &str,
    subject: &str,
    body: &str,
    now: Ts,
) -> Result<()> {
    for to in masters_of(env, game) {
        let mut m = compose::alert(env, &to, key, subject, body);
        m.game = game.map(|g| g.id.clone());
        store::enqueue(c, &m, now).await?;
    }
    Ok(())
}

/// The message being processed, for answers and drops.
struct Ctx<'a> {
    inc: &'a Incoming<'a>,
    /// The message's SHA-256: seeds the Message-IDs of its answers.
    key: &'a str,
    /// When it reached the receiving server, in game time.
    arrived: Ts,
    now: Ts,
}

async fn drop_mail(
    c: &mut SqliteConnection,
    ctx: &Ctx<'_>,
    from: Option<&str>,
    game: Option<&str>,
    reason: &str,
) -> Result<()> {
    store::record_drop(c, ctx.inc.mailbox, ctx.inc.uid, from, game, reason, ctx.now).await?;
    Ok(())
}

/// Who an answer goes to, for the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Recipient {
    /// A registered player (or master) of some game.
    Registered,
    /// An address that plays in no game: From can be forged, so at most one answer a day, and
    /// none when our receiving server recorded an SPF, DKIM or DMARC failure for it.
    Stranger { auth_failed: bool },
}

/// Enqueue an answer within the limits, or record why it was not sent. A mail that could not
/// be composed is never sent half-made: the masters get the facts instead.
async fn answer(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    composed: compose::Composed,
    to: Recipient,
    game: Option<&GameRow>,
) -> Result<bool> {
    let now = ctx.now;
    let mail = match composed {
        Ok(m) => m,
        Err(e) => {
            compose_failed(c, env, game, &e, ctx.key, now).await?;
            return Ok(false);
        }
    };
    let limits = &env.limits;
    let gid = game.map(|g| g.id.as_str());
    // Answers in the last hour: to this address, and about this game (one query).
    let answers = store::answers_since(c, &mail.to, gid, now - 3600).await?;
    match to {
        Recipient::Stranger { auth_failed: true } => {
            let why = "stranger: the receiving server recorded an SPF, DKIM or DMARC failure";
            drop_mail(c, ctx, Some(&mail.to), gid, why).await?;
            return Ok(false);
        }
        Recipient::Stranger { auth_failed: false } => {
            if store::answers_to(c, &mail.to, now - policy::DAY).await?
                >= limits.stranger_answers_per_day
            {
                let why = "stranger: already answered today";
                drop_mail(c, ctx, Some(&mail.to), gid, why).await?;
                return Ok(false);
            }
        }
        Recipient::Registered => {
            if answers.0 >= limits.answers_per_hour {
                let gm = game.map_or(env.alert_from.as_str(), |g| g.gm_address.as_str());
                let notice = compose::too_many(env, gm, &mail.to, limits.answers_per_hour, now);
                store::enqueue(c, &notice, now).await?;
                let why = "rate limit: too many answers to this address in an hour";
                drop_mail(c, ctx, Some(&mail.to), gid, why).await?;
                return Ok(false);
            }
        }
    }
    if let Some(g) = game
        && answers.1 >= limits.game_answers_per_hour
    {
        let why = "rate limit: too many answers in this game in an hour";
        drop_mail(c, ctx, Some(&mail.to), gid, why).await?;
        let hour = now.div_euclid(3600);
        let body = format!(
            "More than {} answers about game {} were sent in the last hour; further answers are\n\
             held back until the hour has passed (mail is still read and orders still count).\n",
            limits.game_answers_per_hour, g.id
        );
        alert_masters(
            c,
            env,
            game,
            &format!("game-rate|{}|{hour}", g.id),
            &format!("{}: answer limit reached", g.id),
            &body,
            now,
        )
        .await?;
        return Ok(false);
    }
    let mut mail = mail;
    if mail.game.is_none() {
        mail.game = gid.map(str::to_string);
    }
    store::enqueue(c, &mail, now).await?;
    Ok(true)
}

/// A mail that could not be composed: alert the masters with what it would have said.
async fn compose_failed(
    c: &mut SqliteConnection,
    env: &Env,
    game: Option<&GameRow>,
    e: &compose::ComposeError,
    key: &str,
    now: Ts,
) -> Result<()> {
    let body = format!(
        "A {} mail to {} could not be composed, so it was not sent: {}\n\n\
         What it would have said:\n{}\n",
        e.kind, e.to, e.error, e.facts
    );
    alert_masters(
        c,
        env,
        game,
        &format!("compose|{key}|{}|{}", e.kind, e.to),
        &format!("a {} mail to {} could not be composed", e.kind, e.to),
        &body,
        now,
    )
    .await
}

/// Enqueue a mail that is not an answer (results, reminders, digests): a composition failure
/// becomes an alert.
async fn send(
    c: &mut SqliteConnection,
    env: &Env,
    game: Option<&GameRow>,
    composed: compose::Composed,
    key: &str,
    now: Ts,
) -> Result<()> {
    match composed {
        Ok(m) => Ok(store::enqueue(c, &m, now).await?),
        Err(e) => compose_failed(c, env, game, &e, key, now).await,
    }
}

/// Is the sender a stranger, and did our receiving server record an authentication failure?
async fn recipient_kind(
    c: &mut SqliteConnection,
    env: &Env,
    from: &str,
    auth_results: &[String],
) -> Result<Recipient> {
    Ok(if store::is_registered(c, from).await? {
        Recipient::Registered
    } else {
        Recipient::Stranger {
            auth_failed: crate::authres::sender_auth_failed(auth_results, &env.authserv_id, from),
        }
    })
}

/// A mail that could not be read at all: answered from its header block, within the limits.
async fn unreadable(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    head: &MessageHead,
    e: &MessageError,
) -> Result<Processed> {
    let Some(from) = head.from_address.as_deref() else {
        drop_mail(c, ctx, None, None, "unreadable, and no sender to answer").await?;
        return Ok(Processed::Rejected);
    };
    let who = recipient_kind(c, env, from, &head.authentication_results).await?;
    let mail = compose::unreadable(
        env,
        &env.alert_from,
        from,
        head,
        ctx.key,
        &e.to_string(),
        ctx.now,
    );
    answer(c, env, ctx, mail, who, None).await?;
    Ok(Processed::Rejected)
}

#[derive(Default)]
struct Tag {
    game: Option<String>,
    power: Option<String>,
    phase: Option<String>,
}

/// The active game a message is about: named in the subject, else the one its sender plays in.
async fn find_game(c: &mut SqliteConnection, msg: &ReadMessage) -> Result<Option<GameRow>> {
    let found = find_game_row(c, msg).await?;
    if let Some(g) = &found {
        tracing::Span::current().record("game", g.id.as_str());
    }
    Ok(found)
}

async fn find_game_row(c: &mut SqliteConnection, msg: &ReadMessage) -> Result<Option<GameRow>> {
    let games = store::games_with_status(c, "active").await?;
    let words: Vec<String> = msg
        .subject
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|ch: char| !ch.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    if let Some(g) = games
        .iter()
        .find(|g| words.iter().any(|w| *w == g.id.to_lowercase()))
    {
        return Ok(Some(g.clone()));
    }
    let Some(from) = &msg.from_address else {
        return Ok(None);
    };
    let mut found = Vec::new();
    for g in &games {
        if store::players(c, &g.id)
            .await?
            .iter()
            .any(|p| &p.address == from)
        {
            found.push(g.clone());
        }
    }
    Ok(if found.len() == 1 { found.pop() } else { None })
}

/// The confirmation mailbox (WM D.VII(7)): record the time, answer with a receipt. Only
/// registered players get receipts: anyone else's mail is recorded and not answered (a forged
/// From would otherwise make the box mail anyone).
async fn receipt(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    size: u64,
) -> Result<Processed> {
    let Some(from) = msg.from_address.clone() else {
        drop_mail(c, ctx, None, None, "confirmation box: no sender").await?;
        return Ok(Processed::Dropped);
    };
    if !store::is_registered(c, &from).await? {
        let why = "confirmation box: the sender plays in no game";
        drop_mail(c, ctx, Some(&from), None, why).await?;
        return Ok(Processed::Dropped);
    }
    if let Some(id) = &msg.message_id {
        store::record_confirmation(c, id, ctx.arrived, Some(&from)).await?;
    }
    let game = find_game(c, msg).await?;
    let gm_address = game
        .as_ref()
        .map(|g| g.gm_address.clone())
        .unwrap_or_default();
    let (addressing, orders, confirm) = match &game {
        Some(g) => {
            let rules = rules_of(g)?;
            let addressing = acceptance::check_addressing(&rules, &g.gm_address, &msg.to, &msg.cc);
            let orders = match power_and_phase(c, g, msg, &from).await? {
                Some((power, phase_row)) => {
                    let map = map_of(g)?;
                    let read = read_with(map, &rules, power, &phase_row, msg)?;
                    read.understood()
                        .iter()
                        .map(|o| o.display(map).to_string())
                        .collect()
                }
                None => Vec::new(),
            };
            (addressing, orders, g.confirm_address.clone())
        }
        None => (
            Err("no game of this server is named in the subject or plays from this address".into()),
            Vec::new(),
            String::new(),
        ),
    };
    let confirm = if confirm.is_empty() {
        env.confirm_from.clone()
    } else {
        confirm
    };
    let mail = compose::receipt(
        env,
        &confirm,
        &gm_address,
        &from,
        msg,
        ctx.key,
        ctx.arrived,
        size,
        &orders,
        addressing.err(),
    );
    answer(c, env, ctx, mail, Recipient::Registered, game.as_ref()).await?;
    Ok(Processed::Receipted)
}

/// The power a message is for (named in the subject, else the sender's), and the current phase.
async fn power_and_phase(
    c: &mut SqliteConnection,
    g: &GameRow,
    msg: &ReadMessage,
    from: &str,
) -> Result<Option<(Power, PhaseRow)>> {
    let map = map_of(g)?;
    let players = store::players(c, &g.id).await?;
    let named = msg
        .subject
        .split_whitespace()
        .find_map(|w| map.power_by_name(w.trim_matches(|ch: char| !ch.is_alphanumeric())));
    let power = named.or_else(|| {
        players
            .iter()
            .find(|p| p.address == from)
            .and_then(|p| map.power_by_name(&p.power))
    });
    let Some(power) = power else {
        return Ok(None);
    };
    let Some(phase) = store::current_phase(c, &g.id).await? else {
        return Ok(None);
    };
    Ok(Some((power, phase)))
}

fn read_with(
    map: &'static Map,
    rules: &Rules,
    power: Power,
    phase_row: &PhaseRow,
    msg: &ReadMessage,
) -> Result<MailRead> {
    let phase: Phase = phase_row
        .phase
        .parse()
        ?;
    let board = board_from_json(&phase_row.board, &phase_row.phase)?;
    let abbreviations = HashMap::new();
    let ctx = ReadContext {
        map,
        rules,
        power,
        phase: phase.kind,
        board: Some(&board),
        abbreviations: &abbreviations,
    };
    Ok(read_body(&ctx, msg))
}

/// An order mail to the GM address.
async fn order_mail(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
) -> Result<(Processed, Tag)> {
    let now = ctx.now;
    let from = msg.from_address.clone().unwrap_or_default();
    let Some(g) = find_game(c, msg).await? else {
        if from.is_empty() {
            drop_mail(c, ctx, None, None, "no sender to answer").await?;
        } else {
            let who = recipient_kind(c, env, &from, &msg.authentication_results).await?;
            let why = if who == Recipient::Registered {
                "no active game of this server is named in the subject; put the game's name in it"
            } else {
                "no game of this server is named in the subject, and this address plays in none"
            };
            let mail = compose::rejection(
                env,
                &env.alert_from,
                &from,
                msg,
                ctx.key,
                &[why.to_string()],
                now,
            );
            answer(c, env, ctx, mail, who, None).await?;
        }
        return Ok((Processed::Rejected, Tag::default()));
    };
    let rules = rules_of(&g)?;
    let map = map_of(&g)?;
    let mut tag = Tag {
        game: Some(g.id.clone()),
        ..Tag::default()
    };
    let reject = |reasons: Vec<String>, to: &str| {
        compose::rejection(env, &g.gm_address, to, msg, ctx.key, &reasons, now)
    };

    if let Err(e) = acceptance::check_addressing(&rules, &g.gm_address, &msg.to, &msg.cc) {
        // Before the sender is proven, From is answered as registered only if it is.
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        answer(c, env, ctx, reject(vec![e], &from), sender, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }
    let found = power_and_phase(c, &g, msg, &from).await?;
    if let Some((power, _)) = &found {
        tracing::Span::current().record("power", map_of(&g)?.power_name(*power));
    }
    let Some((power, phase_row)) = found else {
        let e = format!(
            "the subject must name your power, as in \"{}\"",
            rules.subject_format.replace("{game}", &g.id)
        );
        // Before the sender is proven, From is answered as registered only if it is.
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        answer(c, env, ctx, reject(vec![e], &from), sender, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    };
    let power_name = map.power_name(power).to_string();
    tag.power = Some(power_name.clone());
    tag.phase = Some(phase_row.phase.clone());
    let players = store::players(c, &g.id).await?;
    let Some(player) = players.iter().find(|p| p.power == power_name).cloned() else {
        let e = format!("{power_name} has no player in this game");
        // Before the sender is proven, From is answered as registered only if it is.
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        answer(c, env, ctx, reject(vec![e], &from), sender, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    };
    let phase: Phase = phase_row
        .phase
        .parse()
        ?;
    let read = read_with(map, &rules, power, &phase_row, msg)?;
    // Who sent it: the registered player, proven by secret or DKIM (a failure is answered at the
    // registered address, and reported to the GM: WM D.X(6)).
    if let Err(e) = acceptance::authenticate(
        &rules,
        &from,
        &player.address,
        read.secret.as_deref(),
        &player.secret,
        &msg.authentication_results,
        &env.authserv_id,
    ) {
        // Counted for the masters' digest; never a lockout (a forger could use one to lock the
        // real player out, and 64 random bits make guessing hopeless).
        if read.secret.is_some() && e.contains("secret is wrong") {
            store::add_wrong_secret(c, &g.id, &power_name).await?;
        }
        let to_player = reject(vec![e.clone()], &player.address);
        answer(c, env, ctx, to_player, Recipient::Registered, Some(&g)).await?;
        for to in masters_of(env, Some(&g)) {
            let report = compose::impersonation(
                env,
                &to,
                &g.id,
                &power_name,
                &player.address,
                msg,
                ctx.key,
                &e,
                now,
            );
            // Through the limits: a forger must not be able to flood the masters either.
            answer(c, env, ctx, report, Recipient::Registered, Some(&g)).await?;
        }
        return Ok((Processed::Rejected, tag));
    }
    if let Err(e) = acceptance::check_subject(&rules, &msg.subject, &g.id, &power_name, phase) {
        let mail = reject(vec![e], &player.address);
        answer(c, env, ctx, mail, Recipient::Registered, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }
    let confirm_time = match &msg.message_id {
        Some(id) => store::confirmation_time(c, id).await?,
        None => None,
    };
    // When the receiving server got it (WM D.VII(1)), or the confirmation box if earlier.
    let submitted = policy::submission_time(&rules, ctx.arrived, confirm_time);
    let timeliness = policy::timeliness(
        &rules,
        submitted,
        phase_row.deadline,
        phase_row.adjudication_started_at.is_some(),
    );
    if timeliness == policy::Timeliness::LateRefused {
        let e = format!(
            "these orders arrived after the deadline ({}), and late orders are not accepted (WM D.VII(3))",
            compose::gmt(phase_row.deadline)
        );
        let mail = reject(vec![e], &player.address);
        answer(c, env, ctx, mail, Recipient::Registered, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }

    // The standing order set.
    let standing_rows = store::standing_orders(c, &g.id, &phase_row.phase).await?;
    let mine = standing_rows.iter().find(|r| r.power == power_name);
    let standing: Vec<StandingOrder> = match mine {
        Some(r) => serde_json::from_str(&r.orders)?,
        None => Vec::new(),
    };
    let new: Vec<StandingOrder> = read
        .orders
        .iter()
        .filter_map(|l| {
            l.typed.as_ref().map(|o| StandingOrder {
                order: o.display(map).to_string(),
                written: l.text.clone(),
            })
        })
        .collect();
    let combined = if new.is_empty() {
        standing.clone()
    } else {
        combine_standing(map, &rules, &standing, &new)
    };
    let final_ = read.final_ || (new.is_empty() && mine.is_some_and(|r| r.final_));
    store::set_standing_orders(
        c,
        &g.id,
        &phase_row.phase,
        &power_name,
        &serde_json::to_string(&combined)?,
        final_,
        now,
    )
    .await?;
    store::insert_submission(
        c,
        &g.id,
        &phase_row.phase,
        &power_name,
        msg.message_id.as_deref(),
        submitted,
        read.final_,
        timeliness == policy::Timeliness::LateAccepted,
        &serde_json::to_string(&read)?,
    )
    .await?;
    for p in read.press.iter().filter(|p| p.status == "accepted") {
        store::insert_press(
            c,
            &g.id,
            &phase_row.phase,
            &power_name,
            &serde_json::to_string(&p.to.iter().filter(|t| *t != "ALL").collect::<Vec<_>>())?,
            p.grey,
            &p.body,
            now,
        )
        .await?;
    }
    for v in &read.votes {
        store::cast_vote(
            c,
            &g.id,
            &phase_row.phase,
            &power_name,
            &v.proposal,
            v.vote,
            now,
        )
        .await?;
    }
    // Requests: extensions move the deadline; unavailable periods are recorded.
    let mut request_notes: Vec<String> = Vec::new();
    let mut deadline = phase_row.deadline;
    let wins = windows(&store::unavailable(c, &g.id).await?);
    for r in &read.requests {
        match r {
            RequestOut::Extension { days, .. } => {
                match policy::extend(
                    &rules,
                    deadline,
                    now,
                    *days,
                    u32::try_from(player.extension_days_used).unwrap_or(u32::MAX),
                    &wins,
                ) {
                    Ok(new_deadline) => {
                        deadline = new_deadline;
                        store::set_deadline(c, &g.id, phase_row.seq, deadline).await?;
                        store::add_extension_days(c, &g.id, &power_name, i64::from(*days)).await?;
                        request_notes.push(format!(
                            "extension of {days} day(s) granted: the deadline is now {}",
                            compose::gmt(deadline)
                        ));
                    }
                    Err(e) => {
                        request_notes.push(format!("extension of {days} day(s) refused: {e}"))
                    }
                }
            }
            RequestOut::Unavailable { from: f, to: t, .. } => {
                match (compose::parse_gmt(f), compose::parse_gmt(t)) {
                    (Some(a), Some(b)) => match policy::unavailable_window(&rules, a, b) {
                        Ok(w) => {
                            store::add_unavailable(c, &g.id, &power_name, w.from, w.to).await?;
                            request_notes
                                .push(format!("unavailable from {f} to {t} GMT: recorded"));
                        }
                        Err(e) => request_notes.push(format!("unavailable period refused: {e}")),
                    },
                    _ => request_notes
                        .push("unavailable period refused: the dates could not be read".into()),
                }
            }
        }
    }
    let units = board_from_json(&phase_row.board, &phase_row.phase)?;
    let ack = compose::acknowledgement(
        env,
        &g,
        map,
        &player,
        msg,
        ctx.key,
        &read,
        &combined,
        final_,
        &units,
        power,
        &phase_row.phase,
        deadline,
        timeliness == policy::Timeliness::LateAccepted,
        &request_notes,
        ctx.arrived,
    );
    answer(c, env, ctx, ack, Recipient::Registered, Some(&g)).await?;
    Ok((Processed::Accepted, tag))
}

/// Combine the standing orders with a new set, per the submissions rule (WM D.III(3)).
fn combine_standing(
    map: &Map,
    rules: &Rules,
    standing: &[StandingOrder],
    new: &[StandingOrder],
) -> Vec<StandingOrder> {
    let parse = |s: &[StandingOrder]| -> Vec<Order> {
        s.iter()
            .filter_map(|o| parse_order(map, &o.order).ok())
            .collect()
    };
    let combined = policy::combine(rules, &parse(standing), &parse(new));
    // Keep the written text: from the new set where the order came from it, else the old.
    combined
        .iter()
        .filter_map(|o| {
            let text = o.display(map).to_string();
            new.iter()
                .chain(standing.iter())
                .find(|s| s.order == text)
                .cloned()
        })
        .collect()
}

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    pub adjudicated: usize,
    /// Games whose deadline has passed but whose mailboxes have not yet been read through it:
    /// (game, deadline). Nothing is adjudicated with orders still unread.
    pub waiting: Vec<(String, Ts)>,
    /// Games whose tick failed (an error or a panic), with why. The other games went on, and
    /// the masters were alerted once per phase.
    pub failed: Vec<(String, String)>,
}

/// One tick with every mailbox taken as read through `now` (tests and tools that drive the
/// clock themselves). A game that fails is an error here, so that tests see it.
pub async fn tick(pool: &SqlitePool, env: &Env, now: Ts) -> Result<usize> {
    let r = tick_with(pool, env, now, now).await?;
    if let Some((g, e)) = r.failed.first() {
        return Err(EngineError::Refused(format!("game {g}: {e}")));
    }
    Ok(r.adjudicated)
}

/// Adjudicate every phase whose deadline has passed and whose mail has been read through it
/// (`read_through`: every mailbox had a successful poll that started at or after this time),
/// or that may go early (everyone Final and the minimum gap respected: WM D.VII(2)). Each
/// game is its own transaction and is isolated: one game's failure, even a panic, does not
/// stop the others.
pub async fn tick_with(
    pool: &SqlitePool,
    env: &Env,
    now: Ts,
    read_through: Ts,
) -> Result<TickReport> {
    use futures::FutureExt;
    let mut conn = pool.acquire().await?;
    let open = store::open_phases(&mut conn).await?;
    drop(conn);
    let mut report = TickReport::default();
    for p in open {
        use tracing::Instrument;
        let span = tracing::info_span!("tick", game = %p.game_id, phase = %p.phase);
        let run = std::panic::AssertUnwindSafe(
            tick_game(pool, env, &p, now, read_through).instrument(span),
        );
        let error = match run.catch_unwind().await {
            Ok(Ok(GameTick::Adjudicated)) => {
                report.adjudicated += 1;
                continue;
            }
            Ok(Ok(GameTick::Waiting)) => {
                report.waiting.push((p.game_id.clone(), p.deadline));
                continue;
            }
            Ok(Ok(GameTick::Idle)) => continue,
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panic: {}", panic_text(panic.as_ref())),
        };
        alert_tick_failure(pool, env, &p, &error, now).await;
        report.failed.push((p.game_id.clone(), error));
    }
    Ok(report)
}

/// The text of a panic's payload.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// Tell the masters, once per phase, that a game's tick failed. Failing to tell them is only
/// logged: the tick of the other games must go on.
async fn alert_tick_failure(pool: &SqlitePool, env: &Env, p: &PhaseRow, error: &str, now: Ts) {
    let told: Result<()> = async {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let g = store::game(&mut tx, &p.game_id).await?;
        let body = format!(
            "Game {} {}: the deadline could not be processed, and the game waits until this is\n\
             fixed (the other games go on). Chancery tries again on every tick.\n\nError: {error}\n",
            p.game_id, p.phase
        );
        alert_masters(
            &mut tx,
            env,
            g.as_ref(),
            &format!("tick-failed|{}|{}", p.game_id, p.seq),
            &format!("{} {}: the deadline could not be processed", p.game_id, p.phase),
            &body,
            now,
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    if let Err(e) = told {
        tracing::error!(game = %p.game_id, "cannot alert the masters: {e}");
    }
}

enum GameTick {
    Adjudicated,
    Waiting,
    Idle,
}

async fn tick_game(
    pool: &SqlitePool,
    env: &Env,
    p: &PhaseRow,
    now: Ts,
    read_through: Ts,
) -> Result<GameTick> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    // Re-read inside the transaction: another tick may have got there first.
    let Some(current) = store::current_phase(&mut tx, &p.game_id).await? else {
        return Ok(GameTick::Idle);
    };
    if current.seq != p.seq {
        return Ok(GameTick::Idle);
    }
    let Some(g) = store::game(&mut tx, &p.game_id).await? else {
        return Ok(GameTick::Idle);
    };
    let rules = rules_of(&g)?;
    let passed = current.deadline <= now;
    let due = passed && current.deadline <= read_through;
    let early = !passed && {
        let map = map_of(&g)?;
        let board = board_from_json(&current.board, &current.phase)?;
        let standing = store::standing_orders(&mut tx, &g.id, &current.phase).await?;
        let must = powers_with_orders_due(map, &board);
        let all_final = !must.is_empty()
            && must.iter().all(|pw| {
                standing
                    .iter()
                    .any(|s| s.power == map.power_name(*pw) && s.final_)
            });
        let last = store::last_adjudicated_at(&mut tx, &g.id).await?;
        let wins = windows(&store::unavailable(&mut tx, &g.id).await?);
        policy::may_adjudicate_early(&rules, now, last, all_final, &wins)
    };
    if due || early {
        adjudicate_phase(&mut tx, env, &g, &rules, &current, now).await?;
        tx.commit().await?;
        Ok(GameTick::Adjudicated)
    } else if passed {
        tx.rollback().await?;
        Ok(GameTick::Waiting)
    } else if current.deadline - now <= DIGEST_BEFORE {
        remind(&mut tx, env, &g, &rules, &current, now).await?;
        tx.commit().await?;
        Ok(GameTick::Idle)
    } else {
        tx.rollback().await?;
        Ok(GameTick::Idle)
    }
}

/// The GM's digest and the players' reminders go out this long before a deadline.
pub const DIGEST_BEFORE: Ts = policy::DAY;

/// The GM's deadline digest, and a reminder to each player who owes orders and has none in.
/// Each has a Message-ID fixed by game, phase (and power), so the outbox keeps only the first:
/// calling this on every tick sends each mail once.
async fn remind(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    current: &PhaseRow,
    now: Ts,
) -> Result<()> {
    let map = map_of(g)?;
    let board = board_from_json(&current.board, &current.phase)?;
    let due = powers_with_orders_due(map, &board);
    let standing = store::standing_orders(c, &g.id, &current.phase).await?;
    let players = store::players(c, &g.id).await?;
    let wrong = store::wrong_secrets(c, &g.id).await?;
    let mut powers = Vec::new();
    for p in &players {
        let Some(pw) = map.power_by_name(&p.power) else {
            continue;
        };
        if !due.contains(&pw) {
            continue;
        }
        let s = standing.iter().find(|s| s.power == p.power);
        let count = s
            .map(|s| serde_json::from_str::<Vec<StandingOrder>>(&s.orders).map(|v| v.len()))
            .transpose()?
            .unwrap_or(0);
        powers.push(crate::outgoing::render::DigestPower {
            power: p.power.clone(),
            player: p.address.clone(),
            orders_in: s.is_some(),
            is_final: s.is_some_and(|s| s.final_),
            order_count: count,
            last_submission: s.map(|s| s.updated_at),
            extension_days_used: u32::try_from(p.extension_days_used).unwrap_or(u32::MAX),
            wrong_secrets: wrong.iter().find(|(w, _)| *w == p.power).map_or(0, |w| w.1),
        });
        if s.is_none() {
            let mail = compose::reminder(env, g, rules, p, &current.phase, current.deadline, now);
            let key = format!("reminder|{}|{}|{}", g.id, current.phase, p.power);
            send(c, env, Some(g), mail, &key, now).await?;
        }
    }
    let drops: Vec<crate::outgoing::render::DropCount> = store::drop_counts(c, &g.id, now - policy::DAY)
        .await?
        .into_iter()
        .map(|(reason, count)| crate::outgoing::render::DropCount { reason, count })
        .collect();
    for to in masters_of(env, Some(g)) {
        let mail = compose::digest(
            env,
            &to,
            g,
            &current.phase,
            current.deadline,
            powers.clone(),
            rules.extension_days_total,
            drops.clone(),
            now,
        );
        let key = format!("digest|{}|{}", g.id, current.phase);
        send(c, env, Some(g), mail, &key, now).await?;
    }
    Ok(())
}

/// Powers that have something to order in this phase.
pub fn powers_with_orders_due(map: &Map, board: &Board) -> Vec<Power> {
    map.all_powers()
        .filter(|p| match board.phase.kind {
            PhaseKind::Movement => board.units.iter().any(|u| u.power == *p),
            PhaseKind::Retreat => board.dislodged.iter().any(|d| d.unit.power == *p),
            PhaseKind::Adjustment => board.center_count(*p) != board.unit_count(*p),
        })
        .collect()
}

async fn adjudicate_phase(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    current: &PhaseRow,
    now: Ts,
) -> Result<()> {
    let map = map_of(g)?;
    let board = board_from_json(&current.board, &current.phase)?;
    let standing = store::standing_orders(c, &g.id, &current.phase).await?;
    let mut orders: Vec<(Power, Order)> = Vec::new();
    let mut written: HashMap<String, Vec<StandingOrder>> = HashMap::new();
    for s in &standing {
        let Some(pw) = map.power_by_name(&s.power) else {
            continue;
        };
        let list: Vec<StandingOrder> = serde_json::from_str(&s.orders)?;
        for o in &list {
            if let Ok(order) = parse_order(map, &o.order) {
                orders.push((pw, order));
            }
        }
        written.insert(s.power.clone(), list);
    }
    let due = powers_with_orders_due(map, &board);
    let missing: Vec<Power> = due
        .iter()
        .copied()
        .filter(|p| !standing.iter().any(|s| s.power == map.power_name(*p)))
        .collect();
    let phase: Phase = current
        .phase
        .parse()
        ?;
    if policy::nmr_holds_results(rules, phase, &missing) {
        // WM D.VII(6)(b): no results while an NMR stands in these phases; the GM replaces the
        // player. The deadline moves a day so the GM is not told every minute.
        let names: Vec<String> = missing
            .iter()
            .map(|p| map.power_name(*p).to_string())
            .collect();
        for to in masters_of(env, Some(g)) {
            let mail = compose::nmr_hold(env, &to, g, &current.phase, &names, now);
            store::enqueue(c, &mail, now).await?;
        }
        store::set_deadline(c, &g.id, current.seq, now + policy::DAY).await?;
        return Ok(());
    }
    let adj = adjudicate(map, rules, &board, &orders);
    let out = json::render(map, rules, &adj);
    let results_json = serde_json::to_string(&out)?;
    store::mark_adjudicated(c, &g.id, current.seq, now, &results_json).await?;
    let wins = windows(&store::unavailable(c, &g.id).await?);
    let next_phase = adj.next.phase;
    let next_deadline = policy::deadline(rules, now, next_phase.kind, &wins);
    let winner = map
        .all_powers()
        .find(|p| adj.next.center_count(*p) * 2 > map.supply_centers().count());
    if winner.is_none() {
        store::insert_phase(
            c,
            &g.id,
            &next_phase.to_string(),
            &serde_json::to_string(&out.next)?,
            now,
            next_deadline,
        )
        .await?;
    } else {
        store::set_game_status(c, &g.id, "finished").await?;
    }
    let press = store::press(c, &g.id, &current.phase).await?;
    let players = store::players(c, &g.id).await?;
    let missing_names: Vec<String> = missing
        .iter()
        .map(|p| map.power_name(*p).to_string())
        .collect();
    // Every player, then the GM's copy (which sees all press).
    let gm_copy = PlayerRow {
        power: String::new(),
        address: g.gm_address.clone(),
        name: "GM".into(),
        tz: "UTC".into(),
        secret: String::new(),
        extension_days_used: 0,
    };
    for p in players.iter().chain(std::iter::once(&gm_copy)) {
        let mail = compose::results(
            env,
            g,
            map,
            &adj,
            &board,
            &written,
            &missing_names,
            &press,
            p,
            winner.map(|w| map.power_name(w).to_string()),
            next_deadline,
        );
        let key = format!("results|{}|{}|{}", g.id, current.phase, p.address);
        send(c, env, Some(g), mail, &key, now).await?;
    }
    Ok(())
}

/// Start a game: the opening board, its first deadline, and the game goes active.
pub async fn start_game(pool: &SqlitePool, game_id: &str, now: Ts) -> Result<Ts> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let g = store::game(&mut tx, game_id)
        .await?
        .ok_or_else(|| EngineError::NoGame(game_id.to_string()))?;
    if g.status != "forming" {
        return Err(EngineError::Refused(format!(
            "game '{game_id}' is already {}",
            g.status
        )));
    }
    let rules = rules_of(&g)?;
    let map = map_of(&g)?;
    let players = store::players(&mut tx, &g.id).await?;
    let missing: Vec<&str> = map
        .powers
        .iter()
        .map(|p| p.name.as_str())
        .filter(|name| !players.iter().any(|p| p.power == *name))
        .collect();
    if !missing.is_empty() {
        return Err(EngineError::Refused(format!(
            "every power needs a player before the start; missing: {}",
            missing.join(", ")
        )));
    }
    let board = Board::initial(map);
    let next = json::board_output(map, &board);
    let deadline = policy::deadline(&rules, now, PhaseKind::Movement, &[]);
    store::insert_phase(
        &mut tx,
        &g.id,
        &board.phase.to_string(),
        &serde_json::to_string(&next)?,
        now,
        deadline,
    )
    .await?;
    store::set_game_status(&mut tx, &g.id, "active").await?;
    tx.commit().await?;
    Ok(deadline)
}
