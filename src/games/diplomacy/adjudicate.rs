//! Adjudicating a phase at its deadline, as a pipeline of named steps: the orders that stand
//! (and the conditional ones, WM D.II(5)), an NMR that holds the results (WM D.VII(6)(b)), the
//! votes due with the deadline (WM IX), a draw the GM declared (Agora BT9), the adjudication and
//! what it makes of the game (the next phase, a completed year, a solo, the final year, a
//! stalemate), the record the store keeps, and the results mailed to every reader.

use super::maps;
use super::turn::{Decision, Turn};
use super::votes::Votes;
use super::*;
use crate::adjudicator::{Adjudication, adjudicate};
use crate::games::diplomacy::store::{CentreOwner, EndKind, YearEnd};
use crate::json::{self, PhaseOutput};
use crate::order::parse_order;
use crate::outgoing::diplomacy::centres::centre_history;
use crate::outgoing::diplomacy::notices;
use crate::outgoing::diplomacy::render::Reader;
use crate::time::HOUR;

/// Adjudicate the phase, or hold it for an NMR, or end the game instead (a passed vote, a
/// declared draw).
pub(super) fn phase(t: &Turn<'_>) -> Result<Decision> {
    let orders = Orders::gather(t);
    let missing = orders.missing(t);
    let missing_names: Vec<String> = missing
        .iter()
        .map(|p| t.map.power_name(*p).to_string())
        .collect();
    let phase: Phase = t.f.phase.phase.parse()?;
    if policy::nmr_holds_results(t.rules, phase, &missing) {
        return Ok(nmr::hold(t, missing_names));
    }
    // Votes are due with this deadline (WM IX(2)). A game-end proposal that passes is
    // published instead of the adjudication; one that fails, with it.
    let votes = votes::count(t, &missing, phase.kind == PhaseKind::Movement);
    if let Some(passed) = &votes.passed {
        return Ok(votes::ended_by_vote(t, passed)?.counted(votes.counted));
    }
    if t.f.game.declared_winners.is_none() && t.f.game.declared_end_at.is_some_and(|at| at <= t.now)
    {
        return Ok(ended::declared_draw(t)?.counted(votes.counted));
    }
    let played = Played::adjudicate(t, phase, &orders.given, &votes);
    let record = played.record(t, &votes, &missing_names)?;
    let (mails, maps) = played.results_mails(t, &orders.written, &missing_names, votes.told);
    Ok(Decision::Adjudicated {
        record: Box::new(record),
        mails,
        maps,
    })
}

/// The orders the phase is adjudicated with.
struct Orders {
    given: Vec<(Power, Order)>,
    /// Each power's orders as the results show them (as written; conditional ones marked).
    written: HashMap<String, Vec<StandingOrder>>,
}

impl Orders {
    /// The orders that stand, then (WM D.II(5)) for a power with none in a retreat or
    /// adjustment phase, the conditional orders it sent with its movement orders, if any is
    /// possible.
    fn gather(t: &Turn<'_>) -> Orders {
        let mut o = Orders::standing(t);
        for c in &t.f.conditional {
            let Some(pw) = t.map.power_by_name(&c.power) else {
                continue;
            };
            if !t.due.contains(&pw) || o.written.contains_key(&c.power) {
                continue;
            }
            let chosen = conditional::orders(t, pw, &c.lines);
            if chosen.is_empty() {
                continue;
            }
            let shown: Vec<StandingOrder> = chosen
                .iter()
                .map(|order| {
                    let canonical = order.display(t.map).to_string();
                    StandingOrder {
                        written: format!("{canonical} (conditional)"),
                        order: canonical,
                    }
                })
                .collect();
            o.given.extend(chosen.into_iter().map(|order| (pw, order)));
            o.written.insert(c.power.clone(), shown);
        }
        o
    }

    /// The orders that stand for each power that has some.
    fn standing(t: &Turn<'_>) -> Orders {
        let mut o = Orders {
            given: Vec::new(),
            written: HashMap::new(),
        };
        for s in t.f.standing.iter().filter(|s| !s.orders.is_empty()) {
            let Some(pw) = t.map.power_by_name(&s.power) else {
                continue;
            };
            for order in &s.orders {
                if let Ok(order) = parse_order(t.map, &order.order) {
                    o.given.push((pw, order));
                }
            }
            o.written.insert(s.power.clone(), s.orders.clone());
        }
        o
    }

    /// The powers due that have no orders: NMRs.
    fn missing(&self, t: &Turn<'_>) -> Vec<Power> {
        t.due
            .iter()
            .copied()
            .filter(|p| !self.written.contains_key(t.map.power_name(*p)))
            .collect()
    }
}

/// An adjudicated phase and what it makes of the game.
struct Played {
    adj: Adjudication,
    out: PhaseOutput,
    /// Agora BT15: the phases that followed, resolved at once (`one_order_set`).
    resolved: Vec<one_set::Resolved>,
    next_phase: Phase,
    next_deadline: Ts,
    winner: Option<Power>,
    /// Agora BT3: the victor found now, announced with notice and declared when it has passed.
    announced: Option<(Power, Ts, u32)>,
    /// The Fall turn just completed a year: who owns each centre now.
    year_end: Option<YearEnd>,
    /// Why the game ends here, if it does.
    ended: Option<String>,
}

impl Played {
    fn adjudicate(t: &Turn<'_>, phase: Phase, orders: &[(Power, Order)], votes: &Votes) -> Played {
        let map = t.map;
        // House rules a passed proposal changed hold from the next phase on (WM IX(5)).
        let rules_after = votes.rules.as_ref().unwrap_or(t.rules);
        let adj = adjudicate(map, t.rules, &t.board, orders);
        let out = json::render(map, t.rules, &adj);
        // Agora BT15, BT22, BT23: the retreats and adjustments that follow, resolved at once.
        let resolved = if t.rules.one_order_set && phase.kind == PhaseKind::Movement {
            one_set::resolve_following(t, &adj)
        } else {
            Vec::new()
        };
        let last = resolved.last().map_or(&adj, |r| &r.adj);
        let next_phase = last.next.phase;
        // Agora BT15: on the daily UTC timetable the next turn follows the deadline just passed.
        let next_deadline = policy::next_deadline(
            rules_after,
            t.f.phase.deadline,
            t.now,
            next_phase.kind,
            &t.f.unavailable,
        );
        // Agora BT16: 18 of the standard map's 34 centres, a majority; centres change hands
        // only after a Fall turn.
        let winner = map
            .all_powers()
            .find(|p| last.next.center_count(*p) * 2 > map.supply_centers().count());
        let (winner, announced) = with_notice(t, winner);
        let year_end = std::iter::once((phase, &adj))
            .chain(resolved.iter().map(|r| (r.board.phase, &r.adj)))
            .find_map(|(p, a)| year_end(map, p, a));
        let stalemate = stalemate(t, year_end.as_ref(), votes.continue_passed);
        let ended = why_ended(t, winner, next_phase, stalemate);
        Played {
            adj,
            out,
            resolved,
            next_phase,
            next_deadline,
            winner,
            announced,
            year_end,
            ended,
        }
    }

    /// What the store keeps: the results, the next phase or how the game ended, the completed
    /// year, changed house rules, and the NMRs' contact windows.
    fn record(
        &self,
        t: &Turn<'_>,
        votes: &Votes,
        missing: &[String],
    ) -> Result<store::Adjudicated> {
        let next = match (&self.ended, self.winner) {
            (Some(_), winner) => store::Next::Finished {
                ended: ended::record(
                    t.map,
                    &self.last_adj().next,
                    if winner.is_some() {
                        EndKind::Solo
                    } else {
                        EndKind::Played
                    },
                    winner,
                    self.resolved
                        .last()
                        .map_or(t.board.phase, |r| r.board.phase),
                ),
            },
            (None, _) => store::Next::Phase {
                phase: self.next_phase.to_string(),
                board: serde_json::to_string(&self.last_out().next)?,
                deadline: self.next_deadline,
            },
        };
        let mut resolved = Vec::with_capacity(self.resolved.len());
        let mut before = &self.out;
        for r in &self.resolved {
            resolved.push(store::Resolved {
                phase: r.board.phase.to_string(),
                board: serde_json::to_string(&before.next)?,
                results: serde_json::to_string(&r.out)?,
            });
            before = &r.out;
        }
        Ok(store::Adjudicated {
            game: t.f.game.id.clone(),
            seq: t.f.phase.seq,
            results: serde_json::to_string(&self.out)?,
            year_end: self.year_end.clone(),
            rules: votes.rules.clone(),
            votes: votes.counted.clone(),
            // WM D.VII(6)(a): each NMR of a game that goes on opens a contact window.
            nmrs: match self.ended {
                None => nmr::windows(t, missing),
                Some(_) => Vec::new(),
            },
            next,
            resolved,
            winners_announced: match self.announced {
                Some((w, at, _)) => Some((serde_json::to_string(&[t.map.power_name(w)])?, at)),
                None => None,
            },
        })
    }

    /// The results, to every player, each observer (press to all only), then the GM's copy
    /// (all press), with what the players are told of the game's end and of the votes: one
    /// mail a phase, the phases resolved at once after it (Agora BT15) each in its own, the
    /// last with the next deadline or the game's end.
    fn results_mails(
        &self,
        t: &Turn<'_>,
        written: &HashMap<String, Vec<StandingOrder>>,
        missing: &[String],
        votes_told: Vec<String>,
    ) -> (Vec<NewMail>, Vec<maps::PhaseMap>) {
        let mut phases = vec![PhaseMail {
            adj: &self.adj,
            before: &t.board,
            written,
            missing,
            press: &t.f.press,
            told: votes_told,
        }];
        phases.extend(self.resolved.iter().map(|r| PhaseMail {
            adj: &r.adj,
            before: &r.board,
            written: &r.written,
            missing: &[],
            press: &[],
            told: vec![one_set::note(r.board.phase)],
        }));
        let count = phases.len();
        let (mut mails, mut drawn) = (Vec::new(), Vec::new());
        for (i, mut p) in phases.into_iter().enumerate() {
            let last = i + 1 == count;
            if last {
                p.told.extend(self.ended.clone());
                p.told.extend(self.announcement(t.map));
            }
            let phase = p.before.phase;
            let mut these = self.phase_mails(t, p, last);
            // Drawn once for every reader, and not at all when no reader wants it.
            let map = maps::wanted(&these, &t.f.maps_off)
                .then(|| maps::plan(&t.f.game, t.map, phase))
                .flatten();
            if let Some(map) = map {
                maps::show(&mut these, &map, &t.f.maps_off);
                drawn.push(map);
            }
            mails.extend(these);
        }
        (mails, drawn)
    }

    /// One phase's results mails; `last`: the phase the game goes on from (the next deadline,
    /// or the game's end with the centre history), else the next phase with no deadline.
    fn phase_mails(&self, t: &Turn<'_>, p: PhaseMail<'_>, last: bool) -> Vec<NewMail> {
        let (env, f) = (t.env, t.f);
        let g = &f.game;
        let over = self.ended.is_some();
        let mut view = compose::results_view(
            g,
            t.map,
            p.adj,
            p.before,
            p.written,
            p.missing,
            p.press,
            // The server's secret: no reader can work out the order (WM D.X(2), Maharajiad
            // B.XI(2)).
            env.key.bytes(),
            (!p.told.is_empty()).then(|| p.told.join("\n\n")),
            (!over).then_some(self.next_deadline),
        );
        if !last {
            // Resolved at once after it (Agora BT15): no deadline of its own.
            view.next_phase = Some(p.adj.next.phase.to_string());
            view.deadline = None;
        }
        view.centre_history =
            (over && last).then(|| centre_history(t.map, &f.year_ends, self.year_end.as_ref()));
        // WM D.X(1): white press with its author's orders; Maharajiad B.XI(1): apart.
        view.white_press_with_orders = t.rules.white_press_with_orders;
        let readers = results_readers(f);
        let mut mails = Vec::new();
        let phase = p.adj.phase;
        for (mail, r) in compose::results(env, g, &view, &readers)
            .into_iter()
            .zip(&readers)
        {
            let key = format!("results|{}|{}|{}", g.id, phase, r.address);
            mails.extend(or_alert(env, f, mail, &key));
        }
        mails
    }

    /// Agora BT3, BT16: what every reader is told of the victor announced with notice.
    fn announcement(&self, map: &Map) -> Option<String> {
        let (w, at, hours) = self.announced?;
        let name = map.power_name(w);
        notices::winners_announced(&notices::WinnersAnnounced {
            winners: name,
            several: false,
            majority: true,
            hours,
            at: &crate::time::format_gmt(at),
        })
        .ok()
    }

    /// The adjudication the game goes on from: the last phase resolved.
    fn last_adj(&self) -> &Adjudication {
        self.resolved.last().map_or(&self.adj, |r| &r.adj)
    }

    /// [`Played::last_adj`]'s output.
    fn last_out(&self) -> &PhaseOutput {
        self.resolved.last().map_or(&self.out, |r| &r.out)
    }
}

/// What one phase's results mail shows.
struct PhaseMail<'a> {
    adj: &'a Adjudication,
    before: &'a Board,
    written: &'a HashMap<String, Vec<StandingOrder>>,
    missing: &'a [String],
    press: &'a [store::PressRow],
    told: Vec<String>,
}

/// Every player, each observer (press to all only), then the GM's copy (all press).
fn results_readers(f: &GameFacts) -> Vec<compose::ResultsReader<'_>> {
    f.players
        .iter()
        .map(|p| compose::ResultsReader {
            address: &p.address,
            tz: &p.tz,
            reader: Reader::Power(&p.power),
        })
        .chain(f.observers.iter().map(|o| compose::ResultsReader {
            address: &o.address,
            tz: &o.tz,
            reader: Reader::Observer,
        }))
        .chain(std::iter::once(compose::ResultsReader {
            address: &f.game.gm_address,
            tz: "UTC",
            reader: Reader::Gm,
        }))
        .collect()
}

/// The Fall turn just completed a year (its movement or retreat phase went into the next year
/// or into the adjustments): who owns each centre now.
fn year_end(map: &Map, phase: Phase, adj: &Adjudication) -> Option<YearEnd> {
    let next = adj.next.phase;
    let completed = phase.kind != PhaseKind::Adjustment
        && (next.year > phase.year || next.kind == PhaseKind::Adjustment);
    completed.then(|| YearEnd {
        year: phase.year,
        owners: map
            .supply_centers()
            .map(|sc| CentreOwner {
                centre: map.info(sc).code.clone(),
                owner: adj.next.owner(sc).map(|p| map.power_name(p).to_string()),
            })
            .collect(),
    })
}

/// Maharajiad X(1): years with no centre changing owner end the game, unless all vote on. The
/// years it took, if the game ends so.
fn stalemate(t: &Turn<'_>, year_end: Option<&YearEnd>, continue_passed: bool) -> Option<u16> {
    let (end, years) = (year_end?, t.rules.stalemate_years?);
    if continue_passed {
        return None;
    }
    let mut ends: Vec<&[CentreOwner]> = t.f.year_ends.iter().map(|e| e.owners.as_slice()).collect();
    ends.push(end.owners.as_slice());
    crate::votes::stalemate(&ends, years).then_some(years)
}

/// Agora BT3: "The judge SHALL then, with 2 days notice, announce them as winners": with
/// `winner_notice_hours`, the victor found now is announced and the game goes on until the
/// notice has passed (the tick then concludes it: `ended::declared_winners`); winners
/// announced already are not announced again. Without it the game ends now. The winner that
/// ends the game now, and the one announced.
fn with_notice(t: &Turn<'_>, winner: Option<Power>) -> (Option<Power>, Option<(Power, Ts, u32)>) {
    match (winner, t.rules.winner_notice_hours) {
        (Some(w), Some(hours)) => {
            let fresh = t.f.game.declared_winners.is_none();
            (
                None,
                fresh.then(|| (w, t.now + Ts::from(hours) * HOUR, hours)),
            )
        }
        (w, _) => (w, None),
    }
}

/// Why the game ends here, if it does: a solo, its final year played (WM B(3)), or a
/// stalemate (Maharajiad X(1)).
fn why_ended(
    t: &Turn<'_>,
    winner: Option<Power>,
    next_phase: Phase,
    stalemate: Option<u16>,
) -> Option<String> {
    match winner {
        Some(w) => Some(format!(
            "{} holds a majority of the supply centres and wins the game.",
            t.map.power_name(w)
        )),
        None if policy::final_year_played(t.rules, next_phase) => Some(format!(
            "The final year of the game ({}) has been played: the game ends here, and the \
             supply centre counts above stand ({}).",
            t.rules.final_year.unwrap_or_default(),
            if t.rules.name == "maharajiad" {
                "Maharajiad A.10"
            } else {
                "WM B(3)"
            }
        )),
        None => stalemate.map(|years| {
            format!(
                "No supply centre has changed owner in {years} game years, and the players did \
                 not all vote to continue: the game ends here, and the supply centre counts above \
                 stand (Maharajiad X(1))."
            )
        }),
    }
}
