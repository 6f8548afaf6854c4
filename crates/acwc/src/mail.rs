//! An entrant's mail to the office, read into typed lines (bounded: the first 200 lines, 64 KiB;
//! quoted lines and a signature skipped). The words in any case:
//!
//! - `ACCOUNT <lichess account>`, `RATING <n>`, `PEAK <n>`: an entry ("Player eligibility";
//!   "Format": the seeding rating averages the rating at the cut-off and the year's peak);
//! - `RESULT <my score>-<opponent's score>` (`6.5-3.5`, `6½-3½`): the sender's match result,
//!   the sender's score first ("Match rules": "either player must post the results");
//! - `CONFIRM`, `DISPUTE`: the other player's answer to a reported result;
//! - `BID <seconds>`: a finalist's sealed Armageddon bid ("Final");
//! - `OFFER <time>[, <time>...]`, `ACCEPT <time>`, `CHOOSE <time>`: the match-time negotiation
//!   (ACWC "Match negotiations", `crate::negotiation`), each time `YYYY-MM-DD HH:MM` in UTC
//!   ("players must communicate their times in UTC"; a trailing `UTC` or `GMT` is allowed), at
//!   most [`MAX_TIMES`] in one line;
//! - `NOSHOW`: the appearing player's message to the TD that the opponent did not show up
//!   (ACWC "Match rules": sent twice, 10 minutes apart), then `CLAIM` (the win) or
//!   `RESCHEDULE`;
//! - `WITHDRAW <own account>`: the sender withdraws from the championship ("Disqualification
//!   and withdrawals"; the account is written out so that no stray word withdraws anyone).

use crate::Ts;
use chancery_office::time::parse_gmt;

/// The most lines and bytes read of a mail.
pub const MAX_LINES: usize = 200;
pub const MAX_BYTES: usize = 64 * 1024;
/// The most times one `OFFER` line reads.
pub const MAX_TIMES: usize = 12;

/// One line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Account(String),
    Rating(u32),
    Peak(u32),
    /// The sender's score first, as written (read against the stage by `matches::parse_score`).
    Result(String),
    Confirm,
    Dispute,
    /// ACWC Final: a finalist's sealed Armageddon bid, White's time in seconds.
    Bid(u16),
    /// ACWC Match negotiations: start times offered, UTC, as written (in order).
    Offer(Vec<Ts>),
    /// ACWC Match negotiations: one of the opponent's offered times accepted.
    Accept(Ts),
    /// ACWC Match negotiations: the time chosen by the opponent of the player at fault.
    Choose(Ts),
    /// ACWC Match rules: "message the TD that their opponent did not show up".
    NoShow,
    /// ACWC Match rules: "The appearing player has the choice to reschedule or claim a win".
    Claim,
    Reschedule,
    /// ACWC Disqualification and withdrawals: the sender withdraws, naming their account.
    Withdraw(String),
}

/// A mail read: its lines and the ones that are none (line number from 1, text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Read {
    pub lines: Vec<(usize, Line)>,
    pub unread: Vec<(usize, String)>,
}

fn number(s: &str) -> Option<u32> {
    let s = s.trim();
    (!s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// One start time, `YYYY-MM-DD HH:MM` UTC (a date alone is no time).
fn time(s: &str) -> Option<Ts> {
    let s = s.trim();
    (s.len() <= 30 && s.contains([' ', 'T']))
        .then(|| parse_gmt(s))
        .flatten()
}

/// `<time>[, <time>...]`: every one a time, at most [`MAX_TIMES`].
fn times(s: &str) -> Option<Vec<Ts>> {
    let parts: Vec<&str> = s.split([',', ';']).collect();
    if parts.len() > MAX_TIMES {
        return None;
    }
    parts.into_iter().map(time).collect()
}

fn line(text: &str) -> Option<Line> {
    let t = text.trim();
    let (word, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let rest = rest.trim();
    match (word.to_ascii_uppercase().trim_end_matches(':'), rest) {
        ("ACCOUNT", r) if !r.is_empty() && !r.contains(char::is_whitespace) && r.len() <= 30 => {
            Some(Line::Account(r.to_string()))
        }
        ("RATING", r) => number(r).map(Line::Rating),
        ("PEAK", r) => number(r).map(Line::Peak),
        ("RESULT", r) if !r.is_empty() && r.len() <= 20 => Some(Line::Result(r.to_string())),
        ("CONFIRM", "") => Some(Line::Confirm),
        ("DISPUTE", "") => Some(Line::Dispute),
        ("BID", r) => number(r).and_then(|n| u16::try_from(n).ok()).map(Line::Bid),
        ("OFFER", r) if !r.is_empty() => times(r).map(Line::Offer),
        ("ACCEPT", r) => time(r).map(Line::Accept),
        ("CHOOSE", r) => time(r).map(Line::Choose),
        ("NOSHOW" | "NO-SHOW", "") => Some(Line::NoShow),
        ("CLAIM", r) if r.is_empty() || r.eq_ignore_ascii_case("win") => Some(Line::Claim),
        ("RESCHEDULE", "") => Some(Line::Reschedule),
        ("WITHDRAW", r) if !r.is_empty() && !r.contains(char::is_whitespace) && r.len() <= 30 => {
            Some(Line::Withdraw(r.to_string()))
        }
        _ => None,
    }
}

/// The mail's lines read, in bounded time and memory.
pub fn read(body: &str) -> Read {
    let mut out = Read::default();
    let body = match body.char_indices().nth(MAX_BYTES) {
        Some((cut, _)) => &body[..cut],
        None => body,
    };
    for (k, text) in body.lines().take(MAX_LINES).enumerate() {
        let t = text.trim();
        if t == "--" {
            break;
        }
        if t.is_empty() || t.starts_with('>') {
            continue;
        }
        match line(t) {
            Some(l) => out.lines.push((k + 1, l)),
            None => out.unread.push((k + 1, t.chars().take(200).collect())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acwc_player_eligibility_an_entry_names_the_account_and_both_ratings() {
        let r = read("ACCOUNT alice\nrating 2101\nPeak: 2250\n> quoted\n");
        assert_eq!(
            r.lines,
            vec![
                (1, Line::Account("alice".into())),
                (2, Line::Rating(2101)),
                (3, Line::Peak(2250)),
            ]
        );
        assert!(r.unread.is_empty());
    }

    #[test]
    fn acwc_match_rules_a_result_its_confirmation_or_dispute() {
        let r = read("Hello\nRESULT 6.5-3.5\nconfirm\nDISPUTE\n--\nRESULT 1-9");
        assert_eq!(
            r.lines,
            vec![
                (2, Line::Result("6.5-3.5".into())),
                (3, Line::Confirm),
                (4, Line::Dispute)
            ]
        );
        assert_eq!(r.unread, vec![(1, "Hello".to_string())]);
        assert!(read("RATING lots\nACCOUNT two words").lines.is_empty());
    }

    #[test]
    fn acwc_match_rules_no_show_claims_and_a_withdrawal() {
        let r = read("NOSHOW\nno-show\nclaim win\nRESCHEDULE\nwithdraw alice\nWITHDRAW\nCLAIM it");
        assert_eq!(
            r.lines,
            vec![
                (1, Line::NoShow),
                (2, Line::NoShow),
                (3, Line::Claim),
                (4, Line::Reschedule),
                (5, Line::Withdraw("alice".into())),
            ]
        );
        assert_eq!(
            r.unread.len(),
            2,
            "WITHDRAW names the account; CLAIM takes WIN only"
        );
    }

    #[test]
    fn acwc_match_negotiations_offers_acceptances_and_choices_in_utc() {
        let t = |s: &str| parse_gmt(s).unwrap_or(0);
        let r = read(
            "OFFER 2019-10-10 18:00, 2019-10-11 18:00 UTC,2019-10-12 09:30\n\
             accept 2019-10-11 18:00\nChoose: 2019-10-12 15:00 GMT\n",
        );
        assert_eq!(
            r.lines,
            vec![
                (
                    1,
                    Line::Offer(vec![
                        t("2019-10-10 18:00"),
                        t("2019-10-11 18:00"),
                        t("2019-10-12 09:30")
                    ])
                ),
                (2, Line::Accept(t("2019-10-11 18:00"))),
                (3, Line::Choose(t("2019-10-12 15:00"))),
            ]
        );
        assert!(r.unread.is_empty());
        // A date alone, a bad time, a bad one among good ones, none at all: no line.
        for bad in [
            "OFFER 2019-10-10",
            "OFFER 2019-10-10 25:00",
            "OFFER 2019-10-10 18:00, tomorrow",
            "OFFER",
            "ACCEPT",
            "ACCEPT 2019-10-11 18:00, 2019-10-12 18:00",
            "CHOOSE soon",
        ] {
            assert!(read(bad).lines.is_empty(), "{bad}");
        }
        let many = format!(
            "OFFER {}",
            vec!["2019-10-10 18:00"; MAX_TIMES + 1].join(",")
        );
        assert!(read(&many).lines.is_empty());
    }

    #[test]
    fn a_huge_body_is_read_in_bounded_time() {
        let big = "RATING 1\n".repeat(200_000);
        assert_eq!(read(&big).lines.len(), MAX_LINES);
    }
}
