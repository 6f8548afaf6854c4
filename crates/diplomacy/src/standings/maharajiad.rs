//! Maharajiad I's rounds (A.9): round one, each board's best and the best of the rest (A.16,
//! A.19, A.21), and the final (A.17, A.20).

use super::*;

/// The clauses' labels, as `decided_by` shows them.
const A19A: &str = "Maharajiad A.19(a) least successful country";
const A19B: &str = "Maharajiad A.19(b) count-back";
const A19C: &str = "Maharajiad A.19(c) d100";
const A20A: &str = "Maharajiad A.20(a) least successful country";
const A20B: &str = "Maharajiad A.20(b) count-back";
const A20C: &str = "Maharajiad A.20(c) round one ranking";

impl<'t> Ctx<'t> {
    /// Round one: each board's most centres, then the best of the rest (A.16), by A.19.
    fn maharajiad_one(&self) -> RoundOut {
        const R: u8 = 1;
        let seats = self.seats(R, self.round_players(R, &[]));
        let totals = self.power_totals(&[R]);
        let years = self.countback_years(R);
        let dice = dice_seed(&self.t.seed, R);
        // A.16: the score is the centre count, prorated (A.23), a solo 37.
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| s.share.score),
                credits: 0.0,
            })
            .collect();
        // A.19: (a) "the Power with lowest total number of Supply Centers across all boards in
        // the first round" ranks higher, (b) the count-back from 1509, (c) the dice.
        let criteria = [
            Criterion::plain("score"),
            Criterion::plain(A19A),
            Criterion::years(A19B, &years),
            Criterion::rolls(A19C),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let rest = vec![
                        vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)],
                        Self::countback_key(&s, &years),
                        vec![f64::from(scoring::d100(&dice, &c.name))],
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        let mut players = self.rows(R, &cands, &ranked, true);
        // A.16: each board's best advances, then "the remaining player having the highest
        // score in the tournament as a whole"; A.21: one who declines is replaced by "the
        // otherwise non-qualifying player with the highest overall first round score
        // (including tie break calculation)", that is the next one down the list.
        let mut boards = BTreeSet::new();
        let (mut winners, mut rest) = (Vec::new(), Vec::new());
        for (k, p) in players.iter().enumerate() {
            match p.board {
                Some(b) if boards.insert(b) => winners.push(k),
                _ => rest.push(k),
            }
        }
        let n = self.advance(R).unwrap_or(boards.len() + 1);
        let chosen: Vec<usize> = winners
            .into_iter()
            .chain(rest)
            .filter(|&k| players[k].board.is_some() && !players[k].declined)
            .take(n)
            .collect();
        for k in chosen {
            players[k].advances = true;
        }
        round_out(players)
    }

    /// Round two: the most centres wins (A.17), by A.20.
    fn maharajiad_two(&self, one: &RoundOut) -> RoundOut {
        const R: u8 = 2;
        let seats = self.seats(R, self.round_players(R, &one.advancing));
        // A.20(a): "the Power with lowest total number of Supply Centers across all boards in
        // the first and second rounds".
        let totals = self.power_totals(&[1, R]);
        let years = self.countback_years(R);
        let unranked = (one.rank.len() + 1) as f64;
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| s.share.score),
                credits: 0.0,
            })
            .collect();
        let criteria = [
            Criterion::plain("score"),
            Criterion::plain(A20A),
            Criterion::years(A20B, &years),
            Criterion::plain(A20C),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let first = one.rank.get(&c.name).map_or(unranked, |p| *p as f64);
                    let rest = vec![
                        vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)],
                        Self::countback_key(&s, &years),
                        vec![-first],
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        round_out(self.rows(R, &cands, &ranked, false))
    }

    pub(super) fn maharajiad(&self, round: u8) -> Standings {
        let mut s = self.empty(round);
        if round == 0 {
            return s;
        }
        let one = self.maharajiad_one();
        if round == 1 {
            s.players = one.players;
            s.advancing = one.advancing;
            return s;
        }
        let two = self.maharajiad_two(&one);
        s.winner = winner_of(&two.players);
        if round == 2 {
            s.players = two.players;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::*;

    #[test]
    fn maharajiad_a_16_each_board_best_and_one_more_advance_a_solo_is_37() {
        // Board 1: Bahmana solos (19). Board 2: Delhi 12 wins; Gondwana's 10 is the best left.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [19, 6, 5, 3, 2, 1, 1]));
        b1.end = End::Solo(power(mh_map(), "BAHMANA"));
        b1.ended_after = ph("F1507M");
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [5, 12, 10, 4, 3, 2, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(s.advancing, ["B1", "D2", "G2"]);
        let b = row(&s, "B1");
        assert_eq!((b.score, b.bonus, b.credits), (37.0, 0.0, 0.0));
        assert_eq!(row(&s, "D1").score, 0.0, "all others eliminated");
        assert!(s.teams.is_empty() && s.team_winner.is_none());
    }

    #[test]
    fn maharajiad_a_19_a_least_successful_country() {
        // B1 and D1 have 8; Bahmana's round total 10 is below Delhi's 18.
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [8, 8, 7, 5, 4, 3, 2]));
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [2, 10, 9, 7, 5, 3, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(at(&s, "B1") + 1, at(&s, "D1"));
        assert_eq!(
            row(&s, "B1").decided_by,
            "Maharajiad A.19(a) least successful country"
        );
    }

    #[test]
    fn maharajiad_a_19_c_the_dice() {
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [10, 8, 7, 5, 4, 2, 1]));
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [10, 8, 7, 5, 4, 2, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        let seed = dice_seed("t", 1);
        let (r1, r2) = (scoring::d100(&seed, "B1"), scoring::d100(&seed, "B2"));
        assert_ne!(r1, r2, "the test needs different rolls");
        let (hi, lo, first) = if r1 > r2 {
            (r1, r2, "B1")
        } else {
            (r2, r1, "B2")
        };
        assert_eq!(s.players[0].player, first);
        assert_eq!(
            s.players[0].decided_by,
            format!("Maharajiad A.19(c) d100 ({hi} to {lo})")
        );
    }

    #[test]
    fn maharajiad_a_19_b_count_back_from_1509() {
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [10, 8, 7, 5, 4, 2, 1]));
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [10, 8, 7, 5, 4, 2, 1]));
        set_year(mh_map(), &mut b2, 1509, "BAHMANA", 11);
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(names(&s)[..2], ["B2", "B1"]);
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
    }

    #[test]
    fn maharajiad_a_20_the_final_tie_by_least_successful_country_over_both_rounds() {
        // Round one: g1 (Gondwana 10) and d1 (Delhi 9) advance. Round two: d1 (Bahmana) and g1
        // (Delhi) end with 12; Bahmana's total over both rounds (2 + 12) is below Delhi's
        // (9 + 12): d1 wins, though g1 ranked higher in round one.
        let r1 = mh_game(
            1,
            1,
            &[
                seat("BAHMANA", "b1", 2),
                seat("DELHI", "d1", 9),
                seat("GONDWANA", "g1", 10),
                seat("MUGHALISTAN", "m1", 6),
                seat("PERSIA", "p1", 5),
                seat("RAJPUTANA", "r1", 3),
                seat("VIJAYANAGAR", "v1", 1),
            ],
        );
        let r2 = mh_game(
            2,
            1,
            &[
                seat("BAHMANA", "d1", 12),
                seat("DELHI", "g1", 12),
                seat("GONDWANA", "x3", 5),
                seat("MUGHALISTAN", "x4", 4),
                seat("PERSIA", "x5", 2),
                seat("RAJPUTANA", "x6", 1),
                seat("VIJAYANAGAR", "x7", 1),
            ],
        );
        let t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        assert_eq!(standings(&t, 1).advancing, ["g1", "d1"]);
        let s = standings(&t, 2);
        assert_eq!(s.winner.as_deref(), Some("d1"));
        assert_eq!(names(&s)[..2], ["d1", "g1"]);
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.20(a) least successful country"
        );
        assert!(s.advancing.is_empty());
    }

    #[test]
    fn maharajiad_a_20_b_count_back_in_the_second_round() {
        // A.20(b): "Count-back (i.e. greatest number of SCs held at the end of 1509, then if a
        // further tie-break is required, the greatest number of SCs held at the end of 1508,
        // etc.)". Round one: g1 (Gondwana 10) wins the board; amy (Bahmana) and zed (Delhi)
        // have 9, level over the round, amy ahead by A.19(b) (zed's Delhi had 8 at the end of
        // 1509); three advance.
        let mut r1 = mh_game(
            1,
            1,
            &[
                seat("BAHMANA", "amy", 9),
                seat("DELHI", "zed", 9),
                seat("GONDWANA", "g1", 10),
                seat("MUGHALISTAN", "m1", 3),
            ],
        );
        set_year(mh_map(), &mut r1, 1509, "DELHI", 8);
        // Round two: zed (Bahmana) and amy (Delhi) end with 12; each power totals 21 over the
        // two rounds (A.20(a) level). At the end of 1509 zed had 12, amy 11: zed wins, though
        // round one (A.20(c)) and the name would give amy.
        let mut r2 = mh_game(
            2,
            1,
            &[
                seat("BAHMANA", "zed", 12),
                seat("DELHI", "amy", 12),
                seat("GONDWANA", "g1", 5),
            ],
        );
        set_year(mh_map(), &mut r2, 1509, "DELHI", 11);
        let mut t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        t.advance = vec![Some(3)];
        let one = standings(&t, 1);
        assert_eq!(one.advancing, ["g1", "amy", "zed"]);
        assert_eq!(
            row(&one, "amy").decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
        let s = standings(&t, 2);
        assert_eq!(s.winner.as_deref(), Some("zed"));
        assert_eq!(names(&s)[..2], ["zed", "amy"]);
        assert_eq!((row(&s, "zed").score, row(&s, "amy").score), (12.0, 12.0));
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.20(b) count-back 1509"
        );
    }

    #[test]
    fn maharajiad_a_20_c_a_level_final_goes_to_the_better_first_round_player() {
        // Round one: g1 (10) wins the board; d1 and b1 have 9, Delhi and Bahmana level over the
        // round, and d1 is ahead by the count-back (9 to 8 at the end of 1509): g1 and d1 go.
        let mut r1 = mh_game(
            1,
            1,
            &[
                seat("BAHMANA", "b1", 9),
                seat("DELHI", "d1", 9),
                seat("GONDWANA", "g1", 10),
                seat("MUGHALISTAN", "m1", 3),
            ],
        );
        set_year(mh_map(), &mut r1, 1509, "BAHMANA", 8);
        // Round two: d1 (Bahmana) and g1 (Delhi) end with 12, both powers total 21 over the
        // two rounds, level every year: A.20(c), g1's better round-one place.
        let r2 = mh_game(
            2,
            1,
            &[
                seat("BAHMANA", "d1", 12),
                seat("DELHI", "g1", 12),
                seat("GONDWANA", "x3", 5),
            ],
        );
        let t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        let one = standings(&t, 1);
        assert_eq!(one.advancing, ["g1", "d1"]);
        assert_eq!(
            row(&one, "d1").decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
        let s = standings(&t, 2);
        assert_eq!(s.winner.as_deref(), Some("g1"));
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.20(c) round one ranking"
        );
    }

    #[test]
    fn maharajiad_a_21_a_decline_is_replaced_by_the_best_first_round_score() {
        // Winners B1 (12) and B2 (9), and D1 (10) the best of the rest. B1 declines: D2 (8).
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 10, 5, 4, 3, 2, 1]));
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [9, 8, 7, 6, 4, 2, 1]));
        let mut t = tournament(Rulebook::Maharajiad, vec![b1, b2], &[]);
        assert_eq!(standings(&t, 1).advancing, ["B1", "D1", "B2"]);
        t.declined = vec!["B1".into()];
        let s = standings(&t, 1);
        assert_eq!(s.advancing, ["D1", "B2", "D2"]);
        assert!(row(&s, "B1").declined && !row(&s, "B1").advances);
    }

    #[test]
    fn maharajiad_a_22_best_country_on_round_one_with_the_count_back() {
        // Bahmana 12 on both first-round boards, 12 at the end of 1509; at the end of 1508, 10
        // on board 1 and 11 on board 2. The second round's 18 does not count.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 8, 7, 5, 4, 2, 1]));
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [12, 8, 7, 5, 4, 2, 1]));
        set_year(mh_map(), &mut b1, 1508, "BAHMANA", 10);
        set_year(mh_map(), &mut b2, 1508, "BAHMANA", 11);
        let f = mh_game(2, 1, &board7(MH_POWERS, "f", [18, 6, 5, 4, 2, 1, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2, f], &[]), 2);
        let b = s
            .best_country
            .iter()
            .find(|b| b.power == "BAHMANA")
            .expect("Bahmana");
        assert_eq!(
            (b.player.as_str(), b.round, b.board, b.score),
            ("B2", 1, 2, 12.0)
        );
        assert_eq!(b.decided_by, "Maharajiad A.22(a) count-back 1508");
    }

    #[test]
    fn maharajiad_a_23_a_24_the_first_permanent_game_counts_prorated() {
        // rex replaces Delhi on board 2 from Fall 1502 (17 of 20 movement turns: 10 x 17 / 20
        // = 8.5) and Bahmana on board 1 from Spring 1505 (12 of 20: 12 x 12 / 20 = 7.2); board
        // 2 is his first permanent game.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 8, 7, 5, 4, 2, 1]));
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [3, 10, 7, 5, 4, 2, 1]));
        set_stints(
            mh_map(),
            &mut b1,
            "BAHMANA",
            &[("B1", "S1501M", true), ("rex", "S1505M", true)],
        );
        set_stints(
            mh_map(),
            &mut b2,
            "DELHI",
            &[("D2", "S1501M", true), ("rex", "F1502M", true)],
        );
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        let rex = row(&s, "rex");
        assert_eq!((rex.board, rex.power.as_deref()), (Some(2), Some("DELHI")));
        assert!(close(rex.score, 8.5));
        assert!(close(row(&s, "B1").score, 12.0 * 8.0 / 20.0));
    }

    #[test]
    fn maharajiad_a_23_a_player_stood_in_for_a_single_turn_keeps_full_points() {
        // A.23 has C.14's words: "A player who is was replaced for more than one turn due to
        // arranged absence ... shall receive pro-rated points".
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 8, 7, 5, 4, 2, 1]));
        set_stints(
            mh_map(),
            &mut b1,
            "BAHMANA",
            &[
                ("B1", "S1501M", true),
                ("sub", "S1505M", false),
                ("B1", "F1505M", true),
            ],
        );
        set_stints(
            mh_map(),
            &mut b1,
            "DELHI",
            &[
                ("D1", "S1501M", true),
                ("sub", "S1507M", false),
                ("D1", "S1508M", true),
            ],
        );
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1], &[]), 1);
        assert_eq!(row(&s, "B1").score, 12.0);
        assert!(close(row(&s, "D1").score, 8.0 * 18.0 / 20.0), "two turns");
    }

    #[test]
    fn maharajiad_a_10_a_23_the_second_round_has_no_final_year() {
        // The final is played "until a player has met the victory criterion": Bahmana's solo
        // after Fall 1514, 28 movement turns; rex took Bahmana over from Spring 1511 (8).
        let r1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 10, 7, 5, 4, 2, 1]));
        let mut r2 = mh_game(2, 1, &board7(MH_POWERS, "1", [19, 6, 5, 3, 2, 1, 1]));
        r2.final_year = None;
        r2.ended_after = ph("F1514M");
        r2.end = End::Solo(power(mh_map(), "BAHMANA"));
        set_stints(
            mh_map(),
            &mut r2,
            "BAHMANA",
            &[("B1", "S1501M", true), ("rex", "S1511M", true)],
        );
        let t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        let s = standings(&t, 2);
        assert!(close(row(&s, "B1").score, 37.0 * 20.0 / 28.0));
        assert!(close(row(&s, "rex").score, 37.0 * 8.0 / 28.0));
        assert_eq!(s.winner.as_deref(), Some("B1"));
    }

    #[test]
    fn maharajiad_b_x_1_a_stalemated_board_counts_back_on_its_counts_carried() {
        // Board 1 stopped after Fall 1507 (no centre changed hands in three years): its counts
        // stand to 1510. B1 and B2 (Bahmana, 10 each) are level on score and country; at the
        // end of 1509 B1's carried 10 beat B2's 9.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [10, 8, 7, 5, 4, 2, 1]));
        b1.ended_after = ph("F1507M");
        b1.end = End::Stalemate;
        b1.history = vec![(1507, b1.centres.clone())];
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [10, 8, 7, 5, 4, 2, 1]));
        set_year(mh_map(), &mut b2, 1509, "BAHMANA", 9);
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(names(&s)[..2], ["B1", "B2"]);
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
    }
}
