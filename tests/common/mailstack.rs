//! Test helper: a private Postfix + Dovecot stack on loopback (`scripts/mailstack`), one per
//! [`Stack`] value, on its own port base, stopped (and its directory removed) on drop.
//!
//! There is no fallback: when the packages or root are missing, `Stack::start` panics with a
//! message saying how to fix it, so tests never pass without having talked to a real server.
//!
//! Include it with `#[path = "common/mailstack.rs"] #[allow(dead_code)] mod mailstack;` (each
//! test binary uses only some of the helpers).

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use chancery::transport::imap::Mailbox;
use chancery::transport::{ServerConfig, Tls};
use std::time::Duration;

pub const DOMAIN: &str = "example.test";
pub const PASSWORD: &str = "secret";

/// Offsets from the port base that the stack listens on (891: the OpenDKIM milter).
const PORT_OFFSETS: [u16; 8] = [24, 25, 26, 143, 465, 587, 891, 993];
const FIRST_BASE: u32 = 20000;
const SLOTS: u32 = 40; // bases 20000, 21000, ..., 59000

static COUNTER: AtomicU32 = AtomicU32::new(0);

pub struct Stack {
    pub dir: PathBuf,
    pub base: u16,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mailstack")
}

/// `dovecot`, `postfix`, `doveadm` and `openssl`, looked up in PATH and the sbin directories.
fn find_binary(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|euid| euid == "0"))
        })
        .unwrap_or(false)
}

fn check_prerequisites(dkim: bool) {
    let dkim_binaries: &[&str] = if dkim {
        &["opendkim", "opendkim-testmsg"]
    } else {
        &[]
    };
    let missing: Vec<&str> = ["dovecot", "postfix", "doveadm", "openssl"]
        .iter()
        .chain(dkim_binaries)
        .copied()
        .filter(|b| find_binary(b).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "the mail stack packages are missing ({} not found): run scripts/install-mailstack \
         (as root) before these tests; they need a real Postfix + Dovecot and never skip",
        missing.join(", ")
    );
    assert!(
        is_root(),
        "the mail stack tests need root (Postfix's `postfix start` only runs as root); \
         run them as root, as CI does"
    );
}

fn ports_free(base: u16) -> bool {
    PORT_OFFSETS
        .iter()
        .all(|off| TcpListener::bind(("127.0.0.1", base + off)).is_ok())
}

impl Stack {
    /// Start a fresh stack on a free port base. Panics (with the script's output) on failure.
    pub fn start() -> Stack {
        Stack::start_with(false)
    }

    /// Like [`Stack::start`], with OpenDKIM as a verifying milter (`MAILSTACK_DKIM=1`): every
    /// mail arriving over SMTP gets an `Authentication-Results: mx.example.test; dkim=...`.
    pub fn start_with_dkim() -> Stack {
        Stack::start_with(true)
    }

    fn start_with(dkim: bool) -> Stack {
        check_prerequisites(dkim);
        let pid = std::process::id();
        let mut last_error = String::new();
        for _attempt in 0..10 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let slot = (pid.wrapping_mul(7).wrapping_add(n.wrapping_mul(13))) % SLOTS;
            let base = u16::try_from(FIRST_BASE + slot * 1000).expect("port base fits u16");
            if !ports_free(base) {
                last_error = format!("ports at base {base} busy");
                continue;
            }
            let dir = PathBuf::from(format!("/tmp/chancery-ms-{pid}-{n}"));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("create the mail stack directory");
            // The script's output goes to a file, not a pipe: daemons that inherit a pipe keep
            // it open and a reader would wait forever.
            let log_path = dir.join("start.log");
            let log = std::fs::File::create(&log_path).expect("create start.log");
            let status = Command::new("bash")
                .arg(script())
                .arg("start")
                .arg(&dir)
                .env("MAILSTACK_PORT_BASE", base.to_string())
                .env("MAILSTACK_DKIM", if dkim { "1" } else { "0" })
                .stdin(Stdio::null())
                .stdout(log.try_clone().expect("dup log"))
                .stderr(log)
                .status()
                .expect("run scripts/mailstack start");
            let output = std::fs::read_to_string(&log_path).unwrap_or_default();
            if status.success() {
                return Stack { dir, base };
            }
            let _ = Command::new("bash")
                .arg(script())
                .arg("stop")
                .arg(&dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            if output.contains("already in use") {
                // Another stack grabbed the base between our check and the start: try another.
                last_error = output;
                let _ = std::fs::remove_dir_all(&dir);
                continue;
            }
            panic!(
                "scripts/mailstack start {} failed ({status}):\n{output}",
                dir.display()
            );
        }
        panic!("could not find a free port base for the mail stack: {last_error}");
    }

    pub fn ca_file(&self) -> PathBuf {
        self.dir.join("tls/ca.crt")
    }

    pub fn smtp_port(&self) -> u16 {
        self.base + 25
    }
    pub fn submission_port(&self) -> u16 {
        self.base + 587
    }
    pub fn smtps_port(&self) -> u16 {
        self.base + 465
    }
    pub fn imap_port(&self) -> u16 {
        self.base + 143
    }
    pub fn imaps_port(&self) -> u16 {
        self.base + 993
    }

    fn config(&self, port: u16, tls: Tls, user: &str) -> ServerConfig {
        ServerConfig {
            host: "127.0.0.1".into(),
            port,
            tls,
            ca_file: Some(self.ca_file()),
            tls_name: "localhost".into(),
            username: if user.is_empty() {
                String::new()
            } else {
                address(user)
            },
            password: if user.is_empty() {
                String::new()
            } else {
                PASSWORD.into()
            },
        }
    }

    /// Plain IMAP (allowed from loopback) as `user` (`player1` or `player1@example.test`).
    pub fn imap_config(&self, user: &str) -> ServerConfig {
        self.config(self.imap_port(), Tls::None, user)
    }

    /// IMAP with STARTTLS, verifying `localhost` against the stack's CA.
    pub fn imap_starttls_config(&self, user: &str) -> ServerConfig {
        self.config(self.imap_port(), Tls::StartTls, user)
    }

    /// IMAPS (implicit TLS), verifying `localhost` against the stack's CA.
    pub fn imaps_config(&self, user: &str) -> ServerConfig {
        self.config(self.imaps_port(), Tls::Implicit, user)
    }

    /// Plain SMTP without authentication (relaying is allowed from 127.0.0.0/8).
    pub fn smtp_config(&self) -> ServerConfig {
        self.config(self.smtp_port(), Tls::None, "")
    }

    /// Submission: STARTTLS then AUTH as `user`.
    pub fn submission_config(&self, user: &str) -> ServerConfig {
        self.config(self.submission_port(), Tls::StartTls, user)
    }

    /// SMTPS: implicit TLS then AUTH as `user`.
    pub fn smtps_config(&self, user: &str) -> ServerConfig {
        self.config(self.smtps_port(), Tls::Implicit, user)
    }

    fn doveadm(&self, args: &[&str], stdin: Option<&[u8]>) -> String {
        let doveadm = find_binary("doveadm").expect("doveadm (run scripts/install-mailstack)");
        let conf = self.dir.join("etc/dovecot/dovecot.conf");
        let mut child = Command::new(doveadm)
            .arg("-c")
            .arg(&conf)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run doveadm");
        {
            let mut si = child.stdin.take().expect("doveadm stdin");
            si.write_all(stdin.unwrap_or_default())
                .expect("write doveadm stdin");
        }
        let out = child.wait_with_output().expect("wait for doveadm");
        assert!(
            out.status.success(),
            "doveadm {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Put `raw` straight into `user`'s INBOX (no SMTP), as a new message.
    pub fn inject(&self, user: &str, raw: &[u8]) {
        let user = address(user);
        self.doveadm(&["save", "-u", &user, "-m", "INBOX"], Some(raw));
    }

    /// Deliver each of `raws` to `user`'s INBOX over LMTP (Dovecot, no Postfix queue): when this
    /// returns they are all stored, with ascending UIDs in the order given. Fast (one session),
    /// for tests that need many messages.
    pub fn deliver_lmtp(&self, user: &str, raws: &[Vec<u8>]) {
        use std::io::{BufRead, BufReader};
        let user = address(user);
        let stream =
            std::net::TcpStream::connect(("127.0.0.1", self.base + 24)).expect("LMTP connect");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .expect("LMTP timeout");
        let mut reader = BufReader::new(stream.try_clone().expect("LMTP clone"));
        let mut w = stream;
        // One reply (possibly multi-line).
        let mut reply = |expect: &str| {
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("LMTP read");
                assert!(
                    line.starts_with(expect),
                    "LMTP: expected {expect}, got {line:?}"
                );
                if line.as_bytes().get(3) != Some(&b'-') {
                    break;
                }
            }
        };
        reply("220");
        w.write_all(b"LHLO test.example\r\n").expect("LMTP write");
        reply("250");
        for raw in raws {
            write!(w, "MAIL FROM:<>\r\nRCPT TO:<{user}>\r\n").expect("LMTP write");
            reply("250");
            reply("250");
            w.write_all(b"DATA\r\n").expect("LMTP write");
            reply("354");
            let mut data = Vec::with_capacity(raw.len() + 16);
            for line in raw.split_inclusive(|&b| b == b'\n') {
                if line.first() == Some(&b'.') {
                    data.push(b'.');
                }
                data.extend_from_slice(line);
            }
            if !data.ends_with(b"\r\n") {
                data.extend_from_slice(b"\r\n");
            }
            data.extend_from_slice(b".\r\n");
            w.write_all(&data).expect("LMTP write");
            reply("250");
        }
        w.write_all(b"QUIT\r\n").expect("LMTP write");
    }

    /// Run `scripts/mailstack CMD` on this stack (the outage commands), panicking on failure.
    fn control(&self, cmd: &str) {
        let out = Command::new("bash")
            .arg(script())
            .arg(cmd)
            .arg(&self.dir)
            .stdin(Stdio::null())
            .output()
            .expect("run scripts/mailstack");
        assert!(
            out.status.success(),
            "scripts/mailstack {cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Stop Postfix alone: the relay is down, IMAP stays up.
    pub fn smtp_stop(&self) {
        self.control("smtp-stop");
    }

    /// Start Postfix again after [`Stack::smtp_stop`].
    pub fn smtp_start(&self) {
        self.control("smtp-start");
    }

    /// Stop Dovecot and start it again: every IMAP session (IDLE too) is cut.
    pub fn imap_restart(&self) {
        self.control("imap-restart");
    }

    /// `raw` (CRLF line ends) signed with the stack's DKIM test key (d=example.test,
    /// s=mailstack), by `opendkim-testmsg` (which fails on a mail without a Date header). Only
    /// for a stack from [`Stack::start_with_dkim`].
    pub fn dkim_sign(&self, raw: &[u8]) -> Vec<u8> {
        let tool = find_binary("opendkim-testmsg").expect("opendkim-testmsg (opendkim-tools)");
        let key = self.dir.join("etc/opendkim/keys/mailstack.private");
        let mut child = Command::new(tool)
            .args(["-C", "-d", DOMAIN, "-s", "mailstack", "-k"])
            .arg(&key)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run opendkim-testmsg");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(raw)
            .expect("write the message to opendkim-testmsg");
        let out = child.wait_with_output().expect("opendkim-testmsg");
        assert!(
            out.status.success() && out.stdout.starts_with(b"DKIM-Signature:"),
            "opendkim-testmsg failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// Send `raw` as it is over plain SMTP (port 25, no auth) from `from` to `to`.
    pub fn smtp_send_raw(&self, from: &str, to: &str, raw: &[u8]) {
        use std::io::{BufRead, BufReader};
        let stream =
            std::net::TcpStream::connect(("127.0.0.1", self.smtp_port())).expect("SMTP connect");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .expect("SMTP timeout");
        let mut reader = BufReader::new(stream.try_clone().expect("SMTP clone"));
        let mut w = stream;
        let mut reply = |expect: &str| loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("SMTP read");
            assert!(
                line.starts_with(expect),
                "SMTP: expected {expect}, got {line:?}"
            );
            if line.as_bytes().get(3) != Some(&b'-') {
                break;
            }
        };
        reply("220");
        w.write_all(b"EHLO test.example\r\n").expect("SMTP write");
        reply("250");
        write!(w, "MAIL FROM:<{from}>\r\n").expect("SMTP write");
        reply("250");
        write!(w, "RCPT TO:<{}>\r\n", address(to)).expect("SMTP write");
        reply("250");
        w.write_all(b"DATA\r\n").expect("SMTP write");
        reply("354");
        let mut data = Vec::with_capacity(raw.len() + 16);
        for line in raw.split_inclusive(|&b| b == b'\n') {
            if line.first() == Some(&b'.') {
                data.push(b'.');
            }
            data.extend_from_slice(line);
        }
        if !data.ends_with(b"\r\n") {
            data.extend_from_slice(b"\r\n");
        }
        data.extend_from_slice(b".\r\n");
        w.write_all(&data).expect("SMTP write");
        reply("250");
        w.write_all(b"QUIT\r\n").expect("SMTP write");
    }

    /// `user`'s INBOX on disk (Dovecot's maildir).
    fn maildir(&self, user: &str) -> PathBuf {
        let user = address(user);
        let (local, domain) = user.split_once('@').expect("user@domain");
        self.dir
            .join("mail")
            .join(domain)
            .join(local)
            .join("Maildir")
    }

    /// How many messages Dovecot has delivered to `user`'s INBOX, read or not (`new` and
    /// `cur`), counted on disk: no IMAP session, so nothing a server reading the box sees
    /// changes.
    pub fn delivered(&self, user: &str) -> usize {
        let maildir = self.maildir(user);
        ["new", "cur"]
            .into_iter()
            .filter_map(|sub| std::fs::read_dir(maildir.join(sub)).ok())
            .map(|entries| entries.flatten().count())
            .sum()
    }

    /// Expunge message `uid` from `user`'s INBOX (as another client would).
    pub fn expunge(&self, user: &str, uid: u32) {
        let user = address(user);
        READ.lock()
            .expect("inboxes")
            .remove(&(self.dir.clone(), user.clone()));
        let uid = uid.to_string();
        self.doveadm(
            &["expunge", "-u", &user, "mailbox", "INBOX", "uid", &uid],
            None,
        );
    }

    /// The flags of message `uid` in `user`'s INBOX, as doveadm prints them.
    pub fn flags(&self, user: &str, uid: u32) -> String {
        let user = address(user);
        let uid = uid.to_string();
        let out = self.doveadm(
            &[
                "fetch", "-u", &user, "flags", "mailbox", "INBOX", "uid", &uid,
            ],
            None,
        );
        out.trim()
            .strip_prefix("flags:")
            .unwrap_or(out.trim())
            .trim()
            .to_owned()
    }

    /// Empty every user's INBOX.
    pub fn reset(&self) {
        let status = Command::new("bash")
            .arg(script())
            .arg("reset")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .status()
            .expect("run scripts/mailstack reset");
        assert!(status.success(), "scripts/mailstack reset failed");
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("stop")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if std::thread::panicking() || std::env::var_os("CHANCERY_KEEP_MAILSTACK").is_some() {
            eprintln!(
                "mail stack state kept in {} (logs in log/)",
                self.dir.display()
            );
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// `player1` → `player1@example.test`; full addresses pass through.
pub fn address(user: &str) -> String {
    if user.contains('@') {
        user.to_owned()
    } else {
        format!("{user}@{DOMAIN}")
    }
}

/// What the tests have read of one mailbox so far.
#[derive(Default)]
struct Read {
    uidvalidity: u32,
    last_uid: u32,
    /// Every mail, as stored.
    raw: Vec<Vec<u8>>,
    /// The mails that read as mail, by subject and body.
    read: Vec<(String, String)>,
}

/// The mailboxes read so far, by stack directory and user. The waits look every few
/// milliseconds and a game's inbox grows to hundreds of mails: each look fetches only what
/// arrived after the last UID seen, or the waits grow quadratic. (A stack's mailboxes only
/// grow, but for [`Stack::expunge`], which forgets the user's.)
static READ: std::sync::Mutex<std::collections::BTreeMap<(PathBuf, String), Read>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// Fetch what `user` got since the last look, and hand it and all before it to `with`.
async fn read_inbox<T>(stack: &Stack, user: &str, with: impl FnOnce(&Read) -> T) -> T {
    let key = (stack.dir.clone(), address(user));
    let mut mb = Mailbox::connect(&stack.imap_config(user), "INBOX")
        .await
        .expect("imap");
    let since = READ
        .lock()
        .expect("inboxes")
        .get(&key)
        .filter(|r| r.uidvalidity == mb.uidvalidity())
        .map_or(0, |r| r.last_uid);
    let mut got = Vec::new();
    loop {
        let after = got
            .last()
            .map_or(since, |f: &chancery::transport::imap::Fetched| f.uid);
        let batch = mb.fetch_after(after, 1000).await.expect("fetch");
        let done = !batch.more || batch.messages.is_empty();
        got.extend(batch.messages);
        if done {
            break;
        }
    }
    let uidvalidity = mb.uidvalidity();
    mb.logout().await;
    let mut all = READ.lock().expect("inboxes");
    let seen = all.entry(key).or_default();
    // New, or another mailbox under the same name: start again.
    if seen.uidvalidity != uidvalidity {
        *seen = Read {
            uidvalidity,
            ..Read::default()
        };
    }
    // Two looks at one mailbox side by side fetch the same new mails: each is kept once.
    for f in got {
        if f.uid <= seen.last_uid {
            continue;
        }
        seen.last_uid = f.uid;
        if let Ok(m) = chancery::message::read_message(&f.raw) {
            let body: Vec<String> = m.lines.iter().map(|l| l.text.clone()).collect();
            seen.read.push((m.subject, body.join("\n")));
        }
        seen.raw.push(f.raw);
    }
    with(seen)
}

/// Every mail a user has, as stored (RFC 5322 bytes).
pub async fn raw_inbox(stack: &Stack, user: &str) -> Vec<Vec<u8>> {
    read_inbox(stack, user, |r| r.raw.clone()).await
}

/// Everything a user reads, by subject and body.
pub async fn inbox(stack: &Stack, user: &str) -> Vec<(String, String)> {
    read_inbox(stack, user, |r| r.read.clone()).await
}

/// How often the server of a test looks at the GM box (see [`Stack::chancery_config`]).
pub const GM_POLL_MS: u64 = 20;

/// How often the tests look again for a mail or a row they wait for, and how many times
/// before they give up (30 s). Each look is cheap (see [`READ`]); a long sleep between looks
/// would add to every one of the hundreds of round trips a by-mail game makes.
pub const LOOK_EVERY: Duration = Duration::from_millis(25);
pub const LOOKS: usize = 1200;

/// Wait until `user` has at least `n` mails whose subject contains `needle`.
pub async fn wait_for(stack: &Stack, user: &str, needle: &str, n: usize) -> Vec<(String, String)> {
    for _ in 0..LOOKS {
        let all = inbox(stack, user).await;
        let hits: Vec<(String, String)> = all
            .into_iter()
            .filter(|(s, _)| s.contains(needle))
            .collect();
        if hits.len() >= n {
            return hits;
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
    let all = inbox(stack, user).await;
    panic!(
        "{user} did not get {n} mail(s) with '{needle}' in the subject; it has: {:?}",
        all.iter().map(|(s, _)| s).collect::<Vec<_>>()
    );
}

/// A clock the test moves by hand; a mail counts as arriving when the server reads it.
pub struct TestClock(pub std::sync::atomic::AtomicI64);

impl chancery::service::Clock for TestClock {
    fn now(&self) -> chancery::policy::Ts {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn game_time(&self, _unix: i64) -> chancery::policy::Ts {
        self.now()
    }
}

impl Stack {
    /// Chancery's configuration for this stack: the GM, confirmation and archive boxes, no
    /// server-wide masters, a 5 s poll.
    pub fn chancery_config(&self, database: &Path) -> chancery::config::Config {
        use chancery::dev::localstack::server_config as server;
        chancery::config::Config {
            database: database.to_path_buf(),
            authserv_id: "mx.example.test".into(),
            message_id_domain: "chancery.example.test".into(),
            poll_seconds: 5,
            smtp: server(self.smtp_port(), ""),
            // Polled by NOOP, not IDLE: Dovecot holds an IDLE notification back 500 ms, and a
            // by-mail game waits on hundreds of answers. tests/e2e.rs keeps IDLE, the default.
            gm_mailbox: chancery::config::Server {
                poll_ms: Some(GM_POLL_MS),
                ..server(self.imap_port(), "gm@example.test")
            },
            confirm_mailbox: server(self.imap_port(), "confirm@example.test"),
            archive_mailbox: Some(server(self.imap_port(), "archive@example.test")),
            masters: Vec::new(),
            deadline_grace_seconds: 5,
            archive_grace_seconds: 60,
            smtp_connections: 4,
            web: None,
            limits: Default::default(),
        }
    }
}

/// A plain mail to the GM box from `from`, with its Message-ID made from `id`.
pub async fn send(
    sender: &chancery::transport::smtp::Sender,
    from: &str,
    subject: &str,
    body: &str,
    id: &str,
) {
    let mail = chancery::transport::smtp::OutMail {
        from: from.to_string(),
        to: vec!["gm@example.test".into()],
        subject: subject.to_string(),
        body: body.to_string(),
        message_id: format!("{id}@sender.example.test"),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
        html: None,
    };
    sender.send(&mail).await.expect("send");
}

/// Chancery serving `cfg` from `base` on the test's `clock`, the scheduler left to the test
/// (which ticks by hand): (the stop switch, the server's task).
pub fn serve_by_hand(
    cfg: &chancery::config::Config,
    base: &Path,
    clock: std::sync::Arc<TestClock>,
) -> (
    tokio::sync::watch::Sender<bool>,
    tokio::task::JoinHandle<Result<(), chancery::service::ServeError>>,
) {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let cfg = cfg.clone();
    let base = base.to_path_buf();
    let task = tokio::spawn(async move {
        chancery::service::serve_with(
            cfg,
            &base,
            clock,
            stopped,
            chancery::service::Tasks { scheduler: false },
        )
        .await
    });
    (stop, task)
}
