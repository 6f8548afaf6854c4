//! The SMTP side: build a plain-text message with threading and loop-prevention headers, and
//! hand it to the configured relay.

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox as Address};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls as SmtpTls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::{IO_TIMEOUT, ServerConfig, Tls, TransportError, init_crypto};

/// One outgoing message. Message ids are given without the angle brackets.
#[derive(Clone, Debug)]
pub struct OutMail {
    /// `gm@example.test` or `Chancery GM <gm@example.test>`.
    pub from: String,
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    /// RFC 3834: `auto-replied` (answers to a player's mail) or `auto-generated`.
    pub auto_submitted: &'static str,
    /// More headers, name and unencoded value (non-ASCII values are RFC 2047-encoded).
    pub extra_headers: Vec<(String, String)>,
}

/// An SMTP client for one relay. Cheap to share (`&self`); connections are pooled.
#[derive(Clone)]
pub struct Sender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    target: String,
    bcc: Option<Address>,
}

impl std::fmt::Debug for Sender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sender")
            .field("target", &self.target)
            .finish()
    }
}

/// Headers that [`Sender::send`] sets itself; extra headers with these names are refused.
const RESERVED_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "auto-submitted",
    "x-loop",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
];

/// Replace CR, LF and other control characters (which could inject headers) with spaces.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
        .collect()
}

/// A message id as `<id>`, tolerating ids given with brackets; refuses empty or unsafe ids.
fn bracketed(id: &str) -> Result<String, TransportError> {
    let bare = id.trim().trim_start_matches('<').trim_end_matches('>');
    let ok = !bare.is_empty()
        && bare
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '<' && c != '>');
    if ok {
        Ok(format!("<{bare}>"))
    } else {
        Err(TransportError::permanent(format!(
            "invalid message id {id:?}"
        )))
    }
}

fn parse_address(what: &str, s: &str) -> Result<Address, TransportError> {
    s.trim()
        .parse::<Address>()
        .map_err(|e| TransportError::permanent(format!("invalid {what} address {s:?}: {e}")))
}

fn header(name: &str, value: String) -> Result<HeaderValue, TransportError> {
    let name = HeaderName::new_from_ascii(name.to_owned())
        .map_err(|_| TransportError::permanent(format!("invalid header name {name:?}")))?;
    Ok(HeaderValue::new(name, value))
}

/// Build the RFC 5322 message for `m` (public for tests and for logging what was sent).
pub fn build_message(m: &OutMail) -> Result<Message, TransportError> {
    build_message_bcc(m, None)
}

fn build_message_bcc(m: &OutMail, bcc: Option<&Address>) -> Result<Message, TransportError> {
    if m.to.is_empty() {
        return Err(TransportError::permanent("message has no recipient"));
    }
    let from = parse_address("From", &m.from)?;
    let mut builder = Message::builder()
        .from(from.clone())
        .subject(one_line(&m.subject))
        .message_id(Some(bracketed(&m.message_id)?));
    for to in &m.to {
        builder = builder.to(parse_address("To", to)?);
    }
    if let Some(b) = bcc {
        builder = builder.bcc(b.clone());
    }
    if let Some(parent) = &m.in_reply_to {
        builder = builder.in_reply_to(bracketed(parent)?);
    }
    if !m.references.is_empty() {
        let refs = m
            .references
            .iter()
            .map(|r| bracketed(r))
            .collect::<Result<Vec<_>, _>>()?;
        builder = builder.references(refs.join(" "));
    }
    let auto = one_line(m.auto_submitted);
    builder = builder
        .raw_header(header("Auto-Submitted", auto)?)
        .raw_header(header("X-Loop", from.email.to_string())?);
    for (name, value) in &m.extra_headers {
        if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(TransportError::permanent(format!(
                "extra header {name:?} is set by the sender itself"
            )));
        }
        builder = builder.raw_header(header(name, one_line(value))?);
    }

    // 7bit when it fits, else quoted-printable (safe through any relay, readable in source).
    let encoding = if m.body.is_ascii() && m.body.lines().all(|l| l.len() <= 900) {
        ContentTransferEncoding::SevenBit
    } else {
        ContentTransferEncoding::QuotedPrintable
    };
    // lettre ends DATA with CRLF "." CRLF whatever the body ends with, so a body that already
    // ends with a line break would arrive with one blank line too many.
    let text = m
        .body
        .strip_suffix("\r\n")
        .or_else(|| m.body.strip_suffix('\n'))
        .unwrap_or(&m.body);
    // new_with_encoding checks the text as given: it wants CRLF line ends.
    let text = text.replace("\r\n", "\n").replace('\n', "\r\n");
    // lettre's 7bit check refuses some plain lines (a long hex digest, seen in receipts); then
    // quoted-printable, and base64 as the last resort, carry any text.
    let body = Body::new_with_encoding(text.clone(), encoding)
        .or_else(|_| {
            Body::new_with_encoding(text.clone(), ContentTransferEncoding::QuotedPrintable)
        })
        .or_else(|_| Body::new_with_encoding(text, ContentTransferEncoding::Base64))
        .map_err(|_| TransportError::permanent("message body cannot be encoded"))?;
    builder
        .header(ContentType::TEXT_PLAIN)
        .header(body.encoding())
        .body(body)
        .map_err(|e| TransportError::permanent(format!("cannot build message: {e}")))
}

fn smtp_err(target: &str, e: lettre::transport::smtp::Error) -> TransportError {
    let message = format!("SMTP via {target}: {e}");
    // Only an SMTP 5xx reply is permanent. TLS failures count as transient: a handshake
    // hiccup may pass, and a retried mail is better than a lost one.
    if e.is_permanent() {
        TransportError::permanent(message)
    } else {
        TransportError::transient(message)
    }
}

impl Sender {
    /// Set up a pooled SMTP transport for `cfg`. Does not connect yet.
    pub fn new(cfg: &ServerConfig) -> Result<Sender, TransportError> {
        init_crypto();
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(cfg.host.clone())
            .port(cfg.port)
            .timeout(Some(IO_TIMEOUT));
        let tls = match cfg.tls {
            Tls::None => SmtpTls::None,
            Tls::StartTls | Tls::Implicit => {
                // Without a CA file, lettre trusts the webpki roots.
                let mut params = TlsParameters::builder(cfg.effective_tls_name().to_owned());
                if let Some(ca) = &cfg.ca_file {
                    let pem = std::fs::read(ca).map_err(|e| {
                        TransportError::permanent(format!(
                            "cannot read CA file {}: {e}",
                            ca.display()
                        ))
                    })?;
                    let cert = Certificate::from_pem(&pem).map_err(|e| {
                        TransportError::permanent(format!("cannot parse CA file: {e}"))
                    })?;
                    params = params.add_root_certificate(cert);
                }
                let params = params
                    .build_rustls()
                    .map_err(|e| TransportError::permanent(format!("SMTP TLS setup: {e}")))?;
                if cfg.tls == Tls::StartTls {
                    SmtpTls::Required(params)
                } else {
                    SmtpTls::Wrapper(params)
                }
            }
        };
        builder = builder.tls(tls);
        if !cfg.username.is_empty() {
            builder =
                builder.credentials(Credentials::new(cfg.username.clone(), cfg.password.clone()));
        }
        Ok(Sender {
            transport: builder.build(),
            target: format!("{}:{}", cfg.host, cfg.port),
            bcc: None,
        })
    }

    /// Copy every mail to `address`, in the same SMTP transaction (the server accepts all
    /// recipients with one reply), without a Bcc header. A copy in that mailbox proves the mail
    /// was accepted for its recipient too: this is how an outbox row whose send was cut short
    /// by a crash is known to be sent, or not.
    pub fn with_bcc(mut self, address: &str) -> Result<Sender, TransportError> {
        self.bcc = Some(parse_address("Bcc", address)?);
        Ok(self)
    }

    /// Send one message. `Err(permanent)` for SMTP 5xx and unbuildable messages; transient
    /// for 4xx, network errors and timeouts.
    pub async fn send(&self, m: &OutMail) -> Result<(), TransportError> {
        let message = build_message_bcc(m, self.bcc.as_ref())?;
        // lettre's own timeout covers each step; this bounds the whole exchange.
        let limit = IO_TIMEOUT * 2;
        match tokio::time::timeout(limit, self.transport.send(message)).await {
            Ok(Ok(_response)) => Ok(()),
            Ok(Err(e)) => Err(smtp_err(&self.target, e)),
            Err(_) => Err(TransportError::transient(format!(
                "SMTP via {}: timed out after {} s",
                self.target,
                limit.as_secs()
            ))),
        }
    }
}
