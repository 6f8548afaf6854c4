//! Agora BT7: "Contestants may seek the assistance of non-Contestants. If any do so, they
//! SHALL notify the Judge and publicly announce the identities of any such non-Contestants and
//! what assistance they will provide." A contestant announces each assistant by a line of an
//! order mail, `ASSISTANT helper@example.org negotiating and drafting proposals`: the address,
//! then what assistance, in the contestant's words. Pure: the lines are split off the mail
//! here; the engine stores and publishes them.

use chancery_intake::commands::is_address;
use chancery_intake::message::BodyLine;

/// The longest description of the assistance kept, in characters.
pub const MAX_HELP_CHARS: usize = 200;

/// The syntax, for a line that does not follow it.
pub const SYNTAX: &str = "write ASSISTANT <address> <what assistance they give>, as in \
     ASSISTANT helper@example.org negotiating on my behalf (Agora BT7)";

/// An assistant as announced: who, and what assistance they give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announced {
    /// Lower case.
    pub address: String,
    pub help: String,
}

/// An `ASSISTANT` line of a mail, and what it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssistantLine {
    pub line: usize,
    pub text: String,
    pub read: Result<Announced, String>,
}

/// The `ASSISTANT` lines of a mail, and the other lines (the order mail as usual).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub announced: Vec<AssistantLine>,
    pub rest: Vec<BodyLine>,
}

/// Split a mail's `ASSISTANT` lines off its other lines.
pub fn split(lines: &[BodyLine]) -> Split {
    let mut out = Split::default();
    for l in lines {
        let first = l.text.split_whitespace().next().unwrap_or("");
        let first = first.trim_end_matches(':');
        if first.eq_ignore_ascii_case("ASSISTANT") {
            out.announced.push(AssistantLine {
                line: l.number,
                text: l.text.trim().chars().take(240).collect(),
                read: read_line(&l.text),
            });
        } else {
            out.rest.push(l.clone());
        }
    }
    out
}

/// `ASSISTANT <address> <what assistance>`: both are required (BT7: "the identities ... and
/// what assistance they will provide").
pub fn read_line(text: &str) -> Result<Announced, String> {
    let mut words = text.split_whitespace().skip(1);
    let address = words
        .next()
        .map(|a| a.trim_matches(['<', '>', ',', ':']))
        .filter(|a| is_address(a))
        .ok_or_else(|| SYNTAX.to_string())?;
    let help: String = words
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_HELP_CHARS)
        .collect();
    if help.is_empty() {
        return Err(format!(
            "say what assistance {address} gives (Agora BT7); {SYNTAX}"
        ));
    }
    Ok(Announced {
        address: address.to_ascii_lowercase(),
        help,
    })
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
    fn agora_bt7_assistant_lines_name_the_address_and_the_assistance() {
        let s = split(&lines(
            "A PAR - BUR\nassistant <Helper@Example.org> negotiating and drafting proposals\n\
             ASSISTANT nobody\nASSISTANT two@example.org\nF BRE - MAO",
        ));
        assert_eq!(s.rest.len(), 2);
        assert_eq!(s.rest[1].text, "F BRE - MAO");
        assert_eq!(s.announced.len(), 3);
        assert_eq!(
            s.announced[0].read,
            Ok(Announced {
                address: "helper@example.org".into(),
                help: "negotiating and drafting proposals".into()
            })
        );
        assert_eq!(s.announced[0].line, 2);
        assert!(s.announced[1].read.as_ref().unwrap_err().contains("BT7"));
        assert!(
            s.announced[2]
                .read
                .as_ref()
                .unwrap_err()
                .contains("what assistance")
        );
        let long = format!("ASSISTANT a@example.org {}", "x".repeat(500));
        assert_eq!(read_line(&long).map(|a| a.help.len()), Ok(MAX_HELP_CHARS));
    }
}
