//! A private mail stack on loopback (`scripts/mailstack`) for `chancery demo` and
//! `chancery bench`: started on a port base, stopped when dropped.

use super::DevError;
use crate::config::Server;
use crate::transport::{ServerConfig, Tls};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The standard powers, in the order the scripted players play them (player1 is Austria).
pub const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];

/// A `[server]` entry of the configuration for the stack on `port`; no login when `user` is empty.
pub fn server_config(port: u16, user: &str) -> Server {
    Server {
        host: "127.0.0.1".into(),
        port,
        tls: "none".into(),
        tls_name: "localhost".into(),
        ca_file: None,
        username: user.into(),
        password: if user.is_empty() {
            String::new()
        } else {
            "secret".into()
        },
        poll_ms: None,
    }
}

/// The confirmation box as the shipped configuration watches it: by NOOP every
/// `config/chancery.toml`'s `poll_ms` (issue 22: a receipt does not wait out IDLE's 500 ms).
pub fn confirm_config(port: u16) -> Server {
    Server {
        poll_ms: Some(CONFIRM_POLL_MS),
        ..server_config(port, "confirm@example.test")
    }
}

/// `poll_ms` of the confirmation box in `config/chancery.toml` (a test checks they agree).
pub const CONFIRM_POLL_MS: u64 = 100;

/// A transport configuration for the stack on `port` (IMAP, or SMTP with an empty user).
pub fn imap_config(port: u16, user: &str) -> ServerConfig {
    ServerConfig {
        host: "127.0.0.1".into(),
        port,
        tls: Tls::None,
        ca_file: None,
        tls_name: "localhost".into(),
        username: user.into(),
        password: "secret".into(),
    }
}

/// A running stack; dropping it stops the stack's own processes.
pub struct LocalStack {
    script: PathBuf,
    dir: PathBuf,
    pub base: u16,
}

impl LocalStack {
    /// Start a stack in `dir` (`root` is the repository, for `scripts/mailstack`).
    pub fn start(root: &Path, dir: &Path, base: u16) -> Result<LocalStack, DevError> {
        let script = root.join("scripts/mailstack");
        if !script.exists() {
            return Err(DevError::Stack(format!(
                "{} not found: run this from the repository",
                script.display()
            )));
        }
        let out = Command::new(&script)
            .arg("start")
            .arg(dir)
            .env("MAILSTACK_PORT_BASE", base.to_string())
            .output()
            .map_err(|e| DevError::Stack(format!("cannot run {}: {e}", script.display())))?;
        let stack = LocalStack {
            script,
            dir: dir.to_path_buf(),
            base,
        };
        if !out.status.success() {
            return Err(DevError::Stack(format!(
                "the mail stack did not start:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(stack)
    }

    pub fn smtp_port(&self) -> u16 {
        self.base + 25
    }

    pub fn imap_port(&self) -> u16 {
        self.base + 143
    }

    /// Whether the stack's Postfix holds no mail any more (every copy handed to Dovecot): a
    /// bench waits for this so that one phase's backlog is not timed as the next one's delay.
    /// False when Postfix cannot be asked.
    pub fn queue_empty(&self) -> bool {
        let conf = self.dir.join("etc/postfix");
        Command::new("postqueue")
            .arg("-c")
            .arg(&conf)
            .arg("-p")
            .env("MAIL_CONFIG", &conf)
            .output()
            .is_ok_and(|out| {
                out.status.success()
                    && String::from_utf8_lossy(&out.stdout).contains("Mail queue is empty")
            })
    }
}

impl LocalStack {
    /// Hold (or release) the stack's delivery to the mailboxes: Postfix still accepts mail but
    /// keeps it queued. The storm bench holds delivery while it times acceptance, its own and
    /// the MTA's baseline alike: on this 2-core machine Postfix's and Dovecot's delivery would
    /// otherwise share the cores with the sender being timed, which a relaying MTA in production
    /// does not. Released, the queue is flushed at once.
    pub fn hold_delivery(&self, hold: bool) -> Result<(), DevError> {
        // The sinks' `discard` too, so that the MTA's own run to them costs what the storm's did.
        self.set_and_reload("defer_transports", if hold { "lmtp discard" } else { "" })?;
        if !hold {
            self.flush()?;
        }
        Ok(())
    }

    /// Park every message Postfix accepts from now on in its hold queue (or stop, release the
    /// held ones and flush): accepted, written to the queue, never scheduled. Cheaper for the MTA
    /// than [`Self::hold_delivery`], whose deferred transports have the queue manager try each
    /// message and the `bounce` and `error` daemons log each deferral: measured during the
    /// ingestion bench on PostgreSQL (stop 40), those two took about a fifth of the 2 cores
    /// while the acknowledgements were sent, time the server being timed did not get. The hold is
    /// the cleanup daemon's (a header check), not an SMTP restriction: a reload reaches cleanup
    /// at its next message, but an smtpd only once its client disconnects, and the outbox keeps
    /// its connections. A message cleanup took just before a release may still be held: see
    /// [`Self::release_held`].
    pub fn hold_incoming(&self, hold: bool) -> Result<(), DevError> {
        self.set_and_reload("header_checks", if hold { "static:HOLD" } else { "" })?;
        if !hold {
            self.release_held()?;
        }
        Ok(())
    }

    /// Release every held message and flush the queue.
    pub fn release_held(&self) -> Result<(), DevError> {
        self.hold_queued(false)?;
        self.flush()
    }

    /// Set one of Postfix's main.cf parameters and reload it.
    fn set_and_reload(&self, parameter: &str, value: &str) -> Result<(), DevError> {
        let conf = self.dir.join("etc/postfix");
        self.postfix_tool("postconf", &conf, &["-e", &format!("{parameter}={value}")])?;
        self.postfix_tool("postfix", &conf, &["reload"])
    }

    /// Have Postfix try every deferred message now.
    fn flush(&self) -> Result<(), DevError> {
        let conf = self.dir.join("etc/postfix");
        self.postfix_tool("postqueue", &conf, &["-f"])
    }

    /// Put every message queued now on hold (or release the held ones): the storm's results wait
    /// aside while the MTA's own run is timed on an empty queue, then are released for delivery.
    pub fn hold_queued(&self, hold: bool) -> Result<(), DevError> {
        let conf = self.dir.join("etc/postfix");
        self.postfix_tool("postsuper", &conf, &[if hold { "-h" } else { "-H" }, "ALL"])
    }

    /// Delete every message queued now (`chancery bench --no-delivery`).
    pub fn drop_queued(&self) -> Result<(), DevError> {
        let conf = self.dir.join("etc/postfix");
        self.postfix_tool("postsuper", &conf, &["-d", "ALL"])
    }

    fn postfix_tool(&self, tool: &str, conf: &Path, args: &[&str]) -> Result<(), DevError> {
        let out = Command::new(tool)
            .arg("-c")
            .arg(conf)
            .args(args)
            .env("MAIL_CONFIG", conf)
            .output()
            .map_err(|e| DevError::Stack(format!("cannot run {tool}: {e}")))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(DevError::Stack(format!(
                "{tool} {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            )))
        }
    }
}

impl Drop for LocalStack {
    fn drop(&mut self) {
        let _ = Command::new(&self.script)
            .arg("stop")
            .arg(&self.dir)
            .output();
    }
}
