//! The Nomic's mails (issue 25), over the shared layer of `src/outgoing`: [`render`] (the views
//! and their templates, `templates/nomic/`) and [`compose`] (one function per mail: a proposal
//! put to the vote, a vote taken, a vote's result with the rule set's changes and the points, a
//! Point of Order's course, the record and the rules asked for, the start mail).
//!
//! Every time is shown in UK time beside GMT (Nomic 106). The Nomic's votes are public (Nomic
//! 113: cast in the voting thread), so a result names the voters; nothing here names the
//! Diplomacy kind's types.

pub mod compose;
pub mod render;

use crate::outgoing::render::Templates;

/// The Nomic's template environment: every common template and the Nomic's whole mails.
pub(crate) static TEMPLATES: Templates = Templates::new(&[render::TEMPLATES]);

#[cfg(test)]
mod tests {
    #[test]
    fn all_templates_load() {
        assert_eq!(super::TEMPLATES.check(), Ok(()));
    }
}
