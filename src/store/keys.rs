//! Server secrets: generated once from the OS random generator, kept in the store so that a
//! restart (or a second process on the same file) keys Message-IDs the same way.

use super::*;

/// The name of the key of Message-IDs and of the order of anonymous press.
pub const MAIL_KEY: &str = "mail";

/// The key named `name`, generated (32 bytes from the OS random generator) and stored the
/// first time it is asked for. Two processes starting at once get the same key: the insert
/// keeps the first.
pub async fn server_key(c: &mut Conn, name: &str, now: Ts) -> Result<Vec<u8>> {
    if let Some(k) = stored_key(c, name).await? {
        return Ok(k);
    }
    let mut fresh = [0u8; 32];
    getrandom::getrandom(&mut fresh).map_err(|e| StoreError::Random(e.to_string()))?;
    sqlx::query(
        "INSERT INTO server_keys (name, key, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(&fresh[..])
    .bind(now)
    .execute(&mut *c)
    .await?;
    stored_key(c, name)
        .await?
        .ok_or_else(|| StoreError::Random(format!("the key '{name}' was not kept")))
}

async fn stored_key(c: &mut Conn, name: &str) -> Result<Option<Vec<u8>>> {
    let row = sqlx::query("SELECT key FROM server_keys WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *c)
        .await?;
    Ok(row.map(|r| r.try_get("key")).transpose()?)
}
