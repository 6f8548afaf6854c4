//! The office: the masters' commands every kind of game has (the clock, pausing, replacing a
//! player, observers, the house rules, rollbacks, holidays and extensions, broadcasts, status),
//! one file each. A command is read by `chancery_intake::commands`; `src/games` matches it (it
//! sees these and each kind's own), runs it in the caller's transaction and writes its audit
//! row ([`audit`]), whether it came by mail or from the console.

use super::Result;
use super::house::Houses;
use crate::commands::GmCommand;
use crate::config::Env;
use crate::store::Conn;
use crate::store::{self, GameRow, PhaseRow, Role, Via};
use crate::time::Ts;

pub mod broadcast;
pub mod deadline;
pub mod extension;
pub mod holiday;
pub mod observers;
pub mod pause;
pub mod replace;
pub mod rollback;
pub mod set;
pub mod status;

/// Who gave a command, and how.
#[derive(Clone, Copy, Debug)]
pub struct Actor<'a> {
    /// The master's address, or `console`.
    pub who: &'a str,
    /// By mail or at the console.
    pub via: Via,
    /// The master's part (GM or TD). At the console: `Some(Td)` only when the TD's consent is
    /// given on the command line, else None.
    pub role: Option<Role>,
}

/// What a command did: its answer to the master, whether it was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Done {
    pub ok: bool,
    pub answer: String,
}

impl Done {
    pub fn ok(answer: impl Into<String>) -> Done {
        Done {
            ok: true,
            answer: answer.into(),
        }
    }
    pub fn refused(answer: impl Into<String>) -> Done {
        Done {
            ok: false,
            answer: answer.into(),
        }
    }
}

/// What executes one master's command on a game: `src/games`, the one place that sees the
/// office commands and each kind's own. A command mail's lines go through it as the console's
/// command does, so both are audited alike. It also gives a game's house (the desk
/// authenticates its masters under the game's house rules).
pub trait Execute: Houses {
    fn execute(
        &self,
        c: &mut Conn,
        env: &Env,
        g: &GameRow,
        actor: Actor<'_>,
        cmd: &GmCommand,
        now: Ts,
    ) -> impl Future<Output = Result<Done>> + Send;
}

/// The game as a command finds it: its open phase, and the time left if it is paused. Read
/// once per command, before it runs.
pub struct Situation {
    pub current: Option<PhaseRow>,
    pub paused: Option<Ts>,
}

/// The game's [`Situation`], from the store.
pub async fn situation(c: &mut Conn, g: &GameRow) -> Result<Situation> {
    Ok(Situation {
        current: store::current_phase(c, &g.id).await?,
        paused: store::paused_remaining(c, &g.id).await?,
    })
}

/// The refusal of a command on a game that is not running (not started, or over): only
/// STATUS, SET, OBSERVER ADD, ROLLBACK and CONSENT ROLLBACK may be given then.
pub fn refused_when_not_running(g: &GameRow, cmd: &GmCommand) -> Option<Done> {
    let any_time = matches!(
        cmd,
        GmCommand::Status
            | GmCommand::Set { .. }
            | GmCommand::ObserverAdd(_)
            | GmCommand::Rollback(_)
            | GmCommand::ConsentRollback(_)
            // Agora BT1, BT2: the commands on contestants work before the draw (each refuses
            // where it does not apply).
            | GmCommand::EntryUntil(_)
            | GmCommand::DrawPowers
            | GmCommand::AddContestant(_)
            | GmCommand::RemoveContestant(_)
            // Nomic 201: a Nomic's players are seated before it starts.
            | GmCommand::AddPlayer { .. }
            // ACWC "Player eligibility": entries are approved before the start.
            | GmCommand::Approve(_)
    );
    (g.status != store::GameStatus::Active && !any_time)
        .then(|| Done::refused(format!("game {} is {}, not running", g.id, g.status)))
}

/// The audit row of a command, done or refused (refusals change nothing, and are written
/// too). Written here only, for the mail and the console alike.
pub async fn audit(
    c: &mut Conn,
    g: &GameRow,
    actor: Actor<'_>,
    cmd: &GmCommand,
    done: &Done,
    now: Ts,
) -> Result<()> {
    let effect = if done.ok {
        done.answer.clone()
    } else {
        format!("refused: {}", done.answer)
    };
    store::audit(
        c,
        &g.id,
        now,
        actor.who,
        actor.via,
        &cmd.canonical(),
        &effect,
    )
    .await?;
    Ok(())
}

/// The key of a change a command announces at `now` (`what`: the command).
pub fn change_key(g: &GameRow, what: &str, now: Ts) -> String {
    format!("{}|{what}|{now}", g.id)
}
