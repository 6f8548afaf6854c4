//! `chancery serve`: run the game master until Ctrl-C or SIGTERM.

use super::{ServeArgs, load_config, runtime};
use chancery::service::{Clock, FastClock, SystemClock};
use std::sync::Arc;

pub fn run(a: ServeArgs) -> anyhow::Result<()> {
    let (cfg, base) = load_config(&a.config)?;
    let clock: Arc<dyn Clock> = if a.clock_speed > 1 {
        tracing::warn!(
            "game time runs {} times faster than real time (--clock-speed)",
            a.clock_speed
        );
        Arc::new(FastClock::new(SystemClock.now(), a.clock_speed))
    } else {
        Arc::new(SystemClock)
    };
    runtime()?.block_on(async move {
        let (tx, rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            let Ok(mut term) =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            else {
                return;
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            let _ = tx.send(true);
        });
        chancery::service::serve(cfg, &base, clock, rx)
            .await
            .map_err(anyhow::Error::msg)
    })
}
