//! A master's command mail as Diplomacy reads it: the shared reader
//! (`chancery_intake::commands`) with Diplomacy's own words, its phases (ROLLBACK S1902M) and
//! the grammar of its corrections (CORRECT, WM D.VIII(1)-(3)).

use crate::correction;
use crate::phase::Phase;
use chancery_intake::commands::{self as intake, CommandMail, CommandSyntax, GmCommand};
use chancery_intake::message::BodyLine;

/// Diplomacy's words in a master's command.
pub struct Syntax;

impl CommandSyntax for Syntax {
    type Phase = Phase;
    const CORRECT_SYNTAX: &'static str = correction::SYNTAX;
}

/// Read a command mail's lines as Diplomacy's masters write them.
pub fn read_commands(lines: &[BodyLine]) -> CommandMail {
    intake::read_commands::<Syntax>(lines)
}

/// Read one command line as Diplomacy's masters write it.
pub fn read_command(text: &str) -> Result<GmCommand, String> {
    intake::read_command::<Syntax>(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_d_viii_1_a_rollback_names_a_phase_of_the_game() {
        assert_eq!(
            read_command("rollback s1902m"),
            Ok(GmCommand::Rollback("S1902M".into()))
        );
        assert_eq!(
            read_command("CONSENT ROLLBACK w1901a"),
            Ok(GmCommand::ConsentRollback("W1901A".into()))
        );
        // Maharajiad B.I(5): the adjustment phase may be called Monsoon.
        assert_eq!(
            read_command("ROLLBACK M1501A"),
            Ok(GmCommand::Rollback("M1501A".into()))
        );
        for bad in [
            "ROLLBACK S1902A",
            "ROLLBACK spring",
            "CONSENT ROLLBACK X1901M",
        ] {
            assert!(
                read_command(bad).is_err_and(|e| e.contains("as in")),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_bare_correct_is_answered_with_the_grammar_of_corrections() {
        assert_eq!(read_command("CORRECT"), Err(correction::SYNTAX.to_string()));
    }
}
