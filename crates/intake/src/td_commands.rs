//! A tournament director's command mail (subject `<tournament> TD`): one command a line, each
//! answered, as a game master's are (`commands.rs`). Pure.

use crate::commands::{LineKind, line_kind};
use crate::message::BodyLine;

/// A tournament director's command (issue 14; WM B, C; Maharajiad A.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TdCommand {
    /// `ENTRANT address [TEAM name] [CAPTAIN] [POWER power] [RESERVE] [NAME words...]`: sign a
    /// player up (WM B.2 teams and captains, B.5 the power the team gives in round one).
    Entrant {
        address: String,
        team: Option<String>,
        captain: bool,
        power: Option<String>,
        reserve: bool,
        name: String,
    },
    /// `ROUND`: the next round's boards are seated and their games started.
    Round,
    /// `STANDINGS`: the standings now, to the directors.
    Standings,
    /// `RELEASE`: the standings go to every player, now and after each game from now on.
    Release,
    /// `DECLINE address`: the entrant declines the next round (WM C.10, Maharajiad A.21).
    Decline(String),
    /// `STATUS`: the rounds, their boards and which games are still playing.
    Status,
}

impl TdCommand {
    /// The command as Chancery understood it, for the reply.
    pub fn canonical(&self) -> String {
        match self {
            TdCommand::Entrant {
                address,
                team,
                captain,
                power,
                reserve,
                name,
            } => {
                let mut s = format!("ENTRANT {address}");
                if let Some(t) = team {
                    s.push_str(&format!(" TEAM {t}"));
                }
                if *captain {
                    s.push_str(" CAPTAIN");
                }
                if let Some(p) = power {
                    s.push_str(&format!(" POWER {p}"));
                }
                if *reserve {
                    s.push_str(" RESERVE");
                }
                if !name.is_empty() {
                    s.push_str(&format!(" NAME {name}"));
                }
                s
            }
            TdCommand::Round => "ROUND".into(),
            TdCommand::Standings => "STANDINGS".into(),
            TdCommand::Release => "RELEASE".into(),
            TdCommand::Decline(a) => format!("DECLINE {a}"),
            TdCommand::Status => "STATUS".into(),
        }
    }
}

/// One line of a director's mail, and what it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TdLine {
    pub number: usize,
    pub text: String,
    pub read: Result<TdCommand, String>,
}

/// A director's mail, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TdMail {
    /// The secret on a `SECRET ...` line (never echoed).
    pub secret: Option<String>,
    pub lines: Vec<TdLine>,
}

/// Commands a mail may carry (a sign-up of 245 players fits): more is refused, not read.
pub const MAX_TD_COMMANDS: usize = 400;

/// Read a director's mail: blank lines skipped, `SECRET` taken aside, reading stops at
/// `SIGNOFF` or `END`.
pub fn read_td_commands(lines: &[BodyLine]) -> TdMail {
    let mut out = TdMail::default();
    for l in lines {
        let text = match line_kind(&l.text) {
            LineKind::Blank => continue,
            LineKind::Secret(secret) => {
                out.secret = Some(secret);
                continue;
            }
            LineKind::End => break,
            LineKind::Command(text) => text,
        };
        let read = if out.lines.len() >= MAX_TD_COMMANDS {
            Err(format!(
                "at most {MAX_TD_COMMANDS} commands a mail; the rest were not read"
            ))
        } else {
            read_td_command(text)
        };
        let stop = read.is_err() && out.lines.len() >= MAX_TD_COMMANDS;
        out.lines.push(TdLine {
            number: l.number,
            text: text.chars().take(200).collect(),
            read,
        });
        if stop {
            break;
        }
    }
    out
}

const HELP: &str = "commands: ENTRANT <address> [TEAM <name>] [CAPTAIN] [POWER <power>] [RESERVE] \
                    [NAME <name>], ROUND, STANDINGS, RELEASE, DECLINE <address>, STATUS";

/// A plausible address: something@something, printable, no spaces, not absurdly long.
fn address(w: &str) -> Result<String, String> {
    let w = w.trim_matches(|c| c == '<' || c == '>');
    if w.len() <= 254
        && w.split_once('@')
            .is_some_and(|(a, b)| !a.is_empty() && b.contains('.'))
        && w.chars().all(|c| c.is_ascii_graphic())
    {
        Ok(w.to_ascii_lowercase())
    } else {
        Err(format!(
            "'{}' is not an e-mail address",
            w.chars().take(60).collect::<String>()
        ))
    }
}

fn read_td_command(text: &str) -> Result<TdCommand, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let only = |cmd: TdCommand| {
        if words.len() == 1 {
            Ok(cmd)
        } else {
            Err(format!("{} takes nothing after it", upper[0]))
        }
    };
    match upper.first().map(String::as_str) {
        Some("ROUND") => only(TdCommand::Round),
        Some("STANDINGS") => only(TdCommand::Standings),
        Some("RELEASE") => only(TdCommand::Release),
        Some("STATUS") => only(TdCommand::Status),
        Some("DECLINE") => match words.get(1..) {
            Some([a]) => Ok(TdCommand::Decline(address(a)?)),
            _ => Err("write DECLINE <address>".into()),
        },
        Some("ENTRANT") => {
            let Some(a) = words.get(1) else {
                return Err("write ENTRANT <address> [TEAM <name>] [CAPTAIN] [POWER <power>] [RESERVE] [NAME <name>]".into());
            };
            let (mut team, mut captain, mut power, mut reserve, mut name) =
                (None, false, None, false, String::new());
            let mut i = 2;
            while i < words.len() {
                match upper[i].as_str() {
                    "TEAM" | "POWER" => {
                        let v = words
                            .get(i + 1)
                            .ok_or_else(|| format!("{} needs a value", upper[i]))?;
                        if v.chars().count() > 40 {
                            return Err(format!("{} is at most 40 characters", upper[i]));
                        }
                        if upper[i] == "TEAM" {
                            team = Some((*v).to_string());
                        } else {
                            power = Some(v.to_ascii_uppercase());
                        }
                        i += 2;
                    }
                    "CAPTAIN" => {
                        captain = true;
                        i += 1;
                    }
                    "RESERVE" => {
                        reserve = true;
                        i += 1;
                    }
                    "NAME" => {
                        name = words[i + 1..].join(" ").chars().take(80).collect();
                        i = words.len();
                    }
                    w => return Err(format!("'{w}' is not understood here; {HELP}")),
                }
            }
            Ok(TdCommand::Entrant {
                address: address(a)?,
                team,
                captain,
                power,
                reserve,
                name,
            })
        }
        _ => Err(format!("not a command; {HELP}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn td_commands_are_read_one_a_line() {
        let m = read_td_commands(&lines(
            "SECRET alpha beta\n\nentrant Ann@Example.org team Lions captain power england name Ann Smith\nROUND\nstandings\nDECLINE bob@example.org\nRELEASE now\nfly\nEND\nROUND",
        ));
        assert_eq!(m.secret.as_deref(), Some("alpha beta"));
        let read: Vec<_> = m.lines.iter().map(|l| l.read.clone()).collect();
        assert_eq!(
            read[0],
            Ok(TdCommand::Entrant {
                address: "ann@example.org".into(),
                team: Some("Lions".into()),
                captain: true,
                power: Some("ENGLAND".into()),
                reserve: false,
                name: "Ann Smith".into(),
            })
        );
        assert_eq!(read[1], Ok(TdCommand::Round));
        assert_eq!(read[2], Ok(TdCommand::Standings));
        assert_eq!(read[3], Ok(TdCommand::Decline("bob@example.org".into())));
        assert!(read[4].as_ref().is_err_and(|e| e.contains("nothing after")));
        assert!(read[5].as_ref().is_err_and(|e| e.contains("not a command")));
        // Reading stops at END.
        assert_eq!(m.lines.len(), 6);
    }

    #[test]
    fn bad_addresses_are_refused() {
        assert!(read_td_command("DECLINE nobody").is_err());
        assert!(read_td_command("ENTRANT a@b").is_err());
        assert!(read_td_command("ENTRANT a@b.c TEAM").is_err());
    }
}
