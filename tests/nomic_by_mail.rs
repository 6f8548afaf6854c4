//! Issue 25's acceptance test: a Nomic (`nomic2019`, Suber's initial rules as the 2019 game
//! edited them) played by mail over the real mail stack (Dovecot + Postfix on loopback) and a
//! real SQLite file, the clock injected and the ticks the test's own. Every player's mail is
//! sent through Postfix to the GM box, and every answer of Chancery's is awaited in the
//! players' real mailboxes. It proves, rule by rule:
//!
//! - Nomic 201: five players seated Monday to Friday, each told their day by the start mail;
//!   a vote sent on a Saturday is void, and refused so;
//! - Nomic 107, 109, 202: twenty proper proposals over four weeks from Monday 12 October
//!   2026, each put to every player as `Proposal N by <name>`; the second proposal of a day,
//!   one after 19:00 UK time (18:30 UTC on a BST day) and one on another player's day are
//!   refused with their reasons and get no number; a free text, adopted, is carried out and
//!   confirmed by the GM's command mail;
//! - Nomic 106: the UK day, across the end of British Summer Time on 25 October: each vote
//!   is still open a minute before the end of its UK day (23:00 UTC in BST, 24:00 UTC after)
//!   and completed by the tick a minute after it;
//! - Nomic 113: each vote, a reply to the proposal, acknowledged; a second vote refused as
//!   not counted; every result names its voters;
//! - Nomic 204: unanimity of the votes cast until the end of the second complete circuit,
//!   a simple majority after it;
//! - Nomic 109, 110, 111: an amendment, a repeal, a renumbering that lifts the highest rule to
//!   490, and a transmutation of an immutable rule refused for lack of unanimity;
//! - Nomic 205: `set dissent-bonus 5` adopted and followed by the next majority votes;
//! - Nomic 203, 205, 207, 209: the points report of every result, read from the mail, equals
//!   the test's own model of the formulas (and the store's);
//! - Nomic 212: RULES, HISTORY and POINTS answered by mail;
//! - Nomic 214: a Point of Order raised, judged, disputed, the Judge overruled by every
//!   opinion, the next Judge's Judgement invoked after its hour;
//! - Nomic 210: Alex W wins at 200 points, the last result says so, and the game is over: a
//!   later mail is refused.
//!
//! Last, every "Not accepted" reply in the players' mailboxes is one the test expected: no
//! mail meant to be accepted was refused in part. (An opinion on a Judgement is answered by no
//! mail of its own; the test waits for it in the store.)
//!
//! The plan is the one `tests/nomic_game.rs` plays through the engine alone, with the mails of
//! each day sent in the order of their times (the clock only moves forward).

#[path = "common/nomic_plan.rs"]
mod plan;
use plan::*;

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine;
use chancery::games;
use chancery::games::nomic::admin::{self, NewNomic, NewSeat};
use chancery::policy::{DAY, HOUR, Ts};
use chancery::service::Clock;
use chancery::store::Pool;
use chancery::store::{self, Role};
use chancery::transport::smtp::Sender;
use mailstack::{LOOK_EVERY, LOOKS, Stack, TestClock, inbox, send};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const GAME: &str = "n1";
/// The GM, a master of the game who sends command mail (it has a mailbox on the stack).
const GM: &str = "td@example.test";

fn address(i: usize) -> String {
    format!("player{}@example.test", i + 1)
}

/// The server's stop switch and task.
type Server = (
    tokio::sync::watch::Sender<bool>,
    tokio::task::JoinHandle<Result<(), chancery::service::ServeError>>,
);

/// The game as the test plays it: the stack, the server on the test's clock, and how many
/// mails of each subject each address has been sent so far (what to wait for next).
struct Game {
    stack: Stack,
    pool: Pool,
    sender: Sender,
    clock: Arc<TestClock>,
    env: engine::Env,
    gm_secret: String,
    mails: u32,
    seen: BTreeMap<(String, String), usize>,
    server: Option<Server>,
}

impl Game {
    fn at(&self, t: Ts) {
        self.clock.0.store(t, Ordering::SeqCst);
    }

    /// Player `i`'s mail, with their secret, sent through Postfix at `t` (the clock is set
    /// first: a mail arrives when the server reads it).
    async fn send_as(&mut self, i: usize, subject: &str, body: &str, t: Ts) {
        self.at(t);
        self.mails += 1;
        let text = format!("SECRET {}\n{body}\n", secret(i));
        let id = format!("n{}", self.mails);
        send(&self.sender, &address(i), subject, &text, &id).await;
    }

    /// The next mail to `to` whose subject begins with `prefix`: waited for in the mailbox,
    /// its body returned as it was read.
    async fn expect(&mut self, to: &str, prefix: &str) -> String {
        let count = self
            .seen
            .entry((to.to_string(), prefix.to_string()))
            .or_default();
        *count += 1;
        let n = *count;
        let got = wait_prefix(&self.stack, to, prefix, n).await;
        got[n - 1].1.clone()
    }

    /// The next mail to every player whose subject begins with `prefix`: each one's body, on
    /// one line.
    async fn expect_all(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        for i in 0..PLAYERS.len() {
            out.push(flat(&self.expect(&address(i), prefix).await));
        }
        out
    }

    /// Player `i`'s mail at `t`, and its answer (subject beginning `answer`), on one line.
    async fn mail(&mut self, i: usize, subject: &str, body: &str, t: Ts, answer: &str) -> String {
        self.send_as(i, subject, body, t).await;
        flat(&self.expect(&address(i), answer).await)
    }

    /// Player `i`'s mail at `t`, refused: the reasons, on one line.
    async fn refused(&mut self, i: usize, subject: &str, body: &str, t: Ts) -> String {
        self.mail(i, subject, body, t, "Not accepted").await
    }

    async fn tick(&self, t: Ts) {
        self.at(t);
        games::tick(&self.pool, &self.env, self.clock.now())
            .await
            .expect("tick");
    }

    /// The points as the store holds them.
    async fn points(&self) -> BTreeMap<String, i64> {
        let mut c = self.pool.acquire().await.expect("conn");
        let mut out: BTreeMap<String, i64> =
            PLAYERS.iter().map(|(n, _)| (n.to_string(), 0)).collect();
        for r in store::nomic::points(&mut c, GAME).await.expect("points") {
            *out.entry(r.player).or_insert(0) += r.points;
        }
        out
    }

    /// When open proposal `number` closes (`None` once it is decided).
    async fn closes_at(&self, number: u32) -> Option<Ts> {
        let mut c = self.pool.acquire().await.expect("conn");
        store::open_rule_changes(&mut c, GAME)
            .await
            .expect("open proposals")
            .into_iter()
            .find(|p| p.number == i64::from(number))
            .map(|p| p.closes_at.expect("a Nomic proposal closes"))
    }

    /// Wait until the store holds `n` mails about Points of Order (an opinion is answered by
    /// no mail of its own: Nomic 214 tells the players only of the point's steps).
    async fn order_events(&self, n: usize, who: usize) {
        for _ in 0..LOOKS {
            let mut c = self.pool.acquire().await.expect("conn");
            let got = store::nomic::order_events(&mut c, GAME)
                .await
                .expect("events")
                .len();
            if got >= n {
                return;
            }
            drop(c);
            tokio::time::sleep(LOOK_EVERY).await;
        }
        let all = inbox(&self.stack, &address(who)).await;
        panic!(
            "the Point of Order mail of {} was not recorded; their mailbox: {:?}",
            address(who),
            all.iter().map(|(s, _)| s).collect::<Vec<_>>()
        );
    }
}

/// Wait until `user` has at least `n` mails whose subject begins with `prefix`: them, in the
/// order they arrived.
async fn wait_prefix(stack: &Stack, user: &str, prefix: &str, n: usize) -> Vec<(String, String)> {
    for _ in 0..LOOKS {
        let hits: Vec<(String, String)> = inbox(stack, user)
            .await
            .into_iter()
            .filter(|(s, _)| s.starts_with(prefix))
            .collect();
        if hits.len() >= n {
            return hits;
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
    let all = inbox(stack, user).await;
    panic!(
        "{user} did not get {n} mail(s) with a subject beginning '{prefix}'; it has: {:?}",
        all.iter().map(|(s, _)| s).collect::<Vec<_>>()
    );
}

/// The points report of a result mail (Nomic 209): each player's total.
fn points_report(body: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    let mut lines = body.lines();
    for l in lines.by_ref() {
        if l.contains("Points (Nomic 209):") {
            break;
        }
    }
    for l in lines {
        let l = l.trim();
        for (name, _) in PLAYERS {
            let Some(rest) = l.strip_prefix(name) else {
                continue;
            };
            let total = rest.split_whitespace().next().and_then(|w| w.parse().ok());
            if let Some(total) = total {
                out.insert(name.to_string(), total);
            }
        }
    }
    out
}

/// The text of a flattened result between `from` and the first of `to` after it.
fn segment<'a>(text: &'a str, from: &str, to: &[&str]) -> &'a str {
    let Some(start) = text.find(from) else {
        return "";
    };
    let rest = &text[start + from.len()..];
    let end = to
        .iter()
        .filter_map(|t| rest.find(t))
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Chancery on the stack with Nomic `n1` made a day before `start`, its five players seated
/// with known secrets and its GM a master of the game.
async fn open(start: Ts) -> Game {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let pool = store::open(&db).await.expect("db");
    let made = start - DAY;
    let mut c = pool.acquire().await.expect("conn");
    let n = NewNomic {
        id: GAME,
        preset: "nomic2019",
        gm_address: "gm@example.test",
        confirm_address: "confirm@example.test",
    };
    admin::create_game(&mut c, &n, made).await.expect("create");
    let g = store::game(&mut c, GAME).await.expect("game").expect("row");
    for (i, (name, day)) in PLAYERS.iter().enumerate() {
        let s = NewSeat {
            name,
            address: &address(i),
            day: *day,
            tz: "Europe/London",
            secret: Some(&secret(i)),
        };
        admin::add_player(&mut c, None, &g, &s, made)
            .await
            .expect("seat");
    }
    drop(c);
    let gm = engine::admin::add_member(&pool, GAME, Role::Gm, GM, "UTC", made)
        .await
        .expect("gm");
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(made + HOUR)));
    let (stop, server) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let env = engine::env(&pool, &cfg, made).await.expect("env");
    Game {
        stack,
        pool,
        sender,
        clock,
        env,
        gm_secret: gm.secret,
        mails: 0,
        seen: BTreeMap::new(),
        server: Some((stop, server)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nomic_by_mail_twenty_proposals_over_four_weeks_to_a_winner() {
    let began = std::time::Instant::now();
    // Monday 12 October 2026, 00:00 BST.
    let start = utc(2026, 10, 11, 23, 0);
    let mut g = open(start).await;
    g.at(start);
    games::start_game_and_tell(&g.pool, &g.env, GAME, start)
        .await
        .expect("start");
    // Nomic 201: each player told their day and their secret.
    for (i, (_, day)) in PLAYERS.iter().enumerate() {
        let told = flat(
            &g.expect(&address(i), &format!("{GAME}: the Nomic begins"))
                .await,
        );
        assert!(
            told.contains(&format!("Your allocated day is {day}")),
            "{told}"
        );
        assert!(told.contains(&secret(i)), "{told}");
    }
    let mut model = Model::new();
    let mut last_result = String::new();
    for (k, p) in plan().iter().enumerate() {
        let number = 301 + k as u32;
        let (y, m, d) = p.day;
        let proposer = PLAYERS[p.by].0;
        // 10:00 UTC is 11:00 BST in weeks 1 and 2, 10:00 GMT after.
        let at = utc(y, m, d, 10, 0);
        let line = format!("Rule-change: {}", p.change);
        g.send_as(p.by, &format!("{GAME} proposal"), &line, at)
            .await;
        // Nomic 109: numbered, and put to every player.
        let heading = format!("{GAME}: Proposal {number} by {proposer}");
        for i in 0..PLAYERS.len() {
            let put = flat(&g.expect(&address(i), &heading).await);
            assert!(
                put.contains(&format!("it is Proposal {number} (Nomic 109)")),
                "{put}"
            );
        }
        before_votes(&mut g, number, at).await;
        // Nomic 113: each vote a reply to the proposal, acknowledged.
        for (i, v) in p.votes.chars().enumerate() {
            let choice = match v {
                'Y' => "Yes",
                'N' => "No",
                _ => continue,
            };
            let ack = g
                .mail(
                    i,
                    &format!("Re: {heading}"),
                    &format!("Vote: {choice}"),
                    at + HOUR + i as i64 * 60,
                    &format!("{GAME}: your vote on Proposal {number}: {choice}"),
                )
                .await;
            assert!(ack.contains("is counted"), "{ack}");
        }
        after_votes(&mut g, number, at).await;
        // Nomic 106, 113: the vote closes at the end of the UK day, 23:00 UTC while BST
        // lasts (until Sunday 25 October), 24:00 UTC after; a tick a minute before it leaves
        // the vote open, a tick a minute after it completes the vote.
        let uk_midnight = if (m, d) < (10, 25) {
            utc(y, m, d, 23, 0)
        } else {
            utc(y, m, d, 23, 0) + HOUR
        };
        g.tick(uk_midnight - 60).await;
        assert_eq!(
            g.closes_at(number).await,
            Some(uk_midnight),
            "proposal {number} is still open a minute before the end of its UK day"
        );
        let next_day = uk_midnight + 60;
        g.tick(next_day).await;
        assert_eq!(
            g.closes_at(number).await,
            None,
            "proposal {number} is decided"
        );
        // Nomic 204: unanimity until the second complete circuit ends, then a majority.
        let majority = k >= 10;
        let yes = p.votes.chars().filter(|c| *c == 'Y').count();
        let no = p.votes.chars().filter(|c| *c == 'N').count();
        let adopted = match p.change {
            // Nomic 111: a transmutation of an immutable rule needs every eligible vote.
            "transmute 109" => false,
            _ if majority => yes > no,
            _ => no == 0 && yes > 0,
        };
        let word = if adopted { "adopted" } else { "defeated" };
        let subject = format!("{GAME}: Proposal {number} {word} ({yes}-{no})");
        if adopted {
            let change = match p.change.split_whitespace().next() {
                Some("enact" | "amend" | "repeal" | "renumber" | "transmute" | "set") => p.change,
                _ => "free",
            };
            model.adopt(change, number);
        }
        model.score(p.by, adopted, p.votes, majority);
        for i in 0..PLAYERS.len() {
            let body = g.expect(&address(i), &subject).await;
            // Nomic 209: the points report, as the formulas say.
            assert_eq!(
                points_report(&body),
                model.points,
                "the points in proposal {number}'s result to {}:\n{body}",
                address(i)
            );
            last_result = body;
        }
        let result = flat(&last_result);
        // Nomic 113: the result names the voters.
        let voters = |c: char| -> Vec<&str> {
            p.votes
                .chars()
                .zip(PLAYERS)
                .filter(|(v, _)| *v == c)
                .map(|(_, (n, _))| n)
                .collect()
        };
        let ends = [
            "Did not vote",
            "Not counted",
            "The rule set",
            "Points (Nomic",
        ];
        let for_ = segment(&result, "For (", &["Against ("]);
        let against = segment(&result, "Against (", &ends);
        for n in voters('Y') {
            assert!(for_.contains(n), "{n} voted Yes on {number}: {result}");
            assert!(!against.contains(n), "{n} voted Yes on {number}: {result}");
        }
        for n in voters('N') {
            assert!(against.contains(n), "{n} voted No on {number}: {result}");
            assert!(!for_.contains(n), "{n} voted No on {number}: {result}");
        }
        for n in voters('-') {
            assert!(
                segment(&result, "Did not vote:", &ends[1..]).contains(n),
                "{n} did not vote on {number}: {result}"
            );
        }
        assert_eq!(g.points().await, model.points, "after proposal {number}");
        after_result(&mut g, number, next_day).await;
    }
    // Nomic 210: the winner at 200, in the last result, and the game over.
    assert!(
        flat(&last_result).contains("Alex W has won the game (Nomic 210)"),
        "{last_result}"
    );
    let points = g.points().await;
    assert!(points["Alex W"] >= 200, "{points:?}");
    assert_eq!(
        points.values().filter(|p| **p >= 200).count(),
        1,
        "{points:?}"
    );
    {
        let mut c = g.pool.acquire().await.expect("conn");
        let row = store::game(&mut c, GAME).await.expect("game").expect("row");
        assert_eq!(row.status, store::GameStatus::Finished);
    }
    let late = utc(2026, 11, 9, 10, 0);
    let why = g
        .refused(0, "n1 proposal", "Rule-change: repeal 301", late)
        .await;
    assert!(why.contains("is over"), "{why}");
    // No mail was refused but those the test expected to be.
    for i in 0..PLAYERS.len() {
        let expected = g
            .seen
            .get(&(address(i), "Not accepted".to_string()))
            .copied()
            .unwrap_or(0);
        let got = inbox(&g.stack, &address(i))
            .await
            .into_iter()
            .filter(|(s, _)| s.starts_with("Not accepted"))
            .count();
        assert_eq!(got, expected, "refusals to {}", address(i));
    }
    let (stop, server) = g.server.take().expect("the server");
    stop.send(true).expect("stop");
    server.await.expect("join").expect("serve");
    eprintln!(
        "nomic by mail: {} mails sent, {:?}",
        g.mails,
        began.elapsed()
    );
}

/// What happens on a proposal's day before its votes.
async fn before_votes(g: &mut Game, number: u32, at: Ts) {
    match number {
        // Nomic 202: only the first rule-change of the day is proper; it gets no number.
        301 => {
            let why = g
                .refused(
                    0,
                    "n1 another",
                    r#"Rule-change: enact 399 "Twice.""#,
                    at + 600,
                )
                .await;
            assert!(
                why.contains("submitted on a given day is proper (Nomic 202)"),
                "{why}"
            );
        }
        // Nomic 202: Tuesday is not Ben P's day.
        302 => {
            let why = g
                .refused(
                    2,
                    "n1 early",
                    r#"Rule-change: enact 399 "Not my day.""#,
                    at + 300,
                )
                .await;
            assert!(why.contains("Nomic 202"), "{why}");
        }
        _ => {}
    }
}

/// What happens on a proposal's day after its votes.
async fn after_votes(g: &mut Game, number: u32, at: Ts) {
    match number {
        // Nomic 202, 106: 18:30 UTC on a BST day is 19:30 UK time: too late.
        302 => {
            let late = utc(2026, 10, 13, 18, 30);
            let why = g
                .refused(1, "n1 late", r#"Rule-change: enact 399 "Late.""#, late)
                .await;
            assert!(why.contains("before 19:00 UK time"), "{why}");
        }
        // Nomic 113: a second vote is not counted.
        305 => {
            let why = g
                .refused(
                    1,
                    "Re: n1: Proposal 305 by Alex W",
                    "Vote: No",
                    at + 3 * HOUR,
                )
                .await;
            assert!(
                why.contains("a vote may not be withdrawn (Nomic 113)"),
                "{why}"
            );
        }
        // Nomic 214: a Point of Order on proposal 308, its Judge (the previous day's player,
        // Dave M) overruled, the next one back (Chris B) ruling, invoked an hour later.
        308 => point_of_order_overruled(g, at + 2 * HOUR).await,
        _ => {}
    }
}

/// What happens after a proposal's result.
async fn after_result(g: &mut Game, number: u32, at: Ts) {
    match number {
        // Nomic 201: Saturday's vote on Friday's proposal is void.
        305 => {
            let saturday = utc(2026, 10, 17, 10, 0);
            let why = g
                .refused(2, "Re: n1: Proposal 305 by Alex W", "Vote: Yes", saturday)
                .await;
            assert!(why.contains("Saturday"), "{why}");
        }
        // Nomic 107: the adopted free text, carried out by the GM, confirmed by command mail.
        307 => {
            g.at(at);
            let body = format!(
                "SECRET {}\nCONFIRM PROPOSAL 307 the weekly digest is sent on Sundays\n",
                g.gm_secret
            );
            send(&g.sender, GM, &format!("{GAME} GM"), &body, "gm1").await;
            let reply = flat(&g.expect(GM, &format!("{GAME} GM")).await);
            assert!(
                reply.contains("Proposal 307 is confirmed as carried out"),
                "{reply}"
            );
            for i in 0..PLAYERS.len() {
                let told = flat(
                    &g.expect(&address(i), &format!("{GAME}: Proposal 307 carried out"))
                        .await,
                );
                assert!(
                    told.contains("the weekly digest is sent on Sundays"),
                    "{told}"
                );
            }
        }
        // Nomic 212: the record, the rules and the points by mail, three answers.
        319 => {
            g.send_as(0, "n1 record", "HISTORY\nRULES\nPOINTS", at)
                .await;
            let rules = flat(&g.expect(&address(0), "n1: the rules").await);
            assert!(rules.contains("Rule 490 (mutable)"), "{rules}");
            assert!(!rules.contains("Rule 215 "), "{rules}");
            let record = flat(&g.expect(&address(0), "n1: the record").await);
            assert!(
                record.contains("rule 317 renumbered 490 by Proposal 318"),
                "{record}"
            );
            assert!(record.contains("PO1 by Chris B"), "{record}");
            let points = flat(&g.expect(&address(0), "n1: the points").await);
            assert!(points.contains("Points (Nomic 209)"), "{points}");
        }
        _ => {}
    }
}

/// Nomic 214: raised, judged, disputed, overruled by every opinion given, judged again by
/// the next Judge back, and invoked when the hour for a dispute has passed.
async fn point_of_order_overruled(g: &mut Game, at: Ts) {
    let po = format!("{GAME}: Point of Order PO1: ");
    let raise = "Point of Order: Is proposal 308 proper, given rule 202?";
    g.send_as(0, "n1 po", raise, at + 1800).await;
    for raised in g.expect_all(&format!("{po}raised")).await {
        assert!(raised.contains("The Judge is Dave M"), "{raised}");
    }
    let judged = "Judgement: PO1 Proposal 308 is improper.";
    g.send_as(1, "n1 po", judged, at + 3600).await;
    for told in g.expect_all(&format!("{po}Judgement pronounced")).await {
        assert!(
            told.contains("The Judgement: Proposal 308 is improper"),
            "{told}"
        );
    }
    g.send_as(3, "n1 po", "Dispute: PO1", at + 4200).await;
    for told in g.expect_all(&format!("{po}Judgement disputed")).await {
        assert!(told.contains("Alex T disputed the Judgement"), "{told}");
    }
    // Two opinions, both against the Judgement: no mail answers them, the store keeps them
    // (after the Judgement and the dispute, the third and fourth mails about PO1).
    for (n, (i, t)) in [(0, 4500), (4, 4800)].into_iter().enumerate() {
        let body = "I disagree with Judgement PO1";
        g.send_as(i, "n1 po", body, at + t).await;
        g.order_events(3 + n, i).await;
    }
    // The hour for opinions over, every opinion against: the Judge overruled, the next one.
    g.tick(at + 4200 + 3600 + 60).await;
    for overruled in g.expect_all(&format!("{po}Judge overruled")).await {
        assert!(overruled.contains("Judgement is overruled"), "{overruled}");
        assert!(overruled.contains("The Judge is Chris B"), "{overruled}");
    }
    let again = "Judgement: PO1 Proposal 308 is proper.";
    g.send_as(0, "n1 po", again, at + 3 * HOUR).await;
    for told in g.expect_all(&format!("{po}Judgement pronounced")).await {
        assert!(
            told.contains("The Judgement: Proposal 308 is proper"),
            "{told}"
        );
    }
    // No dispute within the hour: the Judgement is invoked.
    g.tick(at + 4 * HOUR + 60).await;
    for invoked in g.expect_all(&format!("{po}Judgement invoked")).await {
        assert!(
            invoked.contains("Chris B's Judgement is invoked"),
            "{invoked}"
        );
    }
}
