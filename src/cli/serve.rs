//! `chancery serve`: run the game master until Ctrl-C or SIGTERM.

use super::{ConfigArg, load_config, runtime};

pub fn run(a: ConfigArg) -> anyhow::Result<()> {
    let (cfg, base) = load_config(&a)?;
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
        chancery::service::serve(
            cfg,
            &base,
            std::sync::Arc::new(chancery::service::SystemClock),
            rx,
        )
        .await
        .map_err(anyhow::Error::msg)
    })
}
