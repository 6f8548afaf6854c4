//! A phase's map in its results mails: drawn once a phase (never once a reader, and by the
//! outbox, outside the tick's transaction), kept under a key that every reader's mail names,
//! and shown inline in the mail's HTML part; the text part stays what it is. A reader who said
//! MAP OFF gets the text alone; a board with no drawing (no geometry in
//! `chancery_cartography`) sends text alone.

use super::store::{self, GameRow, NewMail};
use crate::engine::Result;
use crate::map::Map;
use crate::phase::Phase;
use crate::store::Conn;
use chancery_cartography::{Geometry, Scene};

/// A phase's map to draw, and the key it is kept under.
pub(crate) struct PhaseMap {
    pub key: String,
    /// The phase drawn (its board and results are in `phases`).
    pub phase: String,
    /// The text alternative.
    pub alt: String,
}

/// The key of a game's map of a phase (`outbox_pictures.key`). It names the game's rollbacks
/// (WM D.VIII(1)): a phase played again after one is a new map, never the old one kept.
pub(crate) fn key(game: &GameRow, phase: Phase) -> String {
    format!("map|{}|{}|{phase}", game.id, game.rollbacks)
}

/// Whether a board has a drawing.
pub(crate) fn drawn(map: &Map) -> bool {
    Geometry::for_variant(&map.name).is_some()
}

/// The map of a phase just adjudicated, if the board has a drawing: recorded now, drawn by the
/// outbox before the first mail that shows it is sent (the tick's transaction never waits on a
/// drawing).
pub(super) fn plan(game: &GameRow, map: &Map, phase: Phase) -> Option<PhaseMap> {
    drawn(map).then(|| PhaseMap {
        key: key(game, phase),
        phase: phase.to_string(),
        alt: format!("The map of {}: {}", game.id, Scene::title_of(phase)),
    })
}

/// A stored phase's scene, ready to draw.
pub struct Drawing(Scene<'static>);

impl Drawing {
    /// The PNG (CPU only: the caller runs it off the async workers). A map that cannot be
    /// drawn is logged and left out: the text is the mail.
    pub fn png(&self) -> Option<Vec<u8>> {
        match chancery_cartography::png_of(&self.0) {
            Ok(png) => Some(png),
            Err(e) => {
                tracing::warn!("the map of {} cannot be drawn: {e}", self.0.title);
                None
            }
        }
    }
}

/// The scene of a game's phase as stored (its board, and its results once adjudicated).
pub(crate) async fn drawing(c: &mut Conn, g: &GameRow, phase: &str) -> Result<Option<Drawing>> {
    let map = super::map_of(g)?;
    let Some(p) = store::page_phase(c, &g.id, Some(phase)).await? else {
        return Ok(None);
    };
    Ok(Some(Drawing(super::page::scene(map, &p)?)))
}

/// Whether any of the results mails is to a reader who has not said MAP OFF.
pub(super) fn wanted(mails: &[NewMail], maps_off: &[String]) -> bool {
    mails
        .iter()
        .filter(|m| m.kind == store::MailKind::Results)
        .any(|m| !off(maps_off, &m.to))
}

fn off(maps_off: &[String], address: &str) -> bool {
    maps_off.iter().any(|a| a.eq_ignore_ascii_case(address))
}

/// The results mails show the map, but not to a reader who said MAP OFF.
pub(super) fn show(mails: &mut [NewMail], map: &PhaseMap, maps_off: &[String]) {
    for m in mails
        .iter_mut()
        .filter(|m| m.kind == store::MailKind::Results)
    {
        if !off(maps_off, &m.to) {
            m.picture = Some(map.key.clone());
        }
    }
}
