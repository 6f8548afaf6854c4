//! The standings as CSV (`chancery tournament standings --csv`).

use super::*;

/// A number to three decimals, trailing zeros trimmed: `22`, `10.667`.
fn number(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".to_string() } else { s }
}

/// An RFC 4180 field: quoted when it holds a comma, a quote or a line break, inner quotes
/// doubled.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The standings as CSV (one row a player; `chancery tournament standings --csv`): a header,
/// then one line a player in order, fields quoted as RFC 4180 says, numbers to three decimals.
/// Lines end with `\n`.
pub fn csv(s: &Standings) -> String {
    let mut out = String::from(
        "place,player,team,power,board,score,game_score,credits,bonus,decided_by,advances\n",
    );
    for p in &s.players {
        let row = [
            p.place.to_string(),
            field(&p.player),
            field(p.team.as_deref().unwrap_or("")),
            field(p.power.as_deref().unwrap_or("")),
            p.board.map_or_else(String::new, |b| b.to_string()),
            number(p.score),
            number(p.game_score),
            number(p.credits),
            number(p.bonus),
            field(&p.decided_by),
            p.advances.to_string(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::*;

    #[test]
    fn the_same_input_gives_the_same_csv_in_any_order() {
        let t = wm_two_rounds();
        let a = csv(&standings(&t, 2));
        assert_eq!(a, csv(&standings(&t, 2)));
        let mut shuffled = t.clone();
        shuffled.games.reverse();
        shuffled.entrants.reverse();
        assert_eq!(a, csv(&standings(&shuffled, 2)));
        assert_eq!(standings(&t, 1), standings(&shuffled, 1));
        assert!(a.starts_with("place,player,team,power,board,score,game_score,credits,bonus,decided_by,advances\n1,A2,,AUSTRIA,1,63.5,42,0,32,score,true\n"), "{a}");
    }

    #[test]
    fn csv_quotes_as_rfc_4180_and_rounds_to_three_decimals() {
        let place = |player: &str, score: f64, decided_by: &str| PlayerPlace {
            place: 1,
            player: player.to_string(),
            team: Some("the \"best\" team".to_string()),
            power: Some("ENGLAND".to_string()),
            board: Some(3),
            score,
            game_score: 22.0,
            credits: 0.0,
            bonus: 56.0 / 3.0,
            decided_by: decided_by.to_string(),
            advances: true,
            declined: false,
        };
        let s = Standings {
            round: 1,
            players: vec![
                place("smith, jo", 32.0 / 3.0, "WM C.7(f) d100 (83 to 41)"),
                place("line\nbreak", 22.5, "score"),
            ],
            teams: Vec::new(),
            best_country: Vec::new(),
            advancing: Vec::new(),
            winner: None,
            team_winner: None,
        };
        assert_eq!(
            csv(&s),
            "place,player,team,power,board,score,game_score,credits,bonus,decided_by,advances\n\
             1,\"smith, jo\",\"the \"\"best\"\" team\",ENGLAND,3,10.667,22,0,18.667,WM C.7(f) d100 (83 to 41),true\n\
             1,\"line\nbreak\",\"the \"\"best\"\" team\",ENGLAND,3,22.5,22,0,18.667,score,true\n"
        );
        assert_eq!(number(-0.0001), "0");
    }
}
