//! `config/chancery.toml`: where the database is, and how to reach the mail servers.

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
    #[serde(default)]
    pub limits: Limits,
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
}

fn default_tls() -> String {
    "none".into()
}

fn default_tls_name() -> String {
    "localhost".into()
}

impl Server {
    pub fn to_server_config(&self, base: &Path) -> Result<ServerConfig, String> {
        let tls = match self.tls.to_ascii_lowercase().as_str() {
            "none" | "plain" => Tls::None,
            "starttls" => Tls::StartTls,
            "implicit" | "tls" | "ssl" => Tls::Implicit,
            other => return Err(format!("tls = '{other}': use none, starttls or implicit")),
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
    /// What the engine needs from the configuration.
    pub fn env(&self) -> Env {
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
        }
    }

    pub fn load(path: &Path) -> Result<(Config, PathBuf), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let cfg: Config = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
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
}

/// Bounds on what outside mail can make Chancery do or keep. `[limits]` in the configuration;
/// docs/deploying.md lists them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Answers (acknowledgements, rejections, receipts) to one address in an hour; then one
    /// "too many mails" notice, and mail is read and stored but not answered until the hour
    /// has passed.
    pub answers_per_hour: i64,
    /// Answers about one game in an hour, all addresses together.
    pub game_answers_per_hour: i64,
    /// Answers to an address that plays in no game, per day (backscatter: From can be forged).
    pub stranger_answers_per_day: i64,
    /// Raw mail, press, what each submission was read as and the bodies of outgoing mail done
    /// with are kept this many days; then they are emptied, and the rows and metadata remain.
    pub raw_retention_days: i64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            answers_per_hour: 30,
            game_answers_per_hour: 300,
            stranger_answers_per_day: 1,
            raw_retention_days: 400,
        }
    }
}
