//! The development stack: [`localstack`] (a private Dovecot and Postfix on loopback, started by
//! scripts/mailstack), [`demo`] (1901 played by seven scripted players) and [`bench`] (receipt
//! latency, ingestion, the deadline storm over the real stack).

pub mod bench;
mod cpu;
pub mod demo;
pub mod localstack;
mod smtp_baseline;

/// Why the development stack, the demo or the bench stopped: said to the developer at the
/// console.
#[derive(Debug, thiserror::Error)]
pub enum DevError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
    #[error(transparent)]
    Admin(#[from] crate::engine::admin::AdminError),
    #[error(transparent)]
    Mail(#[from] crate::transport::TransportError),
    #[error(transparent)]
    Send(#[from] crate::transport::smtp::SendError),
    #[error(transparent)]
    Serve(#[from] crate::service::ServeError),
    #[error(transparent)]
    Rules(#[from] crate::rules::RulesError),
    /// The stack did not do what the run waits for: a script failed, a mail never came.
    #[error("{0}")]
    Stack(String),
}
