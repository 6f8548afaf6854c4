//! `config/chancery.toml`: where the database is, and how to reach the mail servers.

use crate::transport::imap::Watch;
use crate::transport::{ServerConfig, Tls};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The SQLite file; relative paths are relative to the config file.
    pub database: PathBuf,
    /// The receiving server's authserv-id: only its Authentication-Results are trusted.
    pub authserv_id: String,
    /// The domain part of the Message-IDs Chancery makes.
    pub message_id_domain: String,
    /// IDLE is renewed, and polling happens, at least this often.
    #[serde(default = "default_poll")]
    pub poll_seconds: u64,
    pub smtp: Server,
    pub gm_mailbox: Server,
    pub confirm_mailbox: Server,
    /// Optional: every outgoing mail is copied here, so that after a crash a mail whose send was
    /// cut short is found sent (and not sent twice) or not (and sent).
    #[serde(default)]
    pub archive_mailbox: Option<Server>,
    /// The masters' own addresses (GM, TD): alerts, deadline digests and impersonation reports
    /// go here, never to the GM mailbox that Chancery itself reads. Empty: the game's GM
    /// address (a person must then read that mailbox).
    #[serde(default)]
    pub masters: Vec<String>,
    /// A deadline is processed only once every mailbox has had a successful poll that started
    /// this many seconds after it (mail the MX accepted just before the deadline is in).
    #[serde(default = "default_grace")]
    pub deadline_grace_seconds: i64,
    /// A mail whose send a crash cut short, and which the archive does not hold, is sent again
    /// only this many seconds after the attempt: the relay delivers its archive copy after it
    /// accepts the mail (in a storm, seconds later). Shorter where the archive is on the relay's
    /// own host and never lags.
    #[serde(default = "default_archive_grace")]
    pub archive_grace_seconds: i64,
    #[serde(default)]
    pub limits: Limits,
    /// SMTP connections the outbox sends on side by side (issue 22: one connection is held to
    /// one mail at a time by the relay's own work per mail).
    #[serde(default = "default_smtp_connections")]
    pub smtp_connections: usize,
    /// The games' read-only web pages (issue 27, docs/maps.md): served only when configured.
    #[serde(default)]
    pub web: Option<Web>,
}

/// `[web]`: where `chancery serve` serves the games' pages.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Web {
    /// The address and port to listen on, `127.0.0.1:8080` (a reverse proxy in front adds TLS).
    pub listen: String,
    /// The pages' public address as readers reach it (`https://diplomacy.example.org`): the
    /// links `chancery game page` prints start with it. By default `http://<listen>`.
    #[serde(default)]
    pub public_url: Option<String>,
}

impl Web {
    /// The link of a game's page, by its token.
    pub fn link(&self, token: &str) -> String {
        let base = self
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.listen));
        format!("{}/g/{token}", base.trim_end_matches('/'))
    }
}

fn default_smtp_connections() -> usize {
    4
}

fn default_archive_grace() -> i64 {
    60
}

fn default_grace() -> i64 {
    5
}

fn default_poll() -> u64 {
    60
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Server {
    pub host: String,
    pub port: u16,
    /// `none`, `starttls` or `implicit`.
    #[serde(default = "default_tls")]
    pub tls: String,
    /// The name the server's certificate is checked against.
    #[serde(default = "default_tls_name")]
    pub tls_name: String,
    /// A CA certificate (PEM) to trust, for a private mail server.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub password: String,
    /// A mailbox only: watch it by NOOP every this many milliseconds (20 at least) instead of
    /// IDLE. Dovecot holds IDLE notifications back 500 ms; the confirmation box is watched this
    /// way so that a receipt leaves within a few hundredths of a second (issue 22). Absent: IDLE
    /// where the server offers it, else NOOP every second.
    #[serde(default)]
    pub poll_ms: Option<u64>,
}

fn default_tls() -> String {
    "none".into()
}

fn default_tls_name() -> String {
    "localhost".into()
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {}: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: {error}", path.display())]
    Parse {
        path: PathBuf,
        error: toml::de::Error,
    },
    #[error("tls = '{0}': use none, starttls or implicit")]
    Tls(String),
}

impl Server {
    /// How a reader of this mailbox waits for new mail.
    pub fn watch(&self) -> Watch {
        match self.poll_ms {
            Some(ms) => Watch::Poll(std::time::Duration::from_millis(ms)),
            None => Watch::Idle,
        }
    }

    pub fn to_server_config(&self, base: &Path) -> Result<ServerConfig, ConfigError> {
        let tls = match self.tls.to_ascii_lowercase().as_str() {
            "none" | "plain" => Tls::None,
            "starttls" => Tls::StartTls,
            "implicit" | "tls" | "ssl" => Tls::Implicit,
            other => return Err(ConfigError::Tls(other.to_string())),
        };
        Ok(ServerConfig {
            host: self.host.clone(),
            port: self.port,
            tls,
            ca_file: self.ca_file.as_ref().map(|p| base.join(p)),
            tls_name: self.tls_name.clone(),
            username: self.username.clone(),
            password: self.password.clone(),
        })
    }
}

impl Config {
    /// What the engine needs from the configuration, without the server key (which the store
    /// keeps): `engine::env` gives the whole of it.
    pub fn env_without_key(&self) -> Env {
        Env {
            authserv_id: self.authserv_id.clone(),
            message_id_domain: self.message_id_domain.clone(),
            masters: self
                .masters
                .iter()
                .map(|m| m.to_ascii_lowercase())
                .collect(),
            alert_from: self.gm_mailbox.username.to_ascii_lowercase(),
            confirm_from: self.confirm_mailbox.username.to_ascii_lowercase(),
            limits: self.limits.clone(),
            key: ServerKey::default(),
            web: self.web.clone(),
        }
    }

    pub fn load(path: &Path) -> Result<(Config, PathBuf), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
            path: path.to_path_buf(),
            error: e,
        })?;
        let cfg: Config = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            error: e,
        })?;
        let base = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Ok((cfg, base))
    }
}

/// What the engine needs besides the store.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// Only this server's Authentication-Results are trusted (the topmost header, RFC 8601 §5).
    pub authserv_id: String,
    /// Domain of the Message-IDs Chancery makes.
    pub message_id_domain: String,
    /// The masters' own addresses: alerts, digests and reports go there. Empty: to the game's
    /// GM address (or `alert_from` for alerts about no game).
    pub masters: Vec<String>,
    /// The address alerts, digests and reports come from (the GM mailbox's own address).
    pub alert_from: String,
    /// The confirmation mailbox's own address (receipts about no game come from it).
    pub confirm_from: String,
    pub limits: Limits,
    /// The server's secret key (generated at first start, kept in the store): Message-IDs a
    /// reader must not be able to invert, and the order of anonymous press, are keyed with it.
    pub key: ServerKey,
    /// The games' pages (`[web]`), when served: a STATUS answer gives the game's link.
    pub web: Option<Web>,
}

/// A server secret. Its bytes never leave the process except into the store; `Debug` does not
/// print them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ServerKey(std::sync::Arc<[u8]>);

impl ServerKey {
    pub fn new(bytes: &[u8]) -> ServerKey {
        ServerKey(bytes.into())
    }

    /// The key itself, for keyed orders (never to be sent or logged).
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// HMAC-SHA-256 of `data` under this key, as lower-case hex.
    pub fn mac_hex(&self, data: &[u8]) -> String {
        use hmac::{KeyInit, Mac};
        // HMAC takes a key of any length; an empty key (a test's default) is still a key.
        let Ok(mut mac) = hmac::Hmac::<sha2::Sha256>::new_from_slice(&self.0) else {
            unreachable!("HMAC accepts keys of any length")
        };
        mac.update(data);
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServerKey({} bytes)", self.0.len())
    }
}

/// Bounds on what outside mail can make Chancery do or keep. `[limits]` in the configuration;
/// docs/deploying.md lists them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Answers (acknowledgements, rejections, receipts, query and command replies, reports) to
    /// one address in an hour; then one "too many mails" notice, and mail is read and stored
    /// but not answered until the hour has passed.
    pub answers_per_hour: i64,
    /// Rejections for failed authentication (a wrong or missing secret, a failed DKIM check)
    /// to one address in an hour. Counted apart from `answers_per_hour`, so that a forger
    /// naming a player's power cannot use up that player's answers; past it, such mail is
    /// recorded and not answered.
    pub auth_rejections_per_hour: i64,
    /// Queries (STATUS, HISTORY, SUMMARY) answered to one address in an hour when the sender
    /// did not prove who it is (no secret, no DKIM pass): the answer goes to the registered
    /// address, and a forged From must not make it a flood.
    pub unauthenticated_queries_per_hour: i64,
    /// Answers about one game in an hour, all addresses together.
    pub game_answers_per_hour: i64,
    /// Answers to an address that plays in no game, per day (backscatter: From can be forged).
    pub stranger_answers_per_day: i64,
    /// Raw mail, press, what each submission was read as and the bodies of outgoing mail done
    /// with are kept this many days; then they are emptied, and the rows and metadata remain.
    pub raw_retention_days: i64,
    /// Pieces of press one player may have accepted in one phase; more is refused, and the
    /// acknowledgement says so. The rulebooks set no cap: this bounds what one player can put
    /// in everyone's results.
    pub press_per_phase: i64,
    /// Bytes of press text one player may have accepted in one phase, all pieces together.
    pub press_bytes_per_phase: i64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            answers_per_hour: 30,
            auth_rejections_per_hour: 3,
            unauthenticated_queries_per_hour: 1,
            game_answers_per_hour: 300,
            stranger_answers_per_day: 1,
            raw_retention_days: 400,
            press_per_phase: 20,
            press_bytes_per_phase: 64 * 1024,
        }
    }
}
