//! The bodies of Diplomacy's own notices and announcements (`templates/diplomacy/`): one typed
//! view and one template each, rendered exactly as written (no tidying), as the shared ones of
//! [`crate::outgoing::notices`] are.

use crate::outgoing::diplomacy::render_text;
use crate::outgoing::render::RenderError;
use serde::Serialize;

/// Diplomacy's notice templates, embedded (in Diplomacy's template environment,
/// `TEMPLATES` in `mod.rs`).
pub(crate) const TEMPLATES: &[(&str, &str)] = &[
    (
        "diplomacy/replace-nmr.txt",
        include_str!("../../../templates/diplomacy/replace-nmr.txt"),
    ),
    (
        "diplomacy/preview-heading.txt",
        include_str!("../../../templates/diplomacy/preview-heading.txt"),
    ),
    (
        "diplomacy/preview-heading-held.txt",
        include_str!("../../../templates/diplomacy/preview-heading-held.txt"),
    ),
    (
        "diplomacy/board-corrected.txt",
        include_str!("../../../templates/diplomacy/board-corrected.txt"),
    ),
    (
        "diplomacy/game-ended.txt",
        include_str!("../../../templates/diplomacy/game-ended.txt"),
    ),
    (
        "diplomacy/draw-declared.txt",
        include_str!("../../../templates/diplomacy/draw-declared.txt"),
    ),
    (
        "diplomacy/winners-announced.txt",
        include_str!("../../../templates/diplomacy/winners-announced.txt"),
    ),
    (
        "diplomacy/proposal-refused.txt",
        include_str!("../../../templates/diplomacy/proposal-refused.txt"),
    ),
    (
        "diplomacy/abbreviations-vetoed.txt",
        include_str!("../../../templates/diplomacy/abbreviations-vetoed.txt"),
    ),
    (
        "diplomacy/abbreviations-declared.txt",
        include_str!("../../../templates/diplomacy/abbreviations-declared.txt"),
    ),
];

/// A power to replace, who NMRed and made no contact, for the masters (WM D.VII(6)(a), B.8).
#[derive(Serialize)]
pub struct ReplaceNmr<'a> {
    pub game: &'a str,
    pub power: &'a str,
    pub phase: &'a str,
    pub hours: i64,
    pub published: &'a str,
    pub due: &'a str,
}

pub fn replace_nmr(v: &ReplaceNmr<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/replace-nmr.txt", v)
}

/// The first paragraph of a preview (no newline at its end).
#[derive(Serialize)]
pub struct PreviewHeading<'a> {
    pub phase: &'a str,
}

pub fn preview_heading(v: &PreviewHeading<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/preview-heading.txt", v)
}

/// The first paragraph of a preview whose results the tick would hold for an NMR (WM D.VII(6)(b)); no newline at its end.
#[derive(Serialize)]
pub struct PreviewHeadingHeld<'a> {
    pub phase: &'a str,
    pub missing: &'a str,
}

pub fn preview_heading_held(v: &PreviewHeadingHeld<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/preview-heading-held.txt", v)
}

/// The GM corrected the board of a phase, for everyone (no newline at its end).
#[derive(Serialize)]
pub struct BoardCorrected<'a> {
    pub phase: &'a str,
    pub told: &'a str,
}

pub fn board_corrected(v: &BoardCorrected<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/board-corrected.txt", v)
}

/// The end of a game: the final supply centre counts (one line a power, already aligned) and
/// their history (no newline at its end).
#[derive(Serialize)]
pub struct GameEnded<'a> {
    pub counts: &'a [String],
    pub history: &'a str,
}

pub fn game_ended(v: &GameEnded<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/game-ended.txt", v)
}

/// The GM declares a draw with two days' notice, for everyone (Agora BT9); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct DrawDeclared<'a> {
    pub years: u16,
    pub at: &'a str,
}

pub fn draw_declared(v: &DrawDeclared<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/draw-declared.txt", v)
}

/// The winners announced with notice (Agora BT3; BT16 when a power's centres decided it);
/// one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct WinnersAnnounced<'a> {
    /// The seats, joined for reading ("FRANCE and GERMANY").
    pub winners: &'a str,
    pub several: bool,
    /// 18 or more centres after a Fall turn decided it (BT16), not the judge's command.
    pub majority: bool,
    pub hours: u32,
    pub at: &'a str,
}

pub fn winners_announced(v: &WinnersAnnounced<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/winners-announced.txt", v)
}

/// A proposal refused as repetitive, for everyone (Maharajiad X(2)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct ProposalRefused<'a> {
    pub proposal: &'a str,
}

pub fn proposal_refused(v: &ProposalRefused<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/proposal-refused.txt", v)
}

/// A player's own abbreviations list, announced before the list itself (WM D.III(1)); no
/// newline at its end.
#[derive(Serialize)]
pub struct AbbreviationsDeclared<'a> {
    pub power: &'a str,
    /// Declared at the outset: the GM may still veto entries before the first deadline.
    pub outset: bool,
}

pub fn abbreviations_declared(v: &AbbreviationsDeclared<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/abbreviations-declared.txt", v)
}

/// The GM vetoed some of a player's abbreviations, for everyone (WM D.III(1)); the list follows; no newline at its end.
#[derive(Serialize)]
pub struct AbbreviationsVetoed<'a> {
    pub count: usize,
    pub name: &'a str,
    pub struck: &'a str,
}

pub fn abbreviations_vetoed(v: &AbbreviationsVetoed<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/abbreviations-vetoed.txt", v)
}

#[cfg(test)]
mod tests {
    //! Each notice reads exactly as the `format!` it replaced (copied here from the old code).
    use super::*;

    #[test]
    fn replace_nmr_reads_as_before() {
        let game = "<game>";
        let power = "<power>";
        let phase = "<phase>";
        let hours: i64 = 10;
        let published = "<published>";
        let due = "<due>";
        let got = replace_nmr(&ReplaceNmr {
            game,
            power,
            phase,
            hours,
            published,
            due,
        })
        .unwrap();
        assert_eq!(
            got,
            format!(
                "Game {game}: {power} sent no orders for {phase} and has not contacted the GM in\n\
                 the {hours} hours since the results were published ({published} to {due}).\n\n\
                 The replacement procedure starts (WM D.VII(6)(a), B.8). Find a replacement and\n\
                 send a command mail (subject \"{game} GM\"):\n\n    REPLACE {power} <address> [TEMPORARY|PERMANENT]\n"
            )
        );
    }

    #[test]
    fn preview_heading_reads_as_before() {
        let phase = "<phase>";
        let got = preview_heading(&PreviewHeading { phase }).unwrap();
        assert_eq!(
            got,
            format!(
                "PREVIEW: {phase} adjudicated as if now, with the orders that stand. Nothing has\n\
                 changed; the players have not been sent this, and their orders may still\n\
                 change before the deadline."
            )
        );
    }

    #[test]
    fn preview_heading_held_reads_as_before() {
        let phase = "<phase>";
        let missing = "<missing>";
        let got = preview_heading_held(&PreviewHeadingHeld { phase, missing }).unwrap();
        assert_eq!(
            got,
            format!(
                "PREVIEW: the tick would HOLD the results of {phase}: no orders from {missing}, and no\n\
                 NMR is allowed in this phase (WM D.VII(6)(b)). The player(s) must be replaced;\n\
                 only the replacement may then send orders. Below, the results it would give\n\
                 without the hold, with those units holding. Nothing has changed; the players\n\
                 have not been sent this."
            )
        );
    }

    #[test]
    fn board_corrected_reads_as_before() {
        let phase = "<phase>";
        let told = "<told>";
        let got = board_corrected(&BoardCorrected { phase, told }).unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has corrected the board of {phase} (an error in the published adjudication): {told}\n\
         Orders already sent for the units concerned should be checked, and sent again if need \
         be."
            )
        );
    }

    #[test]
    fn draw_declared_reads_as_before() {
        let years: u16 = 7;
        let at = "<at>";
        let got = draw_declared(&DrawDeclared { years, at }).unwrap();
        assert_eq!(
            got,
            format!(
                "No supply centre has changed owner in the past {years} game years, and the GM declares \
         the game a draw (Agora BT9), with two days' notice: the game ends at its first deadline \
         at or after {at}, in a draw of every player then remaining."
            )
        );
    }

    #[test]
    fn proposal_refused_reads_as_before() {
        let proposal = "<proposal>";
        let got = proposal_refused(&ProposalRefused { proposal }).unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has refused the proposal {proposal} as repetitive (Maharajiad X(2)): votes on \
         it are not counted."
            )
        );
    }

    #[test]
    fn game_ended_reads_as_before() {
        let counts = vec!["AUSTRIA     3".to_string(), "ENGLAND    18".to_string()];
        let history = "<history>\n";
        assert_eq!(
            game_ended(&GameEnded {
                counts: &counts,
                history
            })
            .unwrap(),
            format!(
                "Final supply centre counts:\n{}\n\n{}",
                counts.join("\n"),
                history
            )
        );
    }

    #[test]
    fn abbreviations_vetoed_reads_as_before() {
        let count: usize = 7;
        let name = "<name>";
        let struck = "<struck>";
        let got = abbreviations_vetoed(&AbbreviationsVetoed {
            count,
            name,
            struck,
        })
        .unwrap();
        assert_eq!(
            got,
            format!(
                "The GM has vetoed {count} of {name}'s abbreviations (WM D.III(1)): {struck}. The list now reads:"
            )
        );
    }

    #[test]
    fn abbreviations_declared_reads_as_before_at_the_outset_and_after() {
        let power = "<power>";
        for outset in [true, false] {
            let text = format!(
                "{}'s own abbreviations list (WM D.III(1)){}; their orders are read with it:",
                power,
                if outset {
                    "; the GM may veto entries before the first deadline"
                } else {
                    ""
                }
            );
            let got = abbreviations_declared(&AbbreviationsDeclared { power, outset }).unwrap();
            assert_eq!(got, text);
        }
    }
}
