//! A game's rule set as dated revisions (`rule_revisions`): the Nomic's rules, the Agora
//! tournament's regulations. The pure [`chancery_office::ruleset`] checks every change and
//! reads the rules as they stood at any moment; this file keeps its revisions in order and
//! gives them back, replayed.

use super::*;
use chancery_office::ruleset::{Change, Mutability, RuleSet};

pub use chancery_office::ruleset::Revision as RuleRevision;

/// [`Change`]'s kind as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleChangeKind {
    Enact,
    Amend,
    Repeal,
    Renumber,
    Transmute,
}

/// [`Mutability`] as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleMutability {
    Mutable,
    Immutable,
}

impl From<Mutability> for RuleMutability {
    fn from(m: Mutability) -> RuleMutability {
        match m {
            Mutability::Mutable => RuleMutability::Mutable,
            Mutability::Immutable => RuleMutability::Immutable,
        }
    }
}

impl From<RuleMutability> for Mutability {
    fn from(m: RuleMutability) -> Mutability {
        match m {
            RuleMutability::Mutable => Mutability::Mutable,
            RuleMutability::Immutable => Mutability::Immutable,
        }
    }
}

/// One revision's row.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RuleRevisionRow {
    pub game_id: String,
    pub seq: i64,
    pub at: Ts,
    pub change: RuleChangeKind,
    pub number: i64,
    /// Renumber: the rule's new number.
    pub new_number: Option<i64>,
    /// Enact, amend: JSON array of paragraphs.
    pub text: Option<String>,
    /// Enact, transmute.
    pub mutability: Option<RuleMutability>,
    /// The number of the proposal that made it; none for an initial set.
    pub proposal: Option<i64>,
}

/// A number as the office counts them, from its column.
fn number(n: i64) -> Option<u32> {
    u32::try_from(n).ok()
}

impl RuleRevisionRow {
    /// The revision as the office keeps it, or why the row does not read back.
    pub fn revision(&self) -> Result<RuleRevision> {
        let bad = || {
            StoreError::Inconsistent(format!(
                "revision {} of {}'s rules does not read back",
                self.seq, self.game_id
            ))
        };
        let rule = number(self.number).ok_or_else(bad)?;
        let text = || -> Result<Vec<String>> {
            let t = self.text.as_deref().ok_or_else(bad)?;
            Ok(serde_json::from_str(t)?)
        };
        let mutability = || self.mutability.map(Mutability::from).ok_or_else(bad);
        let change = match self.change {
            RuleChangeKind::Enact => Change::Enact {
                number: rule,
                text: text()?,
                mutability: mutability()?,
            },
            RuleChangeKind::Amend => Change::Amend {
                number: rule,
                text: text()?,
            },
            RuleChangeKind::Repeal => Change::Repeal { number: rule },
            RuleChangeKind::Renumber => Change::Renumber {
                from: rule,
                to: self.new_number.and_then(number).ok_or_else(bad)?,
            },
            RuleChangeKind::Transmute => Change::Transmute {
                number: rule,
                to: mutability()?,
            },
        };
        Ok(RuleRevision {
            seq: number(self.seq).ok_or_else(bad)?,
            at: self.at,
            change,
            proposal: match self.proposal {
                Some(p) => Some(number(p).ok_or_else(bad)?),
                None => None,
            },
        })
    }
}

/// Keep `revisions` of `game`'s rule set, made by [`RuleSet::apply`] (so checked) and given in
/// order. A revision whose `seq` is kept already is refused by the table's key, so two
/// changes made at once from one rule set cannot both be kept.
pub async fn append_rule_revisions(
    c: &mut Conn,
    game: &str,
    revisions: &[RuleRevision],
) -> Result<()> {
    for r in revisions {
        let (change, number, new_number, text, mutability) = match &r.change {
            Change::Enact {
                number,
                text,
                mutability,
            } => (
                RuleChangeKind::Enact,
                *number,
                None,
                Some(text),
                Some(*mutability),
            ),
            Change::Amend { number, text } => {
                (RuleChangeKind::Amend, *number, None, Some(text), None)
            }
            Change::Repeal { number } => (RuleChangeKind::Repeal, *number, None, None, None),
            Change::Renumber { from, to } => {
                (RuleChangeKind::Renumber, *from, Some(*to), None, None)
            }
            Change::Transmute { number, to } => {
                (RuleChangeKind::Transmute, *number, None, None, Some(*to))
            }
        };
        let text = text.map(serde_json::to_string).transpose()?;
        sqlx::query(
            "INSERT INTO rule_revisions (game_id, seq, at, change, number, new_number, text,
                 mutability, proposal)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game)
        .bind(i64::from(r.seq))
        .bind(r.at)
        .bind(change)
        .bind(i64::from(number))
        .bind(new_number.map(i64::from))
        .bind(text)
        .bind(mutability.map(RuleMutability::from))
        .bind(r.proposal.map(i64::from))
        .execute(&mut *c)
        .await?;
    }
    Ok(())
}

/// Revision `seq` of `game`'s rule set made by `by`, no proposal's (Agora BT2: the
/// Gamemaster's own amendment).
pub async fn set_revision_author(c: &mut Conn, game: &str, seq: u32, by: &str) -> Result<()> {
    sqlx::query("UPDATE rule_revisions SET made_by = $1 WHERE game_id = $2 AND seq = $3")
        .bind(by)
        .bind(game)
        .bind(i64::from(seq))
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Who made each revision of `game`'s rule set that no proposal made, by `seq` (the initial
/// set: nobody).
pub async fn revision_authors(c: &mut Conn, game: &str) -> Result<Vec<(i64, String)>> {
    let rows = sqlx::query(
        "SELECT seq, made_by FROM rule_revisions
         WHERE game_id = $1 AND made_by IS NOT NULL ORDER BY seq",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("seq")?, r.try_get("made_by")?)))
        .collect()
}

/// Every revision of `game`'s rule set, oldest first.
pub async fn rule_revisions(c: &mut Conn, game: &str) -> Result<Vec<RuleRevisionRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM rule_revisions WHERE game_id = $1 ORDER BY seq")
            .bind(game)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// `game`'s rule set, its revisions replayed and checked again (empty if it has none).
pub async fn rule_set(c: &mut Conn, game: &str) -> Result<RuleSet> {
    let revisions = rule_revisions(c, game)
        .await?
        .iter()
        .map(RuleRevisionRow::revision)
        .collect::<Result<Vec<_>>>()?;
    RuleSet::from_revisions(revisions)
        .map_err(|e| StoreError::Inconsistent(format!("{game}'s rules: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mutability_reads_back_as_it_was_stored() {
        for m in [Mutability::Mutable, Mutability::Immutable] {
            assert_eq!(Mutability::from(RuleMutability::from(m)), m);
        }
    }
}

crate::store::dialect::text_type!(RuleChangeKind { Enact = "enact", Amend = "amend", Repeal = "repeal", Renumber = "renumber", Transmute = "transmute" });

crate::store::dialect::text_type!(RuleMutability { Mutable = "mutable", Immutable = "immutable" });
