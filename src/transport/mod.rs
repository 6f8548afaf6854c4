//! The mail transport: a thin async IMAP reader ([`imap::Mailbox`]) and SMTP sender
//! ([`smtp::Sender`]).
//!
//! Both sides take a [`ServerConfig`] and report failures as a [`TransportError`] that says
//! whether retrying can help (`permanent == false`: network trouble, timeouts, SMTP 4xx) or not
//! (`permanent == true`: SMTP 5xx, a refused login, a certificate that does not verify). Every
//! network step is bounded by a timeout, so a dead server cannot hang the caller.

use std::fmt;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio_rustls::rustls;

pub mod imap;
pub mod smtp;
mod socket;

/// How long to wait for a TCP connection (and a TLS handshake) to be established.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long to wait for any single server response before giving up on the connection.
pub const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// Transport security of a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tls {
    /// Plain text (only sensible on loopback or a trusted network).
    None,
    /// Plain connect, then upgrade with STARTTLS (required: failure to upgrade is an error).
    StartTls,
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Implicit,
}

/// Where and how to reach one IMAP or SMTP server.
#[derive(Clone)]
pub struct ServerConfig {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    /// PEM file with the CA certificate(s) to trust. `None` uses the system's CA bundle.
    pub ca_file: Option<PathBuf>,
    /// The name the server certificate must carry (may differ from `host`, e.g. connect to
    /// 127.0.0.1 and verify `localhost`). Empty means `host`.
    pub tls_name: String,
    /// Login name; for SMTP an empty name means "do not authenticate".
    pub username: String,
    pub password: String,
}

impl ServerConfig {
    /// The name to verify the server certificate against.
    pub fn effective_tls_name(&self) -> &str {
        if self.tls_name.is_empty() {
            &self.host
        } else {
            &self.tls_name
        }
    }
}

impl fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("ca_file", &self.ca_file)
            .field("tls_name", &self.tls_name)
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .finish()
    }
}

/// A transport failure. `permanent` says that retrying the same operation cannot succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportError {
    pub message: String,
    pub permanent: bool,
}

impl TransportError {
    /// A failure that may go away on retry (network, timeout, SMTP 4xx).
    pub fn transient(message: impl Into<String>) -> TransportError {
        TransportError {
            message: message.into(),
            permanent: false,
        }
    }

    /// A failure that retrying will not fix (SMTP 5xx, bad credentials, bad certificate).
    pub fn permanent(message: impl Into<String>) -> TransportError {
        TransportError {
            message: message.into(),
            permanent: true,
        }
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.permanent {
            "permanent"
        } else {
            "transient"
        };
        write!(f, "{} ({kind})", self.message)
    }
}

impl std::error::Error for TransportError {}

/// Install rustls' ring crypto provider as the process default. Idempotent; call it early
/// (`main`, tests). With more than one provider compiled in (e.g. ring plus aws-lc-rs from
/// another crate), rustls cannot pick one itself and `ClientConfig::builder()` panics.
pub fn init_crypto() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Err means another provider was installed first; that one is fine too.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Well-known locations of the system CA bundle (Debian/Ubuntu, Fedora/RHEL, Alpine/BSD).
const SYSTEM_CA_BUNDLES: &[&str] = &[
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/cert.pem",
];

/// Read every certificate in a PEM file.
pub(crate) fn read_pem_certs(
    path: &Path,
) -> Result<Vec<rustls::pki_types::CertificateDer<'static>>, TransportError> {
    let file = std::fs::File::open(path).map_err(|e| {
        TransportError::permanent(format!("cannot read CA file {}: {e}", path.display()))
    })?;
    let certs = rustls_pemfile::certs(&mut BufReader::new(file))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            TransportError::permanent(format!("cannot parse CA file {}: {e}", path.display()))
        })?;
    if certs.is_empty() {
        return Err(TransportError::permanent(format!(
            "CA file {} holds no certificate",
            path.display()
        )));
    }
    Ok(certs)
}

/// The CA file to use: the configured one, else the first system bundle that exists.
pub(crate) fn ca_path(cfg: &ServerConfig) -> Result<PathBuf, TransportError> {
    if let Some(p) = &cfg.ca_file {
        return Ok(p.clone());
    }
    SYSTEM_CA_BUNDLES
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or_else(|| {
            TransportError::permanent(
                "no ca_file configured and no system CA bundle found (install ca-certificates)",
            )
        })
}

/// The certificates Chancery trusts, for IMAP and SMTP alike (one root store): those of the
/// configured CA file, else those of the system bundle. Certificates rustls cannot use are
/// left out; none at all is an error.
pub(crate) fn trusted_roots(
    cfg: &ServerConfig,
) -> Result<Vec<rustls::pki_types::CertificateDer<'static>>, TransportError> {
    let path = ca_path(cfg)?;
    let usable: Vec<_> = read_pem_certs(&path)?
        .into_iter()
        .filter(|c| rustls::RootCertStore::empty().add(c.clone()).is_ok())
        .collect();
    if usable.is_empty() {
        return Err(TransportError::permanent(format!(
            "no usable CA certificate in {}",
            path.display()
        )));
    }
    Ok(usable)
}

/// A rustls client configuration trusting [`trusted_roots`].
pub(crate) fn rustls_client_config(
    cfg: &ServerConfig,
) -> Result<Arc<rustls::ClientConfig>, TransportError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(trusted_roots(cfg)?);
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TransportError::permanent(format!("TLS setup: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Run `fut` with a time limit; a timeout is a transient error naming `what`.
pub(crate) async fn with_timeout<T, F>(
    limit: Duration,
    what: &str,
    fut: F,
) -> Result<T, TransportError>
where
    F: std::future::Future<Output = Result<T, TransportError>>,
{
    match tokio::time::timeout(limit, fut).await {
        Ok(r) => r,
        Err(_) => Err(TransportError::transient(format!(
            "{what}: timed out after {} s",
            limit.as_secs_f32()
        ))),
    }
}
