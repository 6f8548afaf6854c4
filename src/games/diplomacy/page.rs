//! A Diplomacy game's read-only web page (issue 27), served by `chancery serve` at the game's
//! unguessable link: the current map, the history phase by phase with its maps and results,
//! the deadline in GMT and the reader's zone, the press published to all, and the supply-centre
//! chart. The same drawing as the results mails (`chancery_cartography`): no second renderer.
//! Nothing secret: no votes, no addresses, no secrets, no author of grey, dark-grey or black
//! press, no press to some powers only, no orders before their phase is adjudicated.

use super::store::{self, GameRow, PagePhase, PagePress, YearEnd};
use crate::engine::{EngineError, Result};
use crate::json::PhaseInput;
use crate::map::Map;
use crate::outgoing::time::{Zone, gmt};
use crate::phase::Phase;
use crate::store::Conn;
use crate::time::Ts;
use chancery_cartography::{Results, Scene};
use serde::Serialize;

/// What the page is asked for: the game's page (with one past phase shown, or the latest),
/// in the reader's zone.
pub struct PageAsk<'a> {
    /// The page's own path (`/g/<token>`): every link on it starts there.
    pub base: &'a str,
    pub phase: Option<&'a str>,
    pub tz: &'a str,
    pub now: Ts,
}

#[derive(Serialize)]
struct PageView {
    title: String,
    game: String,
    variant: String,
    status: &'static str,
    base: String,
    tz: String,
    zone_note: Option<String>,
    /// The phase being played, its deadline in GMT and in the reader's zone.
    current: Option<Current>,
    /// The map of the position now.
    map_now: String,
    /// The phase shown with its orders and results.
    shown: Option<Shown>,
    phases: Vec<PhaseLink>,
    press: Vec<PressView>,
    chart: Chart,
}

#[derive(Serialize)]
struct Current {
    phase: String,
    title: String,
    deadline_gmt: String,
    deadline_local: Option<String>,
}

#[derive(Serialize)]
struct Shown {
    phase: String,
    title: String,
    map: String,
    orders: Vec<OrderView>,
}

#[derive(Serialize)]
struct OrderView {
    power: String,
    order: String,
    result: String,
}

#[derive(Serialize)]
struct PhaseLink {
    phase: String,
    title: String,
    shown: bool,
}

#[derive(Serialize)]
struct PressView {
    phase: String,
    from: String,
    body: String,
}

#[derive(Serialize)]
struct Chart {
    powers: Vec<String>,
    rows: Vec<ChartRow>,
}

#[derive(Serialize)]
struct ChartRow {
    year: String,
    counts: Vec<usize>,
}

/// The game's page as HTML; None when it asks for a phase the game has not adjudicated.
pub async fn page(c: &mut Conn, g: &GameRow, ask: &PageAsk<'_>) -> Result<Option<String>> {
    let map = super::map_of(g)?;
    let phases = store::page_phases(c, &g.id).await?;
    let played: Vec<&PagePhase> = phases.iter().filter(|p| p.results.is_some()).collect();
    let shown = match ask.phase {
        Some(want) => match played.iter().find(|p| p.phase.eq_ignore_ascii_case(want)) {
            Some(p) => Some(*p),
            None => return Ok(None),
        },
        None => played.last().copied(),
    };
    let zone = Zone::new(ask.tz);
    let view = PageView {
        title: format!("{}: {}", g.id, map.name),
        game: g.id.clone(),
        variant: map.name.clone(),
        status: g.status.as_str(),
        base: ask.base.to_string(),
        tz: ask.tz.to_string(),
        zone_note: zone.note.clone(),
        current: current(&phases, &zone, g)?,
        map_now: format!("{}/map/now.svg", ask.base),
        shown: shown.map(|p| shown_phase(p, ask.base)).transpose()?,
        phases: played
            .iter()
            .rev()
            .map(|p| PhaseLink {
                phase: p.phase.clone(),
                title: phase_title(&p.phase),
                shown: shown.is_some_and(|s| s.phase == p.phase),
            })
            .collect(),
        press: store::page_press(c, &g.id)
            .await?
            .iter()
            .map(press_view)
            .collect(),
        chart: chart(map, &store::year_ends(c, &g.id).await?),
    };
    let html = crate::outgoing::html::env()
        .and_then(|e| {
            let ctx = minijinja::Value::from(minijinja::value::Serde(&view));
            Ok(e.get_template("game.html")?.render(ctx)?)
        })
        .map_err(|e| EngineError::Page(e.to_string()))?;
    Ok(Some(html))
}

/// The SVG of the position now (`now`) or of a phase adjudicated, with its orders and results.
pub async fn map_svg(c: &mut Conn, g: &GameRow, which: &str) -> Result<Option<String>> {
    let map = super::map_of(g)?;
    // The position now: the last phase's board, its orders unseen until adjudicated (or, in a
    // finished game, its results). A past phase: only once adjudicated.
    let phase = if which.eq_ignore_ascii_case("now") {
        store::page_phase(c, &g.id, None).await?
    } else {
        store::page_phase(c, &g.id, Some(&which.to_ascii_uppercase()))
            .await?
            .filter(|p| p.results.is_some())
    };
    let Some(p) = phase else { return Ok(None) };
    Ok(Some(chancery_cartography::svg(&scene(map, &p)?)))
}

/// A stored phase's scene: its board, and its results if adjudicated.
pub(super) fn scene(map: &Map, p: &PagePhase) -> Result<Scene<'static>> {
    let mut input: PhaseInput = serde_json::from_str(&p.board)?;
    input.variant = map.name.clone();
    input.phase = p.phase.clone();
    input.orders.clear();
    let out: Option<Results> = p.results.as_deref().map(serde_json::from_str).transpose()?;
    Scene::stored(&input, out.as_ref()).map_err(|e| EngineError::StoredBoard(e.to_string()))
}

/// The phase being played and its deadline, if the game runs.
fn current(phases: &[PagePhase], zone: &Zone, g: &GameRow) -> Result<Option<Current>> {
    let open = phases.last().filter(|p| p.adjudicated_at.is_none());
    let Some(p) = open.filter(|_| g.status == store::GameStatus::Active) else {
        return Ok(None);
    };
    Ok(Some(Current {
        phase: p.phase.clone(),
        title: phase_title(&p.phase),
        deadline_gmt: gmt(p.deadline),
        deadline_local: zone
            .local(p.deadline)
            .map_err(|e| EngineError::Page(e.to_string()))?,
    }))
}

/// A phase adjudicated: its map and each order with its result.
fn shown_phase(p: &PagePhase, base: &str) -> Result<Shown> {
    let out: Results = serde_json::from_str(p.results.as_deref().unwrap_or("{}"))?;
    Ok(Shown {
        phase: p.phase.clone(),
        title: phase_title(&p.phase),
        map: format!("{base}/map/{}.svg", p.phase),
        orders: out
            .orders
            .iter()
            .map(|o| OrderView {
                power: o.power.clone(),
                order: o.order.clone(),
                result: match &o.reason {
                    Some(r) => format!("{} ({r})", o.result),
                    None => o.result.clone(),
                },
            })
            .collect(),
    })
}

/// "Spring 1901, movement", or the stored name when it is no phase.
fn phase_title(phase: &str) -> String {
    phase
        .parse::<Phase>()
        .map_or_else(|_| phase.to_string(), Scene::title_of)
}

/// Press to all as every reader got it: the author named for white press only (grey press is
/// anonymous, dark grey signed as its author chose, black printed as from the power it names).
fn press_view(p: &PagePress) -> PressView {
    let from = match (&p.attributed, &p.signature, p.grey) {
        (Some(as_if), _, _) => as_if.clone(),
        (None, Some(signed), _) => signed.clone(),
        (None, None, true) => "(anonymous)".to_string(),
        (None, None, false) => p.author.clone(),
    };
    PressView {
        phase: phase_title(&p.phase),
        from,
        body: p.body.clone(),
    }
}

/// Each power's supply centres at the end of each year.
fn chart(map: &Map, ends: &[YearEnd]) -> Chart {
    let powers: Vec<String> = map
        .all_powers()
        .map(|p| map.power_name(p).to_string())
        .collect();
    Chart {
        rows: ends
            .iter()
            .map(|e| ChartRow {
                year: e.year.to_string(),
                counts: powers
                    .iter()
                    .map(|p| {
                        e.owners
                            .iter()
                            .filter(|o| o.owner.as_ref() == Some(p))
                            .count()
                    })
                    .collect(),
            })
            .collect(),
        powers,
    }
}
