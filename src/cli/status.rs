//! `chancery status`: is every mailbox being read? What is set aside, what is waiting to go?

use super::{ConfigArg, load_config, runtime};
use chancery::store;

pub fn run(a: ConfigArg) -> anyhow::Result<()> {
    let (cfg, base) = load_config(&a)?;
    runtime()?.block_on(async {
        let pool = store::open_database(&store::Database::at(&base, &cfg.database)).await?;
        let mut c = pool.acquire().await?;
        let now = chrono::Utc::now().timestamp();
        let when = |t: Option<i64>| match t {
            Some(t) => format!("{} ({}s ago)", chancery::outgoing::time::gmt(t), now - t),
            None => "never".to_string(),
        };
        let states = store::mailbox_states(&mut c).await?;
        let silent_after = i64::try_from(cfg.poll_seconds.max(10)).unwrap_or(60) * 3;
        let mut ok = true;
        for name in chancery::service::MAILBOXES {
            let s = states.iter().find(|s| s.mailbox == name);
            outln!("mailbox {name}:")?;
            let last_ok = s.and_then(|s| s.last_poll_ok);
            outln!("  last successful poll: {}", when(last_ok))?;
            outln!(
                "  last UID handled:     {}",
                s.and_then(|s| s.last_uid)
                    .map_or("none".to_string(), |u| u.to_string())
            )?;
            outln!("  polls:                {}", s.map_or(0, |s| s.polls))?;
            if let Some(s) = s
                && let (Some(e), Some(at)) = (&s.last_error, s.last_error_at)
            {
                outln!("  last error:           {e} ({})", when(Some(at)))?;
            }
            if last_ok.is_none_or(|t| now - t > silent_after) {
                outln!("  ALERT: silent for more than {silent_after}s")?;
                ok = false;
            }
        }
        let poisoned = store::poisoned(&mut c).await?;
        outln!("messages set aside: {}", poisoned.len())?;
        for p in &poisoned {
            outln!(
                "  {} uid {} {}: {} ({})",
                p.mailbox,
                p.uid,
                p.message_id.as_deref().unwrap_or("(no Message-ID)"),
                p.error,
                chancery::outgoing::time::gmt(p.at)
            )?;
        }
        let (pending, sent, failed) = store::outbox_counts(&mut c).await?;
        outln!("outgoing mail: {pending} pending, {sent} sent, {failed} failed")?;
        // Mail caused again and not sent twice (coalesced alerts, notices already sent): never
        // silent (issue 21.1).
        let day_ago = chrono::Utc::now().timestamp() - 86_400;
        let dups = store::duplicate_counts(&mut c, day_ago).await?;
        let list: Vec<String> = dups.iter().map(|(k, n)| format!("{k} {n}")).collect();
        outln!(
            "mail caused again and not sent (last 24 hours): {}",
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(", ")
            }
        )?;
        if ok {
            Ok(())
        } else {
            Err(anyhow::anyhow!("a mailbox is silent"))
        }
    })
}
