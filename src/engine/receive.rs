//! Every incoming message starts here: dedup, the auto-reply check, the answer limits, and the
//! answer itself (or a recorded silent drop). Also poisoned messages and alerts. What a mail to
//! each box does once these steps let it through is `src/games`'s to say ([`Boxes`]): it alone
//! knows the kinds of game.

use super::panic::panic_text;
use super::*;
use crate::outgoing::notices;

/// What the mail of each box does once the shared steps have let it through (not seen before,
/// not automatic, readable): `src/games` implements it, the one place that knows the kinds of
/// game.
pub trait Boxes: Sync {
    /// A mail to the GM box: its effects and answers. What it was, and the ledger's tag.
    fn gm_box(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        msg: &ReadMessage,
    ) -> impl Future<Output = Result<(Processed, Tag)>> + Send;
    /// A mail to the confirmation box (`size`: its raw size, for the receipt).
    fn confirm_box(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        msg: &ReadMessage,
        size: u64,
    ) -> impl Future<Output = Result<Processed>> + Send;
}

/// Handle one received message: its effects, its answers (through the outbox, within the
/// limits) and its ledger row, in one transaction.
pub async fn handle_message<B: Boxes>(
    pool: &Pool,
    env: &Env,
    inc: &Incoming<'_>,
    reading: &Reading,
    now: Ts,
    boxes: &B,
) -> Result<Processed> {
    let mut tx = crate::store::begin_write(pool).await?;
    let outcome = handle_in(&mut tx, env, inc, reading, now, boxes).await?;
    tx.commit().await?;
    Ok(outcome)
}

/// One message of a batch: where it was found, how it reads, and the span its handling is
/// logged in (the engine records the game and the power in it).
pub struct Queued<'a> {
    pub inc: Incoming<'a>,
    pub reading: &'a Reading,
    pub span: tracing::Span,
}

/// Why a message of a batch was left out of the batch's commit (nothing of it was kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Its handling failed (possibly the store): the caller tries it again alone.
    Error(String),
    /// Its handling panicked: the caller sets it aside.
    Panic(String),
}

/// What [`process_batch`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchRun {
    /// The outcomes of the batch's first `done.len()` messages, committed together.
    pub done: Vec<Processed>,
    /// The message after those failed and was rolled back alone; the ones after it were not
    /// tried (mail is handled in the order it arrived).
    pub failed: Option<Failure>,
}

/// Handle messages in order in one transaction, each as [`handle_message`] would (its effects,
/// answers and ledger row all or nothing), with one commit for all of them: one write to disk
/// instead of one per message (issue 22), the claims and ledger lookups of all of them made at
/// once first and their `messages` and ledger rows written at once last (issue 28). The first
/// message that fails or panics stops the batch, leaves nothing of its own, and the ones before
/// it still commit. `Err`: the batch could not be begun or committed (or a failure not undone),
/// and nothing of it was committed.
///
/// A message rarely fails, so the batch is first run with no savepoint a message (each costs a
/// round trip to the database: on PostgreSQL, an order mail takes six of its own). If one
/// fails, that whole transaction is rolled back and the messages before it are run again, each
/// in a savepoint of its own (`Undo::Message`), and committed: what a message does depends only
/// on the store and the clock reading `now`, both as they were.
pub async fn handle_batch<B: Boxes>(
    pool: &Pool,
    env: &Env,
    batch: &[Queued<'_>],
    now: Ts,
    boxes: &B,
) -> Result<BatchRun> {
    let first = run_batch(pool, env, batch, now, boxes, Undo::Batch).await?;
    let before = first.done.len();
    // Nothing failed (all committed), or the first message did (nothing to commit).
    if first.failed.is_none() || before == 0 {
        return Ok(first);
    }
    let mut again = run_batch(pool, env, &batch[..before], now, boxes, Undo::Message).await?;
    // The failing message is not tried a second time in the batch: the caller handles it alone.
    again.failed = again.failed.or(first.failed);
    Ok(again)
}

/// How a batch undoes a message that fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Undo {
    /// The whole transaction is rolled back: nothing of the batch is committed, and the
    /// [`BatchRun`] says which message failed after how many good ones.
    Batch,
    /// Each message runs in a savepoint of its own, rolled back alone: the ones before the
    /// failing message commit.
    Message,
}

/// One run of [`handle_batch`]'s messages in one transaction, a failing message undone as
/// `undo` says.
async fn run_batch<B: Boxes>(
    pool: &Pool,
    env: &Env,
    batch: &[Queued<'_>],
    now: Ts,
    boxes: &B,
    undo: Undo,
) -> Result<BatchRun> {
    use futures::FutureExt;
    use tracing::Instrument;
    let mut tx = crate::store::begin_write(pool).await?;
    let mut run = BatchRun {
        done: Vec::with_capacity(batch.len()),
        failed: None,
    };
    let seen: Vec<store::Seen<'_>> = batch.iter().map(|q| seen_of(&q.inc, q.reading)).collect();
    // Messages looked at again after another instance had them wait for their claims.
    let wait = batch.iter().any(|q| q.inc.wait_for_claim);
    let admissions = store::admit(&mut tx, &seen, wait).await?;
    // The batch's `messages` and ledger rows, written together as it ends.
    let mut records: Vec<store::MessageRecord<'_>> = Vec::with_capacity(batch.len());
    let mut saved = false;
    for ((q, seen), admission) in batch.iter().zip(&seen).zip(admissions) {
        // A copy of a message this batch recorded: the ledger, read before the first, cannot
        // know it yet.
        let again = records
            .iter()
            .any(|r| store::LedgerKey::of(&r.seen).is(seen));
        let admission = match admission {
            store::Admission::New if again => store::Admission::Done,
            other => other,
        };
        if let Some(outcome) = settled(admission) {
            run.done.push(outcome);
            continue;
        }
        if undo == Undo::Message {
            // The previous message's savepoint is kept (the commit keeps the last one's).
            if saved {
                store::renew_savepoint(&mut tx, store::Savepoint::Message).await?;
            } else {
                store::savepoint(&mut tx, store::Savepoint::Message).await?;
                saved = true;
            }
        }
        let handling =
            handle_admitted(&mut tx, env, &q.inc, q.reading, now, boxes).instrument(q.span.clone());
        // A panic is caught here as the mailbox reader catches it for a message alone: what the
        // message wrote is undone (with its savepoint, or with the batch), and the batch stops
        // at it.
        let failure = match std::panic::AssertUnwindSafe(handling).catch_unwind().await {
            Ok(Ok((outcome, record))) => {
                records.extend(record);
                run.done.push(outcome);
                continue;
            }
            Ok(Err(e)) => Failure::Error(e.to_string()),
            Err(panic) => Failure::Panic(format!("panic: {}", panic_text(panic.as_ref()))),
        };
        run.failed = Some(failure);
        match undo {
            Undo::Message => {
                store::undo_savepoint(&mut tx, store::Savepoint::Message).await?;
                break;
            }
            Undo::Batch => {
                tx.rollback().await?;
                return Ok(run);
            }
        }
    }
    store::record_messages(&mut tx, &records).await?;
    tx.commit().await?;
    Ok(run)
}

/// One message's handling inside the caller's transaction: the dedup check, then its effects,
/// answers and ledger row.
async fn handle_in<B: Boxes>(
    c: &mut Conn,
    env: &Env,
    inc: &Incoming<'_>,
    reading: &Reading,
    now: Ts,
    boxes: &B,
) -> Result<Processed> {
    let seen = seen_of(inc, reading);
    let admitted = store::admit(c, std::slice::from_ref(&seen), inc.wait_for_claim).await?;
    if let Some(outcome) = admitted.into_iter().find_map(settled) {
        return Ok(outcome);
    }
    let (outcome, record) = handle_admitted(c, env, inc, reading, now, boxes).await?;
    if let Some(record) = record {
        store::record_message(c, &record).await?;
    }
    Ok(outcome)
}

/// The message's key in the ledger.
fn seen_of<'a>(inc: &Incoming<'a>, reading: &'a Reading) -> store::Seen<'a> {
    store::Seen {
        mailbox: inc.mailbox,
        uidvalidity: inc.uidvalidity,
        uid: inc.uid,
        sha256: &reading.sha256,
        content_sha256: &reading.content_sha256,
    }
}

/// What a message not this transaction's to handle came to: nothing is written for it.
fn settled(admission: store::Admission) -> Option<Processed> {
    match admission {
        store::Admission::New => None,
        store::Admission::Claimed => Some(Processed::Claimed),
        store::Admission::Done => Some(Processed::AlreadyDone),
    }
}

/// A message claimed and not handled before: its effects and answers, and the record of it
/// for the caller to write (none when its game turned out to be another instance's).
async fn handle_admitted<'a, B: Boxes>(
    c: &mut Conn,
    env: &Env,
    inc: &Incoming<'a>,
    reading: &'a Reading,
    now: Ts,
    boxes: &B,
) -> Result<(Processed, Option<store::MessageRecord<'a>>)> {
    let ctx = Ctx {
        inc,
        key: &reading.content_sha256,
        sha256: &reading.sha256,
        // A server clock ahead of ours must not date a mail in the future.
        arrived: inc.arrived.map_or(now, |a| a.min(now)),
        now,
    };
    let (outcome, tag) = sort(c, env, &ctx, reading, boxes).await?;
    if outcome == Processed::Claimed {
        // Its game is another instance's now: nothing was written, nothing is recorded.
        return Ok((outcome, None));
    }
    Ok((outcome, Some(record(inc, reading, outcome, tag, now))))
}

/// What a message not seen before does: automatic mail is recorded and never answered, an
/// unreadable one is answered from its header block, and a readable one goes to its box.
async fn sort<B: Boxes>(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    reading: &Reading,
    boxes: &B,
) -> Result<(Processed, Tag)> {
    let head = &reading.head;
    // Automatic mail first (RFC 3834): never answered, whether or not it can be read.
    let auto = match &reading.message {
        Ok(m) => m.auto,
        Err(_) => head.auto,
    };
    Ok(match (&reading.message, auto) {
        (_, Some(kind)) => {
            let reason = format!("automatic mail ({}): never answered", kind.as_str());
            drop_mail(c, ctx, head.from_address.as_deref(), None, &reason).await?;
            (Processed::Auto, Tag::default())
        }
        (Err(e), None) => (unreadable(c, env, ctx, head, e).await?, Tag::default()),
        (Ok(msg), None) if ctx.inc.mailbox == "confirm" => {
            let size = ctx.inc.raw.len() as u64;
            let outcome = boxes.confirm_box(c, env, ctx, msg, size).await?;
            (outcome, Tag::default())
        }
        (Ok(msg), None) => boxes.gm_box(c, env, ctx, msg).await?,
    })
}

/// The message's record (its `messages` row and its ledger row): what it was, what became of
/// it, and the game, power and phase it was about.
fn record<'a>(
    inc: &Incoming<'a>,
    reading: &'a Reading,
    outcome: Processed,
    tag: Tag,
    now: Ts,
) -> store::MessageRecord<'a> {
    let head = &reading.head;
    let m = reading.message.as_ref().ok();
    let subject = m.map_or(head.subject.as_str(), |m| m.subject.as_str());
    store::MessageRecord {
        seen: seen_of(inc, reading),
        message_id: m.map_or(head.message_id.as_deref(), |m| m.message_id.as_deref()),
        raw: inc.raw,
        received_at: now,
        internal_date: inc.arrived,
        from: m.map_or(head.from_address.as_deref(), |m| m.from_address.as_deref()),
        subject: crate::outgoing::compose::echo_subject(subject),
        game: tag.game,
        power: tag.power,
        phase: tag.phase,
        outcome: match outcome {
            Processed::Accepted => "accepted",
            Processed::Rejected => "rejected",
            Processed::Auto => "auto",
            Processed::Receipted => "receipt",
            Processed::Dropped => "dropped",
            Processed::AlreadyDone => "duplicate",
            Processed::Claimed => "claimed",
        },
    }
}

/// Set a message aside after its handling failed (a panic or a persistent error), so that the
/// mailbox goes on with the next one; the masters are alerted once (the alert's Message-ID is
/// fixed by the message).
pub async fn poison_message(
    pool: &Pool,
    env: &Env,
    inc: &Incoming<'_>,
    error: &str,
    now: Ts,
) -> Result<()> {
    let (sha, content) = (sha256_hex(inc.raw), content_sha256(inc.raw));
    let head = read_head(inc.raw);
    let seen = store::Seen {
        mailbox: inc.mailbox,
        uidvalidity: inc.uidvalidity,
        uid: inc.uid,
        sha256: &sha,
        content_sha256: &content,
    };
    let mut tx = crate::store::begin_write(pool).await?;
    if store::processed(&mut tx, &seen).await? {
        tx.rollback().await?;
        return Ok(());
    }
    store::record_poisoned(
        &mut tx,
        &seen,
        head.message_id.as_deref(),
        inc.raw,
        now,
        inc.arrived,
        error,
    )
    .await?;
    let subject = crate::outgoing::compose::echo_subject(&head.subject);
    let body = notices::message_set_aside(&notices::MessageSetAside {
        mailbox: inc.mailbox,
        uv: inc.uidvalidity,
        uid: inc.uid,
        mid: head.message_id.as_deref().unwrap_or("(none)"),
        from: head.from_address.as_deref().unwrap_or("(unknown)"),
        subject: &subject,
        sha: &sha,
        error,
    })?;
    alert_masters_hourly(
        &mut tx,
        env,
        None,
        AlertKind::MessageSetAside,
        &format!("a message in the {} mailbox was set aside", inc.mailbox),
        &body,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Where alerts about `game` go: the masters, else the game's GM address, else our own.
pub fn masters_of(env: &Env, game: Option<&GameRow>, of_game: &[String]) -> Vec<String> {
    // The game's own masters first (WM A: the GM and the TD); then the server's; the GM
    // mailbox itself only as the last resort (where no person may read it).
    if !of_game.is_empty() {
        return of_game.to_vec();
    }
    if !env.masters.is_empty() {
        return env.masters.clone();
    }
    match game {
        Some(g) => vec![g.gm_address.clone()],
        None => vec![env.alert_from.clone()],
    }
}

/// The masters of a game (or of the server), from the store.
pub(crate) async fn masters_for(
    c: &mut Conn,
    env: &Env,
    game: Option<&GameRow>,
) -> Result<Vec<String>> {
    let of_game: Vec<String> = match game {
        Some(g) => store::members(c, &g.id)
            .await?
            .into_iter()
            .filter(|m| m.role.is_master())
            .map(|m| m.address)
            .collect(),
        None => Vec::new(),
    };
    Ok(masters_of(env, game, &of_game))
}

/// Alert the masters, once per `key`.
pub async fn alert_masters(
    c: &mut Conn,
    env: &Env,
    game: Option<&GameRow>,
    key: &str,
    subject: &str,
    body: &str,
    now: Ts,
) -> Result<()> {
    let masters = masters_for(c, env, game).await?;
    let mails = alert_mails(env, game, &masters, key, subject, body);
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}

/// Alerts that received mail causes, which a sender could repeat at will: each master gets one
/// of a kind per hour, and the rest are counted, not sent (issue 21.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlertKind {
    /// A master's command mail refused as a whole (a stranger, a forger, a wrong secret).
    CommandRefused,
    /// A director's command mail refused as a whole.
    DirectorCommandRefused,
    /// A message set aside because handling it failed.
    MessageSetAside,
    /// A mail that could not be composed.
    ComposeFailed,
}

impl AlertKind {
    fn as_str(self) -> &'static str {
        match self {
            AlertKind::CommandRefused => "command-refused",
            AlertKind::DirectorCommandRefused => "director-command-refused",
            AlertKind::MessageSetAside => "message-set-aside",
            AlertKind::ComposeFailed => "compose-failed",
        }
    }
}

/// The hourly alert of `kind` about `scope` (a game, a tournament, or the server) to each of
/// `to`. A second one in the same hour has the same Message-ID, so the outbox counts it instead
/// of sending it; the alert says so, and how many were held back in the hour before.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn hourly_alerts(
    c: &mut Conn,
    env: &Env,
    game: Option<&GameRow>,
    to: &[String],
    kind: AlertKind,
    scope: &str,
    subject: &str,
    body: &str,
    now: Ts,
) -> Result<Vec<store::NewMail>> {
    let hour = now.div_euclid(3600);
    let key = |h: Ts| format!("hourly|{}|{scope}|{h}", kind.as_str());
    let mut mails = Vec::with_capacity(to.len());
    for addr in to {
        let before = store::duplicates_of(c, &compose::alert_id(env, &key(hour - 1), addr)).await?;
        let text = notices::hourly_alert(&notices::HourlyAlert { body, before })?;
        let mut m = compose::alert(env, addr, &key(hour), subject, &text);
        m.game = game.map(|g| g.id.clone());
        mails.push(m);
    }
    Ok(mails)
}

/// [`hourly_alerts`] to the masters of `game` (or of the server), enqueued.
pub(crate) async fn alert_masters_hourly(
    c: &mut Conn,
    env: &Env,
    game: Option<&GameRow>,
    kind: AlertKind,
    subject: &str,
    body: &str,
    now: Ts,
) -> Result<()> {
    let masters = masters_for(c, env, game).await?;
    let scope = game.map_or("server", |g| g.id.as_str());
    let mails = hourly_alerts(c, env, game, &masters, kind, scope, subject, body, now).await?;
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}

/// The alert to each master, once per `key`.
pub(crate) fn alert_mails(
    env: &Env,
    game: Option<&GameRow>,
    masters: &[String],
    key: &str,
    subject: &str,
    body: &str,
) -> Vec<store::NewMail> {
    masters
        .iter()
        .map(|to| {
            let mut m = compose::alert(env, to, key, subject, body);
            m.game = game.map(|g| g.id.clone());
            m
        })
        .collect()
}

/// The message being processed, for answers and drops.
pub struct Ctx<'a> {
    pub inc: &'a Incoming<'a>,
    /// The message's content digest (without trace headers): seeds the Message-IDs of its
    /// answers, so a redelivery's answers are the same mails.
    pub key: &'a str,
    /// The SHA-256 of the raw bytes as received: the receipt gives it.
    pub sha256: &'a str,
    /// When it reached the receiving server, in game time.
    pub arrived: Ts,
    pub now: Ts,
}

pub(crate) async fn drop_mail(
    c: &mut Conn,
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
pub(crate) enum Recipient {
    /// A registered player (or master) of some game.
    Registered,
    /// An address that plays in no game: From can be forged, so at most one answer a day, and
    /// none when our receiving server recorded an SPF, DKIM or DMARC failure for it.
    Stranger { auth_failed: bool },
}

/// Enqueue an answer within the limits, or record why it was not sent. A mail that could not
/// be composed is never sent half-made: the masters get the facts instead.
pub(crate) async fn answer(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    composed: compose::Composed,
    to: Recipient,
    game: Option<&GameRow>,
) -> Result<bool> {
    let now = ctx.now;
    let mut mail = match composed {
        Ok(m) => m,
        Err(e) => {
            compose_failed(c, env, game, &e, now).await?;
            return Ok(false);
        }
    };
    let gid = game.map(|g| g.id.as_str());
    if mail.game.is_none() {
        mail.game = gid.map(str::to_string);
    }
    let limits = &env.limits;
    // The usual case in one round trip: a registered address's answer, enqueued with its
    // counts under their limits (as below: its own hourly limit, or the one of mail that failed
    // authentication about it; and the game's).
    if to == Recipient::Registered {
        let unproven = mail.kind.unproven_sender();
        let within = store::Within {
            since: now - 3600,
            limits: store::WithinLimits {
                to_address: (!unproven).then_some(limits.answers_per_hour),
                auth_rejections: unproven.then_some(limits.auth_rejections_per_hour),
                in_game: gid.map(|_| limits.game_answers_per_hour),
            },
            game: gid,
        };
        if store::enqueue_within(c, &mail, now, &within).await? {
            return Ok(true);
        }
    }
    // A limit reached, a stranger, or the mail there already: the counts say which. Answers in
    // the last hour: to this address, and about this game (one query).
    let at_most = store::AnswerCounts {
        to_address: limits.answers_per_hour,
        auth_rejections: limits.auth_rejections_per_hour,
        in_game: limits.game_answers_per_hour,
    };
    let answers = store::answers_since(c, &mail.to, gid, now - 3600, at_most).await?;
    if let Some(why) = over_address_limit(c, env, &mail, to, game, &answers, now).await? {
        drop_mail(c, ctx, Some(&mail.to), gid, why).await?;
        return Ok(false);
    }
    if let Some(g) = game
        && answers.in_game >= env.limits.game_answers_per_hour
    {
        let why = "rate limit: too many answers in this game in an hour";
        drop_mail(c, ctx, Some(&mail.to), gid, why).await?;
        game_limit_reached(c, env, g, now).await?;
        return Ok(false);
    }
    Ok(store::enqueue(c, &mail, now).await?)
}

/// Why an answer to this address is held back, if it is: mail that failed authentication about
/// it, a stranger (at most one a day, none after an SPF, DKIM or DMARC failure), or a
/// registered address answered too often this hour (told so once, in a notice).
async fn over_address_limit(
    c: &mut Conn,
    env: &Env,
    mail: &store::NewMail,
    to: Recipient,
    game: Option<&GameRow>,
    answers: &store::AnswerCounts,
    now: Ts,
) -> Result<Option<&'static str>> {
    let limits = &env.limits;
    if mail.kind.unproven_sender() && answers.auth_rejections >= limits.auth_rejections_per_hour {
        // Counted apart from the player's own answers (issue 21.10), and never a notice: the
        // mail came from someone who could not prove who they are.
        return Ok(Some(
            "rate limit: too much mail that failed authentication about this address",
        ));
    }
    Ok(match to {
        Recipient::Stranger { auth_failed: true } => {
            Some("stranger: the receiving server recorded an SPF, DKIM or DMARC failure")
        }
        Recipient::Stranger { auth_failed: false } => {
            let today = store::answers_to(c, &mail.to, now - crate::time::DAY).await?;
            (today >= limits.stranger_answers_per_day).then_some("stranger: already answered today")
        }
        Recipient::Registered if mail.kind.unproven_sender() => None,
        Recipient::Registered if answers.to_address >= limits.answers_per_hour => {
            let gm = game.map_or(env.alert_from.as_str(), |g| g.gm_address.as_str());
            let notice = compose::too_many(env, gm, &mail.to, limits.answers_per_hour, now);
            store::enqueue(c, &notice, now).await?;
            Some("rate limit: too many answers to this address in an hour")
        }
        Recipient::Registered => None,
    })
}

/// The masters are told, once an hour, that a game's answers are held back.
async fn game_limit_reached(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<()> {
    let hour = now.div_euclid(3600);
    let body = notices::answer_limit(&notices::AnswerLimit {
        limit: env.limits.game_answers_per_hour,
        game: &g.id,
    })?;
    alert_masters(
        c,
        env,
        Some(g),
        &format!("game-rate|{}|{hour}", g.id),
        &format!("{}: answer limit reached", g.id),
        &body,
        now,
    )
    .await
}

/// An answer that could not be composed: alert the masters with what it would have said, at
/// most once an hour (each received mail could cause one).
pub(crate) async fn compose_failed(
    c: &mut Conn,
    env: &Env,
    game: Option<&GameRow>,
    e: &compose::ComposeError,
    now: Ts,
) -> Result<()> {
    let (subject, body) = compose_failed_text(e);
    alert_masters_hourly(c, env, game, AlertKind::ComposeFailed, &subject, &body, now).await
}

fn compose_failed_text(e: &compose::ComposeError) -> (String, String) {
    let body = format!(
        "A {} mail to {} could not be composed, so it was not sent: {}\n\n\
         What it would have said:\n{}\n",
        e.kind, e.to, e.error, e.facts
    );
    let subject = format!("a {} mail to {} could not be composed", e.kind, e.to);
    (subject, body)
}

/// A mail that could not be composed is never sent half-made: the masters get the facts.
pub fn compose_failed_mails(
    env: &Env,
    game: Option<&GameRow>,
    masters: &[String],
    e: &compose::ComposeError,
    key: &str,
) -> Vec<store::NewMail> {
    let (subject, body) = compose_failed_text(e);
    alert_mails(
        env,
        game,
        masters,
        &format!("compose|{key}|{}|{}", e.kind, e.to),
        &subject,
        &body,
    )
}

/// Is the sender a stranger, and did our receiving server record an authentication failure?
pub(crate) async fn recipient_kind(
    c: &mut Conn,
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
    c: &mut Conn,
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

/// What the ledger says a message was about.
#[derive(Default)]
pub struct Tag {
    pub game: Option<String>,
    pub power: Option<String>,
    pub phase: Option<String>,
}

impl Tag {
    /// About game `g`, no power or phase yet.
    pub fn of(g: &GameRow) -> Tag {
        Tag {
            game: Some(g.id.clone()),
            ..Tag::default()
        }
    }
}

/// The game a message is about: named in the subject, else the one active game its sender has a
/// part in, taken for this transaction ([`store::take_game`]; with `inc.wait_for_claim`, the
/// holder waited for). [`store::Taken::Held`]: another instance's mail or a tick has it now
/// (issue 28), or the reader's pass passed over an earlier mail of it ([`PassedOver`]).
pub(crate) async fn take_game(
    c: &mut Conn,
    msg: &ReadMessage,
    inc: &Incoming<'_>,
) -> Result<store::Taken> {
    let taken = match (
        take_game_row(c, msg, inc.wait_for_claim).await?,
        inc.passed_over,
    ) {
        // Its row stays locked until the commit: that keeps nothing from its earlier mail, which
        // waits for the pass's end too.
        (store::Taken::Game(g), Some(passed)) if passed.has(&g.id) => store::Taken::Held(g.id),
        (taken, _) => taken,
    };
    match (&taken, inc.passed_over) {
        (store::Taken::Held(id), Some(passed)) => passed.add(id),
        (store::Taken::Game(g), _) => {
            tracing::Span::current().record("game", g.id.as_str());
        }
        _ => {}
    }
    Ok(taken)
}

async fn take_game_row(c: &mut Conn, msg: &ReadMessage, wait: bool) -> Result<store::Taken> {
    // Each word of the subject that could be a game's name is looked up (an index, not a scan
    // of every game: a server may run thousands), after a reply's `Re:` (no game's name: one
    // lookup fewer, two on PostgreSQL, for every answer to an acknowledgement).
    let words = msg.subject.split_whitespace();
    for w in words
        .skip_while(|w| crate::acceptance::is_reply_prefix(w))
        .take(20)
    {
        let w = w.trim_matches(|ch: char| !ch.is_alphanumeric());
        if w.is_empty() || w.len() > 64 {
            continue;
        }
        // A game that is over (or not yet started) is found too: its mail gets a polite
        // answer saying so, not "no such game".
        match store::take_game(c, w, wait).await? {
            store::Taken::Absent => {}
            found => return Ok(found),
        }
    }
    // Else the one active game the sender plays in; none if several (the subject must say).
    let Some(from) = &msg.from_address else {
        return Ok(store::Taken::Absent);
    };
    let found = store::active_games_of(c, from).await?;
    match found.as_slice() {
        [g] => Ok(store::take_game(c, &g.id, wait).await?),
        _ => Ok(store::Taken::Absent),
    }
}
