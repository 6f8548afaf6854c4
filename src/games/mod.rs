//! The kinds of game Chancery serves, and the entry points that choose between them.
//!
//! A kind is anything with seats, a clock and mail of its own (Diplomacy today; the Nomic and the
//! ACWC office next). This file names every kind and is the only place that matches on one:
//! each entry point (a mail to a game, a game's tick, a master's command) reads the game's
//! [`store::Kind`](crate::store) and hands over to the kind's folder.
//!
//! The layering (docs/architecture.md, enforced by `scripts/check-purity`):
//! - `src/service` and `src/cli` call these entry points;
//! - a kind's folder (`src/games/<kind>/`) uses what every kind shares (`src/engine`, `src/store`,
//!   `src/outgoing`) and its own pure crate, and never imports another kind;
//! - `src/engine` (what every kind shares: routing, dedup, answer limits, authentication,
//!   timeliness, extensions, members, the office commands, the tick's batching) never imports a
//!   kind.

pub mod diplomacy;

use crate::config::Env;
use crate::engine::{self, TickReport};
use crate::policy::Ts;
use crate::store::{self, Kind, NewMail};
use sqlx::{SqliteConnection, SqlitePool};

/// One tick of every kind of game: each game whose kind says it needs the clock by `now` and
/// whose mail has been read through `read_through` (every mailbox had a successful poll that
/// started at or after it). The scheduler calls it; each kind's step runs in the engine's
/// batching loop (`engine::tick::run`).
pub async fn tick_with(
    pool: &SqlitePool,
    env: &Env,
    now: Ts,
    read_through: Ts,
) -> engine::Result<TickReport> {
    let mut report = TickReport::default();
    for kind in Kind::ALL {
        let done = match kind {
            Kind::Diplomacy => {
                engine::tick::run(pool, env, &diplomacy::Tick, now, read_through).await?
            }
        };
        report.add(done);
    }
    Ok(report)
}

/// One tick with every mailbox taken as read through `now` (tests and tools that drive the
/// clock themselves): how many games were adjudicated. A game that fails is an error here, so
/// that tests see it.
pub async fn tick(pool: &SqlitePool, env: &Env, now: Ts) -> engine::Result<usize> {
    tick_with(pool, env, now, now)
        .await?
        .adjudicated_or_failure()
}

/// A master's PREVIEW reaches the engine's shared commands; the game's kind answers it.
impl engine::Preview for Kind {
    async fn preview(
        self,
        c: &mut SqliteConnection,
        env: &Env,
        game: &store::GameRow,
        now: Ts,
    ) -> engine::Result<Result<Vec<NewMail>, String>> {
        match self {
            Kind::Diplomacy => diplomacy::preview(c, env, game, now).await,
        }
    }
}
