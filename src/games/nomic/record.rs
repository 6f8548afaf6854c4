//! `RULES`, `HISTORY` and `POINTS` by mail (Nomic 212: nothing is deleted or edited, so the
//! record is every mail the game kept): the rule set as it stands, the game's course (every
//! rule-change submitted and what became of it, every vote mail, every change of the rule set,
//! every Point of Order), and the points thread. The SUMMARY query gives the points and the
//! open proposals.

use super::proven::PlayerMail;
use super::store::{self, Conn, GameRow, OrderEventKind, PointsCause};
use crate::engine::Result;
use crate::outgoing::nomic::compose;
use crate::outgoing::nomic::render::{self, RecordSection, RecordView};
use crate::outgoing::time::gmt;
use crate::ruleset::{Change, Mutability};
use std::collections::BTreeMap;

/// What a player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Asked {
    Rules,
    History,
    Points,
}

/// The answer to one ask, at the player's registered address.
pub(super) async fn answer(c: &mut Conn, m: &PlayerMail<'_>, asked: Asked) -> Result<()> {
    let v = match asked {
        Asked::Rules => rules(c, m.g).await?,
        Asked::History => history(c, m.g).await?,
        Asked::Points => points(c, m.g).await?,
    };
    let mail = compose::record(m.env, m.g, &m.player.address, m.msg, m.ctx.key, &v);
    m.answer(c, mail).await
}

/// The rule set as it stands, rule by rule.
async fn rules(c: &mut Conn, g: &GameRow) -> Result<RecordView> {
    let set = store::rule_set(c, &g.id).await?;
    let links = super::links_now(&set);
    let sections = set
        .current()
        .values()
        .map(|r| RecordSection {
            heading: format!(
                "Rule {} ({})",
                r.number,
                match r.mutability {
                    Mutability::Mutable => "mutable",
                    Mutability::Immutable => "immutable",
                }
            ),
            lines: refers_to(&links, r.number)
                .into_iter()
                .chain(r.text.iter().cloned())
                .collect(),
        })
        .collect();
    Ok(RecordView {
        game: g.id.clone(),
        title: "the rules".to_string(),
        sections,
    })
}

/// The rules a rule links to (Nomic 110: they follow a renumbering), as a line, if any.
fn refers_to(links: &crate::nomic::rules::Links, number: u32) -> Option<String> {
    let to = links.of(number).filter(|t| !t.is_empty())?;
    let names: Vec<String> = to.iter().map(u32::to_string).collect();
    Some(format!("[Refers to rules {}.]", names.join(", ")))
}

/// Every player's points, and the points thread (Nomic 209).
async fn points(c: &mut Conn, g: &GameRow) -> Result<RecordView> {
    Ok(RecordView {
        game: g.id.clone(),
        title: "the points".to_string(),
        sections: points_sections(c, g).await?,
    })
}

fn cause(rule: PointsCause) -> &'static str {
    match rule {
        PointsCause::Adopted203 => "proposal adopted (Nomic 203)",
        PointsCause::Against205 => "voted against an adopted proposal (Nomic 205)",
        PointsCause::Defeated207 => "proposal defeated (Nomic 207)",
    }
}

async fn points_sections(c: &mut Conn, g: &GameRow) -> Result<Vec<RecordSection>> {
    let rows = store::points(c, &g.id).await?;
    let mut totals: BTreeMap<String, i64> = store::players(c, &g.id)
        .await?
        .into_iter()
        .map(|p| (p.power, 0))
        .collect();
    let mut thread = Vec::new();
    for r in &rows {
        let total = totals.entry(r.player.clone()).or_insert(0);
        *total += r.points;
        let proposal = r
            .proposal
            .map(|n| format!(", proposal {n}"))
            .unwrap_or_default();
        thread.push(format!(
            "{}  {} {} ({:+}): {}{proposal}",
            gmt(r.at),
            r.player,
            total,
            r.points,
            cause(r.rule)
        ));
    }
    let table = totals.iter().map(|(p, t)| format!("{p}: {t}")).collect();
    Ok(vec![
        RecordSection {
            heading: "Points (Nomic 209)".to_string(),
            lines: table,
        },
        RecordSection {
            heading: "The points thread".to_string(),
            lines: if thread.is_empty() {
                vec!["No points have changed yet.".to_string()]
            } else {
                thread
            },
        },
    ])
}

/// The game's course: every rule-change submitted, every vote mail, every change of the rule
/// set, every Point of Order (Nomic 212).
async fn history(c: &mut Conn, g: &GameRow) -> Result<RecordView> {
    let mut sections = vec![proposals_section(c, g).await?];
    sections.push(revisions_section(c, g).await?);
    sections.push(orders_section(c, g).await?);
    sections.extend(points_sections(c, g).await?);
    Ok(RecordView {
        game: g.id.clone(),
        title: "the record".to_string(),
        sections,
    })
}

async fn proposals_section(c: &mut Conn, g: &GameRow) -> Result<RecordSection> {
    let mut lines = Vec::new();
    for s in store::submissions(c, &g.id).await? {
        let head = format!("{}  {}: {}", gmt(s.at), s.player, s.text);
        let Some(number) = s.number else {
            lines.push(format!(
                "{head} -- not proper: {}",
                s.improper.unwrap_or_default()
            ));
            continue;
        };
        let result = match store::proposal(c, &g.id, number).await? {
            Some(p) => match p.passed {
                Some(true) => "adopted",
                Some(false) => "defeated",
                None => "open",
            },
            None => "open",
        };
        lines.push(format!("{head} -- Proposal {number}, {result}"));
        for v in store::votes_on(c, &g.id, number).await? {
            let choice = match v.choice {
                store::VoteChoice::Yes => "Yes",
                store::VoteChoice::No => "No",
            };
            let why = v
                .refused
                .map(|r| format!(" (not counted: {r})"))
                .unwrap_or_default();
            lines.push(format!(
                "    {}  {}: Vote: {choice}{why}",
                gmt(v.at),
                v.voter
            ));
        }
    }
    if lines.is_empty() {
        lines.push("No rule-change has been submitted yet.".to_string());
    }
    Ok(RecordSection {
        heading: "Rule-changes submitted (Nomic 107) and their votes (Nomic 113)".to_string(),
        lines,
    })
}

async fn revisions_section(c: &mut Conn, g: &GameRow) -> Result<RecordSection> {
    let set = store::rule_set(c, &g.id).await?;
    let authors: BTreeMap<i64, String> = store::revision_authors(c, &g.id)
        .await?
        .into_iter()
        .collect();
    let lines = set
        .revisions()
        .iter()
        .filter(|r| r.proposal.is_some() || authors.contains_key(&i64::from(r.seq)))
        .map(|r| {
            let what = match &r.change {
                Change::Enact { number, .. } => format!("rule {number} enacted"),
                Change::Amend { number, .. } => format!("rule {number} amended"),
                Change::Repeal { number } => format!("rule {number} repealed"),
                Change::Renumber { from, to } => format!("rule {from} renumbered {to}"),
                Change::Transmute { number, .. } => format!("rule {number} transmuted"),
            };
            let by = match (r.proposal, authors.get(&i64::from(r.seq))) {
                (Some(p), _) => format!("by Proposal {p}"),
                (None, Some(a)) => format!("by the {a}"),
                (None, None) => String::new(),
            };
            format!("{}  {what} {by}", gmt(r.at))
        })
        .collect::<Vec<_>>();
    Ok(RecordSection {
        heading: "Changes to the rules (Nomic 206)".to_string(),
        lines: if lines.is_empty() {
            vec!["The rules stand as the game began.".to_string()]
        } else {
            lines
        },
    })
}

async fn orders_section(c: &mut Conn, g: &GameRow) -> Result<RecordSection> {
    let events = store::order_events(c, &g.id).await?;
    let mut lines = Vec::new();
    for p in store::points_of_order(c, &g.id, false).await? {
        let state = match p.settled_at {
            Some(at) => format!("settled {}", gmt(at)),
            None => "open".to_string(),
        };
        lines.push(format!(
            "{}  PO{} by {}: {} ({state})",
            gmt(p.raised_at),
            p.number,
            p.raised_by,
            p.question
        ));
        for e in events.iter().filter(|e| e.number == p.number) {
            let what = match e.event {
                OrderEventKind::Judgement => format!("Judgement: {}", e.text),
                OrderEventKind::Dispute => "Dispute".to_string(),
                OrderEventKind::Agree => "agrees with the Judgement".to_string(),
                OrderEventKind::Disagree => "disagrees with the Judgement".to_string(),
            };
            lines.push(format!("    {}  {}: {what}", gmt(e.at), e.by));
        }
    }
    Ok(RecordSection {
        heading: "Points of Order (Nomic 214)".to_string(),
        lines: if lines.is_empty() {
            vec!["No Point of Order has been raised.".to_string()]
        } else {
            lines
        },
    })
}

/// The SUMMARY query's answer: the points and the proposals open.
pub(super) async fn summary(c: &mut Conn, g: &GameRow) -> Result<String> {
    let mut sections = points_sections(c, g).await?;
    sections.truncate(1);
    let open: Vec<String> = store::open_rule_changes(c, &g.id)
        .await?
        .iter()
        .map(|p| {
            format!(
                "Proposal {} by {}, voting closes {}",
                p.number,
                p.proposer.clone().unwrap_or_default(),
                p.closes_at.map(gmt).unwrap_or_default()
            )
        })
        .collect();
    sections.push(RecordSection {
        heading: "Open proposals".to_string(),
        lines: if open.is_empty() {
            vec!["none".to_string()]
        } else {
            open
        },
    });
    let v = RecordView {
        game: g.id.clone(),
        title: "summary".to_string(),
        sections,
    };
    Ok(render::record(&v)?.body)
}
