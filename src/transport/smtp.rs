//! The SMTP side: build a plain-text message (with, for a mail that shows a picture, an HTML
//! alternative carrying it inline) with threading and loop-prevention headers, and hand it to
//! the configured relay.

use lettre::Message;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Body, Mailbox as Address, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, Certificate, CertificateStore, TlsParameters,
};
use lettre::transport::smtp::commands::{Data, Ehlo, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, MailBodyParameter, MailParameter};
use std::sync::Arc;
use std::time::Duration;

use super::socket::{Stream, tcp_connect, tls_wrap};
use super::{IO_TIMEOUT, ServerConfig, Tls, TransportError, init_crypto, trusted_roots};

/// One outgoing message. Message ids are given without the angle brackets.
#[derive(Clone, Debug, Default)]
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
    /// An HTML alternative to the text (`multipart/alternative`), with the pictures it shows
    /// inline (`multipart/related`, each by its Content-ID). The text part stays exactly as
    /// it is without it.
    pub html: Option<HtmlPart>,
}

/// The HTML alternative of a mail and the pictures it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlPart {
    pub html: String,
    pub pictures: Vec<InlinePicture>,
}

/// A PNG shown by the HTML part as `cid:<content_id>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlinePicture {
    pub content_id: String,
    pub png: EncodedPng,
}

/// A PNG as a MIME part's body: base64 in lines of 76 characters (RFC 2045 §6.8), encoded
/// once however many mails carry it (a phase's map goes to every reader).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedPng(Arc<str>);

impl EncodedPng {
    pub fn of(png: &[u8]) -> EncodedPng {
        let mut text = String::with_capacity(png.len() * 4 / 3 + png.len() / 38 + 4);
        // Writing to a String cannot fail.
        let _ = email_encoding::body::base64::encode(png, &mut text);
        EncodedPng(Arc::from(text))
    }
}

/// An SMTP client for one relay. One connection is kept open between sends and checked with
/// NOOP before reuse; the outbox runs several senders side by side, one connection each.
pub struct Sender {
    cfg: ServerConfig,
    tls: Option<TlsParameters>,
    target: String,
    bcc: Option<Address>,
    conn: tokio::sync::Mutex<Option<Connection>>,
    /// Bounds every step of the exchange, and the whole of it at twice this.
    timeout: Duration,
}

impl std::fmt::Debug for Sender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sender")
            .field("target", &self.target)
            .finish()
    }
}

/// One open SMTP session, and whether its server takes the envelope's commands in one go
/// (PIPELINING, RFC 2920).
struct Connection {
    conn: AsyncSmtpConnection,
    pipelining: bool,
    /// When it last carried a mail: a session used this recently is not checked with NOOP.
    last_used: std::time::Instant,
}

/// How recently a session must have been used to be reused without a NOOP.
const FRESH: Duration = Duration::from_secs(5);

/// The envelope of one mail: MAIL FROM, a RCPT TO for each recipient and one for the archive.
struct Envelope<'a> {
    from: &'a lettre::Address,
    to: &'a [lettre::Address],
    /// The archive's copy (Bcc): its refusal alone does not stop the mail.
    archive: Option<&'a lettre::Address>,
    eight_bit: bool,
}

impl Envelope<'_> {
    /// The commands, each with what to call it in an error and whether it is the archive's.
    fn commands(&self) -> Vec<(String, String, bool)> {
        let mut options = Vec::new();
        if self.eight_bit {
            options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        let mut out = vec![(
            "SMTP MAIL FROM".to_string(),
            Mail::new(Some(self.from.clone()), options).to_string(),
            false,
        )];
        for r in self.to {
            let rcpt = Rcpt::new(r.clone(), vec![]).to_string();
            out.push((format!("SMTP RCPT TO <{r}>"), rcpt, false));
        }
        if let Some(a) = self.archive {
            let rcpt = Rcpt::new(a.clone(), vec![]).to_string();
            out.push(("SMTP RCPT TO (archive)".to_string(), rcpt, true));
        }
        out
    }

    /// Send the envelope and DATA, and leave the session ready for the message. Where the
    /// server offers PIPELINING (RFC 2920) the envelope and DATA go in one write, and every reply
    /// is read, in order, before any is judged, so the session stays in step: one round trip
    /// instead of three. Should a recipient be refused and DATA still be taken (the archive
    /// alone accepted), the data is ended at once, empty: the mail does not go, and the archive
    /// gets an empty message with no Message-ID, which no lookup can mistake for it. Without
    /// PIPELINING, one command at a time.
    async fn send(&self, c: &mut Connection) -> Result<SendReport, SendError> {
        if !c.pipelining {
            let report = self.send_stepwise(c).await?;
            c.conn
                .command(Data)
                .await
                .map_err(|e| step_error("SMTP DATA", e, false))?;
            return Ok(report);
        }
        let mut commands = self.commands();
        commands.push(("SMTP DATA".to_string(), Data.to_string(), false));
        let all: String = commands.iter().map(|(_, text, _)| text.as_str()).collect();
        // `command` writes it all, then reads the first reply.
        let mut replies = Vec::with_capacity(commands.len());
        replies.push(c.conn.command(all).await);
        while replies.len() < commands.len() && !lost(replies.last()) {
            replies.push(c.conn.read_response().await);
        }
        let data_taken =
            replies.len() == commands.len() && replies.last().is_some_and(|r| r.is_ok());
        let judged = judge(commands, replies);
        if judged.is_err() && data_taken {
            // End the data at once (an empty message), then the caller's RSET follows.
            let _ = c.conn.message(b"").await;
        }
        judged
    }

    /// The envelope one command at a time (no PIPELINING): stop at the first refusal that is
    /// not the archive's.
    async fn send_stepwise(&self, c: &mut Connection) -> Result<SendReport, SendError> {
        let commands = self.commands();
        let mut replies = Vec::with_capacity(commands.len());
        for (_, text, archive) in &commands {
            let reply = c.conn.command(text).await;
            let stop = reply
                .as_ref()
                .is_err_and(|e| !*archive || !(e.is_permanent() || e.is_transient()));
            replies.push(reply);
            if stop {
                break;
            }
        }
        judge(commands, replies)
    }
}

/// Whether a reply says the session itself is gone (no SMTP reply was read).
fn lost(
    reply: Option<
        &Result<lettre::transport::smtp::response::Response, lettre::transport::smtp::Error>,
    >,
) -> bool {
    reply.is_some_and(|r| {
        r.as_ref()
            .is_err_and(|e| !(e.is_permanent() || e.is_transient()))
    })
}

/// The envelope's outcome from its replies: the first refusal (or lost session) fails the
/// mail, except the archive's refusal, which the report carries.
fn judge(
    commands: Vec<(String, String, bool)>,
    replies: Vec<
        Result<lettre::transport::smtp::response::Response, lettre::transport::smtp::Error>,
    >,
) -> Result<SendReport, SendError> {
    let mut report = SendReport::default();
    let answered = replies.len();
    for ((what, _, archive), reply) in commands.into_iter().zip(replies) {
        match reply {
            Ok(_) => {}
            Err(e) if archive && (e.is_permanent() || e.is_transient()) => {
                report.archive_error = Some(format!("the archive was refused: {e}"));
            }
            Err(e) => return Err(step_error(&what, e, false)),
        }
    }
    if answered == 0 {
        return Err(SendError {
            kind: FailureKind::Transient,
            message: "SMTP envelope: no reply".into(),
        });
    }
    Ok(report)
}

/// How a send failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Refused (SMTP 5xx, or the mail cannot be built): not sent, and retrying cannot help.
    Permanent,
    /// Failed before the message was handed over (network, 4xx): certainly not sent.
    Transient,
    /// The message data went (or was going) out and no final reply was read: it may have been
    /// delivered. Look in the archive before sending it again.
    Uncertain,
}

/// A failed send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendError {
    pub kind: FailureKind,
    pub message: String,
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({:?})", self.message, self.kind)
    }
}

impl std::error::Error for SendError {}

impl From<TransportError> for SendError {
    fn from(e: TransportError) -> SendError {
        SendError {
            kind: if e.permanent {
                FailureKind::Permanent
            } else {
                FailureKind::Transient
            },
            message: e.message,
        }
    }
}

/// What a successful send did with the archive copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendReport {
    /// Why the archive refused its copy, if it did: the mail went to its recipient all the same,
    /// but a crash during a later send of it could not be checked against the archive.
    pub archive_error: Option<String>,
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

/// The message's data as SMTP sends it (RFC 5321 §4.5.2: a `.` that starts a line is doubled),
/// followed by the end of data, as lettre's own `message` writes them (in two writes); `None`
/// when the message is not UTF-8 (it always is: it is built from Rust strings), so that lettre's
/// own writing is used then.
fn with_end_of_data(message: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(message).ok()?;
    let mut out = String::with_capacity(text.len() + text.len() / 64 + 8);
    // Exactly lettre's ClientCodec: a line starts after CR LF (and at the very start). Copied a
    // line's run at a time, not a character at a time: a mail with a map is 100 KB.
    if text.starts_with('.') {
        out.push('.');
    }
    let mut rest = text;
    let finder = memchr::memmem::Finder::new("\r\n.");
    while let Some(i) = finder.find(rest.as_bytes()) {
        out.push_str(&rest[..i + 2]);
        out.push('.');
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out.push_str("\r\n.\r\n");
    Some(out)
}

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
    // Threading ids come from the mail being answered, that is from its sender: one that is
    // not a valid id (`<a b@c d>`) is left out rather than stopping the answer.
    if let Some(parent) = m.in_reply_to.as_deref().and_then(|p| bracketed(p).ok()) {
        builder = builder.in_reply_to(parent);
    }
    let refs: Vec<String> = m
        .references
        .iter()
        .filter_map(|r| bracketed(r).ok())
        .collect();
    if !refs.is_empty() {
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

    let body = text_body(&m.body)?;
    let built = match &m.html {
        None => builder
            .header(ContentType::TEXT_PLAIN)
            .header(body.encoding())
            .body(body),
        Some(html) => builder.multipart(alternative(body, html)?),
    };
    built.map_err(|e| TransportError::permanent(format!("cannot build message: {e}")))
}

/// The text as the body of a plain mail or the text part of one with an HTML alternative: the
/// same bytes either way.
fn text_body(body: &str) -> Result<Body, TransportError> {
    // 7bit when it fits, else quoted-printable (safe through any relay, readable in source).
    let encoding = if body.is_ascii() && body.lines().all(|l| l.len() <= 900) {
        ContentTransferEncoding::SevenBit
    } else {
        ContentTransferEncoding::QuotedPrintable
    };
    // lettre ends DATA with CRLF "." CRLF whatever the body ends with, so a body that already
    // ends with a line break would arrive with one blank line too many.
    let text = body
        .strip_suffix("\r\n")
        .or_else(|| body.strip_suffix('\n'))
        .unwrap_or(body);
    // new_with_encoding checks the text as given: it wants CRLF line ends.
    let text = text.replace("\r\n", "\n").replace('\n', "\r\n");
    // lettre's 7bit check refuses some plain lines (a long hex digest, seen in receipts); then
    // quoted-printable, and base64 as the last resort, carry any text.
    Body::new_with_encoding(text.clone(), encoding)
        .or_else(|_| {
            Body::new_with_encoding(text.clone(), ContentTransferEncoding::QuotedPrintable)
        })
        .or_else(|_| Body::new_with_encoding(text, ContentTransferEncoding::Base64))
        .map_err(|_| TransportError::permanent("message body cannot be encoded"))
}

/// `multipart/alternative`: the text first (what a text-only reader shows), then the HTML
/// with its pictures (`multipart/related`, never an attachment a client would strip).
fn alternative(text: Body, html: &HtmlPart) -> Result<MultiPart, TransportError> {
    let png = ContentType::parse("image/png")
        .map_err(|e| TransportError::permanent(format!("image/png: {e}")))?;
    let plain = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .header(text.encoding())
        .body(text);
    let mut related = MultiPart::related().singlepart(SinglePart::html(html.html.clone()));
    for p in &html.pictures {
        related = related.singlepart(Attachment::new_inline(p.content_id.clone()).body(
            Body::dangerous_pre_encoded(
                p.png.0.as_bytes().to_vec(),
                ContentTransferEncoding::Base64,
            ),
            png.clone(),
        ));
    }
    Ok(MultiPart::alternative()
        .singlepart(plain)
        .multipart(related))
}

/// Which step a send reached: a failure after the data began is uncertain.
const STEP_BEFORE_DATA: u8 = 0;
const STEP_DATA: u8 = 1;

fn step_error(what: &str, e: lettre::transport::smtp::Error, in_data: bool) -> SendError {
    let kind = if e.is_permanent() {
        FailureKind::Permanent
    } else if e.is_transient() {
        // The server answered 4xx: it did not take the message.
        FailureKind::Transient
    } else if in_data {
        FailureKind::Uncertain
    } else {
        FailureKind::Transient
    };
    SendError {
        kind,
        message: format!("{what}: {e}"),
    }
}

impl Sender {
    /// Set up a client for `cfg`. Does not connect yet.
    pub fn new(cfg: &ServerConfig) -> Result<Sender, TransportError> {
        init_crypto();
        let tls = match cfg.tls {
            Tls::None => None,
            Tls::StartTls | Tls::Implicit => {
                // The same roots as IMAP (`trusted_roots`), not lettre's own default store.
                let mut params = TlsParameters::builder(cfg.effective_tls_name().to_owned())
                    .certificate_store(CertificateStore::None);
                for der in trusted_roots(cfg)? {
                    let cert = Certificate::from_der(der.to_vec()).map_err(|e| {
                        TransportError::permanent(format!("cannot use a CA certificate: {e}"))
                    })?;
                    params = params.add_root_certificate(cert);
                }
                Some(
                    params
                        .build_rustls()
                        .map_err(|e| TransportError::permanent(format!("SMTP TLS setup: {e}")))?,
                )
            }
        };
        Ok(Sender {
            cfg: cfg.clone(),
            tls,
            target: format!("{}:{}", cfg.host, cfg.port),
            bcc: None,
            conn: tokio::sync::Mutex::new(None),
            timeout: IO_TIMEOUT,
        })
    }

    /// Bound each step of an exchange by `timeout` (and the whole by twice that).
    pub fn with_timeout(mut self, timeout: Duration) -> Sender {
        self.timeout = timeout;
        self
    }

    /// Copy every mail to `address`, in the same SMTP transaction, without a Bcc header. A copy
    /// in that mailbox proves the mail was accepted for its recipient too: this is how an
    /// outbox row whose send was cut short is known to be sent, or not. A refusal of this
    /// recipient alone does not stop the mail (the report says so).
    pub fn with_bcc(mut self, address: &str) -> Result<Sender, TransportError> {
        self.bcc = Some(parse_address("Bcc", address)?);
        Ok(self)
    }

    /// Connect on a socket Chancery opens itself, with TCP_NODELAY: lettre's own sockets wait
    /// for the peer's 40 ms delayed ACK at every command (issue 22; lettre 0.11.23). Then
    /// STARTTLS where configured, whether the server offers PIPELINING, and AUTH.
    async fn connect(&self) -> Result<Connection, SendError> {
        let hello = ClientId::default();
        let tcp = tcp_connect(&self.cfg, "SMTP").await?;
        let stream = match self.cfg.tls {
            Tls::Implicit => tls_wrap(&self.cfg, tcp, "SMTP").await?,
            Tls::None | Tls::StartTls => Stream::Plain(tcp),
        };
        let greeting = AsyncSmtpConnection::connect_with_transport(Box::new(stream), &hello);
        let mut conn = tokio::time::timeout(self.timeout, greeting)
            .await
            .map_err(|_| SendError {
                kind: FailureKind::Transient,
                message: format!("SMTP greeting from {}: timed out", self.target),
            })?
            .map_err(|e| step_error(&format!("SMTP connect to {}", self.target), e, false))?;
        if self.cfg.tls == Tls::StartTls
            && let Some(params) = self.tls.clone()
        {
            conn.starttls(params, &hello)
                .await
                .map_err(|e| step_error("SMTP STARTTLS", e, false))?;
        }
        // lettre keeps only the EHLO keywords it knows, and PIPELINING is not one: ask again
        // (before AUTH, which a new EHLO would not undo but some servers dislike after it).
        let ehlo = conn
            .command(Ehlo::new(hello.clone()))
            .await
            .map_err(|e| step_error("SMTP EHLO", e, false))?;
        let pipelining = ehlo.message().any(|line| {
            line.split_whitespace()
                .next()
                .is_some_and(|k| k.eq_ignore_ascii_case("PIPELINING"))
        });
        if !self.cfg.username.is_empty() {
            let creds = Credentials::new(self.cfg.username.clone(), self.cfg.password.clone());
            conn.auth(&[Mechanism::Plain, Mechanism::Login], &creds)
                .await
                .map_err(|e| step_error("SMTP AUTH", e, false))?;
        }
        Ok(Connection {
            conn,
            pipelining,
            last_used: std::time::Instant::now(),
        })
    }

    /// The open session, or a new one. A session used in the last few seconds is taken as it
    /// is; an older one is checked with NOOP first (a round trip a mail would halve the rate).
    async fn ready<'g>(
        &self,
        guard: &'g mut Option<Connection>,
    ) -> Result<&'g mut Connection, SendError> {
        let reuse = match guard.as_mut() {
            Some(c) if c.conn.has_broken() => false,
            Some(c) if c.last_used.elapsed() < FRESH => true,
            Some(c) => c.conn.test_connected().await,
            None => false,
        };
        if !reuse {
            *guard = None;
            *guard = Some(self.connect().await?);
        }
        guard.as_mut().ok_or_else(|| SendError {
            kind: FailureKind::Transient,
            message: "SMTP: no connection".into(),
        })
    }

    /// Send one message in one SMTP transaction (to its recipients and the archive copy).
    pub async fn send(&self, m: &OutMail) -> Result<SendReport, SendError> {
        let message = build_message_bcc(m, None)?;
        let mut rcpts: Vec<lettre::Address> = Vec::new();
        for to in &m.to {
            rcpts.push(parse_address("To", to)?.email);
        }
        let from = parse_address("From", &m.from)?.email;
        let bytes = message.formatted();
        let step = std::sync::atomic::AtomicU8::new(STEP_BEFORE_DATA);
        let mut guard = self.conn.lock().await;
        let exchange = async {
            let c = self.ready(&mut guard).await?;
            let envelope = Envelope {
                from: &from,
                to: &rcpts,
                archive: self.bcc.as_ref().map(|b| &b.email),
                eight_bit: !bytes.is_ascii(),
            };
            // The envelope and DATA: the session now waits for the message.
            let report = envelope.send(c).await?;
            step.store(STEP_DATA, std::sync::atomic::Ordering::SeqCst);
            // The message and its end in one write, not lettre's two (a segment and a wake-up
            // of the relay's smtpd less a mail; issue 22).
            let ended = match with_end_of_data(&bytes) {
                Some(data) => c.conn.command(data).await,
                None => c.conn.message(&bytes).await,
            };
            ended.map_err(|e| step_error("SMTP end of DATA", e, true))?;
            c.last_used = std::time::Instant::now();
            Ok(report)
        };
        let result = match tokio::time::timeout(self.timeout * 2, exchange).await {
            Ok(r) => r,
            Err(_) => Err(SendError {
                kind: if step.load(std::sync::atomic::Ordering::SeqCst) == STEP_DATA {
                    FailureKind::Uncertain
                } else {
                    FailureKind::Transient
                },
                message: format!(
                    "SMTP via {}: timed out after {} s",
                    self.target,
                    (self.timeout * 2).as_secs_f32()
                ),
            }),
        };
        match &result {
            Ok(_) => {}
            // A refusal leaves the session usable after RSET; anything else may not be.
            Err(e) if e.kind != FailureKind::Uncertain => {
                let reset = match guard.as_mut() {
                    Some(c) => c.conn.command(Rset).await.is_ok(),
                    None => false,
                };
                if !reset {
                    *guard = None;
                }
            }
            Err(_) => *guard = None,
        }
        result.map_err(|e| SendError {
            message: if e.message.contains(&self.target) {
                e.message
            } else {
                format!("SMTP via {}: {}", self.target, e.message)
            },
            ..e
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{EncodedPng, HtmlPart, InlinePicture, OutMail, build_message, with_end_of_data};

    #[test]
    fn a_picture_encoded_once_arrives_as_its_own_bytes() {
        // Every byte value, and enough of them for many base64 lines.
        let png: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 256) as u8).collect();
        let encoded = EncodedPng::of(&png);
        assert!(encoded.0.lines().all(|l| l.trim_end().len() <= 76));
        let mail = OutMail {
            from: "gm@example.test".into(),
            to: vec!["player1@example.test".into()],
            subject: "g1 S1901M results".into(),
            body: "The results.\n".into(),
            message_id: "<m1@example.test>".into(),
            in_reply_to: None,
            references: Vec::new(),
            auto_submitted: "auto-generated",
            extra_headers: Vec::new(),
            html: Some(HtmlPart {
                html: "<img src=\"cid:map@chancery\">".into(),
                pictures: vec![InlinePicture {
                    content_id: "map@chancery".into(),
                    png: encoded,
                }],
            }),
        };
        let raw = build_message(&mail).expect("built").formatted();
        let parsed = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("parsed");
        let picture = parsed
            .parts
            .iter()
            .find_map(|p| match &p.body {
                mail_parser::PartType::Binary(b) | mail_parser::PartType::InlineBinary(b) => {
                    Some(b.to_vec())
                }
                _ => None,
            })
            .expect("the picture's part");
        assert_eq!(picture, png);
    }

    #[test]
    fn a_dot_that_starts_a_line_is_doubled_and_the_end_follows() {
        assert_eq!(
            with_end_of_data(b".a\r\n.b\r\nc.d\n.e\r\r\n.f\r\n").as_deref(),
            Some("..a\r\n..b\r\nc.d\n.e\r\r\n..f\r\n\r\n.\r\n")
        );
        assert_eq!(with_end_of_data(b"").as_deref(), Some("\r\n.\r\n"));
        assert_eq!(
            with_end_of_data("Zürich\r\n.".as_bytes()).as_deref(),
            Some("Zürich\r\n..\r\n.\r\n")
        );
        assert_eq!(with_end_of_data(b"\xff\r\n"), None);
    }
}
