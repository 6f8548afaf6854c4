//! Sockets for both protocols: TCP with TCP_NODELAY, and TLS from the first byte, as one
//! stream type.

use std::fmt;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;

use super::{CONNECT_TIMEOUT, ServerConfig, TransportError, rustls_client_config, with_timeout};

/// A plain or TLS-wrapped TCP stream, so one session type serves both.
pub(crate) enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stream::Plain(_) => f.write_str("Stream::Plain"),
            Stream::Tls(_) => f.write_str("Stream::Tls"),
        }
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// lettre takes the stream Chancery opens itself (so that it has TCP_NODELAY).
impl lettre::transport::smtp::client::AsyncTokioStream for Stream {
    fn peer_addr(&self) -> io::Result<std::net::SocketAddr> {
        match self {
            Stream::Plain(s) => s.peer_addr(),
            Stream::Tls(s) => s.get_ref().0.peer_addr(),
        }
    }
}

/// A TCP connection to `cfg`'s server, with TCP_NODELAY: a protocol of short commands and
/// replies must not wait for the peer's delayed ACK (40 ms a step, issue 22).
pub(crate) async fn tcp_connect(
    cfg: &ServerConfig,
    what: &str,
) -> Result<TcpStream, TransportError> {
    let addr = (cfg.host.as_str(), cfg.port);
    let tcp = with_timeout(CONNECT_TIMEOUT, &format!("{what} connect"), async {
        TcpStream::connect(addr).await.map_err(|e| {
            TransportError::transient(format!("{what} connect to {}:{}: {e}", cfg.host, cfg.port))
        })
    })
    .await?;
    let _ = tcp.set_nodelay(true);
    Ok(tcp)
}

/// TLS from the first byte over `tcp`, verifying the server as `cfg` says.
pub(crate) async fn tls_wrap(
    cfg: &ServerConfig,
    tcp: TcpStream,
    what: &str,
) -> Result<Stream, TransportError> {
    let config = rustls_client_config(cfg)?;
    let name = ServerName::try_from(cfg.effective_tls_name().to_owned()).map_err(|e| {
        TransportError::permanent(format!(
            "invalid TLS name {:?}: {e}",
            cfg.effective_tls_name()
        ))
    })?;
    let connector = TlsConnector::from(config);
    let tls = with_timeout(CONNECT_TIMEOUT, &format!("{what} TLS handshake"), async {
        connector.connect(name, tcp).await.map_err(|e| {
            // A certificate that does not verify will not verify on retry either.
            let permanent = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<tokio_rustls::rustls::Error>())
                .is_some_and(|re| {
                    matches!(
                        re,
                        tokio_rustls::rustls::Error::InvalidCertificate(_)
                            | tokio_rustls::rustls::Error::AlertReceived(_)
                    )
                });
            TransportError {
                message: format!("{what} TLS handshake with {}:{}: {e}", cfg.host, cfg.port),
                permanent,
            }
        })
    })
    .await?;
    Ok(Stream::Tls(Box::new(tls)))
}
