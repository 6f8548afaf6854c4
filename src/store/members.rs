//! The people of a game besides its players (masters and observers), and the masters' audit log.

use super::*;

/// A member's part in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The game master.
    Gm,
    /// The tournament director, above the GM (WM A, D.VIII(1)).
    Td,
    /// Sees results and public press only.
    Observer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Gm => "gm",
            Role::Td => "td",
            Role::Observer => "observer",
        }
    }

    pub fn is_master(self) -> bool {
        matches!(self, Role::Gm | Role::Td)
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MemberRow {
    pub role: Role,
    pub address: String,
    pub name: String,
    pub tz: String,
    pub secret: String,
}

/// Add a master or an observer. An address has one part in a game.
pub async fn add_member(c: &mut Conn, game: &str, m: &MemberRow, now: Ts) -> Result<()> {
    sqlx::query(
        "INSERT INTO members (game_id, role, address, name, tz, secret, added_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game)
    .bind(m.role)
    .bind(m.address.to_ascii_lowercase())
    .bind(&m.name)
    .bind(&m.tz)
    .bind(&m.secret)
    .bind(now)
    .execute(&mut *c)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::MemberExists {
            game: game.to_string(),
            address: m.address.to_ascii_lowercase(),
        },
        e => e.into(),
    })?;
    Ok(())
}

/// Remove a member; whether there was one.
pub async fn remove_member(c: &mut Conn, game: &str, address: &str, role: Role) -> Result<bool> {
    let r = sqlx::query("DELETE FROM members WHERE game_id = $1 AND address = $2 AND role = $3")
        .bind(game)
        .bind(address.to_ascii_lowercase())
        .bind(role)
        .execute(&mut *c)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// The members of a game: masters first (GM, TD), then observers, by address.
pub async fn members(c: &mut Conn, game: &str) -> Result<Vec<MemberRow>> {
    Ok(sqlx::query_as(
        "SELECT * FROM members WHERE game_id = $1
         ORDER BY CASE role WHEN 'gm' THEN 0 WHEN 'td' THEN 1 ELSE 2 END, address",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// How a master's command came (the audit log's `via`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A command mail (`<game> GM`).
    Mail,
    /// `chancery game ...` at the server's console.
    Console,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Mail => "mail",
            Via::Console => "console",
        }
    }
}

impl std::fmt::Display for Via {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// It compares equal to its word, for callers that hold the word (the audit log as written).
impl PartialEq<&str> for Via {
    fn eq(&self, word: &&str) -> bool {
        self.as_str() == *word
    }
}

/// One line of the audit log.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditRow {
    pub at: Ts,
    pub actor: String,
    pub via: Via,
    pub command: String,
    pub effect: String,
}

/// Write a master's command and what it did to the audit log.
pub async fn audit(
    c: &mut Conn,
    game: &str,
    at: Ts,
    actor: &str,
    via: Via,
    command: &str,
    effect: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO audit (game_id, at, actor, via, command, effect) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(at)
    .bind(actor)
    .bind(via)
    .bind(command)
    .bind(effect)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A game's audit log, oldest first.
pub async fn audit_log(c: &mut Conn, game: &str) -> Result<Vec<AuditRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM audit WHERE game_id = $1 ORDER BY id")
            .bind(game)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// Pause a game: keep the time left before the current deadline. Whether it was running.
pub async fn pause(c: &mut Conn, game: &str, remaining: Ts) -> Result<bool> {
    let r = sqlx::query(
        // A paused game needs no clock.
        "UPDATE games SET paused_remaining = $1, due_at = NULL WHERE id = $2 AND paused_remaining IS NULL",
    )
    .bind(remaining.max(0))
    .bind(game)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Resume a paused game; the time that was left, if it was paused. Call it inside the
/// transaction that sets the new deadline.
pub async fn resume(c: &mut Conn, game: &str) -> Result<Option<Ts>> {
    let left = paused_remaining(c, game).await?;
    if left.is_some() {
        sqlx::query("UPDATE games SET paused_remaining = NULL WHERE id = $1")
            .bind(game)
            .execute(&mut *c)
            .await?;
        clock_changed(c, game).await?;
    }
    Ok(left)
}

/// The time left of a paused game; None when it runs.
pub async fn paused_remaining(c: &mut Conn, game: &str) -> Result<Option<Ts>> {
    let row = sqlx::query("SELECT paused_remaining FROM games WHERE id = $1")
        .bind(game)
        .fetch_optional(&mut *c)
        .await?;
    Ok(match row {
        Some(r) => r.try_get("paused_remaining")?,
        None => None,
    })
}

/// What the TD consents to, once (WM D.VIII(1)); kept in `consents.what` as the command it
/// allows (`ROLLBACK S1902M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consent<'a> {
    /// The GM's ROLLBACK to this turn (its name in its kind's words).
    Rollback { phase: &'a str },
}

impl Consent<'_> {
    /// The `consents.what` column.
    fn what(self) -> String {
        match self {
            Consent::Rollback { phase } => format!("ROLLBACK {phase}"),
        }
    }
}

/// Record the TD's consent to `what`.
pub async fn consent(c: &mut Conn, game: &str, what: Consent<'_>, by: &str, now: Ts) -> Result<()> {
    sqlx::query("INSERT INTO consents (game_id, what, by, at) VALUES ($1, $2, $3, $4)")
        .bind(game)
        .bind(what.what())
        .bind(by)
        .bind(now)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Use a consent to `what`, if there is an unused one: who gave it.
pub async fn use_consent(
    c: &mut Conn,
    game: &str,
    what: Consent<'_>,
    now: Ts,
) -> Result<Option<String>> {
    let row = sqlx::query(
        "UPDATE consents SET used_at = $1 WHERE id = (
             SELECT id FROM consents WHERE game_id = $2 AND what = $3 AND used_at IS NULL
             ORDER BY id LIMIT 1)
         RETURNING by",
    )
    .bind(now)
    .bind(game)
    .bind(what.what())
    .fetch_optional(&mut *c)
    .await?;
    Ok(match row {
        Some(r) => Some(r.try_get("by")?),
        None => None,
    })
}

crate::store::dialect::text_type!(Role { Gm = "gm", Td = "td", Observer = "observer" });

crate::store::dialect::text_type!(Via { Mail = "mail", Console = "console" });
