//! The bodies of notices, alerts and answers of several lines that the engine and the kinds of
//! game send: one template each, `templates/common/` for what every kind sends and
//! `templates/<kind>/` for one kind's own. The caller passes the values, already formatted
//! where they need formatting; each body is the template's text exactly (no tidying), so what
//! was sent before the templates is what is sent now, byte for byte.

use crate::outgoing::render::{RenderError, render_text};
use serde::Serialize;

/// The notice templates, embedded (added to the one template environment of [`super::render`]).
pub(crate) const TEMPLATES: &[(&str, &str)] = &[(
    "common/message-set-aside.txt",
    include_str!("../../templates/common/message-set-aside.txt"),
)];

/// A message that could not be handled and was set aside (poisoned), for the masters.
#[derive(Serialize)]
pub struct MessageSetAside<'a> {
    pub mailbox: &'a str,
    pub uv: u32,
    pub uid: u32,
    pub mid: &'a str,
    pub from: &'a str,
    pub subject: &'a str,
    pub sha: &'a str,
    pub error: &'a str,
}

pub fn message_set_aside(v: &MessageSetAside<'_>) -> Result<String, RenderError> {
    render_text("common/message-set-aside.txt", v)
}
