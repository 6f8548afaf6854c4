//! Diplomacy's mails: what the shared layer of `src/outgoing` composes for every kind of game,
//! filled with Diplomacy's own (boards, orders, results, retreats, supply centres, standings,
//! house rules, phases in words). [`compose`] (one function per mail, with the shared helpers
//! re-exported), [`render`] (the views and their templates), [`notices`] (the bodies of
//! Diplomacy's notices), [`centres`] (the table of supply centres by year), [`standings`] (a
//! tournament's standings as text).
//!
//! Its templates are `templates/diplomacy/`; it renders them, and the common ones, through the
//! shared engine in an environment of its own (`TEMPLATES`), so nothing shared lists them.

pub mod centres;
pub mod compose;
pub mod notices;
pub mod render;
pub mod standings;

use crate::outgoing::render::{RenderError, Templates};
use serde::Serialize;

/// Diplomacy's template environment: every common template, Diplomacy's whole mails and its
/// notices.
pub(crate) static TEMPLATES: Templates = Templates::new(&[render::TEMPLATES, notices::TEMPLATES]);

/// A body of plain text from one of Diplomacy's templates, exactly as written.
fn render_text<T: Serialize>(name: &str, v: &T) -> Result<String, RenderError> {
    TEMPLATES.render_text(name, v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn all_templates_load() {
        assert_eq!(super::TEMPLATES.check(), Ok(()));
    }
}
