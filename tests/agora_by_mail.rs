//! Issue 24's acceptance test: an Agora Birthday Tournament game (`agora2020`) played by mail
//! over the real mail stack (Dovecot + Postfix on loopback) and a real SQLite file. Seven
//! contestants enter by announcement and an eighth is refused (Agora BT1); the powers are drawn
//! from a seed whose digest every acknowledgement carried (BT6); four proposals (BT8): a
//! setting of the timetable enacted, which the next turn's deadline follows (BT15), one
//! withdrawn by its proposer, one that never gathers a majority and lapses when the tournament
//! is concluded, and a free text enacted and confirmed by the Gamemaster's command mail; a Fall
//! turn whose one order set carries a conditional retreat and builds (BT15, BT22, BT23), a
//! power in civil disorder throughout (BT24), and France's 18 centres after that Fall turn,
//! announced with 2 days' notice and concluded by the tick (BT16, BT3). Last, every mail
//! delivered to every mailbox and every outbox row is scanned: none puts a voter next to a
//! vote but the voter's own acknowledgement (BT8). The clock is injected and the test ticks.

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::service::Clock;
use chancery::store::Pool;
use chancery::store::{self, Role};
use chancery::timetable::midnight_at_or_after;
use chancery::transport::smtp::Sender;
use mailstack::{Stack, TestClock, send, wait_for};
use sqlx::Row;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const GAME: &str = "bt";
const T0: Ts = 1_795_000_000;
const GM: &str = "td@example.test";
const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];

fn entrant(i: usize) -> String {
    format!("player{}@example.test", i + 1)
}

fn name_of(i: usize) -> String {
    format!("Contestant Number{}", i + 1)
}

/// A mail's text with its wrapping and quote marks undone, on one line.
fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "|")
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each power's (address, secret, name).
type Seats = BTreeMap<String, (String, String, String)>;

/// A ballot cast: (proposal, power, choice, the Message-ID of the mail that cast it).
type Ballot = (u32, String, String, String);

/// The game as the test plays it: the server, the clock, who plays what, and every ballot
/// cast (proposal, power, choice) with the Message-ID of the mail that cast it.
struct Game {
    stack: Stack,
    pool: Pool,
    sender: Sender,
    clock: Arc<TestClock>,
    env: chancery::engine::Env,
    gm_secret: String,
    seats: Seats,
    /// Mails sent to each address's player for a phase: how many acknowledgements to wait for.
    sent: BTreeMap<(String, String), usize>,
    ballots: Vec<Ballot>,
    mails: u32,
    server: Option<Server>,
}

/// The server's stop switch and task.
type Server = (
    tokio::sync::watch::Sender<bool>,
    tokio::task::JoinHandle<Result<(), chancery::service::ServeError>>,
);

impl Game {
    fn address(&self, power: &str) -> String {
        self.seats[power].0.clone()
    }

    fn at(&self, t: Ts) {
        self.clock.0.store(t, Ordering::SeqCst);
    }

    /// `power`'s mail for `phase` with `body`, and its acknowledgement, on one line.
    async fn mail(&mut self, power: &str, phase: &str, body: &str) -> String {
        let (address, secret, _) = self.seats[power].clone();
        self.mails += 1;
        // A Message-ID that names nobody: the test checks that no mail but the voter's own
        // acknowledgement refers to a mail that cast a vote.
        let id = format!("m{}", self.mails);
        for line in body.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let ["VOTE", n, choice] = words.as_slice() {
                let n: u32 = n.parse().expect("number");
                let mid = format!("<{id}@sender.example.test>");
                self.ballots
                    .push((n, power.to_string(), choice.to_string(), mid));
            }
        }
        let subject = format!("{GAME} {power} {phase}");
        let text = format!("SECRET {secret}\n{body}\n");
        send(&self.sender, &address, &subject, &text, &id).await;
        let count = self
            .sent
            .entry((power.to_string(), phase.to_string()))
            .or_default();
        *count += 1;
        let n = *count;
        let acks = wait_for(
            &self.stack,
            &address,
            &format!("{GAME} {phase} {power}: orders received"),
            n,
        )
        .await;
        flat(&acks[n - 1].1)
    }

    async fn current(&self) -> store::PhaseRow {
        let mut c = self.pool.acquire().await.expect("conn");
        store::current_phase(&mut c, GAME)
            .await
            .expect("phase")
            .expect("open")
    }

    async fn game_row(&self) -> store::GameRow {
        let mut c = self.pool.acquire().await.expect("conn");
        store::game(&mut c, GAME).await.expect("q").expect("game")
    }

    async fn tick(&self, at: Ts) -> usize {
        self.at(at);
        games::tick(&self.pool, &self.env, self.clock.now())
            .await
            .expect("tick")
    }

    /// The results of `phase` as `power`'s player read them, on one line.
    async fn results(&self, power: &str, phase: &str) -> String {
        let got = wait_for(
            &self.stack,
            &self.address(power),
            &format!("{GAME} {phase} results"),
            1,
        )
        .await;
        flat(&got[0].1)
    }
}

/// Chancery on the stack with an agora2020 game `bt` open for entries, created at T0, and its
/// Gamemaster (a master of the game, who sends command mail).
async fn open() -> Game {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let pool = store::open(&db).await.expect("db");
    chancery::games::diplomacy::admin::create_game(
        &pool,
        &chancery::games::diplomacy::admin::NewGame {
            id: GAME,
            preset: "agora2020",
            variant: "standard",
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            options: &[],
        },
        T0,
    )
    .await
    .expect("create");
    let gm = engine::admin::add_member(&pool, GAME, Role::Gm, GM, "UTC", T0)
        .await
        .expect("gm");
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + HOUR)));
    let (stop, server) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");
    Game {
        stack,
        pool,
        sender,
        clock,
        env,
        gm_secret: gm.secret,
        seats: BTreeMap::new(),
        sent: BTreeMap::new(),
        ballots: Vec::new(),
        mails: 0,
        server: Some((stop, server)),
    }
}

/// Agora BT1, BT6: seven enter by mail, each acknowledged with the seed's digest; the eighth
/// is refused with the clause; the draw's mail publishes the seed, and the draw follows from it
/// (`chancery::entry::draw`). The seats, with each player's secret from their start mail.
async fn enter(g: &mut Game) {
    for i in 0..7 {
        g.at(T0 + HOUR + 60 * i as Ts);
        let body = format!("NAME {}\n", name_of(i));
        send(
            &g.sender,
            &entrant(i),
            &format!("{GAME} ENTER"),
            &body,
            &format!("e{i}"),
        )
        .await;
        let ack = wait_for(&g.stack, &entrant(i), &format!("{GAME} ENTER"), 1).await;
        assert!(ack[0].1.contains("You have entered"), "{}", ack[0].1);
    }
    g.at(T0 + 2 * HOUR);
    let eighth = "catchall@example.test";
    send(
        &g.sender,
        eighth,
        &format!("{GAME} ENTER"),
        "NAME Late\n",
        "e8",
    )
    .await;
    let refused = wait_for(&g.stack, eighth, "Not accepted", 1).await;
    let refused = flat(&refused[0].1);
    assert!(
        refused.contains("7 contestants have entered already, the most the game takes (Agora BT1)"),
        "{refused}"
    );
    let draw = wait_for(&g.stack, &entrant(0), "the powers are drawn", 1).await;
    let draw = flat(&draw[0].1);
    let at = draw.find("seed: ").expect("the seed") + "seed: ".len();
    let seed = draw[at..]
        .split_whitespace()
        .next()
        .expect("seed")
        .to_string();
    let digest = chancery::outgoing::ids::sha256_hex(seed.as_bytes());
    for i in 0..7 {
        let ack = wait_for(&g.stack, &entrant(i), &format!("{GAME} ENTER"), 1).await;
        assert!(
            flat(&ack[0].1).contains(&digest),
            "{}: {}",
            entrant(i),
            ack[0].1
        );
        assert!(
            !ack[0].1.contains(&seed),
            "the seed is not given before the draw"
        );
    }
    let people: Vec<String> = (0..7).map(entrant).collect();
    let who: Vec<&str> = people.iter().map(String::as_str).collect();
    let drawn = chancery::entry::draw(
        chancery::entry::parse_seed(&seed).expect("hex"),
        &who,
        &POWERS,
    );
    let players = {
        let mut c = g.pool.acquire().await.expect("conn");
        store::players(&mut c, GAME).await.expect("players")
    };
    assert_eq!(players.len(), 7);
    for (power, address) in drawn {
        assert!(draw.contains(&format!("{power} {address}")), "{draw}");
        let p = players.iter().find(|p| p.power == power).expect(power);
        assert_eq!(
            p.address, address,
            "{power}: the draw follows from the seed"
        );
        let start = wait_for(&g.stack, address, &format!("you play {power}"), 1).await;
        assert!(start[0].1.contains(&p.secret), "{}", start[0].1);
        let i = people.iter().position(|a| a == address).expect("entrant");
        g.seats.insert(
            power.to_string(),
            (address.to_string(), p.secret.clone(), name_of(i)),
        );
    }
    assert_eq!(g.game_row().await.status, store::GameStatus::Active);
}

/// Spring 1901's orders, with the proposals (Agora BT8): Austria's setting of the timetable
/// (Proposal 1), England's new regulation (2), France's repeal (3), Germany's free text (4).
/// Turkey sends nothing, all game long (BT24).
async fn spring_orders_and_proposals(g: &mut Game) {
    let proposals = [
        (
            "AUSTRIA",
            "A Vie - Boh\nA Bud - Gal\nF Tri - Alb",
            "PROPOSE SET ordering_hours 18",
        ),
        (
            "ENGLAND",
            "F Lon H\nF Edi H\nA Lvp H",
            "PROPOSE ENACT BT26 \"Contestants SHALL be polite.\"",
        ),
        (
            "FRANCE",
            "A Mar - Spa\nF Bre - Mao\nA Par - Bur",
            "PROPOSE REPEAL BT10",
        ),
        (
            "GERMANY",
            "A Mun - Ruh\nA Ber - Mun",
            "PROPOSE TEXT \"The Judge SHALL award a badge to every Contestant.\"",
        ),
    ];
    for (n, (power, orders, proposal)) in proposals.iter().enumerate() {
        let ack = g
            .mail(power, "S1901M", &format!("{orders}\n{proposal}"))
            .await;
        assert!(
            ack.contains(&format!("submitted as Proposal {}", n + 1)),
            "{ack}"
        );
        // Every contestant hears of it, and how to vote.
        let told = wait_for(
            &g.stack,
            &g.address("TURKEY"),
            &format!("Proposal {}:", n + 1),
            1,
        )
        .await;
        assert!(
            flat(&told[0].1).contains(&format!("VOTE {} FOR", n + 1)),
            "{:?}",
            told
        );
    }
    for (power, orders) in [
        ("ITALY", "F Nap H\nA Rom H\nA Ven H"),
        ("RUSSIA", "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
    ] {
        g.mail(power, "S1901M", orders).await;
    }
}

/// The votes (Agora BT8): Proposal 1 carried by the fourth vote in favour, in the middle of
/// the ordering period, and enacted at the next full hour, its setting holding at once; Proposal 2 withdrawn by its proposer, a
/// vote on it then refused; Proposal 3 with two votes for and three against, open; Proposal 4
/// enacted as text, which the Gamemaster confirms by command mail.
async fn votes(g: &mut Game) {
    let ack = g
        .mail(
            "ENGLAND",
            "S1901M",
            "VOTE 1 FOR\nVOTE 3 AGAINST\nVOTE 4 FOR",
        )
        .await;
    assert!(
        ack.contains("your vote AGAINST on Proposal 3: recorded"),
        "{ack}"
    );
    g.mail("FRANCE", "S1901M", "VOTE 1 FOR\nVOTE 4 FOR").await;
    g.mail("GERMANY", "S1901M", "VOTE 1 FOR\nVOTE 3 FOR").await;
    // Germany changes its mind: the later ballot replaces the earlier one.
    let ack = g.mail("GERMANY", "S1901M", "VOTE 3 AGAINST").await;
    assert!(ack.contains("in place of your earlier vote"), "{ack}");
    g.mail("RUSSIA", "S1901M", "VOTE 2 FOR\nVOTE 3 FOR\nVOTE 4 FOR")
        .await;
    let ack = g
        .mail("AUSTRIA", "S1901M", "VOTE 3 AGAINST\nVOTE 4 FOR")
        .await;
    assert!(ack.contains("Proposal 4 is carried"), "{ack}");
    let before = g.current().await.deadline;
    let ack = g.mail("ITALY", "S1901M", "VOTE 1 FOR\nVOTE 3 FOR").await;
    assert!(ack.contains("Proposal 1 is carried"), "{ack}");
    // Agora BT8: enacted by the tick at the next full hour, not as the deciding vote arrives.
    let now = g.clock.now();
    g.tick((now / HOUR + 1) * HOUR).await;
    let enacted = wait_for(&g.stack, &g.address("TURKEY"), "Proposal 1 is enacted", 1).await;
    let enacted = flat(&enacted[0].1);
    assert!(
        enacted.contains("4 vote(s) in favour and 0 against (Agora BT8)"),
        "{enacted}"
    );
    assert!(
        enacted.contains("ordering_hours = 18 holds from now on"),
        "{enacted}"
    );
    let rules: chancery::rules::Rules =
        serde_json::from_str(&g.game_row().await.rules).expect("rules");
    assert_eq!(rules.ordering_hours, 18);
    assert_eq!(
        g.current().await.deadline,
        before,
        "this turn's deadline stands"
    );
    let ack = g.mail("ENGLAND", "S1901M", "WITHDRAW PROPOSAL 2").await;
    assert!(ack.contains("Proposal 2 is withdrawn"), "{ack}");
    wait_for(&g.stack, &g.address("TURKEY"), "Proposal 2 is withdrawn", 1).await;
    let ack = g.mail("ITALY", "S1901M", "VOTE 2 FOR").await;
    assert!(
        ack.contains("refused: this proposal was withdrawn"),
        "{ack}"
    );
    // Agora BT8: three against of six voters cannot defeat Proposal 3 (a vote may change until
    // the end); it stays open, and the acknowledgement says so.
    let ack = g.mail("AUSTRIA", "S1901M", "VOTE 3 AGAINST").await;
    assert!(ack.contains("Proposal 3 stays open"), "{ack}");
    confirm_by_mail(g).await;
}

/// Agora BT8, BT2: the free text enacted (Proposal 4) is carried out and confirmed by the
/// Gamemaster's command mail; everyone is told, and it is no longer an open item.
async fn confirm_by_mail(g: &mut Game) {
    let body = format!(
        "SECRET {}\nCONFIRM PROPOSAL 4 badges promised to every Contestant\n",
        g.gm_secret
    );
    send(&g.sender, GM, &format!("{GAME} GM"), &body, "gm1").await;
    let reply = wait_for(&g.stack, GM, &format!("{GAME} GM"), 1).await;
    assert!(
        flat(&reply[0].1).contains("Proposal 4 is confirmed as carried out"),
        "{}",
        reply[0].1
    );
    let told = wait_for(
        &g.stack,
        &g.address("TURKEY"),
        "Proposal 4 is carried out",
        1,
    )
    .await;
    assert!(
        flat(&told[0].1).contains("badges promised to every Contestant"),
        "{}",
        told[0].1
    );
}

/// France given 18 centres (BT16's majority of 34) on the Fall turn's board: its homes, the
/// twelve neutrals (nobody else's unit stands on them by the end of the Fall) and Austria's
/// three, which Austria's armies left in the Spring. Germany keeps its three.
async fn france_holds_eighteen_before_the_fall(g: &Game) {
    let p = g.current().await;
    let mut board: serde_json::Value = serde_json::from_str(&p.board).expect("board");
    let france = [
        "PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "DEN", "NWY", "SWE", "TUN", "SER", "RUM",
        "BUL", "GRE", "VIE", "BUD", "TRI",
    ];
    let mut all = serde_json::Map::new();
    all.insert("FRANCE".into(), serde_json::json!(france));
    for (power, list) in [
        ("ENGLAND", vec!["LON", "LVP", "EDI"]),
        ("GERMANY", vec!["MUN", "KIE", "BER"]),
        ("ITALY", vec!["NAP", "ROM", "VEN"]),
        ("RUSSIA", vec!["MOS", "STP", "WAR", "SEV"]),
        ("TURKEY", vec!["ANK", "CON", "SMY"]),
    ] {
        all.insert(power.into(), serde_json::json!(list));
    }
    board["centers"] = serde_json::Value::Object(all);
    let mut c = g.pool.acquire().await.expect("conn");
    store::diplomacy::set_board(&mut c, GAME, p.seq, &board.to_string())
        .await
        .expect("board");
}

async fn units_of(g: &Game, power: &str) -> Vec<String> {
    let p = g.current().await;
    let map = chancery::map::Map::standard();
    let board =
        chancery::games::diplomacy::board_from_json(map, &p.board, &p.phase).expect("board");
    let pw = map.power_by_name(power).expect("power");
    let mut units: Vec<String> = board
        .units
        .iter()
        .filter(|u| u.power == pw)
        .map(|u| map.unit_name(u.unit_type, u.location))
        .collect();
    units.sort();
    units
}

/// The Fall of 1901 (Agora BT15, BT22, BT23): Germany dislodges the French army in Burgundy;
/// France's one order set retreats it to Marseilles and builds, all resolved at the Fall
/// deadline. France then holds 18 centres: announced the victor with 48 hours' notice (BT16,
/// BT3). The tick's time.
async fn fall_turn(g: &mut Game) -> Ts {
    g.mail("GERMANY", "F1901M", "A Ruh - Bur\nA Mun S A Ruh - Bur")
        .await;
    let orders = "F Mao - Por\nA Spa H\nA Bur H\nCONDITIONAL\nA Bur - Mar\nBuild A Mar\n\
                  Build F Bre\nBuild A Par\nENDCONDITIONAL";
    let ack = g.mail("FRANCE", "F1901M", orders).await;
    assert!(ack.contains("Agora BT15"), "{ack}");
    let deadline = g.current().await.deadline;
    assert_eq!(g.tick(deadline + 60).await, 1);
    let retreat = g.results("AUSTRIA", "F1901R").await;
    assert!(retreat.contains("(conditional)"), "{retreat}");
    let winter = g.results("AUSTRIA", "W1901A").await;
    assert!(winter.contains("BUILD F BRE (conditional)"), "{winter}");
    assert_eq!(
        units_of(g, "FRANCE").await,
        vec!["A MAR", "A PAR", "A SPA", "F BRE", "F POR"]
    );
    // Austria's armies, with no centre left and no removals given, are removed in civil
    // disorder (Agora BT24).
    assert!(units_of(g, "AUSTRIA").await.is_empty());
    let mut told = String::new();
    for phase in ["F1901M", "F1901R", "W1901A"] {
        told.push_str(&g.results("TURKEY", phase).await);
    }
    assert!(
        told.contains(
            "The Judge announces FRANCE as the winner of the tournament, with 48 hours' notice \
             (Agora BT3; FRANCE controls 18 or more supply centres"
        ),
        "{told}"
    );
    assert_eq!(g.current().await.phase, "S1902M");
    let row = g.game_row().await;
    assert_eq!(row.declared_winners.as_deref(), Some(r#"["FRANCE"]"#));
    assert_eq!(row.declared_end_at, Some(deadline + 60 + 48 * HOUR));
    deadline + 60
}

/// Agora BT3: the notice runs out; the tick concludes the tournament with its final mail, and
/// the proposal still open lapses, unenacted (BT8).
async fn conclusion(g: &mut Game, announced: Ts) {
    g.tick(announced + 47 * HOUR).await;
    assert_eq!(g.game_row().await.status, store::GameStatus::Active);
    assert_eq!(g.tick(announced + 48 * HOUR).await, 1);
    assert_ne!(g.game_row().await.status, store::GameStatus::Active);
    for power in POWERS {
        let ended = wait_for(&g.stack, &g.address(power), "the game has ended", 1).await;
        let ended = flat(&ended[0].1);
        assert!(ended.contains("FRANCE wins the tournament"), "{ended}");
        assert!(ended.contains("Agora BT3"), "{ended}");
        let lapsed = wait_for(&g.stack, &g.address(power), "Proposal 3 lapses", 1).await;
        let lapsed = flat(&lapsed[0].1);
        assert!(
            lapsed.contains("Proposal 3 (REPEAL BT10), submitted by FRANCE, lapses, not enacted"),
            "{lapsed}"
        );
        // No count: BT8 publishes the numbers only with an enactment.
        assert!(!lapsed.contains("in favour and"), "{lapsed}");
    }
    wait_for(&g.stack, GM, "the game has ended", 1).await;
    let mut c = g.pool.acquire().await.expect("conn");
    let open = store::open_rule_changes(&mut c, GAME).await.expect("open");
    assert!(open.is_empty(), "no proposal is left open: {open:?}");
}

/// What in `text` (one mail's headers and body, sent to `to`) puts a voter next to a vote,
/// if anything (Agora BT8: "The Judge SHALL NOT reveal the votes of specific Contestants"). A
/// voter's own mail may show their own vote: the voters checked are the others. A sentence
/// (or a header line) about a proposal, or with a ballot's word (FOR, AGAINST, voted), must
/// not name a voter on it, by power, address or name; only a voter's own mail says "your vote"; only a voter's own acknowledgement refers
/// to the mail that cast a vote.
fn reveals(seats: &Seats, ballots: &[Ballot], to: &str, text: &str) -> Option<String> {
    let own = seats
        .iter()
        .find(|(_, s)| s.0 == to)
        .map(|(p, _)| p.as_str());
    let voted = ballots.iter().any(|b| Some(b.1.as_str()) == own);
    if !voted && text.to_lowercase().contains("your vote") {
        return Some("\"your vote\" in a mail to someone who did not vote".into());
    }
    for (n, power, _, mid) in ballots {
        if Some(power.as_str()) == own {
            continue;
        }
        if text.contains(mid.as_str()) {
            return Some(format!("refers to {power}'s vote mail {mid}"));
        }
        let (address, _, name) = &seats[power];
        let proposal = format!("Proposal {n}");
        let ballot = format!("VOTE {n} ");
        let sentences = text
            .split("\n\n")
            .flat_map(|para| {
                let para = flat(para);
                para.split(". ").map(str::to_string).collect::<Vec<_>>()
            })
            .chain(
                text.lines()
                    .flat_map(|l| l.split(". ").map(str::to_string).collect::<Vec<_>>()),
            );
        for s in sentences {
            let about = s
                .match_indices(&proposal)
                .any(|(i, _)| !s[i + proposal.len()..].starts_with(|c: char| c.is_ascii_digit()))
                || s.contains(&ballot)
                || s.split_whitespace().any(|w| {
                    let w = w.trim_matches(|c: char| !c.is_ascii_alphabetic());
                    w == "FOR" || w == "AGAINST" || w.eq_ignore_ascii_case("voted")
                });
            if !about {
                continue;
            }
            for id in [power.as_str(), address.as_str(), name.as_str()] {
                if s.contains(id) {
                    return Some(format!("names {id} (a voter on {proposal}): {s}"));
                }
            }
        }
    }
    None
}

/// Every mail in `user`'s maildir: (the To header, its headers and decoded body), skipping
/// the mails the test itself wrote (the contestants' own mails to the Judge).
fn delivered(stack: &Stack, user: &str) -> Vec<(String, String)> {
    let maildir = stack
        .dir
        .join("mail/example.test")
        .join(user)
        .join("Maildir");
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(entries) = std::fs::read_dir(maildir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let raw = std::fs::read(entry.path()).expect("read the mail");
            let text = String::from_utf8_lossy(&raw).to_string();
            let end = text
                .find("\r\n\r\n")
                .or_else(|| text.find("\n\n"))
                .unwrap_or(text.len());
            let headers = text[..end].replace("\r\n ", " ").replace("\n ", " ");
            if headers.lines().any(|l| {
                l.to_ascii_lowercase().starts_with("message-id:")
                    && l.contains("@sender.example.test")
            }) {
                continue;
            }
            let msg = mail_parser::MessageParser::default()
                .parse(&raw)
                .expect("a mail that parses");
            let body = msg.body_text(0).map(|b| b.to_string()).unwrap_or_default();
            let to = headers
                .lines()
                .find(|l| l.to_ascii_lowercase().starts_with("to:"))
                .unwrap_or_default()
                .to_string();
            out.push((
                to,
                format!("{headers}\n\n{}\n\n{body}", msg.subject().unwrap_or("")),
            ));
        }
    }
    out
}

/// Agora BT8's secrecy over everything delivered and everything queued.
async fn secrecy_scan(g: &Game) {
    let users = [
        "gm",
        "confirm",
        "td",
        "archive",
        "player1",
        "player2",
        "player3",
        "player4",
        "player5",
        "player6",
        "player7",
        "catchall",
        "postmaster",
    ];
    let mut scanned = 0;
    for user in users {
        let mails = delivered(&g.stack, user);
        if !["confirm", "catchall", "postmaster", "gm"].contains(&user) {
            assert!(!mails.is_empty(), "nothing delivered to {user}");
        }
        for (to, text) in mails {
            let to = g
                .seats
                .values()
                .map(|s| s.0.clone())
                .find(|a| to.contains(a.as_str()))
                .unwrap_or(to);
            if let Some(leak) = reveals(&g.seats, &g.ballots, &to, &text) {
                panic!("the mail to {to} in {user}'s box {leak}:\n{text}");
            }
            scanned += 1;
        }
    }
    assert!(scanned > 100, "{scanned} mails scanned");
    let mut c = g.pool.acquire().await.expect("conn");
    let rows = sqlx::query(
        "SELECT kind, to_address, subject, body, message_id, coalesce(in_reply_to, ''), refs
         FROM outbox ORDER BY id",
    )
    .fetch_all(&mut *c)
    .await
    .expect("outbox");
    for r in &rows {
        let field = |k: usize| r.get::<String, _>(k);
        let text = format!(
            "Message-ID: {}\nIn-Reply-To: {}\nReferences: {}\nSubject: {}\n\n{}",
            field(4),
            field(5),
            field(6),
            field(2),
            field(3)
        );
        if let Some(leak) = reveals(&g.seats, &g.ballots, &field(1), &text) {
            panic!(
                "the outbox row {} to {} {leak}:\n{text}",
                field(0),
                field(1)
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agora_bt1_bt3_bt8_bt15_bt16_bt24_a_tournament_game_played_by_mail() {
    let mut g = open().await;
    enter(&mut g).await;
    let spring = g.current().await;
    assert_eq!(spring.phase, "S1901M");
    let begins = midnight_at_or_after(T0 + HOUR + 6 * 60);
    assert_eq!(spring.deadline, begins + DAY + 12 * HOUR, "Agora BT15");
    g.at(T0 + 3 * HOUR);
    spring_orders_and_proposals(&mut g).await;
    votes(&mut g).await;
    assert_eq!(g.tick(spring.deadline + 60).await, 1);
    let results = g.results("AUSTRIA", "S1901M").await;
    assert!(
        results.contains("No orders received (NMR): TURKEY."),
        "{results}"
    );
    assert!(results.contains("A CON: holds (no order)"), "{results}");
    // Agora BT15: the next turn begins at 00:00 UTC after the resolution period and follows
    // the hours Proposal 1 set: orders due at 18:00 UTC the day after it begins.
    let fall = g.current().await;
    assert_eq!(fall.phase, "F1901M");
    let fall_begins = midnight_at_or_after(spring.deadline + 12 * HOUR);
    assert_eq!(fall.deadline, fall_begins + DAY + 18 * HOUR);
    france_holds_eighteen_before_the_fall(&g).await;
    g.at(spring.deadline + 2 * HOUR);
    let announced = fall_turn(&mut g).await;
    conclusion(&mut g, announced).await;
    secrecy_scan(&g).await;
    let (stop, server) = g.server.take().expect("the server");
    stop.send(true).expect("stop");
    server.await.expect("join").expect("serve");
}

/// The scan itself finds a voter next to a vote, in a sentence, a header or a reference to
/// the mail that cast it, and lets the voter's own acknowledgement and the proposer pass.
#[test]
fn agora_bt8_the_secrecy_scan_finds_a_voter_next_to_a_vote() {
    let mut seats = Seats::new();
    for (i, power) in ["ENGLAND", "FRANCE"].iter().enumerate() {
        seats.insert(power.to_string(), (entrant(i), String::new(), name_of(i)));
    }
    let ballots: Vec<Ballot> = vec![(1, "ENGLAND".into(), "FOR".into(), "<m7@x.test>".into())];
    let other = entrant(1);
    for leak in [
        "Proposal 1 is enacted. ENGLAND voted for it.",
        "Votes:\nplayer1@example.test VOTE 1 FOR\n",
        "Proposal 1 passed thanks to\nContestant Number1.",
        "In-Reply-To: <m7@x.test>\n\nProposal 1 is enacted.",
        "Subject: bt: your vote on Proposal 1",
    ] {
        assert!(reveals(&seats, &ballots, &other, leak).is_some(), "{leak}");
    }
    for fine in [
        "FRANCE submits Proposal 1. Any Contestant may vote: VOTE 1 FOR or VOTE 1 AGAINST.",
        "Proposal 1 is enacted with 4 vote(s) in favour and 0 against. ENGLAND moves.",
        "Proposal 10: ENGLAND submits it.",
    ] {
        assert_eq!(reveals(&seats, &ballots, &other, fine), None, "{fine}");
    }
    let own = "In-Reply-To: <m7@x.test>\n\nENGLAND: your vote FOR on Proposal 1: recorded";
    assert_eq!(reveals(&seats, &ballots, &entrant(0), own), None);
}
