//! Issue 26's acceptance test: the Antichess World Championship's office run by mail over the
//! real mail stack (Dovecot + Postfix on loopback) and a real SQLite file, the clock injected
//! and the ticks the test's own. Every entrant's mail goes through Postfix to the office's
//! mailbox; every answer is mailed back through Postfix. Seven entrants read their mail in
//! their own mailboxes (player1..player7@example.test); the other twenty-eight play from
//! another domain, whose mail the stack keeps in its catch-all mailbox (read by its To).
//!
//! - ACWC "Player eligibility", "Format": 35 entries by mail with both ratings, approved by the
//!   TD; the holder and the runner-up skip the Swiss, so 33 play it: 6 rounds (more than 32
//!   players: ceil(log2 33)), a bye each round while the count is odd;
//! - "Match negotiations", in every round: a watched player's match negotiated by mail; in
//!   round 1 a rule-breaking offer (three on one date) refused with its reason, and a player
//!   short of 3 offers by Wednesday at fault, the opponent choosing the time;
//! - "Match rules": in round 2 a no-show claimed by two messages 10 minutes apart (one sent too
//!   soon refused) and the win claimed: the match forfeited; every other result reported by
//!   mail, confirmed or standing after 48 hours;
//! - "Disqualification and withdrawals": in round 3 a player withdraws by mail: the opponent
//!   wins the uncompleted match, and the player is in no later pairing;
//! - "Pairing details": every round's pairing the checker finds as the rules give it, and
//!   every pairings mail after the first carries the standings and crosstable;
//! - "Candidates": the runner-up and the Swiss's three, three rounds by the Berger table;
//! - "Final": 6-6, then two-game blocks level to game 30, an Armageddon with sealed bids
//!   (the first told only to its bidder, revealed together), the champion announced.

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::acwc::Player;
use chancery::acwc::checker::{Tournament, check};
use chancery::acwc::seeding::{Entrant, FixedQualifiers, Seeding};
use chancery::acwc::swiss::{Match, Outcome, Round};
use chancery::commands::GmCommand;
use chancery::engine;
use chancery::games;
use chancery::games::acwc::admin::{NewChampionship, create};
use chancery::policy::{DAY, HOUR, Ts};
use chancery::service::Clock;
use chancery::store::Pool;
use chancery::store::{self, Role, acwc::MatchRow, acwc::StageRow};
use chancery::transport::imap::Mailbox;
use chancery::transport::smtp::Sender;
use mailstack::{LOOK_EVERY, LOOKS, Stack, TestClock, inbox, send};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const GAME: &str = "acwc19";
/// The Tournament Director (a mailbox on the stack).
const TD: &str = "td@example.test";
/// Monday 30 September 2019, 00:00 UTC: the Swiss's first round.
const T0: Ts = 1_569_801_600;
/// Entries: 35, the holder and the runner-up first.
const ENTRIES: usize = 35;

/// Entrant `k`'s account: the 2019 holder and runner-up, then `swiss3` .. `swiss35`.
fn account(k: usize) -> String {
    match k {
        0 => "arimakat".to_string(),
        1 => "Ogul1".to_string(),
        _ => format!("swiss{}", k + 1),
    }
}

/// The seven watched entrants read their own mailbox: the holder, the runner-up, the three top
/// Swiss seeds, and two in the middle of the field (no bye comes their way early): [`ABSENT`]
/// does not show up, [`LEAVER`] withdraws.
fn mailbox(k: usize) -> Option<usize> {
    match k {
        0..=4 => Some(k + 1),
        ABSENT => Some(6),
        LEAVER => Some(7),
        _ => None,
    }
}

/// Round 2's no-show, and round 3's withdrawal.
const ABSENT: usize = 20;
const LEAVER: usize = 21;

fn plays(m: &MatchRow, k: usize) -> bool {
    m.a == account(k) || m.b.as_deref() == Some(account(k).as_str())
}

fn address_of(k: usize) -> String {
    match mailbox(k) {
        Some(n) => format!("player{n}@example.test"),
        None => format!("{}@club.test", account(k).to_lowercase()),
    }
}

/// (cut-off rating, peak): seeds in entry order.
fn ratings(k: usize) -> (u32, u32) {
    let r = 2500 - 10 * k as u32;
    (r, r + 20)
}

fn index_of(account_name: &str) -> usize {
    (0..ENTRIES)
        .find(|k| account(*k) == account_name)
        .expect("an entrant")
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn gmt(t: Ts) -> String {
    chancery::time::format_gmt(t).replace(" GMT", "")
}

type Server = (
    tokio::sync::watch::Sender<bool>,
    tokio::task::JoinHandle<Result<(), chancery::service::ServeError>>,
);

struct Office {
    stack: Stack,
    pool: Pool,
    sender: Sender,
    clock: Arc<TestClock>,
    env: engine::Env,
    secrets: BTreeMap<usize, String>,
    sent: usize,
    server: Option<Server>,
}

impl Office {
    fn at(&self, t: Ts) {
        self.clock.0.store(t, Ordering::SeqCst);
    }

    /// Entrant `k`'s mail (with their secret once approved), sent through Postfix at `t`, and
    /// read by the server before this returns.
    async fn mail(&mut self, k: usize, body: &str, t: Ts) {
        self.at(t);
        self.sent += 1;
        let secret = self
            .secrets
            .get(&k)
            .map(|s| format!("SECRET {s}\n"))
            .unwrap_or_default();
        let id = format!("acwc{}", self.sent);
        let text = format!("{secret}{body}\n");
        send(
            &self.sender,
            &address_of(k),
            &format!("{GAME} match"),
            &text,
            &id,
        )
        .await;
        self.read_all().await;
    }

    /// Wait until the server has read every mail sent.
    async fn read_all(&self) {
        for _ in 0..LOOKS {
            let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger WHERE mailbox = 'gm'")
                .fetch_one(&self.pool)
                .await
                .expect("ledger");
            if n as usize >= self.sent {
                return;
            }
            tokio::time::sleep(LOOK_EVERY).await;
        }
        panic!("the server did not read all {} mails", self.sent);
    }

    async fn tick(&self, t: Ts) {
        self.at(t);
        games::tick(&self.pool, &self.env, self.clock.now())
            .await
            .expect("tick");
    }

    async fn command(&self, cmd: GmCommand, t: Ts) -> String {
        self.at(t);
        let done = games::console_command(&self.pool, &self.env, GAME, &cmd, t)
            .await
            .expect("command");
        assert!(done.ok, "{}", done.answer);
        done.answer
    }

    async fn matches(&self, stage: StageRow) -> Vec<MatchRow> {
        let mut c = self.pool.acquire().await.expect("conn");
        store::acwc::matches(&mut c, GAME, stage)
            .await
            .expect("matches")
    }

    /// Wait until the mailbox of watched entrant `k` (or the TD's, `None`) holds a mail whose
    /// subject contains `subject` and whose text contains `needle`: its text, on one line.
    async fn expect(&self, k: Option<usize>, subject: &str, needle: &str) -> String {
        let user = match k {
            Some(k) => format!("player{}", mailbox(k).expect("a watched entrant")),
            None => "td".to_string(),
        };
        for _ in 0..LOOKS {
            let hit = inbox(&self.stack, &user)
                .await
                .into_iter()
                .map(|(s, b)| flat(&format!("{s} {b}")))
                .find(|m| m.contains(subject) && m.contains(needle));
            if let Some(m) = hit {
                return m;
            }
            tokio::time::sleep(LOOK_EVERY).await;
        }
        let all = inbox(&self.stack, &user).await;
        panic!(
            "{user} has no mail '{subject}' with '{needle}': {:?}",
            all.iter().map(|(s, _)| s).collect::<Vec<_>>()
        );
    }

    /// Each entrant's secret, from their approval mail: in their own mailbox, or the
    /// catch-all's by its To.
    async fn read_secrets(&mut self) {
        let approvals = ENTRIES - 7;
        let mut caught = Vec::new();
        for _ in 0..LOOKS {
            caught = caught_mail(&self.stack).await;
            let n = caught
                .iter()
                .filter(|(_, t)| t.contains("your entry is approved"))
                .count();
            if n >= approvals {
                break;
            }
            tokio::time::sleep(LOOK_EVERY).await;
        }
        for k in 0..ENTRIES {
            let text = match mailbox(k) {
                Some(_) => {
                    self.expect(Some(k), "your entry is approved", "Your secret")
                        .await
                }
                None => caught
                    .iter()
                    .find(|(to, t)| {
                        to.iter().any(|a| a.eq_ignore_ascii_case(&address_of(k)))
                            && t.contains("your entry is approved")
                    })
                    .map(|(_, t)| t.clone())
                    .unwrap_or_else(|| panic!("no approval mail to {}", address_of(k))),
            };
            let secret = text
                .split("Your secret: ")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .expect("a secret")
                .to_string();
            self.secrets.insert(k, secret);
        }
    }
}

/// Every mail the catch-all holds: its To and its text on one line.
async fn caught_mail(stack: &Stack) -> Vec<(Vec<String>, String)> {
    let mut mb = Mailbox::connect(&stack.imap_config("catchall"), "INBOX")
        .await
        .expect("imap");
    let all = mb.fetch_after(0, 5000).await.expect("fetch").messages;
    mb.logout().await;
    all.into_iter()
        .filter_map(|f| chancery::message::read_message(&f.raw).ok())
        .map(|m| {
            let body: Vec<String> = m.lines.iter().map(|l| l.text.clone()).collect();
            (
                m.to.clone(),
                flat(&format!("{} {}", m.subject, body.join(" "))),
            )
        })
        .collect()
}

async fn open() -> Office {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let pool = store::open(&db).await.expect("db");
    let made = T0 - 7 * DAY;
    let mut c = pool.acquire().await.expect("conn");
    let n = NewChampionship {
        id: GAME,
        preset: "acwc2019",
        gm_address: "gm@example.test",
        confirm_address: "confirm@example.test",
    };
    create(&mut c, &n, made).await.expect("create");
    drop(c);
    engine::admin::add_member(&pool, GAME, Role::Td, TD, "UTC", made)
        .await
        .expect("td");
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(made + HOUR)));
    let (stop, server) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let env = engine::env(&pool, &cfg, made).await.expect("env");
    Office {
        stack,
        pool,
        sender,
        clock,
        env,
        secrets: BTreeMap::new(),
        sent: 0,
        server: Some((stop, server)),
    }
}

/// The Swiss as the checker reads it: the stored pairings and results, a forfeit as a won
/// match, and the withdrawn player out from the round after they left.
async fn as_played(o: &Office, withdrawn: &[(i64, String)]) -> Tournament {
    let mut rounds: Vec<Round> = Vec::new();
    for m in o.matches(StageRow::Swiss).await {
        let k = (m.round - 1) as usize;
        while rounds.len() <= k {
            rounds.push(Round::default());
        }
        let Some(b) = &m.b else {
            rounds[k].bye = Some(Player(m.a.clone()));
            continue;
        };
        let outcome = match (&m.forfeit_to, m.score_a, m.score_b) {
            (Some(w), _, _) if *w == m.a => Some(Outcome::FirstWon),
            (Some(_), _, _) => Some(Outcome::SecondWon),
            (None, Some(x), Some(y)) if x > y => Some(Outcome::FirstWon),
            (None, Some(x), Some(y)) if x == y => Some(Outcome::Tie),
            (None, Some(_), Some(_)) => Some(Outcome::SecondWon),
            _ => None,
        };
        rounds[k].matches.push(Match {
            first: Player(m.a.clone()),
            second: Player(b.clone()),
            outcome,
        });
    }
    for (round, p) in withdrawn {
        if let Some(r) = rounds.get_mut(*round as usize - 1) {
            r.withdrawn.push(Player(p.clone()));
        }
    }
    Tournament {
        entrants: (0..ENTRIES)
            .map(|k| Entrant {
                player: Player(account(k)),
                seeding: Seeding {
                    cutoff: ratings(k).0,
                    peak: ratings(k).1,
                },
            })
            .collect(),
        fixed: FixedQualifiers {
            to_final: Some(Player::new("arimakat")),
            to_candidates: vec![Player::new("Ogul1")],
        },
        rounds,
    }
}

/// The first match of `open` with a watched Swiss player, none of `except` playing it: its
/// watched player's index, the opponent's.
fn watched_board(open: &[MatchRow], except: &[usize]) -> (usize, usize, MatchRow) {
    for m in open.iter().filter(|m| !except.iter().any(|k| plays(m, *k))) {
        let (a, b) = (index_of(&m.a), index_of(m.b.as_deref().expect("a pair")));
        for (w, x) in [(a, b), (b, a)] {
            if mailbox(w).is_some() && !except.contains(&w) {
                return (w, x, m.clone());
            }
        }
    }
    panic!("no watched player in {open:?}");
}

/// Round `round`'s (published at `monday`) match-time negotiation on a watched board. Round 1:
/// a rule-breaking offer refused, the opponent short of 3 offers at fault, the watched player
/// choosing. Later rounds: three offers and an acceptance.
async fn negotiate(o: &mut Office, round: i64, monday: Ts, open: &[MatchRow]) -> usize {
    let (w, x, m) = watched_board(open, &[ABSENT, LEAVER]);
    // Round 1 is out on Monday 00:00, the later ones on Monday 12:05 (the reports stand).
    let published = if round == 1 {
        monday
    } else {
        monday + 12 * HOUR + 5 * 60
    };
    let day = |d: i64, h: i64| gmt(monday + d * DAY + h * HOUR);
    if round == 1 {
        // ACWC Match negotiations: "no more than 2 on a single date".
        let three = format!("OFFER {}, {}, {}", day(3, 8), day(3, 14), day(3, 20));
        o.mail(w, &three, published + HOUR).await;
        let why = o.expect(Some(w), "Not accepted", "no more than 2").await;
        assert!(why.contains("single date"), "{why}");
        let offer = format!("OFFER {}, {}, {}", day(3, 10), day(4, 10), day(5, 10));
        o.mail(w, &offer, published + 2 * HOUR).await;
        o.mail(x, &format!("OFFER {}", day(4, 18)), published + 3 * HOUR)
            .await;
        // Thursday: the opponent did not offer 3 times by Wednesday and is at fault.
        o.tick(monday + 3 * DAY + 60).await;
        let turn = o
            .expect(Some(w), "chooses", "did not offer 3 times by Wednesday")
            .await;
        assert!(turn.contains(&account(x)), "{turn}");
        o.expect(None, "chooses", &account(x)).await;
        o.mail(
            w,
            &format!("CHOOSE {}", day(5, 15)),
            monday + 3 * DAY + HOUR,
        )
        .await;
        o.expect(Some(w), "agreed", &format!("agreed {} UTC", day(5, 15)))
            .await;
    } else {
        let offer = format!("OFFER {}, {}, {}", day(3, 9), day(4, 9), day(5, 9));
        o.mail(x, &offer, published + HOUR).await;
        o.mail(w, &format!("ACCEPT {}", day(4, 9)), published + 2 * HOUR)
            .await;
        o.expect(Some(w), "agreed", &format!("agreed {} UTC", day(4, 9)))
            .await;
    }
    let m = o
        .matches(StageRow::Swiss)
        .await
        .into_iter()
        .find(|n| n.round == m.round && n.board == m.board)
        .expect("the match");
    assert!(m.agreed_at.is_some(), "round {round}: agreed");
    w
}

/// Round 2: [`ABSENT`] does not show up; the opponent messages the TD at the time, too soon
/// again (refused), 10 minutes after, and claims the win.
async fn no_show(o: &mut Office, monday: Ts, open: &[MatchRow]) {
    let m = open
        .iter()
        .find(|m| plays(m, ABSENT))
        .expect("the absent player plays");
    let published = monday + 12 * HOUR + 5 * 60;
    let x = if m.a == account(ABSENT) {
        index_of(m.b.as_deref().expect("pair"))
    } else {
        index_of(&m.a)
    };
    let time = monday + 3 * DAY + 18 * HOUR;
    let offer = format!(
        "OFFER {}, {}, {}",
        gmt(time),
        gmt(time + DAY),
        gmt(time + 2 * DAY)
    );
    o.mail(x, &offer, published + 3 * HOUR).await;
    o.mail(
        ABSENT,
        &format!("ACCEPT {}", gmt(time)),
        published + 4 * HOUR,
    )
    .await;
    o.mail(x, "NOSHOW", time + 60).await;
    o.mail(x, "NOSHOW", time + 5 * 60).await;
    o.mail(x, "NOSHOW", time + 12 * 60).await;
    o.mail(x, "CLAIM WIN", time + 13 * 60).await;
    let told = o
        .expect(Some(ABSENT), ": forfeited", "did not show up")
        .await;
    assert!(
        told.contains(&format!("in favour of {}", account(x))),
        "{told}"
    );
    o.expect(None, ": forfeited", &account(ABSENT)).await;
    let m = o
        .matches(StageRow::Swiss)
        .await
        .into_iter()
        .find(|n| n.round == 2 && n.board == m.board)
        .expect("match");
    assert_eq!(m.forfeit_to.as_deref(), Some(account(x).as_str()));
    // The no-show's second message came 4 minutes after the first: refused, and kept out.
    let mut c = o.pool.acquire().await.expect("conn");
    let kept = store::acwc::match_events(&mut c, GAME, &m)
        .await
        .expect("events")
        .into_iter()
        .filter(|e| e.event == store::acwc::MatchEventKind::NoShow)
        .count();
    assert_eq!(kept, 2, "the message sent too soon is not kept");
}

/// Every undecided match of `round` reported on Saturday by its first-named player (the
/// higher seed wins 6-4); the watched board's other player confirms, every other report
/// stands after 48 hours (the Monday tick).
async fn results(o: &mut Office, round: i64, saturday: Ts, w: usize) {
    let open: Vec<MatchRow> = o
        .matches(StageRow::Swiss)
        .await
        .into_iter()
        .filter(|m| m.round == round && m.b.is_some() && m.decided_at.is_none())
        .collect();
    for m in &open {
        let (a, b) = (index_of(&m.a), index_of(m.b.as_deref().expect("pair")));
        let score = if a < b { "6-4" } else { "4-6" };
        o.mail(a, &format!("RESULT {score}"), saturday).await;
        if a == w || b == w {
            o.mail(b, "CONFIRM", saturday + HOUR).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acwc_by_mail_a_championship_of_35_entries_from_the_swiss_to_the_armageddon() {
    let began = std::time::Instant::now();
    let mut o = open().await;
    // ACWC Player eligibility: 35 entries by mail, each acknowledged; the TD approves them.
    for k in 0..ENTRIES {
        let (cutoff, peak) = ratings(k);
        let body = format!("ACCOUNT {}\nRATING {cutoff}\nPEAK {peak}", account(k));
        o.mail(k, &body, T0 - 5 * DAY + k as Ts * 60).await;
    }
    o.expect(Some(2), "your entry for", "seeding rating").await;
    // The TD is told of each entry, with the command that approves it.
    let told = format!("entry of {} to approve", account(2));
    o.expect(None, &told, &format!("APPROVE {}", account(2)))
        .await;
    for k in 0..ENTRIES {
        o.command(GmCommand::Approve(account(k)), T0 - DAY).await;
    }
    o.read_secrets().await;
    o.at(T0);
    games::start_game_and_tell(&o.pool, &o.env, GAME, T0)
        .await
        .expect("start");

    let mut withdrawn: Vec<(i64, String)> = Vec::new();
    let mut monday = T0;
    for round in 1..=6 {
        let pairings = o
            .expect(Some(2), &format!("Swiss round {round} pairings"), "")
            .await;
        if round > 1 {
            // ACWC Pairing details: the standings and crosstable after the rounds so far.
            assert!(pairings.contains("Rank Seed Player Score"), "{pairings}");
        }
        let open: Vec<MatchRow> = o
            .matches(StageRow::Swiss)
            .await
            .into_iter()
            .filter(|m| m.round == round && m.b.is_some())
            .collect();
        let byes = o
            .matches(StageRow::Swiss)
            .await
            .into_iter()
            .filter(|m| m.round == round && m.b.is_none())
            .count();
        // 33 play (a bye), then 32 after the withdrawal (none).
        assert_eq!(byes, usize::from(round <= 3), "round {round}");
        let w = negotiate(&mut o, round, monday, &open).await;
        if round == 2 {
            no_show(&mut o, monday, &open).await;
        }
        if round == 3 {
            // ACWC Disqualification and withdrawals: a player withdraws by mail.
            let leave = format!("WITHDRAW {}", account(LEAVER));
            o.mail(LEAVER, &leave, monday + DAY).await;
            let told = format!("{} withdraws", account(LEAVER));
            o.expect(Some(0), "A withdrawal", &told).await;
            withdrawn.push((4, account(LEAVER)));
            let gone = o
                .matches(StageRow::Swiss)
                .await
                .into_iter()
                .find(|m| m.round == 3 && plays(m, LEAVER))
                .expect("their match");
            assert!(gone.decided_at.is_some(), "their opponent wins");
            assert!(gone.forfeit_to.is_some(), "their opponent wins");
            assert_ne!(gone.forfeit_to.as_deref(), Some(account(LEAVER).as_str()));
        }
        let saturday = monday + 5 * DAY + 12 * HOUR;
        o.tick(monday + 5 * DAY + 60).await;
        results(&mut o, round, saturday, w).await;
        // Monday: the reports unanswered for 48 hours stand; the next round is out.
        monday += 7 * DAY;
        o.tick(monday + 12 * HOUR + 5 * 60).await;
        let report = check(&as_played(&o, &withdrawn).await).expect("checks");
        assert!(report.agrees(), "round {round}: {:?}", report.discrepancies);
    }
    // The withdrawn player is in no pairing after round 3.
    assert!(
        o.matches(StageRow::Swiss)
            .await
            .iter()
            .filter(|m| m.round > 3)
            .all(|m| !plays(m, LEAVER))
    );
    let end = o
        .expect(Some(1), "the Swiss is over", "after 6 rounds")
        .await;
    assert!(end.contains("Ogul1 (the previous runner-up"), "{end}");
    candidates_and_final(&mut o, monday).await;

    let (stop, server) = o.server.take().expect("the server");
    stop.send(true).expect("stop");
    server.await.expect("join").expect("serve");
    eprintln!("acwc by mail: {} mails sent, {:?}", o.sent, began.elapsed());
}

/// A match's result reported by its first-named player and confirmed by the other.
async fn played(o: &mut Office, m: &MatchRow, score: &str, at: Ts) {
    let (a, b) = (index_of(&m.a), index_of(m.b.as_deref().expect("pair")));
    o.mail(a, &format!("RESULT {score}"), at).await;
    o.mail(b, "CONFIRM", at + 60).await;
}

async fn open_of(o: &Office, stage: StageRow) -> Vec<MatchRow> {
    o.matches(stage)
        .await
        .into_iter()
        .filter(|m| m.decided_at.is_none())
        .collect()
}

/// ACWC Candidates: three rounds by the Berger table; Final: level through 30 games, sealed
/// bids, the Armageddon drawn: Black wins.
async fn candidates_and_final(o: &mut Office, from: Ts) {
    let mut at = from + DAY;
    for round in 1..=3 {
        o.expect(Some(1), &format!("Candidates round {round} pairings"), "")
            .await;
        for m in open_of(o, StageRow::Candidates).await {
            played(o, &m, "6-4", at).await;
        }
        at += 7 * DAY;
    }
    o.expect(Some(0), "The Final, games 1-12", "arimakat v")
        .await;
    let mut block = 1;
    loop {
        let open = open_of(o, StageRow::Final).await;
        let m = open.first().expect("a Final block").clone();
        let armageddon = o.matches(StageRow::Final).await.len() == 11;
        if armageddon {
            break;
        }
        played(o, &m, if block == 1 { "6-6" } else { "1-1" }, at).await;
        block += 1;
        at += HOUR;
    }
    o.expect(Some(0), "Armageddon pairings", "sealed bid").await;
    let m = open_of(o, StageRow::Final).await[0].clone();
    let (holder, challenger) = (index_of(&m.a), index_of(m.b.as_deref().expect("pair")));
    assert_eq!(holder, 0, "the holder plays the Final");
    o.mail(holder, "BID 100", at).await;
    let sealed = o
        .expect(Some(0), "your sealed bid is in", "100 seconds")
        .await;
    assert!(sealed.contains("sealed"), "{sealed}");
    o.mail(challenger, "BID 120", at + 60).await;
    let revealed = o.expect(Some(0), "the bids revealed", "plays White").await;
    assert!(
        revealed.contains("arimakat plays White with 100 seconds"),
        "{revealed}"
    );
    // The first bid was told to its bidder only: nobody else read 100 before the reveal.
    if mailbox(challenger).is_some() {
        let seen = inbox(
            &o.stack,
            &format!("player{}", mailbox(challenger).unwrap_or(1)),
        )
        .await
        .into_iter()
        .filter(|(s, _)| s.contains("your sealed bid is in"))
        .all(|(_, b)| !b.contains("100 seconds"));
        assert!(seen, "the holder's bid was shown to the challenger");
    }
    let m = open_of(o, StageRow::Final).await[0].clone();
    played(o, &m, "0.5-0.5", at + HOUR).await;
    let champion = o
        .expect(Some(0), "the champion", "Antichess World Champion")
        .await;
    assert!(
        champion.contains(&format!(
            "{} wins the Final after 31 games (the Armageddon)",
            account(challenger)
        )),
        "{champion}"
    );
    let mut c = o.pool.acquire().await.expect("conn");
    let g = store::game(&mut c, GAME).await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished);
}
