//! The secrecy audit (issue 29, campaign 6): a game played over two phases with press of every
//! colour (white, grey, dark grey, black; to all and to one power), draw and concession votes,
//! an extension and a replacement, through the engine on a real database; then every mail it
//! queued (every header it is sent with, its body, and its picture's text) is scanned for:
//!
//! - a vote by name, or a tally (WM D.IX; Maharajiad X: only the result is ever published);
//! - the author of grey, dark grey or black press (WM D.X(1); Maharajiad B.XI(1)), next to the
//!   press or in the headers of a mail carrying it (a reference to the author's own mail);
//! - who asked for an extension (WM D.VII(5): every player is told, not by whom);
//! - any secret (a player's or a master's `SECRET`, the server's key) outside its owner's mail.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::engine::admin;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::store::{self, Pool, Role};
use sqlx::Row;

const GAME: &str = "sx1";
const GM: &str = "gm.person@example.test";
const NEWBIE: &str = "newbie@example.test";

/// A mail as it is sent: its headers and body, and its picture's text.
struct Sent {
    id: i64,
    kind: String,
    to: String,
    headers: String,
    body: String,
}

impl Sent {
    fn text(&self) -> String {
        format!("{}\n\n{}", self.headers, self.body)
    }
}

async fn sent(pool: &Pool) -> Vec<Sent> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(
        "SELECT o.id, o.kind, o.from_address, o.to_address, o.subject, o.body, o.message_id,
                coalesce(o.in_reply_to, '') AS irt, o.refs, o.auto_submitted,
                coalesce(p.alt, '') AS alt
         FROM outbox o LEFT JOIN outbox_pictures p ON p.id = o.picture_id ORDER BY o.id",
    )
    .fetch_all(&mut *c)
    .await
    .expect("outbox")
    .iter()
    .map(|r| {
        let f = |k: &str| r.get::<String, _>(k);
        Sent {
            id: r.get("id"),
            kind: f("kind"),
            to: f("to_address"),
            headers: format!(
                "From: {}\nTo: {}\nSubject: {}\nMessage-ID: {}\nIn-Reply-To: {}\nReferences: {}\nAuto-Submitted: {}",
                f("from_address"),
                f("to_address"),
                f("subject"),
                f("message_id"),
                f("irt"),
                f("refs"),
                f("auto_submitted"),
            ),
            body: format!("{}\n\n{}", f("body"), f("alt")),
        }
    })
    .collect()
}

/// A player (or the replacement) mails `body` for `phase` at `at`, as Message-ID `<id>`: who
/// is (address, power, secret).
async fn mail(
    pool: &Pool,
    (from, power, secret): (&str, &str, &str),
    (uid, id): (u32, &str),
    phase: &str,
    body: &str,
    at: Ts,
) {
    let m = raw(
        from,
        "gm@example.test",
        &format!("{GAME} {power} {phase}"),
        &format!("Message-ID: <{id}@players.test>\r\n"),
        &format!("SECRET {secret}\n{body}\n"),
    );
    deliver(pool, "gm", uid, &m, Some(at), at).await;
}

async fn current(pool: &Pool) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, GAME)
        .await
        .expect("q")
        .expect("open")
}

/// A press item that must never be shown with its author.
struct Hidden {
    marker: &'static str,
    author: &'static str,
    address: String,
    /// The Message-ID of the mail that carried it.
    carried_by: String,
}

/// The lines of the press item holding `marker` in `text`: its heading and its quoted lines.
fn press_item(text: &str, marker: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains(marker))?;
    let mut from = at;
    while from > 0 {
        let l = lines[from - 1].trim_start();
        from -= 1;
        if !l.starts_with('|') && !l.is_empty() {
            break;
        }
    }
    Some(lines[from..=at].join("\n"))
}

/// Words that make a line about a vote.
const VOTE_WORDS: [&str; 8] = [
    "vote",
    "voted",
    "ballot",
    "yes",
    "abstain",
    "in favour",
    "against",
    "agreed",
];

fn about_a_vote(line: &str) -> bool {
    let l = line.to_lowercase();
    VOTE_WORDS.iter().any(|w| {
        l.match_indices(w).any(|(i, _)| {
            let before = l[..i].chars().next_back();
            let after = l[i + w.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

#[tokio::test]
async fn wm_d_ix_d_x_1_d_vii_5_maharajiad_b_xi_1_no_mail_reveals_a_vote_a_press_author_or_a_secret()
{
    // Maharajiad's press (black press accepted) with its Alternative A (dark grey) on, and
    // NMRs allowed from the start so that not every player needs to write.
    let options = vec![
        ("dark_grey_press".to_string(), "true".to_string()),
        ("no_nmr_phases".to_string(), "[]".to_string()),
        // Maharajiad's own calendar ends in 1510; this game is on the standard map.
        ("final_year".to_string(), "1910".to_string()),
    ];
    let (pool, secrets) = game_with("secrecy", GAME, "maharajiad", &options).await;
    let gm = admin::add_member(&pool, GAME, Role::Gm, GM, "UTC", T0)
        .await
        .expect("gm");
    games::start_game(&pool, GAME, T0).await.expect("start");
    let at = T0 + HOUR;
    let p = |i: usize| (player(i), POWERS[i], secrets[i].clone());
    // Spring: every colour of press, every kind of ballot, an extension.
    let spring: [(usize, &str); 7] = [
        (
            0,
            "A Vie H\nVOTE DRAW YES\nGREY PRESS TO ALL\nA grey word from nowhere zulu0.\nENDPRESS",
        ),
        (
            1,
            "VOTE DRAW NO\nDARK GREY PRESS TO ALL SIGNED The Ghost\nA dark grey word zulu1.\nENDPRESS",
        ),
        (
            2,
            "A Par H\nVOTE DRAW YES\nBLACK PRESS TO ALL AS ENGLAND\nWe surrender zulu2.\nENDPRESS\nPRESS TO ALL\nFrance speaks openly zulu2w.\nENDPRESS",
        ),
        (
            3,
            "VOTE CONCEDE FRANCE NO\nGREY PRESS TO FRANCE\nA grey word for France zulu3.\nENDPRESS",
        ),
        (4, "EXTEND 1 DAY\nVOTE DRAW NO\nVOTE CONCEDE FRANCE YES"),
        (
            5,
            "VOTE DRAW ABSTAIN\nDARK GREY PRESS TO GERMANY SIGNED Rasputin\nA dark word for Germany zulu5.\nENDPRESS",
        ),
        (
            6,
            "VOTE DRAW YES\nBLACK PRESS TO ALL AS AUSTRIA\nVienna falls zulu6.\nENDPRESS",
        ),
    ];
    for (k, (i, body)) in spring.iter().enumerate() {
        let (from, power, secret) = p(*i);
        let id = format!("spring{i}");
        mail(
            &pool,
            (&from, power, &secret),
            (k as u32 + 1, &id),
            "S1901M",
            body,
            at + k as Ts * 60,
        )
        .await;
    }
    let hidden = vec![
        Hidden {
            marker: "zulu0",
            author: "AUSTRIA",
            address: player(0),
            carried_by: "spring0".into(),
        },
        Hidden {
            marker: "zulu1",
            author: "ENGLAND",
            address: player(1),
            carried_by: "spring1".into(),
        },
        Hidden {
            marker: "zulu2.",
            author: "FRANCE",
            address: player(2),
            carried_by: "spring2".into(),
        },
        Hidden {
            marker: "zulu3",
            author: "GERMANY",
            address: player(3),
            carried_by: "spring3".into(),
        },
        Hidden {
            marker: "zulu5",
            author: "RUSSIA",
            address: player(5),
            carried_by: "spring5".into(),
        },
        Hidden {
            marker: "zulu6",
            author: "TURKEY",
            address: player(6),
            carried_by: "spring6".into(),
        },
        Hidden {
            marker: "zulu7",
            author: "TURKEY",
            address: NEWBIE.into(),
            carried_by: "fall-newbie".into(),
        },
    ];
    // The GM replaces Turkey: the new player gets a secret of their own.
    let replace = raw(
        GM,
        "gm@example.test",
        &format!("{GAME} GM"),
        "Message-ID: <gm-replace@players.test>\r\n",
        &format!("SECRET {}\nREPLACE TURKEY {NEWBIE}\n", gm.secret),
    );
    deliver(&pool, "gm", 20, &replace, Some(at + HOUR), at + HOUR).await;
    let spring_phase = current(&pool).await;
    assert_eq!(spring_phase.phase, "S1901M");
    assert!(
        spring_phase.deadline > T0 + 3 * DAY,
        "Italy's extension moved the deadline"
    );
    assert_eq!(
        games::tick(&pool, &env(), spring_phase.deadline)
            .await
            .expect("tick"),
        1
    );
    // Fall: the new Turkey's own secret, black press, and votes again.
    let welcome = sent(&pool)
        .await
        .into_iter()
        .find(|m| m.to == NEWBIE && m.body.contains("YOUR SECRET:"))
        .expect("the replacement's welcome");
    let newbie_secret = welcome
        .body
        .lines()
        .skip_while(|l| !l.contains("YOUR SECRET:"))
        .find_map(|l| {
            let w = l.split("YOUR SECRET:").nth(1).unwrap_or(l).trim();
            (!w.is_empty()).then(|| w.to_string())
        })
        .expect("the secret in the welcome");
    let fall = current(&pool).await;
    assert_eq!(fall.phase, "F1901M");
    let at = spring_phase.deadline + HOUR;
    mail(
        &pool,
        (NEWBIE, "TURKEY", &newbie_secret),
        (30, "fall-newbie"),
        "F1901M",
        "VOTE DRAW NO\nGREY PRESS TO ALL\nThe new Sultan whispers zulu7.\nENDPRESS",
        at,
    )
    .await;
    for i in 0..6 {
        let (from, power, secret) = p(i);
        let vote = if i % 2 == 0 {
            "VOTE DRAW YES"
        } else {
            "VOTE DRAW NO"
        };
        mail(
            &pool,
            (&from, power, &secret),
            (31 + i as u32, &format!("fall{i}")),
            "F1901M",
            vote,
            at + 60,
        )
        .await;
    }
    assert_eq!(
        games::tick(&pool, &env(), fall.deadline)
            .await
            .expect("tick"),
        1
    );

    let mails = sent(&pool).await;
    assert!(mails.len() >= 35, "{} mails", mails.len());
    let mut owners: Vec<(String, String)> =
        (0..7).map(|i| (secrets[i].clone(), player(i))).collect();
    owners.push((gm.secret.clone(), GM.to_string()));
    owners.push((newbie_secret.clone(), NEWBIE.to_string()));
    let voters: Vec<&str> = POWERS.to_vec();
    let mut carried = 0;
    for m in &mails {
        let text = m.text();
        // Secrets: in their owner's mail only; the server's key in none.
        for (secret, owner) in &owners {
            assert!(
                m.to == *owner || !text.contains(secret.as_str()),
                "mail {} ({}) to {} holds the secret of {owner}:\n{text}",
                m.id,
                m.kind,
                m.to
            );
        }
        assert!(
            !text.contains("the tests' server key"),
            "mail {}: {text}",
            m.id
        );
        // Press authors: never beside their press, nor referenced by a mail that carries it.
        for h in &hidden {
            if m.to == h.address || !text.contains(h.marker) {
                continue;
            }
            carried += 1;
            let item = press_item(&m.body, h.marker).unwrap_or_default();
            assert!(
                !item.contains(h.author) && !item.contains(&h.address),
                "mail {} ({}) to {} shows {} beside its press:\n{item}\n---\n{text}",
                m.id,
                m.kind,
                m.to,
                h.author
            );
            assert!(
                !m.headers.contains(&h.carried_by) && !m.headers.contains(&h.address),
                "mail {} ({}) to {} points at {}'s mail:\n{}",
                m.id,
                m.kind,
                m.to,
                h.author,
                m.headers
            );
        }
        // Votes: no voter named on a line about a vote, and no count of ballots, except in the
        // voter's own acknowledgement.
        let own = (0..7).find(|&i| player(i) == m.to).map(|i| POWERS[i]);
        for line in text.lines().filter(|l| about_a_vote(l)) {
            for v in &voters {
                if Some(*v) == own || (m.to == NEWBIE && *v == "TURKEY") {
                    continue;
                }
                let named = line.contains(v) && !line.contains(&format!("CONCEDE {v}"));
                assert!(
                    !named,
                    "mail {} ({}) to {} names {v} on a line about a vote:\n{line}\n---\n{text}",
                    m.id, m.kind, m.to
                );
            }
            // (A voter's own acknowledgement numbers the lines of their mail.)
            let own_ack = m.kind == "ack" && (own.is_some() || m.to == NEWBIE);
            assert!(
                own_ack
                    || !line.chars().any(|c| c.is_ascii_digit())
                    || line.contains("WM")
                    || line.contains("Maharajiad"),
                "mail {} ({}) to {} counts ballots:\n{line}\n---\n{text}",
                m.id,
                m.kind,
                m.to
            );
        }
        // WM D.VII(5): every player is told of the extension, never who asked.
        if text.contains("An extension of 1 day(s) has been granted") && m.to != player(4) {
            let around = text
                .split("An extension of 1 day(s) has been granted")
                .nth(1)
                .unwrap_or_default();
            assert!(
                !around[..around.len().min(300)].contains("ITALY"),
                "mail {}: {text}",
                m.id
            );
        }
    }
    assert!(
        carried >= 6 * 6,
        "the press reached the other players ({carried} mails)"
    );
}

/// The scan itself: it finds an author beside their press, a voter on a line about a vote and a
/// tally, and lets the press of others and the lines that are not about votes pass.
#[test]
fn the_scan_finds_an_author_beside_the_press_and_a_voter_beside_a_vote() {
    let results = "PRESS\n\n  From FRANCE to ALL:\n  | France speaks zulu2w.\n\n  From ENGLAND to ALL:\n  | We surrender zulu2.\n";
    assert!(press_item(results, "zulu2w").is_some_and(|i| i.contains("FRANCE")));
    assert!(
        press_item(results, "zulu2.")
            .is_some_and(|i| !i.contains("FRANCE") && i.contains("ENGLAND"))
    );
    for leak in [
        "FRANCE voted YES",
        "Votes: 4 in favour",
        "ENGLAND: ballot recorded",
        "yes: AUSTRIA",
    ] {
        assert!(about_a_vote(leak), "{leak}");
    }
    for fine in [
        "FRANCE: A PAR - BUR",
        "Yesterday ENGLAND moved",
        "The Noyes family",
    ] {
        assert!(!about_a_vote(fine), "{fine}");
    }
}
