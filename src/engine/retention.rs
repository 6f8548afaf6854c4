//! What Chancery keeps of what people wrote, and for how long (`[limits] raw_retention_days`,
//! docs/deploying.md): the raw mail, the press, what each submission was read as, and the
//! bodies of outgoing mail that is done with (start mails carry secrets, results carry press)
//! are emptied once older, and the ballots of proposals decided since dropped; the rows that
//! say what happened and when stay.

use super::Result;
use crate::config::Limits;
use crate::store::Pool;
use crate::store::{self, Purged};
use crate::time::{DAY, Ts};

/// Empty everything older than the retention, as of `now`. Each kind is one statement of its
/// own (no long write lock), and each finds what is left through a partial index.
pub async fn purge_expired(pool: &Pool, limits: &Limits, now: Ts) -> Result<Purged> {
    let before = now - limits.raw_retention_days.max(1) * DAY;
    let mut c = pool.acquire().await?;
    Ok(Purged {
        raw_mail: store::purge_raw(&mut c, before, now).await?,
        // Diplomacy's press and submissions, named here until a kind's retention has a seam of
        // its own (`scripts/check-purity` allows these two, and only in this file).
        press: store::diplomacy::purge_press(&mut c, before).await?,
        submissions: store::diplomacy::purge_submissions(&mut c, before).await?,
        outbox_bodies: store::purge_outbox_bodies(&mut c, before).await?,
        pictures: store::purge_pictures(&mut c, before).await?,
        ballots: store::purge_ballots(&mut c, before).await?,
    })
}
