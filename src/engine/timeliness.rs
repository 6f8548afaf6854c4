//! Whether a player's mail is in time (WM D.VII(3)): judged by when it was submitted (its
//! arrival at our receiving server, or the confirmation box's receipt if earlier, WM
//! D.VII(1)), recorded in the player's reliability record when late, and refused when late
//! orders are not taken.

use super::Result;
use super::house::House;
pub use super::house::Timeliness;
use crate::outgoing::time::gmt;
use crate::store::Conn;
use crate::store::{self, GameRow, PhaseRow, PlayerRow};
use crate::time::Ts;

/// Late orders refused (WM D.VII(3)); while an NMR holds the results, only the replacement the
/// GM names may send orders (WM D.VII(6)(b)).
#[derive(Clone, Copy, Debug)]
pub struct LateRefused {
    pub deadline: Ts,
    pub held: bool,
}

impl std::fmt::Display for LateRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "these orders arrived after the deadline ({}), and late orders are not accepted (WM D.VII(3))",
            gmt(self.deadline)
        )?;
        if self.held {
            f.write_str(
                "; the results are held for an NMR, and until they go out only the replacement \
                 the GM names may send orders (WM D.VII(6)(b))",
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for LateRefused {}

/// Judge a mail submitted at `submitted` for `player`'s seat in `phase`: late orders feed the
/// player's reliability record, refused or not (a replacement's orders in a held phase are the
/// first they could send: not late).
pub async fn judge(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    phase: &PhaseRow,
    player: &PlayerRow,
    submitted: Ts,
    now: Ts,
) -> Result<std::result::Result<Timeliness, LateRefused>> {
    let timeliness = timeliness(c, g, house, phase, &player.power, submitted).await?;
    if matches!(
        timeliness,
        Timeliness::LateAccepted | Timeliness::LateRefused
    ) {
        store::record_late(
            c,
            &g.id,
            &player.power,
            &player.address,
            &phase.phase,
            timeliness == Timeliness::LateAccepted,
            now,
        )
        .await?;
    }
    Ok(match timeliness {
        Timeliness::LateRefused => Err(LateRefused {
            deadline: phase.deadline,
            held: phase.held_until.is_some(),
        }),
        t => Ok(t),
    })
}

/// Whether orders submitted at `submitted` are in time (WM D.VII(3)). A phase whose results an
/// NMR holds is closed to all but the replacement the GM named after the deadline (WM
/// D.VII(6)(b)).
async fn timeliness(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    phase: &PhaseRow,
    power: &str,
    submitted: Ts,
) -> Result<Timeliness> {
    Ok(if phase.held_until.is_some() {
        let replaced = store::replaced_at(c, &g.id, power, &phase.phase).await?;
        house.timeliness_held(submitted, phase.deadline, replaced)
    } else {
        house.timeliness(
            submitted,
            phase.deadline,
            phase.adjudication_started_at.is_some(),
        )
    })
}
