//! Each mailbox reader's liveness (last poll, last UID, last error), for `chancery status`.

use super::*;

/// What a mailbox reader last did, for `chancery status` and the silent-mailbox alert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailboxState {
    pub mailbox: String,
    pub last_poll_started: Option<Ts>,
    pub last_poll_ok: Option<Ts>,
    pub last_uid: Option<i64>,
    pub last_error: Option<String>,
    pub last_error_at: Option<Ts>,
    pub polls: i64,
}

/// A poll of `mailbox` that started at `started` read everything up to `last_uid`.
pub async fn poll_ok(
    c: &mut Conn,
    mailbox: &str,
    started: Ts,
    finished: Ts,
    last_uid: u32,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO mailbox_state (mailbox, last_poll_started, last_poll_ok, last_uid, polls) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (mailbox) DO UPDATE SET last_poll_started = excluded.last_poll_started,
         last_poll_ok = excluded.last_poll_ok,
         last_uid = CASE WHEN coalesce(mailbox_state.last_uid, 0) > excluded.last_uid
                         THEN mailbox_state.last_uid ELSE excluded.last_uid END,
         polls = mailbox_state.polls + 1",
    )
    .bind(mailbox)
    .bind(started)
    .bind(finished)
    .bind(i64::from(last_uid))
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn poll_failed(c: &mut Conn, mailbox: &str, error: &str, at: Ts) -> Result<()> {
    sqlx::query(
        "INSERT INTO mailbox_state (mailbox, last_error, last_error_at) VALUES ($1, $2, $3)
         ON CONFLICT (mailbox) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at",
    )
    .bind(mailbox)
    .bind(error)
    .bind(at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn mailbox_states(c: &mut Conn) -> Result<Vec<MailboxState>> {
    let rows = sqlx::query("SELECT * FROM mailbox_state ORDER BY mailbox")
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(MailboxState {
                mailbox: r.try_get("mailbox")?,
                last_poll_started: r.try_get("last_poll_started")?,
                last_poll_ok: r.try_get("last_poll_ok")?,
                last_uid: r.try_get("last_uid")?,
                last_error: r.try_get("last_error")?,
                last_error_at: r.try_get("last_error_at")?,
                polls: r.try_get("polls")?,
            })
        })
        .collect()
}

/// Take the reading of `mailbox` for this connection's life, where several Chancery instances
/// share one database (issue 28): false while another instance's connection has it. One reader
/// a mailbox keeps two instances from walking the same messages in step and passing each other
/// over (they did: two instances read a backlog at half the rate of one); the others stand by
/// and take over when the reader's connection closes, whether its instance stopped or died.
/// The message and game claims still decide who answers a message: the lease only saves work.
/// SQLite: always true (one writer at a time).
pub async fn take_mailbox_lease(c: &mut Conn, mailbox: &str) -> Result<bool> {
    if Dialect::of(c) == Dialect::Sqlite {
        return Ok(true);
    }
    Ok(
        sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtextextended($1, 0))")
            .bind(format!("mailbox-lease|{mailbox}"))
            .fetch_one(&mut *c)
            .await?,
    )
}

/// When the latest poll of `mailbox` that read everything started, whichever instance made it.
pub async fn read_from(c: &mut Conn, mailbox: &str) -> Result<Option<Ts>> {
    Ok(sqlx::query_scalar(
        "SELECT last_poll_started FROM mailbox_state WHERE mailbox = $1 AND last_poll_ok IS NOT NULL",
    )
    .bind(mailbox)
    .fetch_optional(&mut *c)
    .await?
    .flatten())
}
