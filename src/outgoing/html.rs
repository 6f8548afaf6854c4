//! The HTML alternative of a mail that shows a picture (a results mail's map): the picture
//! inline by its Content-ID, then the mail's own text, unchanged, as preformatted text. The
//! text part of the mail stays what it is; this is only its other view. Templates in
//! `templates/html/`, escaped as HTML by minijinja (the `.html` names turn auto-escaping on).

use crate::outgoing::render::RenderError;
use minijinja::{Environment, context};
use std::sync::OnceLock;

/// The HTML templates, by name.
const TEMPLATES: &[(&str, &str)] = &[
    ("mail.html", include_str!("../../templates/html/mail.html")),
    ("game.html", include_str!("../../templates/html/game.html")),
];

/// The HTML environment, built once.
pub(crate) fn env() -> Result<&'static Environment<'static>, RenderError> {
    static ENV: OnceLock<Result<Environment<'static>, String>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        for (name, source) in TEMPLATES {
            env.add_template(name, source).map_err(|e| e.to_string())?;
        }
        Ok(env)
    })
    .as_ref()
    .map_err(|e| RenderError::Template(e.clone()))
}

/// The Content-ID a mail's map goes by.
pub const MAP_CONTENT_ID: &str = "map@chancery";

/// The HTML part of a mail: its picture (`cid:` `content_id`, `width` pixels wide at most),
/// then its text.
pub fn mail_with_picture(
    subject: &str,
    text: &str,
    alt: &str,
    content_id: &str,
    width: u32,
) -> Result<String, RenderError> {
    Ok(env()?.get_template("mail.html")?.render(context! {
        subject, text, alt, content_id, width,
    })?)
}
