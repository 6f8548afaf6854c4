//! The bodies of notices, alerts and announcements that every kind of game sends (so that
//! `src/engine` and `src/games` pass values, not texts): one template each, in
//! `templates/common/`; a kind's own are in its folder (`src/outgoing/<kind>/notices.rs`,
//! templates in `templates/<kind>/`). The caller passes the values, already formatted where
//! they need formatting; each body is the template's text exactly (no tidying), so what was sent
//! before the templates is what is sent now, byte for byte.

use crate::outgoing::render::{RenderError, render_text};
use serde::Serialize;

/// The common notice templates, embedded (in every template environment, [`super::render`]).
pub(crate) const TEMPLATES: &[(&str, &str)] = &[
    (
        "common/message-set-aside.txt",
        include_str!("../../templates/common/message-set-aside.txt"),
    ),
    (
        "common/team-nmr.txt",
        include_str!("../../templates/common/team-nmr.txt"),
    ),
    (
        "common/extension-request.txt",
        include_str!("../../templates/common/extension-request.txt"),
    ),
    (
        "common/command-mail-refused.txt",
        include_str!("../../templates/common/command-mail-refused.txt"),
    ),
    (
        "common/tick-failed.txt",
        include_str!("../../templates/common/tick-failed.txt"),
    ),
    (
        "common/weekly-blocked.txt",
        include_str!("../../templates/common/weekly-blocked.txt"),
    ),
    (
        "common/answer-limit.txt",
        include_str!("../../templates/common/answer-limit.txt"),
    ),
    (
        "common/hourly-alert.txt",
        include_str!("../../templates/common/hourly-alert.txt"),
    ),
    (
        "common/holiday-declared.txt",
        include_str!("../../templates/common/holiday-declared.txt"),
    ),
    (
        "common/game-paused.txt",
        include_str!("../../templates/common/game-paused.txt"),
    ),
    (
        "common/rolled-back.txt",
        include_str!("../../templates/common/rolled-back.txt"),
    ),
    (
        "common/extension-refused.txt",
        include_str!("../../templates/common/extension-refused.txt"),
    ),
    (
        "common/unproven-query.txt",
        include_str!("../../templates/common/unproven-query.txt"),
    ),
    (
        "common/game-resumed.txt",
        include_str!("../../templates/common/game-resumed.txt"),
    ),
    (
        "common/rule-changed.txt",
        include_str!("../../templates/common/rule-changed.txt"),
    ),
    (
        "common/deadline-out-of-period.txt",
        include_str!("../../templates/common/deadline-out-of-period.txt"),
    ),
    (
        "common/holiday-extension-taken.txt",
        include_str!("../../templates/common/holiday-extension-taken.txt"),
    ),
    (
        "common/extension-granted.txt",
        include_str!("../../templates/common/extension-granted.txt"),
    ),
    (
        "common/deadline-extended.txt",
        include_str!("../../templates/common/deadline-extended.txt"),
    ),
    (
        "common/deadline-moved.txt",
        include_str!("../../templates/common/deadline-moved.txt"),
    ),
    (
        "common/seat-taken.txt",
        include_str!("../../templates/common/seat-taken.txt"),
    ),
];

/// A message that could not be handled and was set aside (poisoned), for the masters.
#[derive(Serialize)]
pub struct MessageSetAside<'a> {
    pub mailbox: &'a str,
    pub uv: u32,
    pub uid: u32,
    pub mid: &'a str,
    pub from: &'a str,
    pub subject: &'a str,
    pub sha: &'a str,
    pub error: &'a str,
}

pub fn message_set_aside(v: &MessageSetAside<'_>) -> Result<String, RenderError> {
    render_text("common/message-set-aside.txt", v)
}

/// A tournament player's NMR, for the team-mates (WM B.8(a), (c), (d)).
#[derive(Serialize)]
pub struct TeamNmr<'a> {
    pub tid: &'a str,
    pub game: &'a str,
    pub power: &'a str,
    /// The player's address.
    pub who: &'a str,
    pub phase: &'a str,
    pub captain: &'a str,
    /// The directors' addresses, comma-separated.
    pub directors: &'a str,
    /// Round one: the captain is the default replacement (WM B.8(c)).
    pub first_round: bool,
}

pub fn team_nmr(v: &TeamNmr<'_>) -> Result<String, RenderError> {
    render_text("common/team-nmr.txt", v)
}

/// A request for an extension beyond the guaranteed one, for the masters (WM D.VII(5)).
#[derive(Serialize)]
pub struct ExtensionRequest<'a> {
    pub power: &'a str,
    pub days: u32,
    pub phase: &'a str,
    pub game: &'a str,
}

pub fn extension_request(v: &ExtensionRequest<'_>) -> Result<String, RenderError> {
    render_text("common/extension-request.txt", v)
}

/// A refused command mail, for the masters.
#[derive(Serialize)]
pub struct CommandMailRefused<'a> {
    /// "game" or "tournament".
    pub noun: &'a str,
    pub id: &'a str,
    pub from: &'a str,
    pub subject: &'a str,
    pub mid: &'a str,
    pub why: &'a str,
}

pub fn command_mail_refused(v: &CommandMailRefused<'_>) -> Result<String, RenderError> {
    render_text("common/command-mail-refused.txt", v)
}

/// A game's tick failed, for the masters.
#[derive(Serialize)]
pub struct TickFailed<'a> {
    pub game: &'a str,
    pub phase: &'a str,
    pub error: &'a str,
}

pub fn tick_failed(v: &TickFailed<'_>) -> Result<String, RenderError> {
    render_text("common/tick-failed.txt", v)
}

/// The players' unavailable periods cover a whole week, for the masters (WM D.VII(2)).
#[derive(Serialize)]
pub struct WeeklyBlocked<'a> {
    pub game: &'a str,
    pub power: &'a str,
}

pub fn weekly_blocked(v: &WeeklyBlocked<'_>) -> Result<String, RenderError> {
    render_text("common/weekly-blocked.txt", v)
}

/// A game's answers held back for the rest of the hour, for the masters.
#[derive(Serialize)]
pub struct AnswerLimit<'a> {
    pub limit: i64,
    pub game: &'a str,
}

pub fn answer_limit(v: &AnswerLimit<'_>) -> Result<String, RenderError> {
    render_text("common/answer-limit.txt", v)
}

/// An alert sent at most once an hour: its body, and how many of its kind the hour before
/// held back.
#[derive(Serialize)]
pub struct HourlyAlert<'a> {
    pub body: &'a str,
    pub before: i64,
}

pub fn hourly_alert(v: &HourlyAlert<'_>) -> Result<String, RenderError> {
    render_text("common/hourly-alert.txt", v)
}

/// A holiday declared eligible for an extension charged to nobody, for everyone (WM D.VII(5)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct HolidayDeclared<'a> {
    pub name: &'a str,
    pub from: &'a str,
    pub to: &'a str,
}

pub fn holiday_declared(v: &HolidayDeclared<'_>) -> Result<String, RenderError> {
    render_text("common/holiday-declared.txt", v)
}

/// The GM paused the game, for everyone; one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct GamePaused<'a> {
    pub phase: &'a str,
    pub left: &'a str,
}

pub fn game_paused(v: &GamePaused<'_>) -> Result<String, RenderError> {
    render_text("common/game-paused.txt", v)
}

/// The game rolled back to a phase, for everyone (WM D.VIII(1)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct RolledBack<'a> {
    pub phase: &'a str,
}

pub fn rolled_back(v: &RolledBack<'_>) -> Result<String, RenderError> {
    render_text("common/rolled-back.txt", v)
}

/// A request for an extension refused, for its player (WM D.VII(5)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct ExtensionRefused<'a> {
    pub days: u32,
    pub phase: &'a str,
}

pub fn extension_refused(v: &ExtensionRefused<'_>) -> Result<String, RenderError> {
    render_text("common/extension-refused.txt", v)
}

/// The note closing the answer to a query that did not prove its sender (it begins with a blank
/// line).
pub fn unproven_query() -> Result<String, RenderError> {
    render_text("common/unproven-query.txt", &())
}

/// The GM resumed the game, for everyone; one sentence, no newline at its end.
#[derive(Serialize)]
pub struct GameResumed<'a> {
    pub phase: &'a str,
    pub left: &'a str,
}

pub fn game_resumed(v: &GameResumed<'_>) -> Result<String, RenderError> {
    render_text("common/game-resumed.txt", v)
}

/// The GM changed a house rule, for everyone; one sentence, no newline at its end.
#[derive(Serialize)]
pub struct RuleChanged<'a> {
    pub option: &'a str,
    pub shown: &'a str,
    pub clause: &'a str,
}

pub fn rule_changed(v: &RuleChanged<'_>) -> Result<String, RenderError> {
    render_text("common/rule-changed.txt", v)
}

/// A deadline moved out of a player's unavailable period, for everyone (WM D.VII(2)); one sentence, no newline at its end.
#[derive(Serialize)]
pub struct DeadlineOutOfPeriod<'a> {
    pub phase: &'a str,
}

pub fn deadline_out_of_period(v: &DeadlineOutOfPeriod<'_>) -> Result<String, RenderError> {
    render_text("common/deadline-out-of-period.txt", v)
}

/// A holiday's extension taken, for everyone (WM D.VII(5)); one sentence, no newline at its end.
#[derive(Serialize)]
pub struct HolidayExtensionTaken<'a> {
    pub days: u32,
    pub phase: &'a str,
}

pub fn holiday_extension_taken(v: &HolidayExtensionTaken<'_>) -> Result<String, RenderError> {
    render_text("common/holiday-extension-taken.txt", v)
}

/// An extension granted, for everyone (WM D.VII(5)); one sentence, no newline at its end.
#[derive(Serialize)]
pub struct ExtensionGranted<'a> {
    pub days: u32,
    pub phase: &'a str,
}

pub fn extension_granted(v: &ExtensionGranted<'_>) -> Result<String, RenderError> {
    render_text("common/extension-granted.txt", v)
}

/// The GM extended the deadline, for everyone; one sentence, no newline at its end.
#[derive(Serialize)]
pub struct DeadlineExtended<'a> {
    pub phase: &'a str,
    pub by: &'a str,
}

pub fn deadline_extended(v: &DeadlineExtended<'_>) -> Result<String, RenderError> {
    render_text("common/deadline-extended.txt", v)
}

/// The GM moved the deadline, for everyone; one sentence, no newline at its end.
#[derive(Serialize)]
pub struct DeadlineMoved<'a> {
    pub phase: &'a str,
}

pub fn deadline_moved(v: &DeadlineMoved<'_>) -> Result<String, RenderError> {
    render_text("common/deadline-moved.txt", v)
}

/// A seat given to another player, for the player replaced (WM B.8); no newline at its end.
#[derive(Serialize)]
pub struct SeatTaken<'a> {
    /// The power's name.
    pub name: &'a str,
    pub phase: &'a str,
}

pub fn seat_taken(v: &SeatTaken<'_>) -> Result<String, RenderError> {
    render_text("common/seat-taken.txt", v)
}

#[cfg(test)]
mod tests {
    //! Each notice reads exactly as the `format!` it replaced (copied here from the old code).
    use super::*;

    #[test]
    fn weekly_blocked_reads_as_before() {
        let game = "<game>";
        let power = "<power>";
        let got = weekly_blocked(&WeeklyBlocked { game, power }).unwrap();
        assert_eq!(
            got,
            format!(
                "Game {game}: after {power}'s weekly period, the players' unavailable periods cover a\n\
                 whole week: no deadline can be set outside them. A compromise must be found\n\
                 with the players (WM D.VII(2)).\n"
            )
        );
    }

    #[test]
    fn tick_failed_reads_as_before() {
        let game = "<game>";
        let phase = "<phase>";
        let error = "<error>";
        let got = tick_failed(&TickFailed { game, phase, error }).unwrap();
        assert_eq!(
            got,
            format!(
                "Game {game} {phase}: the deadline could not be processed, and the game waits until\n\
             this is fixed (the other games go on). Chancery tries again on every tick.\n\n\
             Error: {error}\n"
            )
        );
    }

    #[test]
    fn answer_limit_reads_as_before() {
        let limit: i64 = 7;
        let game = "<game>";
        let got = answer_limit(&AnswerLimit { limit, game }).unwrap();
        assert_eq!(
            got,
            format!(
                "More than {limit} answers about game {game} were sent in the last hour; further answers are\n\
         held back until the hour has passed (mail is still read and orders still count).\n"
            )
        );
    }

    #[test]
    fn holiday_declared_reads_as_before() {
        let name = "<name>";
        let from = "<from>";
        let to = "<to>";
        let got = holiday_declared(&HolidayDeclared { name, from, to }).unwrap();
        assert_eq!(
            got,
            format!(
                "The TD has declared {name} ({from} to {to}) a holiday eligible for an extension that is \
         charged to nobody (WM D.VII(5)). If a deadline falls while it lasts, any player may take \
         it by a line EXTEND HOLIDAY in an order mail (or the GM by command), and it must be \
         granted: the deadline then moves by the holiday's length, once for this game."
            )
        );
    }

    #[test]
    fn game_paused_reads_as_before() {
        let phase = "<phase>";
        let left = "<left>";
        let got = game_paused(&GamePaused { phase, left }).unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has paused the game in {phase}. Nothing is adjudicated while it is paused; \
         the {left} that were left before the deadline are kept, and a new deadline will be \
         announced when the game resumes."
            )
        );
    }

    #[test]
    fn rolled_back_reads_as_before() {
        let phase = "<phase>";
        let got = rolled_back(&RolledBack { phase }).unwrap();
        assert_eq!(
            got,
            format!(
                "The game has been rolled back to {phase} (WM D.VIII(1)): its results and everything \
         after them no longer stand, and the orders of {phase} are open again. The orders that \
         stood for it still stand unless you send new ones."
            )
        );
    }

    #[test]
    fn extension_refused_reads_as_before() {
        let days: u32 = 7;
        let phase = "<phase>";
        let got = extension_refused(&ExtensionRefused { days, phase }).unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has refused your request for an extension of {days} day(s) in {phase} (WM \
             D.VII(5): extensions after the guaranteed one are at the GM's discretion). The \
             deadline stands."
            )
        );
    }

    #[test]
    fn message_set_aside_reads_as_before() {
        let mailbox = "<mailbox>";
        let uv: u32 = 8;
        let uid: u32 = 9;
        let mid = "<mid>";
        let from = "<from>";
        let subject = "<subject>";
        let sha = "<sha>";
        let error = "<error>";
        let got = message_set_aside(&MessageSetAside {
            mailbox,
            uv,
            uid,
            mid,
            from,
            subject,
            sha,
            error,
        })
        .unwrap();
        assert_eq!(
            got,
            format!(
                "A message in the {mailbox} mailbox could not be handled and was set aside, so that the\n\
         mailbox goes on with the next one. Nothing it asked for was done, and it was not answered.\n\n\
         Mailbox:     {mailbox} (UIDVALIDITY {uv}, UID {uid})\n\
         Message-ID:  {mid}\n\
         From:        {from}\n\
         Subject:     {subject}\n\
         SHA-256:     {sha}\n\
         Error:       {error}\n\n\
         The raw message is kept in the store (messages, outcome 'poisoned') so that it can be\n\
         replayed in a test. If it was a player's orders, ask the player to send them again.\n"
            )
        );
    }

    #[test]
    fn extension_request_reads_as_before() {
        let power = "<power>";
        let days: u32 = 8;
        let phase = "<phase>";
        let game = "<game>";
        let got = extension_request(&ExtensionRequest {
            power,
            days,
            phase,
            game,
        })
        .unwrap();
        assert_eq!(
            got,
            format!(
                "{power} asks for an extension of {days} day(s) in {phase} of game {game}, after its guaranteed\n\
         extension. Further extensions are at your discretion (WM D.VII(5)). Answer with a\n\
         command mail (subject \"{game} GM\"):\n\n    GRANT EXTENSION {power}\nor\n    REFUSE EXTENSION {power}\n"
            )
        );
    }

    #[test]
    fn command_mail_refused_reads_as_before() {
        let noun = "<noun>";
        let id = "<id>";
        let from = "<from>";
        let subject = "<subject>";
        let mid = "<mid>";
        let why = "<why>";
        let got = command_mail_refused(&CommandMailRefused {
            noun,
            id,
            from,
            subject,
            mid,
            why,
        })
        .unwrap();
        assert_eq!(
            got,
            format!(
                "A command mail for {noun} {id} was refused; nothing in it was done.\n\n\
         From:        {from}\n\
         Subject:     {subject}\n\
         Message-ID:  {mid}\n\
         Why:         {why}\n"
            )
        );
    }

    #[test]
    fn team_nmr_reads_as_before_in_each_round() {
        let (tid, game, power, who, phase, captain, directors) = (
            "<tid>",
            "<game>",
            "<power>",
            "<who>",
            "<phase>",
            "<captain>",
            "<directors>",
        );
        for first_round in [true, false] {
            let round_rule = if first_round {
                "In round one the game is not delayed: the captain is the default replacement and may \
                 send orders for the position; the player may return until the captain (or whom the \
                 captain names) has sent orders for it (WM B.8(c))."
            } else {
                "In this round the captain or the team has 48 hours (96 over a weekend) to name a \
                 replacement; then one is found from the reserves (WM B.8(d))."
            };
            let v = TeamNmr {
                tid,
                game,
                power,
                who,
                phase,
                captain,
                directors,
                first_round,
            };
            assert_eq!(
                team_nmr(&v).unwrap(),
                format!(
                    "Tournament {tid}, game {game}: {power}, played by your team-mate {who}, sent no orders \
                     for {phase} and has not contacted the GM since.\n\n\
                     Your captain ({captain}) chooses the replacement (WM B.8(a)) and tells the \
                     tournament director ({directors}), who makes it.\n\n{round_rule}\n",
                )
            );
        }
    }

    #[test]
    fn hourly_alert_reads_as_before_with_and_without_held_back_alerts() {
        let body = "<body>\n";
        for before in [0_i64, 3] {
            let mut text = format!(
                "{body}\nAlerts of this kind are sent at most once an hour; any more this hour are\n\
                 counted, not sent (`chancery status` shows the counts).\n"
            );
            if before > 0 {
                text.push_str(&format!(
                    "In the hour before this one, {before} more were held back.\n"
                ));
            }
            assert_eq!(hourly_alert(&HourlyAlert { body, before }).unwrap(), text);
        }
    }

    #[test]
    fn unproven_query_reads_as_before() {
        assert_eq!(
            unproven_query().unwrap(),
            "\n(A query without your secret, a line SECRET <your secret>, is answered at most\n\
             once an hour.)\n"
        );
    }

    #[test]
    fn game_resumed_reads_as_before() {
        let phase = "<phase>";
        let left = "<left>";
        let got = game_resumed(&GameResumed { phase, left }).unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has resumed the game in {phase}, with the {left} that were left when it was paused."
            )
        );
    }

    #[test]
    fn rule_changed_reads_as_before() {
        let option = "<option>";
        let shown = "<shown>";
        let clause = "<clause>";
        let got = rule_changed(&RuleChanged {
            option,
            shown,
            clause,
        })
        .unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has changed a house rule of this game: {option} is now {shown} ({clause})."
            )
        );
    }

    #[test]
    fn deadline_out_of_period_reads_as_before() {
        let phase = "<phase>";
        let got = deadline_out_of_period(&DeadlineOutOfPeriod { phase }).unwrap();
        assert_eq!(
            got,
            format!(
                "The deadline of {phase} fell in a period when a player is unavailable, so it moves to the \
         end of that period (WM D.VII(2))."
            )
        );
    }

    #[test]
    fn holiday_extension_taken_reads_as_before() {
        let days: u32 = 7;
        let phase = "<phase>";
        let got = holiday_extension_taken(&HolidayExtensionTaken { days, phase }).unwrap();
        assert_eq!(
            got,
            format!(
                "A holiday extension of {days} day(s) has been taken in {phase} (WM D.VII(5)); it is \
             charged to nobody."
            )
        );
    }

    #[test]
    fn extension_granted_reads_as_before() {
        let days: u32 = 7;
        let phase = "<phase>";
        let got = extension_granted(&ExtensionGranted { days, phase }).unwrap();
        assert_eq!(
            got,
            format!("An extension of {days} day(s) has been granted in {phase} (WM D.VII(5)).")
        );
    }

    #[test]
    fn deadline_extended_reads_as_before() {
        let phase = "<phase>";
        let by = "<by>";
        let got = deadline_extended(&DeadlineExtended { phase, by }).unwrap();
        assert_eq!(
            got,
            format!("The GM has extended the deadline of {phase} by {by}.")
        );
    }

    #[test]
    fn deadline_moved_reads_as_before() {
        let phase = "<phase>";
        let got = deadline_moved(&DeadlineMoved { phase }).unwrap();
        assert_eq!(got, format!("The GM has moved the deadline of {phase}."));
    }

    #[test]
    fn seat_taken_reads_as_before() {
        let (name, phase) = ("<name>", "<phase>");
        assert_eq!(
            seat_taken(&SeatTaken { name, phase }).unwrap(),
            format!(
                "The GM has given {name} to another player from {} on. Thank you for playing. Mail \
                 from your address is no longer taken for {name}.",
                phase
            )
        );
    }
}
