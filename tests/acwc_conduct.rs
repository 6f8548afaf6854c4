//! Issue 26: forfeits, disqualifications and withdrawals in the ACWC office, through the engine
//! on a real SQLite file with the clock passed in (ACWC "Match rules", "Disqualification and
//! withdrawals", "Reporting cheats"):
//!
//! - a no-show claim needs an agreed time, and a withdrawal names the sender's own account:
//!   both refused with the reason; a no-show rescheduled by the arbiter's `ASSIGN` is claimed
//!   again from the new time, the old messages spent;
//! - the TD forfeits a match (`FORFEIT <account> LEFT`), and a second forfeit in another match
//!   disqualifies: everyone is told, and the player is in no later pairing;
//! - an engine mark (`DISQUALIFY <account> ENGINE`) gives every finished match the player did
//!   not lose to the opponent, and their match under way too;
//! - the pairings after it are the rules' own (the checker agrees), and STATUS shows the
//!   standings with the players who left.

#[path = "common/acwc.rs"]
#[allow(dead_code)]
mod acwc;
use acwc::*;

use chancery::commands::{DisqualifyReason, ForfeitReason, GmCommand};
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::store::acwc::MatchRow;

async fn started(name: &str) -> Champ {
    let mut ch = open(name).await;
    for (k, (account, cutoff, peak)) in NINE.iter().enumerate() {
        let body = format!("ACCOUNT {account}\nRATING {cutoff}\nPEAK {peak}");
        let got = ch.mail(account, &body, T0 - 5 * DAY + k as Ts * 60).await;
        assert_eq!(got, Processed::Accepted, "{account}");
    }
    let accounts: Vec<&str> = NINE.iter().map(|e| e.0).collect();
    ch.approve_all(&accounts, T0 - DAY).await;
    games::start_game_and_tell(&ch.pool, &env(), GAME, T0)
        .await
        .expect("start");
    ch
}

fn plays(m: &MatchRow, who: &str) -> bool {
    m.a == who || m.b.as_deref() == Some(who)
}

async fn match_of(ch: &Champ, round: i64, who: &str) -> Option<MatchRow> {
    ch.matches()
        .await
        .into_iter()
        .find(|m| m.round == round && m.b.is_some() && plays(m, who))
}

/// Every undecided match of `round`: the first-named wins 6-4, confirmed.
async fn play_rest(ch: &mut Champ, round: i64, at: Ts) {
    let open: Vec<MatchRow> = ch
        .matches()
        .await
        .into_iter()
        .filter(|m| m.round == round && m.b.is_some() && m.decided_at.is_none())
        .collect();
    for m in open {
        assert_eq!(ch.mail(&m.a, "RESULT 6-4", at).await, Processed::Accepted);
        let b = m.b.clone().expect("pair");
        assert_eq!(ch.mail(&b, "CONFIRM", at + 60).await, Processed::Accepted);
    }
}

/// ACWC Match rules: "If a player gets forfeited in two different matches, they get
/// disqualified from the ACWC".
#[tokio::test]
async fn acwc_match_rules_two_forfeits_disqualify_and_an_engine_mark_reverses_wins() {
    let mut ch = started("conduct-forfeits").await;
    // Round 1: 7 in the Swiss, a bye; frank plays someone.
    let m1 = match_of(&ch, 1, "frank")
        .await
        .expect("frank plays round 1");
    // No agreed time: a no-show cannot be claimed yet.
    let other = if m1.a == "frank" {
        m1.b.clone().expect("pair")
    } else {
        m1.a.clone()
    };
    assert_eq!(
        ch.mail(&other, "NOSHOW", T0 + DAY).await,
        Processed::Rejected
    );
    let why = ch
        .mails_containing(&address(&other), "Not accepted")
        .await
        .join(" ");
    assert!(why.contains("no agreed time"), "{why}");
    // A withdrawal names the sender's own account.
    assert_eq!(
        ch.mail("frank", "WITHDRAW alice", T0 + DAY).await,
        Processed::Rejected
    );
    // The TD forfeits frank's match: he left and did not come back.
    let answer = ch
        .command(
            GmCommand::Forfeit {
                account: "frank".into(),
                why: ForfeitReason::Left,
            },
            T0 + 2 * DAY,
        )
        .await;
    assert!(answer.contains("forfeited by frank"), "{answer}");
    let told = ch.mails(&address("frank"), ": forfeited").await.join(" ");
    assert!(told.contains("left the match"), "{told}");
    assert!(told.contains(&format!("in favour of {other}")), "{told}");
    play_rest(&mut ch, 1, T0 + 5 * DAY).await;

    // Round 2: frank, last, has the bye (a win); everyone else plays.
    let bye = ch
        .matches()
        .await
        .into_iter()
        .find(|m| m.round == 2 && m.b.is_none())
        .expect("a bye");
    assert_eq!(bye.a, "frank");
    play_rest(&mut ch, 2, T0 + 12 * DAY).await;
    let pairings = ch
        .mails(&address("bob"), "Swiss round 3 pairings")
        .await
        .join(" ");
    assert!(pairings.contains("Rank Seed Player"), "{pairings}");
    // Round 3: a second forfeit, in another match, disqualifies him; everyone is told.
    assert!(match_of(&ch, 3, "frank").await.is_some());
    ch.command(
        GmCommand::Forfeit {
            account: "frank".into(),
            why: ForfeitReason::NoShow,
        },
        T0 + 15 * DAY,
    )
    .await;
    let told = ch
        .mails(&address("alice"), "A disqualification")
        .await
        .join(" ");
    assert!(
        told.contains("frank is disqualified: forfeited in two different matches"),
        "{told}"
    );
    // Round 3: alice is marked as engine: every finished match she did not lose goes to her
    // opponent, and her match under way too.
    let won_before: Vec<MatchRow> = ch
        .matches()
        .await
        .into_iter()
        .filter(|m| m.round < 3 && m.b.is_some() && plays(m, "alice"))
        .filter(|m| {
            m.forfeit_to.as_deref() == Some("alice")
                || (m.forfeit_to.is_none()
                    && if m.a == "alice" {
                        m.score_a >= m.score_b
                    } else {
                        m.score_b >= m.score_a
                    })
        })
        .collect();
    assert!(!won_before.is_empty(), "alice won a match before");
    let answer = ch
        .command(
            GmCommand::Disqualify {
                account: "alice".into(),
                why: DisqualifyReason::Engine,
            },
            T0 + 16 * DAY,
        )
        .await;
    assert!(answer.contains("alice is disqualified"), "{answer}");
    for m in ch
        .matches()
        .await
        .iter()
        .filter(|m| m.round <= 3 && m.b.is_some() && plays(m, "alice"))
    {
        let opponent = if m.a == "alice" {
            m.b.clone().expect("pair")
        } else {
            m.a.clone()
        };
        let reversed = won_before
            .iter()
            .any(|w| w.round == m.round && w.board == m.board);
        if reversed || m.round == 3 {
            assert_eq!(m.forfeit_to.as_deref(), Some(opponent.as_str()), "{m:?}");
        }
    }
    let told = ch.mails(TD, "A disqualification").await.join(" ");
    assert!(told.contains("an engine mark"), "{told}");
    play_rest(&mut ch, 3, T0 + 19 * DAY).await;
    let round4: Vec<MatchRow> = ch
        .matches()
        .await
        .into_iter()
        .filter(|m| m.round == 4)
        .collect();
    assert!(!round4.is_empty(), "round 4 is out");
    assert!(
        round4
            .iter()
            .all(|m| !plays(m, "alice") && !plays(m, "frank")),
        "{round4:?}"
    );
    // STATUS: the standings, those who left listed as such.
    let status = ch.command(GmCommand::Status, T0 + 22 * DAY).await;
    assert!(status.contains("Rank Seed"), "{status}");
    let left: Vec<&str> = status.lines().filter(|l| l.starts_with("left")).collect();
    assert!(left.iter().any(|l| l.contains("alice")), "{status}");
    assert!(left.iter().any(|l| l.contains("frank")), "{status}");
    // The reminders of a result due run on the tick without error.
    games::tick(&ch.pool, &env(), T0 + 22 * DAY + HOUR)
        .await
        .expect("tick");
}

/// ACWC Match rules: "The appearing player has the choice to reschedule or claim a win": a
/// no-show claimed, the appearing player choosing to reschedule, the arbiter assigning a new
/// time, and a new claim counted from it (the old messages spent) forfeiting the match.
#[tokio::test]
async fn acwc_match_rules_a_no_show_rescheduled_then_claimed_at_the_new_time() {
    let mut ch = started("conduct-reschedule").await;
    let m = match_of(&ch, 1, "frank")
        .await
        .expect("frank plays round 1");
    let other = if m.a == "frank" {
        m.b.clone().expect("pair")
    } else {
        m.a.clone()
    };
    let t = |s: &str| chancery::time::parse_gmt(s).expect("a time");
    let offer = "OFFER 2019-10-03 18:00, 2019-10-04 18:00, 2019-10-05 18:00";
    assert_eq!(ch.mail(&other, offer, T0 + HOUR).await, Processed::Accepted);
    assert_eq!(
        ch.mail("frank", "ACCEPT 2019-10-03 18:00", T0 + 2 * HOUR)
            .await,
        Processed::Accepted
    );
    let at = t("2019-10-03 18:00");
    assert_eq!(
        ch.mail(&other, "NOSHOW", at + 120).await,
        Processed::Accepted
    );
    // A choice before the second message is refused.
    assert_eq!(
        ch.mail(&other, "CLAIM", at + 180).await,
        Processed::Rejected
    );
    assert_eq!(
        ch.mail(&other, "NOSHOW", at + 13 * 60).await,
        Processed::Accepted
    );
    let told = ch.mails(&address("frank"), "a no-show").await.join(" ");
    assert!(told.contains(&format!("{other} chooses")), "{told}");
    assert_eq!(
        ch.mail(&other, "RESCHEDULE", at + 15 * 60).await,
        Processed::Accepted
    );
    assert_eq!(
        ch.mail(&other, "CLAIM", at + 16 * 60).await,
        Processed::Rejected
    );
    ch.command(
        GmCommand::Assign {
            account: other.clone(),
            time: t("2019-10-04 20:00"),
        },
        at + 30 * 60,
    )
    .await;
    let again = t("2019-10-04 20:00");
    assert_eq!(
        ch.mail(&other, "NOSHOW", again + 60).await,
        Processed::Accepted
    );
    assert_eq!(
        ch.mail(&other, "NOSHOW", again + 12 * 60).await,
        Processed::Accepted
    );
    assert_eq!(
        ch.mail(&other, "CLAIM WIN", again + 13 * 60).await,
        Processed::Accepted
    );
    let m = match_of(&ch, 1, "frank").await.expect("the match");
    assert_eq!(m.forfeit_to.as_deref(), Some(other.as_str()));
    let told = ch.mails(&address("frank"), ": forfeited").await.join(" ");
    assert!(told.contains("did not show up"), "{told}");
}
