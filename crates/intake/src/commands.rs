//! A master's command mail (subject `<game> GM`): one command a line, read as forgivingly as
//! orders, each line answered. Pure: dates are read with the office's calendar
//! (`chancery_office::time`), without a clock (the engine checks them against the clock).
//!
//! The words of a command that are a kind of game's own (the phase ROLLBACK names, CORRECT's
//! grammar) are read by the kind: the reader is generic over its [`CommandSyntax`]
//! (Diplomacy's is `chancery_diplomacy::commands::Syntax`).

use crate::message::BodyLine;
use chancery_office::time::{Weekday, format_gmt, parse_gmt};
use std::str::FromStr;

/// What the command reader asks of a kind of game: the words of a command that are its own.
pub trait CommandSyntax {
    /// A phase of this kind of game, as ROLLBACK and CONSENT ROLLBACK name it (upper case): a
    /// word that does not parse is no phase, and the line is answered with the right form.
    type Phase: FromStr;
    /// What a bare CORRECT is answered: the grammar of this kind's corrections.
    const CORRECT_SYNTAX: &'static str;
}

const FORFEIT_SYNTAX: &str = "write FORFEIT, the account forfeited and why (NOSHOW, RESCHEDULING, \
     LEFT or REMATCH), e.g. FORFEIT bob NOSHOW (ACWC Match rules)";
const DISQUALIFY_SYNTAX: &str = "write DISQUALIFY, the account and why (ENGINE, BOOSTER, \
     ACCUSATION or OTHER), e.g. DISQUALIFY bob ENGINE (ACWC Reporting cheats)";

/// ACWC Match rules: why the TD forfeits a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitReason {
    /// "did not show up" (the appearing player claimed the win).
    NoShow,
    /// "rescheduling fails".
    Rescheduling,
    /// Left the match and did not come back within 10 minutes.
    Left,
    /// "Repeated failure" to offer or accept the rematch.
    Rematch,
}

impl ForfeitReason {
    fn read(w: &str) -> Option<ForfeitReason> {
        Some(match w.to_ascii_uppercase().as_str() {
            "NOSHOW" | "NO-SHOW" => ForfeitReason::NoShow,
            "RESCHEDULING" => ForfeitReason::Rescheduling,
            "LEFT" => ForfeitReason::Left,
            "REMATCH" => ForfeitReason::Rematch,
            _ => return None,
        })
    }

    pub fn word(self) -> &'static str {
        match self {
            ForfeitReason::NoShow => "NOSHOW",
            ForfeitReason::Rescheduling => "RESCHEDULING",
            ForfeitReason::Left => "LEFT",
            ForfeitReason::Rematch => "REMATCH",
        }
    }
}

/// ACWC Reporting cheats, Disqualification and withdrawals: why the TD disqualifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisqualifyReason {
    Engine,
    Booster,
    /// "Any accusation in public will result in a disqualification of the accuser".
    Accusation,
    Other,
}

impl DisqualifyReason {
    fn read(w: &str) -> Option<DisqualifyReason> {
        Some(match w.to_ascii_uppercase().as_str() {
            "ENGINE" => DisqualifyReason::Engine,
            "BOOSTER" => DisqualifyReason::Booster,
            "ACCUSATION" => DisqualifyReason::Accusation,
            "OTHER" => DisqualifyReason::Other,
            _ => return None,
        })
    }

    pub fn word(self) -> &'static str {
        match self {
            DisqualifyReason::Engine => "ENGINE",
            DisqualifyReason::Booster => "BOOSTER",
            DisqualifyReason::Accusation => "ACCUSATION",
            DisqualifyReason::Other => "OTHER",
        }
    }
}

/// A master's command (WM A, D.VIII).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GmCommand {
    /// `DEADLINE 2026-12-01 18:00` (GMT): the game's deadline, for everybody.
    Deadline(i64),
    /// `EXTEND 2d`, `EXTEND 36h`, `EXTEND 1d 12h`, `EXTEND 2 DAYS`: the deadline moves by so much.
    Extend(i64),
    /// The time left is kept; nothing is adjudicated or reminded while paused.
    Pause,
    Resume,
    /// Adjudicate now (once every mailbox has been read through now).
    Process,
    /// Adjudicate as if now and mail the result to the masters only; nothing changes.
    Preview,
    /// The phase, the deadline, who has orders in.
    Status,
    /// `SET option value`: one house-rule option.
    Set {
        option: String,
        value: String,
    },
    /// `OBSERVER ADD address`.
    ObserverAdd(String),
    /// `OBSERVER REMOVE address`.
    ObserverRemove(String),
    /// `REPLACE FRANCE new@example.test [TEMPORARY|PERMANENT]` (WM B.8; permanent unless said).
    Replace {
        power: String,
        address: String,
        permanent: bool,
    },
    /// `ROLLBACK S1902M` (WM D.VIII(1)): the game goes back to that phase; the TD's consent is
    /// needed.
    Rollback(String),
    /// `CONSENT ROLLBACK S1902M`: the TD consents to a GM's rollback.
    ConsentRollback(String),
    /// `REFUSE DRAW FRANCE ENGLAND`: the GM refuses a repetitive proposal (Maharajiad X(2)).
    RefuseProposal(String),
    /// `CORRECT MOVE A PAR BUR` and the like (WM D.VIII(1)-(3)): the words after CORRECT, read
    /// by the engine with the game's map (`chancery_diplomacy::correction`).
    Correct(String),
    /// `AGREE RULE press white`: the GM agrees to a house-rule proposal (WM IX(5); Maharajiad
    /// X(3)), written as the players vote on it (upper case, one space between words).
    Agree(String),
    /// `GRANT EXTENSION FRANCE`: the GM grants a position's waiting request for an extension
    /// beyond the guaranteed one (WM D.VII(5)).
    GrantExtension(String),
    /// `REFUSE EXTENSION FRANCE`: the GM refuses it.
    RefuseExtension(String),
    /// `HOLIDAY 2026-12-24 TO 2026-12-27 CHRISTMAS`: the TD declares a holiday eligible for an
    /// extension that is never charged (WM D.VII(5)).
    DeclareHoliday {
        from: i64,
        to: i64,
        name: String,
    },
    /// `HOLIDAY EXTENSION`: the GM takes the holiday extension (WM D.VII(5)).
    HolidayExtension,
    /// `VETO ABBREVIATIONS FRANCE [wm eng ...]`: the GM strikes entries of a player's own
    /// abbreviations list, all of them if none is named, before the first deadline (WM D.III(1)).
    VetoAbbreviations {
        power: String,
        entries: Vec<String>,
    },
    /// `DECLARE DRAW`: the GM declares the game a draw after years with no centre changing
    /// owner, with notice (Agora BT9).
    DeclareDraw,
    /// `WINNERS FRANCE GERMANY`: the judge announces these seats as the winners, with notice
    /// (Agora BT3: "If the judge believes that more than one person is deserving of the win,
    /// e CAN announce them all as winners"). The seats as written, upper case.
    Winners(Vec<String>),
    /// `AMEND BT17 "new text"`: the GM amends a rule of the game's rule set (Agora BT2: "The
    /// Gamemaster CAN amend the text of these regulations"); the rule as written, upper case
    /// (the kind reads its number), the text as written, without its quotes.
    AmendRule {
        rule: String,
        text: String,
    },
    /// `CONFIRM PROPOSAL 3 <what was done>`: the GM confirms that an enacted free-text
    /// proposal was carried out (Agora BT8), and how.
    ConfirmProposal {
        number: u32,
        done: String,
    },
    /// `ENTRY UNTIL 2020-07-10 00:00` (GMT): the masters' close of entry (Agora BT1: the later
    /// of it and 7 days after the regulations were published counts).
    EntryUntil(i64),
    /// `DRAW`: the Gamemaster draws the powers now with those who have entered (Agora BT2,
    /// BT6), the game starts.
    DrawPowers,
    /// `ADD someone@example.org`: the Gamemaster invites a person to become a Contestant, who
    /// becomes one on consenting by mail (Agora BT2: "any consenting person").
    AddContestant(String),
    /// `APPROVE <account>`: an entry to a championship approved by its TD (ACWC "Player
    /// eligibility").
    Approve(String),
    /// `RULING <account> <their score>-<opponent's score>`: the TD decides the account's match
    /// (ACWC "Organization": the TD makes the final call).
    Ruling {
        account: String,
        score: String,
    },
    /// `ASSIGN <account> <YYYY-MM-DD HH:MM>` (UTC): the match arbiter assigns the start time
    /// of the account's match (ACWC "Match negotiations").
    Assign {
        account: String,
        time: i64,
    },
    /// `FINDING <account of the match> <account at fault|NONE>`: the match arbiter's finding
    /// after no agreement by the weekend (ACWC "Match negotiations": "determine if fault lies
    /// with a particular player"); None: no one.
    Finding {
        account: String,
        at_fault: Option<String>,
    },
    /// `FORFEIT <account> <NOSHOW|RESCHEDULING|LEFT|REMATCH>`: the account forfeits its match
    /// of the current round (ACWC "Match rules": a no-show, rescheduling failed, left the match,
    /// no rematch); two forfeits disqualify.
    Forfeit {
        account: String,
        why: ForfeitReason,
    },
    /// `WITHDRAW <account>`: the account withdraws (ACWC "Disqualification and withdrawals").
    Withdraw(String),
    /// `DISQUALIFY <account> <ENGINE|BOOSTER|ACCUSATION|OTHER>` (ACWC "Reporting cheats",
    /// "Disqualification and withdrawals").
    Disqualify {
        account: String,
        why: DisqualifyReason,
    },
    /// `ADD PLAYER <address> <weekday> <name>`: a Nomic's player seated on their allocated day
    /// (Nomic 201: "Each player is allocated one day a week").
    AddPlayer {
        address: String,
        day: Weekday,
        name: String,
    },
    /// `REMOVE someone@example.org` or `REMOVE FRANCE`: the Gamemaster causes a person to cease
    /// to be a Contestant (Agora BT2). An address in lower case, a power in upper case.
    RemoveContestant(String),
    /// `BROADCAST`, then the message's lines, then `ENDBROADCAST` (or `ENDPRESS`): a message
    /// from the GM to every player and observer.
    Broadcast(String),
}

impl GmCommand {
    /// The command as Chancery understood it, for the reply and the audit log.
    pub fn canonical(&self) -> String {
        match self {
            GmCommand::Deadline(t) => format!("DEADLINE {}", format_gmt(*t)),
            GmCommand::Extend(s) => format!("EXTEND {}", format_duration(*s)),
            GmCommand::Pause => "PAUSE".into(),
            GmCommand::Resume => "RESUME".into(),
            GmCommand::Process => "PROCESS".into(),
            GmCommand::Preview => "PREVIEW".into(),
            GmCommand::Status => "STATUS".into(),
            GmCommand::Set { option, value } => format!("SET {option} {value}"),
            GmCommand::ObserverAdd(a) => format!("OBSERVER ADD {a}"),
            GmCommand::ObserverRemove(a) => format!("OBSERVER REMOVE {a}"),
            GmCommand::Replace {
                power,
                address,
                permanent,
            } => format!(
                "REPLACE {power} {address} {}",
                if *permanent { "PERMANENT" } else { "TEMPORARY" }
            ),
            GmCommand::Rollback(p) => format!("ROLLBACK {p}"),
            GmCommand::RefuseProposal(p) => format!("REFUSE {p}"),
            GmCommand::ConsentRollback(p) => format!("CONSENT ROLLBACK {p}"),
            GmCommand::Correct(c) => format!("CORRECT {c}"),
            GmCommand::Agree(p) => format!("AGREE {p}"),
            GmCommand::DeclareDraw => "DECLARE DRAW".into(),
            GmCommand::Winners(seats) => format!("WINNERS {}", seats.join(" ")),
            GmCommand::AmendRule { rule, text } => format!("AMEND {rule} \"{text}\""),
            GmCommand::ConfirmProposal { number, done } => {
                format!("CONFIRM PROPOSAL {number} {done}")
            }
            GmCommand::DeclareHoliday { from, to, name } => {
                format!(
                    "HOLIDAY {} TO {} {name}",
                    format_gmt(*from),
                    format_gmt(*to)
                )
            }
            GmCommand::HolidayExtension => "HOLIDAY EXTENSION".into(),
            GmCommand::VetoAbbreviations { power, entries } => {
                format!("VETO ABBREVIATIONS {power} {}", entries.join(" "))
                    .trim_end()
                    .to_string()
            }
            GmCommand::GrantExtension(p) => format!("GRANT EXTENSION {p}"),
            GmCommand::RefuseExtension(p) => format!("REFUSE EXTENSION {p}"),
            GmCommand::EntryUntil(t) => format!("ENTRY UNTIL {}", format_gmt(*t)),
            GmCommand::DrawPowers => "DRAW".into(),
            GmCommand::AddContestant(a) => format!("ADD {a}"),
            GmCommand::AddPlayer { address, day, name } => {
                format!("ADD PLAYER {address} {day} {name}")
            }
            GmCommand::Approve(a) => format!("APPROVE {a}"),
            GmCommand::Ruling { account, score } => format!("RULING {account} {score}"),
            GmCommand::Assign { account, time } => {
                format!(
                    "ASSIGN {account} {}",
                    format_gmt(*time).replace(" GMT", " UTC")
                )
            }
            GmCommand::Finding { account, at_fault } => format!(
                "FINDING {account} {}",
                at_fault.as_deref().unwrap_or("NONE")
            ),
            GmCommand::Forfeit { account, why } => format!("FORFEIT {account} {}", why.word()),
            GmCommand::Withdraw(a) => format!("WITHDRAW {a}"),
            GmCommand::Disqualify { account, why } => {
                format!("DISQUALIFY {account} {}", why.word())
            }
            GmCommand::RemoveContestant(who) => format!("REMOVE {who}"),
            GmCommand::Broadcast(text) => format!(
                "BROADCAST ({} line(s), {} characters)",
                text.lines().count(),
                text.chars().count()
            ),
        }
    }
}

/// One line of a command mail, and what it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub number: usize,
    pub text: String,
    pub read: Result<GmCommand, String>,
}

/// A command mail, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandMail {
    /// The secret on a `SECRET ...` line (never echoed).
    pub secret: Option<String>,
    pub lines: Vec<CommandLine>,
}

/// Commands a mail may carry: more is refused, not read (bounded work per mail).
pub const MAX_COMMANDS: usize = 50;

/// The longest broadcast, in characters.
pub const MAX_BROADCAST_CHARS: usize = 20_000;

/// What a line of a master's or director's command mail is, before any command is read.
pub enum LineKind<'a> {
    Blank,
    /// `SECRET words` (or `PASSWORD`): the sender's secret, never echoed.
    Secret(String),
    /// `SIGNOFF`, `END` or `ENDCOMMANDS`: nothing after it is read.
    End,
    /// Anything else, trimmed: a command to read.
    Command(&'a str),
}

/// Sort a line of a command mail (shared by `read_commands` and the directors' reader).
pub fn line_kind(line: &str) -> LineKind<'_> {
    let text = line.trim();
    if text.is_empty() {
        return LineKind::Blank;
    }
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches(':')
        .to_ascii_uppercase();
    match first.as_str() {
        "SECRET" | "PASSWORD" => {
            let s: Vec<&str> = text.split_whitespace().skip(1).collect();
            LineKind::Secret(s.join(" ").trim_start_matches(':').trim().to_string())
        }
        "SIGNOFF" | "END" | "ENDCOMMANDS" => LineKind::End,
        _ => LineKind::Command(text),
    }
}

/// Read a command mail's lines, the kind's own words with `K`. Blank lines and a closing
/// `SIGNOFF`/`END` are skipped; every other line is a command or an error saying why it is not
/// one.
pub fn read_commands<K: CommandSyntax>(lines: &[BodyLine]) -> CommandMail {
    let mut out = CommandMail::default();
    // The broadcast being gathered: its first line's number, and its text.
    let mut broadcast: Option<(usize, Vec<&str>)> = None;
    for l in lines {
        if let Some((_, text)) = &mut broadcast {
            let t = l.text.trim();
            let word = t
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            if word == "SECRET" || word == "PASSWORD" {
                // A secret inside the block is still the secret: never broadcast.
                let s: Vec<&str> = t.split_whitespace().skip(1).collect();
                out.secret = Some(s.join(" ").trim_start_matches(':').trim().to_string());
                continue;
            }
            let end = t.to_ascii_uppercase().replace(' ', "");
            if matches!(end.as_str(), "ENDBROADCAST" | "ENDPRESS") {
                if let Some((number, text)) = broadcast.take() {
                    out.lines.push(broadcast_line(number, &text));
                }
            } else {
                text.push(l.text.trim_end());
            }
            continue;
        }
        let text = match line_kind(&l.text) {
            LineKind::Blank => continue,
            LineKind::Secret(secret) => {
                out.secret = Some(secret);
                continue;
            }
            LineKind::End => break,
            LineKind::Command(text) => text,
        };
        if text.trim_end_matches(':').eq_ignore_ascii_case("BROADCAST") {
            broadcast = Some((l.number, Vec::new()));
            continue;
        }
        if out.lines.len() >= MAX_COMMANDS {
            out.lines.push(CommandLine {
                number: l.number,
                text: text.chars().take(200).collect(),
                read: Err(format!(
                    "at most {MAX_COMMANDS} commands a mail; the rest were not read"
                )),
            });
            break;
        }
        out.lines.push(CommandLine {
            number: l.number,
            text: text.chars().take(200).collect(),
            read: read_command::<K>(text),
        });
    }
    if let Some((number, _)) = broadcast {
        out.lines.push(CommandLine {
            number,
            text: "BROADCAST".into(),
            read: Err("a BROADCAST must end with a line ENDBROADCAST; nothing was sent".into()),
        });
    }
    out
}

/// A gathered broadcast as one command line.
fn broadcast_line(number: usize, text: &[&str]) -> CommandLine {
    let body = text.join("\n").trim_matches('\n').to_string();
    let read = if body.trim().is_empty() {
        Err("the BROADCAST has no text".to_string())
    } else if body.chars().count() > MAX_BROADCAST_CHARS {
        Err(format!(
            "a BROADCAST may be at most {MAX_BROADCAST_CHARS} characters"
        ))
    } else {
        Ok(GmCommand::Broadcast(body))
    };
    CommandLine {
        number,
        text: "BROADCAST".into(),
        read,
    }
}

/// How ADD PLAYER is written (a Nomic, Nomic 201).
const ADD_PLAYER_SYNTAX: &str = "write ADD PLAYER <address> <weekday> <name>, e.g. ADD PLAYER ben@example.org Wednesday Ben P \
     (Nomic 201: one player a weekday, Monday to Friday)";

const ENTRY_SYNTAX: &str = "write ENTRY UNTIL and the close of entry in GMT, as in ENTRY UNTIL 2020-07-10 00:00 (Agora BT1)";

const ASSIGN_SYNTAX: &str = "write ASSIGN, the account and the start time in UTC, e.g. ASSIGN alice 2019-10-12 17:00 (ACWC Match negotiations)";

const CONFIRM_SYNTAX: &str = "write CONFIRM PROPOSAL <number> <what was done>";

const AMEND_SYNTAX: &str = "write AMEND <rule> \"<new text>\", as in AMEND BT17 \"...\"";

/// `AMEND BT17 "new text"` (Agora BT2): the rule, then its new text in quotes.
fn amend_rule(rest: &[&str]) -> Result<GmCommand, String> {
    let Some((rule, words)) = rest.split_first() else {
        return Err(AMEND_SYNTAX.into());
    };
    let quoted = words.join(" ");
    let quote = |c: char| matches!(c, '"' | '\u{201c}' | '\u{201d}');
    let text = quoted
        .strip_prefix(quote)
        .and_then(|t| t.strip_suffix(quote))
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.contains(quote));
    match text {
        Some(text) => Ok(GmCommand::AmendRule {
            rule: rule.to_ascii_uppercase(),
            text: text.to_string(),
        }),
        None => Err(AMEND_SYNTAX.into()),
    }
}

/// Read one command line, the kind's own words with `K`.
pub fn read_command<K: CommandSyntax>(text: &str) -> Result<GmCommand, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(head) = words.first() else {
        return Err("an empty line".into());
    };
    let head = head.trim_end_matches(':').to_ascii_uppercase();
    let rest = &words[1..];
    let none = |cmd: GmCommand| {
        if rest.is_empty() {
            Ok(cmd)
        } else {
            Err(format!("{head} takes nothing after it"))
        }
    };
    match head.as_str() {
        "DEADLINE" => parse_gmt(&rest.join(" "))
            .map(GmCommand::Deadline)
            .ok_or_else(|| {
                "write the new deadline in GMT as DEADLINE 2026-12-01 18:00".to_string()
            }),
        "EXTEND" => parse_duration(&rest.join(" "))
            .filter(|s| *s > 0)
            .map(GmCommand::Extend)
            .ok_or_else(|| "write how long as EXTEND 2d, EXTEND 36h or EXTEND 1d 12h".to_string()),
        "PAUSE" => none(GmCommand::Pause),
        "RESUME" | "UNPAUSE" => none(GmCommand::Resume),
        "PROCESS" => none(GmCommand::Process),
        "PREVIEW" => none(GmCommand::Preview),
        "STATUS" => none(GmCommand::Status),
        "SET" => match rest {
            [option, value @ ..] if !value.is_empty() => Ok(GmCommand::Set {
                option: option.trim_end_matches(['=', ':']).to_ascii_lowercase(),
                value: value
                    .join(" ")
                    .trim_start_matches(['=', ':'])
                    .trim()
                    .to_string(),
            }),
            _ => Err("write SET <option> <value> (`chancery presets --show` lists them)".into()),
        },
        "OBSERVER" => {
            let verb = rest.first().map(|v| v.to_ascii_uppercase());
            let address = rest
                .get(1)
                .map(|a| a.trim_matches(['<', '>', ',']).to_string());
            match (verb.as_deref(), address) {
                (Some("ADD"), Some(a)) if is_address(&a) && rest.len() == 2 => {
                    Ok(GmCommand::ObserverAdd(a.to_ascii_lowercase()))
                }
                (Some("REMOVE"), Some(a)) if is_address(&a) && rest.len() == 2 => {
                    Ok(GmCommand::ObserverRemove(a.to_ascii_lowercase()))
                }
                _ => Err("write OBSERVER ADD <address> or OBSERVER REMOVE <address>".into()),
            }
        }
        "REPLACE" => {
            let kind = rest.get(2).map(|k| k.to_ascii_uppercase());
            let permanent = match kind.as_deref() {
                None | Some("PERMANENT") | Some("PERMANENTLY") => Some(true),
                Some("TEMPORARY") | Some("TEMPORARILY") => Some(false),
                Some(_) => None,
            };
            let address = rest
                .get(1)
                .map(|a| a.trim_matches(['<', '>', ',']).to_string());
            match (rest.first(), address, permanent) {
                (Some(power), Some(a), Some(permanent)) if is_address(&a) && rest.len() <= 3 => {
                    Ok(GmCommand::Replace {
                        power: power.to_ascii_uppercase(),
                        address: a.to_ascii_lowercase(),
                        permanent,
                    })
                }
                _ => Err("write REPLACE <power> <address> [TEMPORARY|PERMANENT]".into()),
            }
        }
        "GRANT" | "REFUSE"
            if rest
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("EXTENSION")) =>
        {
            match rest {
                [_, power] if head == "GRANT" => {
                    Ok(GmCommand::GrantExtension(power.to_ascii_uppercase()))
                }
                [_, power] => Ok(GmCommand::RefuseExtension(power.to_ascii_uppercase())),
                _ => Err(format!("write {head} EXTENSION <power>")),
            }
        }
        "REFUSE" if !rest.is_empty() => Ok(GmCommand::RefuseProposal(upper(rest))),
        "ROLLBACK" => match rest {
            [p] if p.to_ascii_uppercase().parse::<K::Phase>().is_ok() => {
                Ok(GmCommand::Rollback(p.to_ascii_uppercase()))
            }
            _ => Err("write ROLLBACK <phase>, as in ROLLBACK S1902M".into()),
        },
        "CONSENT" => match rest {
            [what, p]
                if what.eq_ignore_ascii_case("ROLLBACK")
                    && p.to_ascii_uppercase().parse::<K::Phase>().is_ok() =>
            {
                Ok(GmCommand::ConsentRollback(p.to_ascii_uppercase()))
            }
            _ => Err("write CONSENT ROLLBACK <phase>, as in CONSENT ROLLBACK S1902M".into()),
        },
        "CORRECT" if !rest.is_empty() => Ok(GmCommand::Correct(upper(rest))),
        "CORRECT" => Err(K::CORRECT_SYNTAX.into()),
        "AGREE" => match rest {
            [what, _, ..] if matches!(what.to_ascii_uppercase().as_str(), "RULE" | "SET") => {
                // As the players' VOTE lines store it: RULE, upper case, single spaces.
                Ok(GmCommand::Agree(format!("RULE {}", upper(&rest[1..]))))
            }
            _ => Err("write AGREE RULE <option> <value>, as the players vote on it".into()),
        },
        "AMEND" => amend_rule(rest),
        "CONFIRM" => match rest {
            [what, n, done @ ..] if what.eq_ignore_ascii_case("PROPOSAL") && !done.is_empty() => {
                match n.trim_start_matches('#').parse::<u32>() {
                    Ok(number) => Ok(GmCommand::ConfirmProposal {
                        number,
                        done: done.join(" "),
                    }),
                    Err(_) => Err(CONFIRM_SYNTAX.into()),
                }
            }
            _ => Err(CONFIRM_SYNTAX.into()),
        },
        "VETO" => match rest {
            [what, power, entries @ ..] if what.eq_ignore_ascii_case("ABBREVIATIONS") => {
                Ok(GmCommand::VetoAbbreviations {
                    power: power.to_ascii_uppercase(),
                    entries: entries.iter().map(|e| e.to_string()).collect(),
                })
            }
            _ => Err("write VETO ABBREVIATIONS <power> [abbreviation ...]".into()),
        },
        "HOLIDAY" => match rest {
            [w] if w.eq_ignore_ascii_case("EXTENSION") => Ok(GmCommand::HolidayExtension),
            [from, sep, to, name @ ..] if sep.eq_ignore_ascii_case("TO") && !name.is_empty() => {
                holiday(from, to, name)
            }
            [from, to, name @ ..] if !name.is_empty() => holiday(from, to, name),
            _ => Err(
                "write HOLIDAY 2026-12-24 TO 2026-12-27 CHRISTMAS (dates in GMT), or HOLIDAY \
                 EXTENSION"
                    .into(),
            ),
        },
        "DECLARE" => match rest {
            [w] if w.eq_ignore_ascii_case("DRAW") => Ok(GmCommand::DeclareDraw),
            _ => Err("write DECLARE DRAW (Agora BT9)".into()),
        },
        "WINNERS" | "WINNER" => match rest {
            [] => {
                Err("write WINNERS and the seats, e.g. WINNERS FRANCE GERMANY (Agora BT3)".into())
            }
            seats => Ok(GmCommand::Winners(
                seats.iter().map(|s| s.to_ascii_uppercase()).collect(),
            )),
        },
        "ENTRY" => match rest {
            [w, date @ ..] if w.eq_ignore_ascii_case("UNTIL") => parse_gmt(&date.join(" "))
                .map(GmCommand::EntryUntil)
                .ok_or_else(|| ENTRY_SYNTAX.to_string()),
            _ => Err(ENTRY_SYNTAX.into()),
        },
        "DRAW" => none(GmCommand::DrawPowers),
        "APPROVE" => match rest {
            [a] => Ok(GmCommand::Approve(a.to_string())),
            _ => Err(
                "write APPROVE and the account, e.g. APPROVE alice (ACWC Player eligibility)"
                    .into(),
            ),
        },
        "RULING" => match rest {
            [a, score] => Ok(GmCommand::Ruling {
                account: a.to_string(),
                score: score.to_string(),
            }),
            _ => Err(
                "write RULING, the account and its score first, e.g. RULING alice 6.5-3.5 (ACWC \
                 Organization)"
                    .into(),
            ),
        },
        "ASSIGN" => match rest {
            [a, time @ ..] if time.len() >= 2 => parse_gmt(&time.join(" "))
                .map(|time| GmCommand::Assign {
                    account: a.to_string(),
                    time,
                })
                .ok_or_else(|| ASSIGN_SYNTAX.to_string()),
            _ => Err(ASSIGN_SYNTAX.into()),
        },
        "FINDING" => match rest {
            [a, f] => Ok(GmCommand::Finding {
                account: a.to_string(),
                at_fault: (!f.eq_ignore_ascii_case("NONE")).then(|| f.to_string()),
            }),
            _ => Err(
                "write FINDING, an account of the match and the account at fault or NONE, e.g. \
                 FINDING alice bob (ACWC Match negotiations)"
                    .into(),
            ),
        },
        "FORFEIT" => match rest {
            [a, w] => ForfeitReason::read(w)
                .map(|why| GmCommand::Forfeit {
                    account: a.to_string(),
                    why,
                })
                .ok_or_else(|| FORFEIT_SYNTAX.to_string()),
            _ => Err(FORFEIT_SYNTAX.into()),
        },
        "WITHDRAW" => match rest {
            [a] => Ok(GmCommand::Withdraw(a.to_string())),
            _ => Err(
                "write WITHDRAW and the account, e.g. WITHDRAW alice (ACWC Disqualification and \
                 withdrawals)"
                    .into(),
            ),
        },
        "DISQUALIFY" => match rest {
            [a, w] => DisqualifyReason::read(w)
                .map(|why| GmCommand::Disqualify {
                    account: a.to_string(),
                    why,
                })
                .ok_or_else(|| DISQUALIFY_SYNTAX.to_string()),
            _ => Err(DISQUALIFY_SYNTAX.into()),
        },
        "ADD" => match rest {
            [w, a, day, name @ ..] if w.eq_ignore_ascii_case("PLAYER") => {
                let address = a.trim_matches(['<', '>', ',']);
                match (is_address(address), Weekday::parse(day), name.is_empty()) {
                    (true, Some(day), false) => Ok(GmCommand::AddPlayer {
                        address: address.to_ascii_lowercase(),
                        day,
                        name: name.join(" "),
                    }),
                    _ => Err(ADD_PLAYER_SYNTAX.into()),
                }
            }
            [w, ..] if w.eq_ignore_ascii_case("PLAYER") => Err(ADD_PLAYER_SYNTAX.into()),
            [a] if is_address(a.trim_matches(['<', '>', ','])) => Ok(GmCommand::AddContestant(
                a.trim_matches(['<', '>', ',']).to_ascii_lowercase(),
            )),
            _ => Err(
                "write ADD <address> (Agora BT2: the person becomes a Contestant on \
                      consenting)"
                    .into(),
            ),
        },
        "REMOVE" => match rest {
            [who] => {
                let who = who.trim_matches(['<', '>', ',']);
                Ok(GmCommand::RemoveContestant(if is_address(who) {
                    who.to_ascii_lowercase()
                } else {
                    who.to_ascii_uppercase()
                }))
            }
            _ => Err("write REMOVE <address> or REMOVE <power> (Agora BT2)".into()),
        },
        "BROADCAST" => {
            Err("write BROADCAST alone on its line, the message, then ENDBROADCAST".into())
        }
        _ => Err(format!(
            "not a command (DEADLINE, EXTEND, PAUSE, RESUME, PROCESS, PREVIEW, STATUS, SET, OBSERVER, REPLACE, ROLLBACK, CONSENT, REFUSE, CORRECT, AGREE, DECLARE, WINNERS, GRANT, HOLIDAY, VETO, ENTRY, DRAW, ADD, REMOVE, BROADCAST): \"{}\"",
            text.chars().take(60).collect::<String>()
        )),
    }
}

/// A holiday from its first day to its last (both whole days, GMT).
fn holiday(from: &str, to: &str, name: &[&str]) -> Result<GmCommand, String> {
    match (parse_gmt(from), parse_gmt(to)) {
        (Some(a), Some(b)) if a <= b => Ok(GmCommand::DeclareHoliday {
            from: a,
            // The last day is a holiday too.
            to: b + 86_400,
            name: upper(name),
        }),
        _ => Err(
            "write HOLIDAY 2026-12-24 TO 2026-12-27 CHRISTMAS (the first day, then the last, GMT)"
                .into(),
        ),
    }
}

/// Words in upper case, one space between them.
fn upper(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| w.to_ascii_uppercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `a` looks like a mail address a command may name: a local part, one `@`, a dotted
/// domain that neither starts nor ends with a dot, no spaces, at most 254 characters.
pub fn is_address(a: &str) -> bool {
    let Some((local, domain)) = a.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !a.contains(char::is_whitespace)
        && a.len() <= 254
}

/// `2d`, `36h`, `90m`, `1d 12h`, `2 days`, `1 day 6 hours`: seconds.
pub fn parse_duration(s: &str) -> Option<i64> {
    let mut total: i64 = 0;
    let mut number: Option<i64> = None;
    let mut seen = false;
    let lower = s.to_ascii_lowercase();
    let mut chars = lower.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut n: i64 = 0;
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                n = n.checked_mul(10)?.checked_add(i64::from(d.to_digit(10)?))?;
                chars.next();
            }
            if number.replace(n).is_some() {
                return None;
            }
        } else if c.is_ascii_alphabetic() {
            let mut unit = String::new();
            while let Some(&a) = chars.peek().filter(|a| a.is_ascii_alphabetic()) {
                unit.push(a);
                chars.next();
            }
            let per = match unit.as_str() {
                "d" | "day" | "days" => 86_400,
                "h" | "hr" | "hrs" | "hour" | "hours" => 3600,
                "m" | "min" | "mins" | "minute" | "minutes" => 60,
                _ => return None,
            };
            total = total.checked_add(number.take()?.checked_mul(per)?)?;
            seen = true;
        } else if c.is_whitespace() || c == ',' {
            chars.next();
        } else {
            return None;
        }
    }
    (seen && number.is_none() && total <= 366 * 86_400).then_some(total)
}

/// `2d 12h`.
pub fn format_duration(s: i64) -> String {
    let (d, h, m) = (s / 86_400, (s % 86_400) / 3600, (s % 3600) / 60);
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(format!("{d}d"));
    }
    if h > 0 {
        parts.push(format!("{h}h"));
    }
    if m > 0 || parts.is_empty() {
        parts.push(format!("{m}m"));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind for the tests: phases such as S1902M, and a grammar of corrections.
    struct Kind;

    struct Phase;

    impl FromStr for Phase {
        type Err = ();
        fn from_str(s: &str) -> Result<Phase, ()> {
            let b = s.as_bytes();
            let ok = b.len() == 6
                && b"SFW".contains(&b[0])
                && b[1..5].iter().all(u8::is_ascii_digit)
                && b"MRA".contains(&b[5]);
            ok.then_some(Phase).ok_or(())
        }
    }

    impl CommandSyntax for Kind {
        type Phase = Phase;
        const CORRECT_SYNTAX: &'static str = "write CORRECT MOVE <unit> <space>";
    }

    fn read_command(text: &str) -> Result<GmCommand, String> {
        super::read_command::<Kind>(text)
    }

    fn read_commands(lines: &[BodyLine]) -> CommandMail {
        super::read_commands::<Kind>(lines)
    }

    fn lines(text: &str) -> Vec<BodyLine> {
        text.lines()
            .enumerate()
            .map(|(i, t)| BodyLine {
                number: i + 1,
                text: t.to_string(),
            })
            .collect()
    }

    #[test]
    fn agora_bt2_and_bt8_the_gms_amendment_and_confirmation_are_read() {
        assert_eq!(
            read_command("amend bt17 \"There are five orders.\""),
            Ok(GmCommand::AmendRule {
                rule: "BT17".into(),
                text: "There are five orders.".into()
            })
        );
        assert_eq!(
            read_command("CONFIRM PROPOSAL 3 badges awarded to all"),
            Ok(GmCommand::ConfirmProposal {
                number: 3,
                done: "badges awarded to all".into()
            })
        );
        for bad in [
            "AMEND BT17",
            "AMEND BT17 no quotes",
            "AMEND BT17 \"\"",
            "CONFIRM PROPOSAL 3",
            "CONFIRM PROPOSAL x done",
        ] {
            assert!(read_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn agora_bt1_bt2_the_gms_commands_on_contestants_are_read() {
        assert_eq!(
            read_command("entry until 2020-07-10 00:00"),
            Ok(GmCommand::EntryUntil(
                parse_gmt("2020-07-10 00:00").unwrap()
            ))
        );
        assert_eq!(read_command("Draw"), Ok(GmCommand::DrawPowers));
        assert_eq!(
            read_command("ADD <Someone@Example.org>"),
            Ok(GmCommand::AddContestant("someone@example.org".into()))
        );
        // ACWC: the TD approves an entry and rules on a match.
        assert_eq!(
            read_command("approve alice"),
            Ok(GmCommand::Approve("alice".into()))
        );
        assert_eq!(
            read_command("RULING bob 5-5").map(|c| c.canonical()),
            Ok("RULING bob 5-5".to_string())
        );
        assert!(read_command("RULING bob").is_err());
        // ACWC Match negotiations: the arbiter assigns a time (UTC) and finds fault.
        assert_eq!(
            read_command("assign bob 2019-10-12 17:00"),
            Ok(GmCommand::Assign {
                account: "bob".into(),
                time: parse_gmt("2019-10-12 17:00").unwrap(),
            })
        );
        assert_eq!(
            read_command("ASSIGN bob 2019-10-12 17:00 UTC").map(|c| c.canonical()),
            Ok("ASSIGN bob 2019-10-12 17:00 UTC".to_string())
        );
        assert!(read_command("ASSIGN bob 2019-10-12").is_err());
        assert!(read_command("ASSIGN bob tomorrow noon").is_err());
        assert_eq!(
            read_command("FINDING alice none"),
            Ok(GmCommand::Finding {
                account: "alice".into(),
                at_fault: None,
            })
        );
        assert_eq!(
            read_command("finding alice bob").map(|c| c.canonical()),
            Ok("FINDING alice bob".to_string())
        );
        assert!(read_command("FINDING alice").is_err());
        // ACWC Match rules, Disqualification and withdrawals: forfeits, withdrawals and
        // disqualifications, each with a reason from its closed set.
        assert_eq!(
            read_command("forfeit bob no-show"),
            Ok(GmCommand::Forfeit {
                account: "bob".into(),
                why: ForfeitReason::NoShow,
            })
        );
        assert_eq!(
            read_command("FORFEIT bob left").map(|c| c.canonical()),
            Ok("FORFEIT bob LEFT".to_string())
        );
        assert!(read_command("FORFEIT bob").is_err());
        assert!(read_command("FORFEIT bob because").is_err());
        assert_eq!(
            read_command("WITHDRAW carol"),
            Ok(GmCommand::Withdraw("carol".into()))
        );
        assert_eq!(
            read_command("disqualify dave engine").map(|c| c.canonical()),
            Ok("DISQUALIFY dave ENGINE".to_string())
        );
        assert!(read_command("DISQUALIFY dave cheating").is_err());
        // Nomic 201: a player seated on a weekday, named in one to four words.
        let seated = read_command("ADD PLAYER <Ben@Example.org> wednesday Ben P");
        assert_eq!(
            seated,
            Ok(GmCommand::AddPlayer {
                address: "ben@example.org".into(),
                day: Weekday::Wednesday,
                name: "Ben P".into(),
            })
        );
        assert_eq!(
            seated.map(|c| c.canonical()),
            Ok("ADD PLAYER ben@example.org Wednesday Ben P".to_string())
        );
        assert!(read_command("ADD PLAYER ben@example.org someday Ben").is_err());
        assert!(read_command("ADD PLAYER ben@example.org Monday").is_err());
        assert_eq!(
            read_command("remove Someone@Example.org"),
            Ok(GmCommand::RemoveContestant("someone@example.org".into()))
        );
        assert_eq!(
            read_command("remove france"),
            Ok(GmCommand::RemoveContestant("FRANCE".into()))
        );
        assert_eq!(
            GmCommand::EntryUntil(parse_gmt("2020-07-10 00:00").unwrap()).canonical(),
            "ENTRY UNTIL 2020-07-10 00:00 GMT"
        );
        for bad in [
            "ENTRY",
            "ENTRY 2020-07-10",
            "ENTRY UNTIL tomorrow",
            "DRAW now",
            "ADD",
            "ADD nobody",
            "ADD a@example.org b@example.org",
            "REMOVE",
            "REMOVE FRANCE GERMANY",
        ] {
            assert!(read_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn corrections_agreements_and_declared_draws_are_read() {
        // WM D.VIII(1)-(3), WM IX(5), Agora BT9.
        assert_eq!(
            read_command("correct move a par bur"),
            Ok(GmCommand::Correct("MOVE A PAR BUR".into()))
        );
        assert!(
            read_command("CORRECT")
                .unwrap_err()
                .contains("CORRECT MOVE")
        );
        assert_eq!(
            read_command("AGREE RULE submissions merge_per_unit"),
            Ok(GmCommand::Agree("RULE SUBMISSIONS MERGE_PER_UNIT".into()))
        );
        assert_eq!(
            read_command("agree set press  white"),
            Ok(GmCommand::Agree("RULE PRESS WHITE".into()))
        );
        assert!(
            read_command("AGREE DRAW").is_err(),
            "the GM votes on no draw"
        );
        assert_eq!(read_command("Declare draw"), Ok(GmCommand::DeclareDraw));
        // Agora BT3: several winners.
        assert_eq!(
            read_command("winners France germany"),
            Ok(GmCommand::Winners(vec!["FRANCE".into(), "GERMANY".into()]))
        );
        assert!(read_command("WINNERS").is_err());
        // WM D.III(1): the GM's veto of a player's abbreviations.
        assert_eq!(
            read_command("VETO ABBREVIATIONS france wm Eng"),
            Ok(GmCommand::VetoAbbreviations {
                power: "FRANCE".into(),
                entries: vec!["wm".into(), "Eng".into()]
            })
        );
        // WM D.VII(5): holidays the TD declares, the GM's own holiday extension.
        assert_eq!(
            read_command("HOLIDAY 2026-12-24 TO 2026-12-26 Christmas Days"),
            Ok(GmCommand::DeclareHoliday {
                from: parse_gmt("2026-12-24").unwrap(),
                to: parse_gmt("2026-12-27").unwrap(),
                name: "CHRISTMAS DAYS".into()
            })
        );
        assert!(read_command("HOLIDAY 2026-12-26 TO 2026-12-24 X").is_err());
        assert_eq!(
            read_command("holiday extension"),
            Ok(GmCommand::HolidayExtension)
        );
        // WM D.VII(5): the GM's answer to an extension beyond the guaranteed one.
        assert_eq!(
            read_command("grant extension france"),
            Ok(GmCommand::GrantExtension("FRANCE".into()))
        );
        assert_eq!(
            read_command("REFUSE EXTENSION Italy"),
            Ok(GmCommand::RefuseExtension("ITALY".into()))
        );
        assert!(read_command("GRANT EXTENSION").is_err());
        assert_eq!(
            read_command("REFUSE DRAW"),
            Ok(GmCommand::RefuseProposal("DRAW".into()))
        );
        assert!(read_command("DECLARE WAR").is_err());
    }

    #[test]
    fn durations_are_read_as_gms_write_them() {
        assert_eq!(parse_duration("2d"), Some(2 * 86_400));
        assert_eq!(parse_duration("36h"), Some(36 * 3600));
        assert_eq!(parse_duration("1d 12h"), Some(36 * 3600));
        assert_eq!(parse_duration("2 DAYS"), Some(2 * 86_400));
        assert_eq!(parse_duration("1 day, 6 hours"), Some(30 * 3600));
        assert_eq!(parse_duration("90m"), Some(5400));
        assert_eq!(parse_duration("2"), None);
        assert_eq!(parse_duration("2 fortnights"), None);
        assert_eq!(parse_duration("99999999999999999999d"), None);
        assert_eq!(format_duration(36 * 3600), "1d 12h");
    }

    #[test]
    fn a_command_mail_is_read_line_by_line() {
        let m = read_commands(&lines(
            "SECRET gm-words\n\nextend 2 days\nPause\nRESUME now\nSET movement_days 2\n\
             OBSERVER ADD Watcher@Example.test\nDEADLINE next week\nhello\nSIGNOFF\nPAUSE",
        ));
        assert_eq!(m.secret.as_deref(), Some("gm-words"));
        let read: Vec<_> = m.lines.iter().map(|l| l.read.clone()).collect();
        assert_eq!(read[0], Ok(GmCommand::Extend(2 * 86_400)));
        assert_eq!(read[1], Ok(GmCommand::Pause));
        assert!(
            read[2]
                .as_ref()
                .is_err_and(|e| e.contains("RESUME takes nothing"))
        );
        assert_eq!(
            read[3],
            Ok(GmCommand::Set {
                option: "movement_days".into(),
                value: "2".into()
            })
        );
        assert_eq!(
            read[4],
            Ok(GmCommand::ObserverAdd("watcher@example.test".into()))
        );
        assert!(read[5].as_ref().is_err_and(|e| e.contains("GMT")));
        assert!(read[6].as_ref().is_err_and(|e| e.contains("not a command")));
        assert_eq!(
            read_command("REPLACE france <New@Example.test> temporary"),
            Ok(GmCommand::Replace {
                power: "FRANCE".into(),
                address: "new@example.test".into(),
                permanent: false
            })
        );
        assert!(read_command("REPLACE FRANCE nobody").is_err());
        assert!(read_command("REPLACE FRANCE a@b.test forever").is_err());
        assert_eq!(read.len(), 7, "nothing after SIGNOFF is read");
    }

    #[test]
    fn a_broadcast_is_a_block() {
        let m = read_commands(&lines(
            "BROADCAST\nDear all,\n\n  the deadline stands.\nSECRET gm-words\nEND BROADCAST\nSTATUS\nBROADCAST\nno end",
        ));
        assert_eq!(
            m.lines[0].read,
            Ok(GmCommand::Broadcast(
                "Dear all,\n\n  the deadline stands.".into()
            ))
        );
        assert_eq!(m.secret.as_deref(), Some("gm-words"), "never broadcast");
        assert_eq!(m.lines[1].read, Ok(GmCommand::Status));
        assert!(
            m.lines[2]
                .read
                .as_ref()
                .is_err_and(|e| e.contains("ENDBROADCAST"))
        );
        assert_eq!(m.lines.len(), 3);
    }

    #[test]
    fn a_flood_of_commands_is_cut() {
        let body = "STATUS\n".repeat(MAX_COMMANDS + 10);
        let m = read_commands(&lines(&body));
        assert_eq!(m.lines.len(), MAX_COMMANDS + 1);
        assert!(m.lines[MAX_COMMANDS].read.is_err());
    }
}
