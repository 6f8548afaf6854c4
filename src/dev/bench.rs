//! `chancery bench`: the service's figures over the real stack (a private Dovecot + Postfix on
//! loopback, a real SQLite file): confirmation-receipt latency, order-mail ingestion throughput,
//! and a deadline storm. Timing is the point here, so this is a command, not a test.

use super::DevError;
use crate::config::Config;
use crate::dev::localstack::{LocalStack, POWERS, imap_config as imap, server_config as server};
use crate::engine::{self, Env};
use crate::rules::Rules;
use crate::service::{self, SystemClock, Tasks};
use crate::store::{self, PlayerRow};
use crate::time::{DAY, Ts};
use crate::transport::imap::Mailbox;
use crate::transport::smtp::{OutMail, Sender};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// A game on the standard map with its seven players, `player1..7@example.test`, or with
/// `tag`, `player1+tag..` (delivered to the same mailboxes: the mail stack's recipient
/// delimiter is `+`).
async fn new_game(
    pool: &crate::store::Pool,
    id: &str,
    tag: Option<&str>,
    start: Ts,
) -> Result<(), DevError> {
    let mut c = pool.acquire().await?;
    let rules = serde_json::to_string(&Rules::default())?;
    store::create_game(
        &mut c,
        id,
        "standard",
        &rules,
        "gm@example.test",
        "confirm@example.test",
        start,
    )
    .await?;
    for (i, p) in POWERS.iter().enumerate() {
        store::add_player(
            &mut c,
            id,
            &PlayerRow {
                power: p.to_string(),
                address: player_address(i, tag),
                name: String::new(),
                tz: "UTC".into(),
                secret: format!("s{}", i + 1),
                extension_days_used: 0,
            },
        )
        .await?;
    }
    drop(c);
    crate::games::start_game(pool, id, start).await?;
    Ok(())
}

fn player_address(i: usize, tag: Option<&str>) -> String {
    match tag {
        Some(t) => format!("player{}+{t}@example.test", i % 7 + 1),
        None => format!("player{}@example.test", i % 7 + 1),
    }
}

/// Order mails per game in the ingestion bench: three a player, as a game whose players
/// revise their orders before a deadline gets them. A filled mailbox is a server's many games'
/// mail; one game's thousands of mails would (rightly) meet the answer limits.
const INGEST_MAILS_PER_GAME: usize = 21;

/// What `chancery bench` runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Confirmation receipts to time (0: none).
    pub receipts: usize,
    /// Order mails to ingest from a filled mailbox (0: none).
    pub ingest: usize,
    /// Games whose deadline falls at the same instant.
    pub games: usize,
    /// Send the storm's results through the outbox and time their delivery (and the mail
    /// server's own rate beside it).
    pub send: bool,
    /// The storm's results show their map (else every reader said MAP OFF: none is drawn).
    pub maps: bool,
    /// The storm's results delivered to their mailboxes and the MTA's own rate measured beside
    /// them (else dropped from the MTA's queue once accepted).
    pub deliver: bool,
    /// The outbox's SMTP connections (`smtp_connections`).
    pub connections: usize,
    /// A PostgreSQL server (`postgres://user:password@host:port`): the benches run on SQLite,
    /// then again with their stores on that server, one fresh database each.
    pub postgres: Option<String>,
    /// `chancery serve` instances sharing the ingestion's store and mailboxes (issue 28).
    pub instances: usize,
}

/// Where this pass of the bench keeps its stores.
#[derive(Clone, Debug)]
enum Stores {
    Sqlite,
    Postgres(String),
}

impl Stores {
    /// Store `name` of the bench, made empty: what a configuration names as its `database`,
    /// and its pool.
    async fn make(
        &self,
        dir: &Path,
        name: &str,
    ) -> Result<(PathBuf, crate::store::Pool), DevError> {
        match self {
            Stores::Sqlite => {
                let path = dir.join(format!("{name}.sqlite"));
                let pool = store::open(&path).await?;
                Ok((path, pool))
            }
            Stores::Postgres(server) => {
                let url = store::dialect::make_postgres_database(server, &database(name)).await?;
                let pool = store::open_database(&store::Database::Postgres(url.clone())).await?;
                Ok((PathBuf::from(url), pool))
            }
        }
    }

    /// Drop the stores [`Stores::make`] made on a PostgreSQL server (a SQLite file goes with
    /// the bench's directory).
    async fn clear(&self) -> Result<(), DevError> {
        if let Stores::Postgres(server) = self {
            for name in BENCH_STORES {
                store::dialect::drop_postgres_database(server, &database(name)).await?;
            }
        }
        Ok(())
    }
}

/// The names of the bench's stores.
const BENCH_STORES: [&str; 2] = ["storm", "chancery"];

/// The PostgreSQL database of the bench's store `name`: this run's own.
fn database(name: &str) -> String {
    format!("chb_{name}_{}", std::process::id())
}

/// The store a configuration's `database` names, opened again.
async fn reopen(database: &Path) -> Result<crate::store::Pool, DevError> {
    Ok(store::open_database(&store::Database::at(Path::new("/"), database)).await?)
}

/// Where the CPU went since `since` (nothing where `/proc` cannot be read).
fn print_cpu(what: &str, since: Option<&super::cpu::CpuSnapshot>) {
    if let Some(used) = since
        .zip(super::cpu::CpuSnapshot::take())
        .map(|(a, b)| a.until(&b))
    {
        println!("{what}: {used}");
    }
}

/// The storm's games, each with seven players' orders standing and its deadline passed.
async fn storm_games(
    pool: &crate::store::Pool,
    games: usize,
    t0: Ts,
    maps: bool,
) -> Result<(), DevError> {
    let opening = [
        ["A VIE - GAL", "A BUD - SER", "F TRI - ALB", ""],
        ["F LON - NTH", "F EDI - NWG", "A LVP - YOR", ""],
        ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO", ""],
        ["F KIE - DEN", "A BER - KIE", "A MUN - RUH", ""],
        ["F NAP - ION", "A ROM - APU", "A VEN H", ""],
        [
            "F STP/SC - BOT",
            "A MOS - UKR",
            "A WAR - GAL",
            "F SEV - BLA",
        ],
        ["F ANK - BLA", "A CON - BUL", "A SMY - ARM", ""],
    ];
    for g in 0..games {
        let id = format!("g{g}");
        new_game(pool, &id, None, t0).await?;
        let mut c = pool.acquire().await?;
        for (i, p) in POWERS.iter().enumerate() {
            let orders: Vec<store::diplomacy::StandingOrder> = opening[i]
                .iter()
                .filter(|o| !o.is_empty())
                .map(|o| store::diplomacy::StandingOrder {
                    order: o.to_string(),
                    written: o.to_string(),
                })
                .collect();
            store::diplomacy::set_standing_orders(&mut c, &id, "S1901M", p, &orders, true, t0)
                .await?;
            if !maps {
                store::set_maps(&mut c, &id, &player_address(i, None), false, t0).await?;
            }
        }
        if !maps {
            store::set_maps(&mut c, &id, "gm@example.test", false, t0).await?;
        }
    }
    Ok(())
}

/// `games` games with one deadline: adjudicated, stored, and their results enqueued; then, with
/// a mail stack, sent through the outbox as `chancery serve` sends them, and the mail server's
/// own rate measured beside it.
async fn storm(
    dir: &Path,
    opts: &Options,
    stores: &Stores,
    stack: Option<&LocalStack>,
) -> Result<(), DevError> {
    let (db, pool) = stores.make(dir, "storm").await?;
    let t0: Ts = 1_795_000_000;
    storm_games(&pool, opts.games, t0, opts.maps).await?;
    let env = Env {
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        alert_from: "gm@example.test".into(),
        confirm_from: "confirm@example.test".into(),
        ..Env::default()
    };
    let env = engine::keyed(&pool, env, t0).await?;
    settle(&pool).await?;
    if let Some(stack) = stack {
        warm_up(stack, opts).await?;
    }
    let start = Instant::now();
    let n = crate::games::tick(&pool, &env, t0 + 3 * DAY + 1).await?;
    let took = start.elapsed();
    // Sent at once, as `chancery serve` would: the storm's own counts below are the bench's, not
    // the service's, and come after.
    let sent = match stack {
        Some(stack) => Some(Delivery::new(&db, dir, opts).send(stack, start).await?),
        None => None,
    };
    let mut c = pool.acquire().await?;
    let (pending, sent_before, _) = store::outbox_counts(&mut c).await?;
    let size = mail_size(&mut c).await?;
    drop(c);
    pool.close().await;
    let mails = pending + sent_before;
    println!(
        "deadline storm: {n} games adjudicated, stored, and {mails} results mails enqueued in {:.2} s ({:.2} ms per game)",
        took.as_secs_f64(),
        took.as_secs_f64() * 1000.0 / n.max(1) as f64
    );
    if let (Some(stack), Some(sent)) = (stack, sent) {
        send_storm(stack, opts, sent, mails, size, start).await?;
    }
    println!("peak memory (RSS): {:.0} MB", peak_rss_mb());
    Ok(())
}

/// The storm's results mails' mean size as sent: a mail with a map carries its text twice (the
/// text part, and the HTML's) and the PNG in base64, 4 bytes for 3 (the maps are not stored:
/// one is drawn here, as the outbox drew it, for its size).
async fn mail_size(c: &mut crate::store::Conn) -> Result<i64, DevError> {
    let (text, with_map, mails): (i64, i64, i64) = sqlx::query_as(
        "SELECT CAST(coalesce(avg(length(body)), 0) AS BIGINT), \
         count(picture_id), count(*) FROM outbox",
    )
    .fetch_one(&mut *c)
    .await?;
    let first: Option<(String, String)> =
        sqlx::query_as("SELECT game_id, phase FROM outbox_pictures ORDER BY id LIMIT 1")
            .fetch_optional(&mut *c)
            .await?;
    let png = match first {
        Some((game, phase)) => crate::games::drawing(c, &game, &phase)
            .await
            .ok()
            .flatten()
            .and_then(|d| d.png())
            .map_or(0, |p| p.len() as i64),
        None => 0,
    };
    let extra = if mails > 0 {
        with_map * (text + png * 4 / 3) / mails
    } else {
        0
    };
    Ok(text + extra)
}

/// The filled store written out (its log checkpointed, the OS's dirty pages flushed), so that
/// the tick timed next does not share the disk with the filling's writes: with 10,000 games the
/// kernel's write-back of them ran into the tick and made its per-game cost depend on how much
/// was filled, not on how much it did.
async fn settle(pool: &crate::store::Pool) -> Result<(), DevError> {
    let mut c = pool.acquire().await?;
    store::checkpoint(&mut c).await?;
    drop(c);
    let synced = std::process::Command::new("sync").status()?;
    if !synced.success() {
        return Err(DevError::Stack(format!("sync: {synced}")));
    }
    Ok(())
}

/// Delivery to the mailboxes held (see `LocalStack::hold_delivery`), and the mail server warmed
/// up (its smtpd and cleanup processes started, its queue directories in the page cache) as a
/// server that has been running is: otherwise whichever of the two timed runs goes first pays
/// for the start, and the ratio says more about their order than about the outbox.
async fn warm_up(stack: &LocalStack, opts: &Options) -> Result<(), DevError> {
    stack.hold_delivery(true)?;
    let to = BASELINE_SINKS.map(|user| format!("{user}@example.test"));
    super::smtp_baseline::send(
        stack.smtp_port(),
        WARM_UP,
        2000,
        opts.connections,
        [to[0].as_str(), to[1].as_str()],
    )
    .await?;
    Ok(())
}

/// What the outbox's run of the storm measured: when the last results mail was accepted by the
/// MTA, since the deadline, and how long the service sent, from its start.
struct Sent {
    accepted: Duration,
    sending: Duration,
    /// The CPU time Chancery's process used meanwhile (user and system; the mail server's is
    /// its own processes').
    cpu: f64,
}

/// The storm's results sent by the outbox, then the MTA's own run of as many mails of the same
/// size beside it. Delivery to the mailboxes is held while each is timed (both alike: see
/// `LocalStack::hold_delivery`), then released and timed to the last inbox.
async fn send_storm(
    stack: &LocalStack,
    opts: &Options,
    sent: Sent,
    pending: i64,
    size: i64,
    deadline: Instant,
) -> Result<(), DevError> {
    let Sent {
        accepted,
        sending,
        cpu,
    } = sent;
    let ours = pending as f64 / sending.as_secs_f64();
    // Printed at once: the delivery below can take long.
    println!(
        "storm delivery: the last of {pending} results mails accepted by the MTA {:.1} s after the deadline (outbox {ours:.0} mails/s on {} connections, {cpu:.1} s of Chancery's CPU, delivery to the mailboxes held meanwhile); peak memory (RSS) so far {:.0} MB",
        accepted.as_secs_f64(),
        opts.connections,
        peak_rss_mb()
    );
    if !opts.deliver {
        stack.drop_queued()?;
        stack.hold_delivery(false)?;
        println!("storm delivery: the results dropped from the MTA's queue (--no-delivery)");
        return Ok(());
    }
    // The MTA's own run, now, on the same stack with the storm's results set aside: as many mails
    // of the same size, each to two recipients, as each results mail goes to its reader and the
    // archive. The sinks take them as any mailbox would (queued, and deferred while delivery is
    // held, as the storm's were) and discard them once released, so the storm's delivery below
    // is not slowed by them.
    stack.hold_queued(true)?;
    let to = BASELINE_SINKS.map(|user| format!("{user}@example.test"));
    let mta = super::smtp_baseline::send(
        stack.smtp_port(),
        usize::try_from(pending).unwrap_or(0),
        usize::try_from(size).unwrap_or(0),
        opts.connections,
        [to[0].as_str(), to[1].as_str()],
    )
    .await?;
    let theirs = pending as f64 / mta.as_secs_f64();
    println!(
        "the MTA's own rate, same run: {pending} mails of {size} bytes to two recipients on {} connections in {:.1} s = {theirs:.0} mails/s; the outbox reached {:.0}% of it",
        opts.connections,
        mta.as_secs_f64(),
        100.0 * ours / theirs
    );
    stack.hold_queued(false)?;
    stack.hold_delivery(false)?;
    let released = deadline.elapsed();
    let visible = wait_for(deadline, async || {
        Some(inbox_total(stack.imap_port()).await >= pending as u64)
    })
    .await;
    match visible {
        Some(visible) => println!(
            "storm delivery: released at {:.1} s, the last results mail in its reader's inbox {:.1} s after the deadline ({:.1} s of the mail server's delivery)",
            released.as_secs_f64(),
            visible.as_secs_f64(),
            (visible - released).as_secs_f64()
        ),
        None => println!(
            "storm delivery: released at {:.1} s; {} of the {pending} results mails in their readers' inboxes after {} minutes, when the bench stopped waiting",
            released.as_secs_f64(),
            inbox_total(stack.imap_port()).await,
            WAIT.as_secs() / 60
        ),
    }
    Ok(())
}

/// The process's peak resident set (VmHWM), in MB; NaN where /proc cannot tell.
/// The CPU time this process has used (user and system), from /proc/self/stat (NaN if unread).
fn cpu_seconds() -> f64 {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command's closing parenthesis: utime and stime are the 12th
            // and 13th of them (proc(5)).
            let rest = s.rsplit_once(')')?.1;
            let mut fields = rest.split_whitespace().skip(11);
            let user: f64 = fields.next()?.parse().ok()?;
            let system: f64 = fields.next()?.parse().ok()?;
            Some(user + system)
        });
    // The kernel's USER_HZ, 100 on every Linux this runs on.
    ticks.map_or(f64::NAN, |t| t / 100.0)
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The storm's results sent by the outbox, as `chancery serve` sends them.
struct Delivery<'a> {
    db: &'a Path,
    dir: &'a Path,
    connections: usize,
}

/// The mailboxes the storm's results go to: the seven players and the GM box (the GM's copy,
/// which the service reads and sets aside as automatic mail, as it would in a real storm).
const STORM_READERS: [&str; 8] = [
    "player1", "player2", "player3", "player4", "player5", "player6", "player7", "gm",
];

impl<'a> Delivery<'a> {
    fn new(db: &'a Path, dir: &'a Path, opts: &Options) -> Self {
        Delivery {
            db,
            dir,
            connections: opts.connections,
        }
    }

    /// Run the service's outbox until every row is sent: when the last was accepted by the MTA,
    /// since `deadline`, and how long the service took, from its start (what the outbox's rate is
    /// judged by: the storm's own counts and the store's checkpoint before it are not sending).
    async fn send(&self, stack: &LocalStack, deadline: Instant) -> Result<Sent, DevError> {
        let cfg = self.config(stack);
        let started = Instant::now();
        let cpu_before = cpu_seconds();
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let base = self.dir.to_path_buf();
        let server = tokio::spawn(async move {
            service::serve_with(
                cfg,
                &base,
                Arc::new(SystemClock),
                stopped,
                Tasks { scheduler: false },
            )
            .await
        });
        let pool = reopen(self.db).await?;
        let accepted = wait_for(deadline, async || {
            let mut c = pool.acquire().await.ok()?;
            Some(!store::outbox_has_pending(&mut c).await.ok()?)
        })
        .await
        .ok_or_else(|| {
            DevError::Stack("the outbox had not sent the storm's results in 30 minutes".into())
        })?;
        let sending = started.elapsed();
        let cpu = cpu_seconds() - cpu_before;
        let _ = stop.send(true);
        let _ = server.await;
        Ok(Sent {
            accepted,
            sending,
            cpu,
        })
    }

    fn config(&self, stack: &LocalStack) -> Config {
        let (smtp_port, imap_port) = (stack.smtp_port(), stack.imap_port());
        Config {
            database: self.db.to_path_buf(),
            authserv_id: "mx.example.test".into(),
            message_id_domain: "chancery.example.test".into(),
            poll_seconds: 30,
            smtp: server(smtp_port, ""),
            gm_mailbox: server(imap_port, "gm@example.test"),
            confirm_mailbox: super::localstack::confirm_config(imap_port),
            archive_mailbox: Some(server(imap_port, "archive@example.test")),
            masters: vec!["td@example.test".into()],
            deadline_grace_seconds: 5,
            archive_grace_seconds: 60,
            smtp_connections: self.connections,
            web: None,
            limits: Default::default(),
        }
    }
}

/// Mails the MTA's own client sends to the sinks before the storm's are timed (see `send_storm`).
const WARM_UP: usize = 1000;

/// How long the storm's bench waits for the mail server's delivery.
const WAIT: Duration = Duration::from_secs(1800);

/// Poll `done` every 100 ms, for at most [`WAIT`]: the time since `from` when it held.
async fn wait_for(from: Instant, mut done: impl AsyncFnMut() -> Option<bool>) -> Option<Duration> {
    loop {
        if done().await == Some(true) {
            return Some(from.elapsed());
        }
        if from.elapsed() > WAIT {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The addresses the MTA's own run sends to: `scripts/mailstack`'s sinks, which accept and discard.
const BASELINE_SINKS: [&str; 2] = ["sink1", "sink2"];

/// Messages in the storm readers' inboxes, all together.
async fn inbox_total(imap_port: u16) -> u64 {
    let mut total = 0;
    for user in STORM_READERS {
        total += inbox_count(imap_port, user).await;
    }
    total
}

/// Messages in `user`'s inbox (0 when it cannot be read).
async fn inbox_count(imap_port: u16, user: &str) -> u64 {
    let cfg = imap(imap_port, &format!("{user}@example.test"));
    match Mailbox::connect(&cfg, "INBOX").await {
        Ok(mb) => {
            let n = u64::from(mb.exists());
            mb.logout().await;
            n
        }
        Err(_) => 0,
    }
}

/// Run the benches. `root` is the repository (for `scripts/mailstack`).
pub async fn run(root: &Path, opts: &Options) -> Result<(), DevError> {
    crate::transport::init_crypto();
    // The servers run on this process's runtime: its threads are theirs (tokio reads
    // TOKIO_WORKER_THREADS; one a core by default).
    let workers = tokio::runtime::Handle::current().metrics().num_workers();
    println!(
        "runtime: {workers} worker thread{}",
        if workers == 1 { "" } else { "s" }
    );
    let Some(server) = &opts.postgres else {
        return run_on(root, opts, &Stores::Sqlite).await;
    };
    // Side by side: the same benches on each database, one after the other.
    println!("== SQLite");
    run_on(root, opts, &Stores::Sqlite).await?;
    let shown = server
        .rsplit_once('@')
        .map_or(server.as_str(), |(_, host)| host);
    println!("== PostgreSQL ({shown})");
    run_on(root, opts, &Stores::Postgres(server.clone())).await
}

/// Every bench asked for, with its stores in `stores`.
async fn run_on(root: &Path, opts: &Options, stores: &Stores) -> Result<(), DevError> {
    let dir = std::env::temp_dir().join(format!("chb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    if opts.receipts == 0 && opts.ingest == 0 && !opts.send {
        // The storm alone: no mail stack needed.
        let result = storm(&dir, opts, stores, None).await;
        let _ = std::fs::remove_dir_all(&dir);
        return result.and(stores.clear().await);
    }
    // Another bench (or stack) on the machine: MAILSTACK_PORT_BASE moves this one.
    let base = std::env::var("MAILSTACK_PORT_BASE")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(33000);
    let stack = LocalStack::start(root, &dir, base)?;
    let mut result = Ok(());
    if opts.games > 0 {
        let storm_dir = dir.join("storm");
        std::fs::create_dir_all(&storm_dir)?;
        result = storm(&storm_dir, opts, stores, opts.send.then_some(&stack)).await;
    }
    if result.is_ok() && (opts.receipts > 0 || opts.ingest > 0) {
        // The storm's copies delivered (the archive's last) before the next bench is timed.
        if opts.games > 0 && opts.send {
            result = queue_emptied(&stack).await;
        }
    }
    if result.is_ok() && (opts.receipts > 0 || opts.ingest > 0) {
        result = mail_benches(&dir, &stack, opts, stores).await;
    }
    drop(stack);
    let _ = std::fs::remove_dir_all(&dir);
    result.and(stores.clear().await)
}

async fn mail_benches(
    dir: &Path,
    stack: &LocalStack,
    opts: &Options,
    stores: &Stores,
) -> Result<(), DevError> {
    let (receipts, ingest) = (opts.receipts, opts.ingest);
    let (smtp_port, imap_port) = (stack.smtp_port(), stack.imap_port());
    let now = chrono::Utc::now().timestamp();
    let (db, pool) = stores.make(dir, "chancery").await?;
    {
        new_game(&pool, "b1", None, now).await?;
        for g in 0..ingest.div_ceil(INGEST_MAILS_PER_GAME) {
            let id = format!("i{g}");
            new_game(&pool, &id, Some(&id), now).await?;
        }
        pool.close().await;
    }
    let cfg = Config {
        database: db.clone(),
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        poll_seconds: 30,
        smtp: server(smtp_port, ""),
        gm_mailbox: server(imap_port, "gm@example.test"),
        confirm_mailbox: super::localstack::confirm_config(imap_port),
        archive_mailbox: Some(server(imap_port, "archive@example.test")),
        masters: vec!["td@example.test".into()],
        deadline_grace_seconds: 5,
        archive_grace_seconds: 60,
        smtp_connections: 4,
        web: None,
        // The receipts' seven senders mail hundreds of times about one game: the answer
        // limits would (rightly) silence them. The ingestion's mails are spread over games as
        // a server's are (tests/engine_hostile.rs tests the limits).
        limits: crate::engine::Limits {
            answers_per_hour: i64::MAX,
            game_answers_per_hour: i64::MAX,
            ..Default::default()
        },
    };
    let sender = Sender::new(&imap(smtp_port, ""))?;
    // Mail `i` of game `game`, from its `i % 7`th power.
    let mail = |i: usize, game: &str, player: &str, to: &str, tag: &str| OutMail {
        from: player.to_string(),
        to: vec![to.to_string()],
        subject: format!("{game} {} S1901M", POWERS[i % 7]),
        body: format!(
            "SECRET s{}\nA Vie H\nF Lon H\nA Par H\nA Ber H\nA Rom H\nA Mos H\nA Con H\n",
            i % 7 + 1
        ),
        message_id: format!("{tag}-{i}@bench.example.test"),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
        html: None,
    };
    // Ingestion: the order mails are delivered to the GM mailbox first; then the server starts,
    // and the clock runs from its start until every one is processed (fetched, read, checked,
    // stored, acknowledgement enqueued, ledger committed, flagged).
    for i in 0..ingest {
        let game = format!("i{}", i / INGEST_MAILS_PER_GAME);
        let from = player_address(i, Some(&game));
        sender
            .send(&mail(i, &game, &from, "gm@example.test", "i"))
            .await?;
    }
    {
        let mut gm = Mailbox::connect(&imap(imap_port, "gm@example.test"), "INBOX").await?;
        let waiting = Instant::now();
        while gm.fetch_after(0, usize::MAX).await?.messages.len() < ingest {
            if waiting.elapsed() > Duration::from_secs(120) {
                return Err(DevError::Stack(
                    "the order mails were not all delivered".into(),
                ));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        gm.logout().await;
    }
    // The mail the server sends meanwhile is parked in the MTA's hold queue while the ingestion
    // is timed (see `LocalStack::hold_incoming`): the acknowledgements' delivery by Postfix and
    // Dovecot would otherwise share the 2 cores with the server being timed, and the more so the
    // longer the ingestion takes, which would time the mail server rather than the store.
    stack.hold_incoming(true)?;
    let pool = reopen(&db).await?;
    let ingest_start = Instant::now();
    let ingest_cpu = super::cpu::CpuSnapshot::take();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    // One server, or several sharing the store and the mailboxes (issue 28: on PostgreSQL; a
    // SQLite file is one server's).
    let instances = match stores {
        Stores::Sqlite => 1,
        Stores::Postgres(_) => opts.instances.max(1),
    };
    // Whole servers, their schedulers included: what a server does for each message it reads
    // (a wake of its scheduler) is timed with it.
    let servers: Vec<_> = (0..instances)
        .map(|_| {
            let (dir, cfg, stopped) = (dir.to_path_buf(), cfg.clone(), stopped.clone());
            tokio::spawn(async move {
                service::serve_with(cfg, &dir, Arc::new(SystemClock), stopped, Tasks::default())
                    .await
            })
        })
        .collect();
    let count = |pool: crate::store::Pool| async move {
        let mut c = pool.acquire().await?;
        let r: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger WHERE mailbox = 'gm'")
            .fetch_one(&mut *c)
            .await?;
        Ok::<i64, DevError>(r)
    };
    while count(pool.clone()).await? < ingest as i64 {
        if ingest_start.elapsed() > Duration::from_secs(300) {
            return Err(DevError::Stack("ingestion did not finish in 300 s".into()));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let took = ingest_start.elapsed();
    println!(
        "ingestion: {ingest} order mails waiting in the GM mailbox processed end to end in {:.2} s = {:.0} per second ({} instance{}; mail sent meanwhile held in the MTA)",
        took.as_secs_f64(),
        ingest as f64 / took.as_secs_f64(),
        instances,
        if instances > 1 { "s" } else { "" }
    );
    print_cpu("ingestion's CPU", ingest_cpu.as_ref());

    // Receipt latency: from the SMTP server's acceptance of a mail to the confirmation box to
    // the receipt in the player's mailbox. Ten mails in flight at a time. Timed alone: the
    // ingestion's acknowledgements are sent and delivered first, and the players' inboxes read
    // past them (else the receipts would be timed through the mail server's delivery of that
    // flood, and the bench's own reading of it).
    drain_outbox(&pool).await?;
    // The same work on either store: on SQLite the outbox waits for the single writer while the
    // ingestion runs and sends its acknowledgements after it, on PostgreSQL it sends alongside.
    let answered = ingest_start.elapsed();
    println!(
        "ingestion, answered: the same {ingest} mails processed and every acknowledgement handed to the MTA in {:.2} s = {:.0} per second",
        answered.as_secs_f64(),
        ingest as f64 / answered.as_secs_f64(),
    );
    print_cpu("ingestion, answered, CPU", ingest_cpu.as_ref());
    // Every acknowledgement is in the MTA now, held: released for delivery.
    stack.hold_incoming(false)?;
    // Every copy delivered, the archive's too (the MTA may deliver those long after the
    // readers' own): a backlog in the MTA would be timed as the receipts' delay.
    queue_emptied(stack).await?;
    let mut readers: Vec<(Mailbox, u32)> = Vec::new();
    for i in 0..7 {
        let address = format!("player{}@example.test", i + 1);
        readers.push(read_past_delivered(&pool, imap_port, &address).await?);
    }
    let to_confirm = |i: usize| {
        mail(
            i,
            "b1",
            &player_address(i, None),
            "confirm@example.test",
            "r",
        )
    };
    let mut latencies = time_receipts(&sender, to_confirm, &mut readers, receipts).await?;
    latencies.sort_by(|a, b| a.total_cmp(b));
    println!(
        "confirmation receipts: p50 {:.3} s, p99 {:.3} s, max {:.3} s over {} messages",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN),
        latencies.len()
    );

    pool.close().await;
    let _ = stop.send(true);
    for server in servers {
        let _ = server.await;
    }
    Ok(())
}

/// Wait until the stack's mail server has handed every copy to the mailboxes.
async fn queue_emptied(stack: &LocalStack) -> Result<(), DevError> {
    let waiting = Instant::now();
    let mut released = Instant::now();
    while !stack.queue_empty() {
        if waiting.elapsed() > Duration::from_secs(600) {
            return Err(DevError::Stack(
                "the mail server's queue was not empty after 600 s".into(),
            ));
        }
        // A message held as a hold ended (`LocalStack::hold_incoming`) is released too.
        if released.elapsed() > Duration::from_secs(2) {
            stack.release_held()?;
            released = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Wait until the outbox has sent everything (the ingestion's acknowledgements).
async fn drain_outbox(pool: &crate::store::Pool) -> Result<(), DevError> {
    let waiting = Instant::now();
    loop {
        let mut c = pool.acquire().await?;
        if !store::outbox_has_pending(&mut c).await? {
            return Ok(());
        }
        if waiting.elapsed() > Duration::from_secs(600) {
            let (pending, _, _) = store::outbox_counts(&mut c).await?;
            return Err(DevError::Stack(format!(
                "{pending} mails still unsent after 600 s"
            )));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A reader of `address`'s inbox, past every mail the outbox has sent there (waiting for the
/// mail server to deliver them): the UID the receipts come after.
async fn read_past_delivered(
    pool: &crate::store::Pool,
    imap_port: u16,
    address: &str,
) -> Result<(Mailbox, u32), DevError> {
    let sent: i64 = {
        let mut c = pool.acquire().await?;
        sqlx::query_scalar(
            "SELECT count(*) FROM outbox WHERE to_address = $1 AND sent_at IS NOT NULL",
        )
        .bind(address)
        .fetch_one(&mut *c)
        .await?
    };
    let mut mb = Mailbox::connect(&imap(imap_port, address), "INBOX").await?;
    let (mut last, mut delivered) = (0, 0);
    let waiting = Instant::now();
    loop {
        let read = mb.fetch_after(last, 1000).await?;
        delivered += read.messages.len() as i64;
        last = read.messages.iter().map(|f| f.uid).fold(last, u32::max);
        if read.more {
            continue;
        }
        if delivered >= sent {
            return Ok((mb, last));
        }
        if waiting.elapsed() > Duration::from_secs(600) {
            return Err(DevError::Stack(format!(
                "{delivered} of {sent} mails to {address} delivered after 600 s"
            )));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Send `receipts` mails to the confirmation box, ten in flight, and time each from the SMTP
/// server's acceptance to its receipt in the player's inbox. The inboxes are read all at once
/// and apart from the sending, so that neither the other inboxes nor a send delays noticing a
/// receipt (the time is the mail's, not the bench's).
async fn time_receipts(
    sender: &Sender,
    mail: impl Fn(usize) -> OutMail,
    readers: &mut [(Mailbox, u32)],
    receipts: usize,
) -> Result<Vec<f64>, DevError> {
    let started = Instant::now();
    let late = || started.elapsed() > Duration::from_secs(300);
    let sent_at: RefCell<HashMap<String, Instant>> = RefCell::default();
    let latencies: RefCell<Vec<f64>> = RefCell::default();
    let send = async {
        for i in 0..receipts {
            while i.saturating_sub(latencies.borrow().len()) >= 10 && !late() {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            let m = mail(i);
            sender.send(&m).await?;
            sent_at.borrow_mut().insert(m.message_id, Instant::now());
        }
        Ok::<(), DevError>(())
    };
    let watch = async {
        while latencies.borrow().len() < receipts {
            if late() {
                let n = latencies.borrow().len();
                return Err(DevError::Stack(format!(
                    "only {n} of {receipts} receipts arrived in 300 s"
                )));
            }
            let reads = readers.iter_mut().map(|(mb, last)| async move {
                let got = mb.fetch_after(*last, 1000).await?;
                *last = got.messages.iter().map(|f| f.uid).fold(*last, u32::max);
                Ok::<_, DevError>(got.messages)
            });
            for got in futures::future::join_all(reads).await {
                for f in got? {
                    if let Ok(m) = crate::message::read_message(&f.raw)
                        && let Some(parent) = m.in_reply_to.as_deref()
                        && let Some(t) = sent_at.borrow().get(parent.trim_matches(['<', '>']))
                    {
                        latencies.borrow_mut().push(t.elapsed().as_secs_f64());
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        Ok(())
    };
    tokio::try_join!(send, watch)?;
    Ok(latencies.into_inner())
}
