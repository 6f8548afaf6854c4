//! The ACWC office's mails (issue 26), over the shared layer of `src/outgoing`: [`render`] (the
//! views and `templates/acwc/`) and [`compose`] (one function per mail: an entry received, an
//! entry approved with the secret, a round's pairings with the transcript anyone can check, a
//! match's result, a match's time negotiated, the Swiss's end, an observer's first mail). Times in UTC (ACWC "Match
//! negotiations": "players must communicate their times in UTC").

pub mod compose;
pub mod render;

use crate::outgoing::render::Templates;

/// The ACWC office's template environment: every common template and its own mails.
pub(crate) static TEMPLATES: Templates = Templates::new(&[render::TEMPLATES]);

#[cfg(test)]
mod tests {
    #[test]
    fn all_templates_load() {
        assert_eq!(super::TEMPLATES.check(), Ok(()));
    }
}
