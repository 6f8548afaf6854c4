//! The mail server's own rate, for `chancery bench`: a plain SMTP client (no store, no outbox,
//! no message building) that sends `n` mails of a given size over `connections` connections,
//! pipelining each envelope with DATA (RFC 2920). What Chancery's outbox reaches is judged
//! against this, measured in the same run on the same stack.

use super::DevError;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Send `n` mails of about `size` bytes, each to two recipients (as Chancery's mail goes to its
/// reader and the archive), on `connections` connections. How long it took.
pub async fn send(
    port: u16,
    n: usize,
    size: usize,
    connections: usize,
    recipients: [&str; 2],
) -> Result<Duration, DevError> {
    let connections = connections.max(1);
    let body = body(size);
    let started = Instant::now();
    let shares: Vec<usize> = (0..connections)
        .map(|i| n / connections + usize::from(i < n % connections))
        .collect();
    let sends = shares
        .iter()
        .enumerate()
        .map(|(k, share)| one_connection(port, *share, k, &body, recipients));
    for r in futures::future::join_all(sends).await {
        r?;
    }
    Ok(started.elapsed())
}

/// A message body of about `size` bytes, in lines of 72 characters.
fn body(size: usize) -> String {
    let line = format!("{}\r\n", "x".repeat(70));
    line.repeat(size / line.len() + 1)
}

async fn one_connection(
    port: u16,
    n: usize,
    k: usize,
    body: &str,
    recipients: [&str; 2],
) -> Result<(), DevError> {
    let tcp = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| DevError::Stack(format!("baseline connect: {e}")))?;
    tcp.set_nodelay(true)?;
    let (r, mut w) = tcp.into_split();
    let mut r = BufReader::new(r);
    expect(&mut r, 1).await?;
    w.write_all(b"EHLO baseline.example.test\r\n").await?;
    expect(&mut r, 1).await?;
    for i in 0..n {
        let envelope = format!(
            "MAIL FROM:<bench@example.test>\r\nRCPT TO:<{}>\r\nRCPT TO:<{}>\r\nDATA\r\n",
            recipients[0], recipients[1]
        );
        w.write_all(envelope.as_bytes()).await?;
        expect(&mut r, 4).await?;
        let message = format!(
            "From: bench@example.test\r\nTo: {}\r\nSubject: baseline {k}.{i}\r\nMessage-ID: <baseline.{k}.{i}@example.test>\r\n\r\n{body}.\r\n",
            recipients[0]
        );
        w.write_all(message.as_bytes()).await?;
        expect(&mut r, 1).await?;
    }
    w.write_all(b"QUIT\r\n").await?;
    Ok(())
}

/// Read `replies` SMTP replies; any but 2xx and 354 is an error.
async fn expect(
    r: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
    replies: usize,
) -> Result<(), DevError> {
    let mut line = String::new();
    let mut done = 0;
    while done < replies {
        line.clear();
        let read = tokio::time::timeout(Duration::from_secs(30), r.read_line(&mut line))
            .await
            .map_err(|_| DevError::Stack("baseline: no reply in 30 s".into()))??;
        if read == 0 {
            return Err(DevError::Stack(
                "baseline: the server closed the connection".into(),
            ));
        }
        // The last line of a reply has a space after its code.
        if line.as_bytes().get(3) == Some(&b'-') {
            continue;
        }
        if !(line.starts_with('2') || line.starts_with("354")) {
            return Err(DevError::Stack(format!("baseline: {}", line.trim_end())));
        }
        done += 1;
    }
    Ok(())
}
