//! A phase's map in its results mails: drawn once a phase (never once a reader), kept under a
//! key that every reader's mail names, and shown inline in the mail's HTML part; the text part
//! stays what it is. A reader who said MAP OFF gets the text alone; a board with no drawing
//! (no geometry in `chancery_cartography`) sends text alone.

use super::store::{self, GameRow, NewMail, Picture};
use crate::adjudicator::{Adjudication, Board};
use crate::map::Map;
use crate::phase::Phase;
use chancery_cartography::{Geometry, Scene};

/// A phase's map, drawn, and the key it is kept under.
pub(crate) struct PhaseMap {
    pub key: String,
    pub picture: Picture,
}

/// The key of a game's map of a phase (`outbox_pictures.key`). It names the game's rollbacks
/// (WM D.VIII(1)): a phase played again after one is a new map, never the old one kept.
pub(crate) fn key(game: &GameRow, phase: Phase) -> String {
    format!("map|{}|{}|{phase}", game.id, game.rollbacks)
}

/// Whether a board has a drawing.
pub(crate) fn drawn(map: &Map) -> bool {
    Geometry::for_variant(&map.name).is_some_and(|g| !g.provinces.is_empty())
}

/// The map of a phase just adjudicated (`before`: the board it was played on), if the board
/// has a drawing. A map that cannot be drawn is logged and left out: the text is the mail.
pub(super) fn draw(
    game: &GameRow,
    map: &Map,
    before: &Board,
    adj: &Adjudication,
) -> Option<PhaseMap> {
    if !drawn(map) {
        return None;
    }
    let scene = Scene::adjudicated(map, before, adj);
    picture(&game.id, &scene).map(|picture| PhaseMap {
        key: key(game, before.phase),
        picture,
    })
}

/// A scene drawn as the picture a mail shows.
pub(crate) fn picture(game: &str, scene: &Scene<'_>) -> Option<Picture> {
    let svg = chancery_cartography::svg(scene);
    match chancery_cartography::png(&svg) {
        Ok(png) => Some(Picture {
            png,
            alt: format!("The map of {game}: {}", scene.title),
        }),
        Err(e) => {
            tracing::warn!(game, "the map of {} cannot be drawn: {e}", scene.title);
            None
        }
    }
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
