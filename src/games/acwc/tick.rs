//! The ACWC office's tick step: a result reported and unanswered for 48 hours stands (ACWC
//! "Match rules", `chancery_acwc::conduct`), its match is decided and, once every match of the
//! round is, the next round is published (ACWC "Timeline"). Championships are few: the facts
//! are read one championship at a time.

use super::mail::{pairing, result_event, settle};
use super::store::{self, Conn, GameRow, GameStatus, Kind, MatchRow, StageRow};
use crate::acwc::conduct::{ResultEvent, ResultState, result_state};
use crate::acwc::negotiation::Pairing;
use crate::config::Env;
use crate::engine::Result;
use crate::engine::tick::{Outcome, TickStep};
use crate::store::Pool;
use crate::time::Ts;

/// The ACWC office's tick step (`games::tick_with` runs it).
pub struct Tick;

/// An undecided match of the current round, with its result's events.
pub struct Open {
    m: MatchRow,
    p: Pairing,
    events: Vec<ResultEvent>,
}

/// What one championship's tick needs.
pub struct Facts {
    g: GameRow,
    open: Vec<Open>,
}

/// What the tick decided: the matches whose result now stands, and when to look again.
pub struct Decision {
    stands: Vec<usize>,
    due: Option<Ts>,
}

impl TickStep for Tick {
    type Facts = Facts;
    type Decision = Decision;
    const KIND: Kind = Kind::Acwc;

    async fn read(&self, c: &mut Conn, games: &[String], _now: Ts) -> Result<Vec<Facts>> {
        let mut out = Vec::new();
        for id in games {
            let Some(g) = store::game(c, id).await? else {
                continue;
            };
            if g.status != GameStatus::Active {
                continue;
            }
            let mut open = Vec::new();
            for m in store::matches(c, &g.id, StageRow::Swiss).await? {
                let Some(p) = pairing(&m).filter(|_| m.decided_at.is_none()) else {
                    continue;
                };
                let rows = store::match_events(c, &g.id, &m).await?;
                let events = rows.iter().filter_map(result_event).collect();
                open.push(Open { m, p, events });
            }
            out.push(Facts { g, open });
        }
        Ok(out)
    }

    fn names<'f>(&self, f: &'f Facts) -> (&'f str, &'f str) {
        (&f.g.id, "")
    }

    fn decide(&self, _env: &Env, f: &Facts, now: Ts, _read_through: Ts) -> Result<Decision> {
        let mut stands = Vec::new();
        let mut due: Option<Ts> = None;
        for (k, o) in f.open.iter().enumerate() {
            match result_state(&o.p, &o.events, now) {
                ResultState::Final { .. } => stands.push(k),
                ResultState::Reported { stands_at, .. } => {
                    due = Some(due.map_or(stands_at, |d| d.min(stands_at)));
                }
                _ => {}
            }
        }
        Ok(Decision { stands, due })
    }

    fn outcome(&self, _f: &Facts, d: &Decision) -> Outcome {
        if d.stands.is_empty() {
            Outcome::Quiet
        } else {
            Outcome::Adjudicated
        }
    }

    async fn write(
        &self,
        c: &mut Conn,
        env: &Env,
        decided: Vec<(Facts, Decision)>,
        now: Ts,
    ) -> Result<()> {
        for (f, d) in decided {
            store::set_due(c, &[(f.g.id.as_str(), d.due)]).await?;
            for k in d.stands {
                let o = &f.open[k];
                settle(c, env, &f.g, &o.m, &o.p, &o.events, now).await?;
            }
        }
        Ok(())
    }

    async fn after_batches(&self, _pool: &Pool, _env: &Env, _now: Ts) -> Result<()> {
        Ok(())
    }
}
