//! A tournament's standings as plain text: the mail to the directors and players, and what
//! `chancery tournament standings` prints.

/// A number as the standings show it: up to three decimals, no trailing zeros (`22`, `10.667`).
fn points(x: f64) -> String {
    let s = format!("{:.3}", (x * 1000.0).round() / 1000.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A tournament's standings as plain text: the mail's body and what `chancery tournament
/// standings` prints. Every place with what decided it (the tie-break and its clause), who
/// advances, the teams, the best countries. `names`: how to show each entrant (by address).
pub fn standings_table(
    tournament: &str,
    s: &crate::standings::Standings,
    finished: usize,
    games: usize,
    names: &std::collections::HashMap<String, String>,
) -> String {
    use std::fmt::Write;
    let name = |a: &str| names.get(a).cloned().unwrap_or_else(|| a.to_string());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Tournament {tournament}: standings after round {}, {finished} of {games} games over.",
        s.round
    );
    if finished < games {
        let _ = writeln!(
            out,
            "The round is still being played: these places are provisional."
        );
    }
    if let Some(w) = &s.winner {
        let _ = writeln!(out, "\nThe winner of the tournament: {}.", name(w));
    }
    if let Some(w) = &s.team_winner {
        let _ = writeln!(out, "The winner of the team tournament: {w}.");
    }
    let _ = writeln!(out, "\nPlayers\n");
    let _ = writeln!(
        out,
        "{:>4}  {:<28} {:<14} {:<13} {:>5} {:>8} {:>8} {:>7} {:>6}  {:<3}  Decided by",
        "#", "Player", "Team", "Power", "Board", "Score", "Game", "Credits", "Bonus", "Adv"
    );
    for p in &s.players {
        let shown: String = name(&p.player).chars().take(28).collect();
        let team: String = p
            .team
            .clone()
            .unwrap_or_default()
            .chars()
            .take(14)
            .collect();
        let _ = writeln!(
            out,
            "{:>4}  {:<28} {:<14} {:<13} {:>5} {:>8} {:>8} {:>7} {:>6}  {:<3}  {}",
            p.place,
            shown,
            team,
            p.power.clone().unwrap_or_default(),
            p.board.map(|b| b.to_string()).unwrap_or_default(),
            points(p.score),
            points(p.game_score),
            points(p.credits),
            points(p.bonus),
            if p.declined {
                "dec"
            } else if p.advances {
                "yes"
            } else {
                ""
            },
            p.decided_by
        );
    }
    if !s.teams.is_empty() {
        let _ = writeln!(out, "\nTeams\n");
        let _ = writeln!(
            out,
            "{:>4}  {:<28} {:>8} {:>7}  Decided by",
            "#", "Team", "Score", "Credits"
        );
        for t in &s.teams {
            let _ = writeln!(
                out,
                "{:>4}  {:<28} {:>8} {:>7}  {}",
                t.place,
                t.team.chars().take(28).collect::<String>(),
                points(t.score),
                points(t.credits),
                t.decided_by
            );
        }
    }
    if !s.best_country.is_empty() {
        let _ = writeln!(out, "\nBest country\n");
        for b in &s.best_country {
            let _ = writeln!(
                out,
                "  {:<13} {:<28} round {} board {:>3}  {:>8}  {}",
                b.power,
                name(&b.player).chars().take(28).collect::<String>(),
                b.round,
                b.board,
                points(b.score),
                b.decided_by
            );
        }
    }
    if !s.advancing.is_empty() {
        let _ = writeln!(
            out,
            "\nAdvancing to round {} ({} players):",
            s.round + 1,
            s.advancing.len()
        );
        for a in &s.advancing {
            let _ = writeln!(out, "  {}", name(a));
        }
    }
    out
}
