//! The games' read-only web pages (issue 27, docs/maps.md), served when `[web]` is configured:
//! `/g/<token>` (the page), `/g/<token>/phase/<phase>` (a past phase shown), and
//! `/g/<token>/map/<now|phase>.svg` (the maps the page shows, drawn as the mails draw them).
//! Only GET; nothing is written. An unknown token, phase or path is a plain 404 that says
//! nothing of which games exist. No scripts, no third-party anything: the page's own headers
//! forbid them, and keep the link (the token) out of any Referer.

use super::Shared;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::sync::Arc;
use tokio::sync::watch;

/// The reader's zone, from the page's own form.
#[derive(serde::Deserialize)]
struct Ask {
    #[serde(default)]
    tz: Option<String>,
}

/// Serve the pages on `listener` until shutdown.
pub(super) async fn web_task(
    shared: Arc<Shared>,
    listener: tokio::net::TcpListener,
    mut shutdown: watch::Receiver<bool>,
) {
    let app = Router::new()
        .route("/g/{token}", get(game_page))
        .route("/g/{token}/phase/{phase}", get(phase_page))
        .route("/g/{token}/map/{file}", get(map))
        .fallback(|| async { not_found() })
        .with_state(shared);
    let stop = async move {
        let _ = shutdown.wait_for(|s| *s).await;
    };
    if let Err(e) = axum::serve(listener, app)
        .with_graceful_shutdown(stop)
        .await
    {
        tracing::error!("the web pages stopped: {e}");
    }
}

async fn game_page(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
    Query(ask): Query<Ask>,
) -> Response {
    page(&s, &token, None, ask).await
}

async fn phase_page(
    State(s): State<Arc<Shared>>,
    Path((token, phase)): Path<(String, String)>,
    Query(ask): Query<Ask>,
) -> Response {
    page(&s, &token, Some(&phase), ask).await
}

async fn page(s: &Shared, token: &str, phase: Option<&str>, ask: Ask) -> Response {
    let base = format!("/g/{token}");
    let tz = ask.tz.unwrap_or_default();
    let ask = crate::games::PageAsk {
        base: &base,
        phase,
        tz: tz.trim(),
        now: s.clock.now(),
    };
    match crate::games::page(&s.pool, token, &ask).await {
        Ok(Some(html)) => answer("text/html; charset=utf-8", html),
        Ok(None) => not_found(),
        Err(e) => failed(&e),
    }
}

async fn map(
    State(s): State<Arc<Shared>>,
    Path((token, file)): Path<(String, String)>,
) -> Response {
    let Some(which) = file.strip_suffix(".svg") else {
        return not_found();
    };
    match crate::games::page_map(&s.pool, &token, which).await {
        Ok(Some(svg)) => answer("image/svg+xml", svg),
        Ok(None) => not_found(),
        Err(e) => failed(&e),
    }
}

/// A page or map with the headers every answer carries: no scripts or outside content, no
/// Referer (the link is the key), not cached by the way.
fn answer(content_type: &'static str, body: String) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not found.\n").into_response()
}

fn failed(e: &crate::engine::EngineError) -> Response {
    tracing::error!("a game's page: {e}");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        "The page cannot be shown now.\n",
    )
        .into_response()
}
