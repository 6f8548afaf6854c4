//! Issue 26: the ACWC match-time negotiation by mail (ACWC "Match negotiations"), through the
//! engine on a real SQLite file with the clock passed in. Five entrants, round 1 published on
//! Monday 30 September 2019: offers refused with the reason (a third on one date, two hours
//! apart); a valid offer, a reminder for it unanswered after 24 hours (sent once), and its
//! acceptance told to both players; a player short of 3 offers by Wednesday at fault and the
//! opponent choosing the time; in round 2, both players short of offers and the TD assigning a
//! time with `ASSIGN`.

#[path = "common/acwc.rs"]
#[allow(dead_code)]
mod acwc;
use acwc::*;

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};

/// (account, cut-off rating, peak).
const ENTRANTS: [(&str, u32, u32); 5] = [
    ("alice", 2101, 2250),
    ("bob", 2050, 2100),
    ("carol", 1900, 2000),
    ("dave", 1890, 1990),
    ("erin", 1700, 1850),
];

/// Every entry by mail, approved by the TD; each approved entrant's secret from their mail.
async fn enter_all(ch: &mut Champ) {
    let at = T0 - 5 * DAY;
    for (k, (account, cutoff, peak)) in ENTRANTS.iter().enumerate() {
        let body = format!("ACCOUNT {account}\nRATING {cutoff}\nPEAK {peak}");
        let got = ch.mail(account, &body, at + k as Ts * 60).await;
        assert_eq!(got, Processed::Accepted, "{account}");
    }
    let accounts: Vec<&str> = ENTRANTS.iter().map(|e| e.0).collect();
    ch.approve_all(&accounts, T0 - DAY).await;
}

fn t(s: &str) -> Ts {
    chancery::time::parse_gmt(s).expect("a time")
}

/// The pairs of round `round`: (first, second).
async fn pairs(ch: &Champ, round: i64) -> Vec<(String, String)> {
    ch.matches()
        .await
        .into_iter()
        .filter(|m| m.round == round)
        .filter_map(|m| Some((m.a.clone(), m.b.clone()?)))
        .collect()
}

async fn agreed(ch: &Champ, round: i64, a: &str) -> Option<Ts> {
    ch.matches()
        .await
        .into_iter()
        .find(|m| m.round == round && m.a == a)
        .and_then(|m| m.agreed_at)
}

#[tokio::test]
async fn acwc_match_negotiations_by_mail_offers_acceptance_fault_choice_and_assignment() {
    let mut ch = open("neg-negotiation").await;
    enter_all(&mut ch).await;
    games::start_game_and_tell(&ch.pool, &env(), GAME, T0)
        .await
        .expect("start");
    let round1 = pairs(&ch, 1).await;
    assert_eq!(round1.len(), 2, "{round1:?}");
    let (a1, b1) = round1[0].clone();
    let (a2, b2) = round1[1].clone();

    // Round 1's week: offers by Wednesday 2 October 23:59:59 UTC, the weekend from Saturday 5.
    // ACWC Match negotiations: no more than 2 on a single date.
    let third = "OFFER 2019-10-03 08:00, 2019-10-03 14:00, 2019-10-03 20:00";
    assert_eq!(ch.mail(&a1, third, T0 + HOUR).await, Processed::Rejected);
    let why = ch
        .mails_containing(&address(&a1), "Not accepted")
        .await
        .join("\n");
    assert!(why.contains("no more than 2 on a single date"), "{why}");
    // No closer than 3 hours to each other.
    let close = "OFFER 2019-10-03 10:00, 2019-10-03 12:00";
    assert_eq!(
        ch.mail(&a1, close, T0 + 2 * HOUR).await,
        Processed::Rejected
    );
    let why = ch
        .mails_containing(&address(&a1), "Not accepted")
        .await
        .join("\n");
    assert!(why.contains("closer than 3 hours"), "{why}");
    // A valid offer, told to both players and the TD, in UTC.
    let offer = "OFFER 2019-10-03 10:00, 2019-10-04 10:00, 2019-10-05 10:00";
    assert_eq!(
        ch.mail(&a1, offer, T0 + 3 * HOUR).await,
        Processed::Accepted
    );
    for to in [address(&a1), address(&b1), TD.to_string()] {
        let told = ch.mails_containing(&to, "offers 3 times").await.join("\n");
        assert!(told.contains("2019-10-04 10:00 UTC"), "{to}: {told}");
        assert!(told.contains("ACCEPT"), "{told}");
    }
    // Board 2: the first offers 3 times, the second only one.
    let offer2 = "OFFER 2019-10-03 19:00, 2019-10-04 19:00, 2019-10-05 19:00";
    assert_eq!(
        ch.mail(&a2, offer2, T0 + 3 * HOUR).await,
        Processed::Accepted
    );

    // ACWC Match negotiations ("preferably within 24 hours"): the unanswered offer is
    // reminded once, after 24 hours.
    games::tick(&ch.pool, &env(), T0 + 26 * HOUR)
        .await
        .expect("tick");
    assert!(
        ch.mails_containing(&address(&b1), "unanswered")
            .await
            .is_empty()
    );
    games::tick(&ch.pool, &env(), T0 + 28 * HOUR)
        .await
        .expect("tick");
    games::tick(&ch.pool, &env(), T0 + 28 * HOUR + 60)
        .await
        .expect("tick");
    let reminders: Vec<String> = ch
        .mails_containing(&address(&b1), "a reminder to")
        .await
        .into_iter()
        .filter(|m| m.contains("is unanswered"))
        .collect();
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert!(
        reminders[0].contains("2019-10-05 10:00 UTC"),
        "{}",
        reminders[0]
    );
    assert!(
        ch.mails_containing(&address(&a1), "is unanswered")
            .await
            .is_empty()
    );

    // The acceptance: the time agreed, told to both and kept.
    let accept = "ACCEPT 2019-10-04 10:00";
    assert_eq!(
        ch.mail(&b1, accept, T0 + 30 * HOUR).await,
        Processed::Accepted
    );
    for to in [address(&a1), address(&b1)] {
        let told = ch
            .mails_containing(&to, "agreed 2019-10-04 10:00 UTC")
            .await
            .join("\n");
        assert!(told.contains(&format!("accepted by {b1}")), "{to}: {told}");
    }
    assert_eq!(agreed(&ch, 1, &a1).await, Some(t("2019-10-04 10:00")));
    // Settled: no more offers.
    let more = "OFFER 2019-10-05 18:00";
    assert_eq!(
        ch.mail(&a1, more, T0 + 31 * HOUR).await,
        Processed::Rejected
    );

    let one = "OFFER 2019-10-04 08:00";
    assert_eq!(ch.mail(&b2, one, T0 + 30 * HOUR).await, Processed::Accepted);
    // Thursday 00:00: b2 is short of 3 offers and at fault; a2 chooses. Told to both and the TD.
    games::tick(&ch.pool, &env(), T0 + 3 * DAY)
        .await
        .expect("tick");
    for to in [address(&a2), address(&b2), TD.to_string()] {
        let told = ch
            .mails_containing(&to, &format!("{a2} chooses"))
            .await
            .join("\n");
        assert!(
            told.contains(&format!("{b2} did not offer 3 times by Wednesday")),
            "{to}: {told}"
        );
        assert!(told.contains("CHOOSE"), "{told}");
    }
    let late = "OFFER 2019-10-05 12:00";
    assert_eq!(
        ch.mail(&b2, late, T0 + 3 * DAY + HOUR).await,
        Processed::Rejected
    );
    let why = ch
        .mails_containing(&address(&b2), "Not accepted")
        .await
        .join("\n");
    assert!(
        why.contains(&format!("accept the time {a2} chooses")),
        "{why}"
    );
    let choose = "CHOOSE 2019-10-05 15:00";
    assert_eq!(
        ch.mail(&a2, choose, T0 + 3 * DAY + 2 * HOUR).await,
        Processed::Accepted
    );
    let told = ch
        .mails_containing(&address(&b2), "agreed 2019-10-05 15:00 UTC")
        .await
        .join("\n");
    assert!(told.contains(&format!("chosen by {a2}")), "{told}");
    assert_eq!(agreed(&ch, 1, &a2).await, Some(t("2019-10-05 15:00")));

    // Round 1 played; round 2 published on Monday 7 October, its week that week.
    let monday = T0 + 7 * DAY;
    for (a, b) in &round1 {
        assert_eq!(ch.mail(a, "RESULT 6-4", monday).await, Processed::Accepted);
        assert_eq!(
            ch.mail(b, "CONFIRM", monday + HOUR).await,
            Processed::Accepted
        );
    }
    let round2 = pairs(&ch, 2).await;
    assert_eq!(round2.len(), 2, "{round2:?}");
    let (a3, b3) = round2[0].clone();
    // Nobody offers by Wednesday 9 October: both at fault, the arbiter assigns; the TD is told
    // who is at fault and how to assign.
    games::tick(&ch.pool, &env(), t("2019-10-10 00:00"))
        .await
        .expect("tick");
    let told = ch
        .mails_containing(TD, "for the match arbiter")
        .await
        .join("\n");
    assert!(told.contains("neither player offered 3 times"), "{told}");
    assert!(told.contains(&format!("At fault: {a3} and {b3}")), "{told}");
    assert!(told.contains("ASSIGN"), "{told}");
    let players = ch
        .mails_containing(&address(&b3), "for the match arbiter")
        .await;
    assert_eq!(players.len(), 1, "{players:?}");
    let refused = ch
        .mail(&a3, "OFFER 2019-10-12 18:00", t("2019-10-10 08:00"))
        .await;
    assert_eq!(refused, Processed::Rejected);
    let answer = ch
        .command(
            GmCommand::Assign {
                account: b3.clone(),
                time: t("2019-10-12 17:00"),
            },
            t("2019-10-10 09:00"),
        )
        .await;
    assert!(answer.contains("agreed 2019-10-12 17:00 UTC"), "{answer}");
    let told = ch
        .mails_containing(&address(&a3), "agreed 2019-10-12 17:00 UTC")
        .await
        .join("\n");
    assert!(told.contains("assigned by the match arbiter"), "{told}");
    assert_eq!(agreed(&ch, 2, &a3).await, Some(t("2019-10-12 17:00")));
    // A finding is refused where none is due.
    let done = games::console_command(
        &ch.pool,
        &env(),
        GAME,
        &GmCommand::Finding {
            account: b3.clone(),
            at_fault: None,
        },
        t("2019-10-10 10:00"),
    )
    .await
    .expect("command");
    assert!(!done.ok, "{}", done.answer);
}
