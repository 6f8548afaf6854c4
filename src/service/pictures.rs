//! The pictures the outbox's mails show (a phase's map): drawn once, when the first mail that
//! shows one is about to go, outside any transaction and off the async workers (the tick only
//! recorded what to draw), and kept in memory while the other readers' mails go.
//!
//! A drawing is never written to the store: the same scene always draws the same bytes, so a
//! picture let go of (or lost with the process) is drawn again rather than read back. In a
//! storm that spared the store a hundred megabytes of blobs, their log and its checkpoints.

use crate::store::{self, Conn, StoreError};
use crate::transport::smtp::EncodedPng;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The drawings kept: a storm's senders go through the games in turn, each game's readers'
/// mails side by side, so the last few dozen cover every mail in flight.
const KEPT: usize = 64;

/// A picture as a mail shows it: the PNG ready for the mail (base64, encoded once), its width
/// and its text alternative.
#[derive(Debug)]
pub struct Picture {
    pub encoded: EncodedPng,
    pub width: u32,
    pub alt: String,
}

impl Picture {
    fn of(png: &[u8], alt: String) -> Picture {
        Picture {
            encoded: EncodedPng::of(png),
            width: width(png),
            alt,
        }
    }
}

/// A PNG's width, from its header (IHDR follows the 8-byte signature and its own 8 bytes);
/// 1000 if it cannot be read.
fn width(png: &[u8]) -> u32 {
    png.get(16..20)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map_or(1000, u32::from_be_bytes)
}

/// The drawings kept, and the pictures being drawn: a phase's readers' mails may fall to two
/// senders, and the second waits for the first's drawing instead of drawing it again.
#[derive(Default)]
pub struct Gallery {
    kept: Mutex<Kept>,
    drawing: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
}

/// The last [`KEPT`] drawings, the oldest let go first.
#[derive(Default)]
struct Kept {
    by_id: HashMap<i64, Arc<Picture>>,
    order: VecDeque<i64>,
}

impl Gallery {
    fn kept(&self, id: i64) -> Option<Arc<Picture>> {
        // A poisoned lock only means a sender panicked: the drawings are still whole.
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.by_id.get(&id).cloned()
    }

    fn keep(&self, id: i64, picture: Arc<Picture>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.by_id.insert(id, picture).is_none() {
            kept.order.push_back(id);
        }
        while kept.order.len() > KEPT {
            if let Some(old) = kept.order.pop_front() {
                kept.by_id.remove(&old);
            }
        }
    }

    /// One picture: kept, or drawn now under its own lock (a sender that finds another drawing
    /// it waits, then finds it kept). None when it cannot be drawn.
    async fn one(&self, c: &mut Conn, id: i64) -> Result<Option<Arc<Picture>>, StoreError> {
        if let Some(p) = self.kept(id) {
            return Ok(Some(p));
        }
        let lock = {
            let mut drawing = self.drawing.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(drawing.entry(id).or_default())
        };
        let picture = {
            let _drawing = lock.lock().await;
            match self.kept(id) {
                Some(p) => Some(p),
                None => draw(c, id).await?.map(Arc::new),
            }
        };
        if let Some(p) = &picture {
            self.keep(id, Arc::clone(p));
        }
        self.drawing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        Ok(picture)
    }
}

/// The pictures a run of mails shows, each found once however many mails show it.
pub struct Pictures(HashMap<i64, Arc<Picture>>);

impl Pictures {
    pub async fn of(
        c: &mut Conn,
        gallery: &Gallery,
        rows: &[store::OutboxRow],
    ) -> Result<Pictures, StoreError> {
        let mut found = HashMap::new();
        for id in rows.iter().filter_map(|r| r.picture_id) {
            if found.contains_key(&id) {
                continue;
            }
            if let Some(picture) = gallery.one(c, id).await? {
                found.insert(id, picture);
            }
        }
        Ok(Pictures(found))
    }

    pub fn get(&self, id: Option<i64>) -> Option<&Picture> {
        id.and_then(|id| self.0.get(&id)).map(|p| &**p)
    }
}

/// Draw a picture. None when it cannot be drawn (its record, game or phase gone, a drawing
/// error): the mails go as text alone.
async fn draw(c: &mut Conn, id: i64) -> Result<Option<Picture>, StoreError> {
    let Some(row) = store::picture(c, id).await? else {
        return Ok(None);
    };
    let (Some(game), Some(phase)) = (&row.game_id, &row.phase) else {
        return Ok(None);
    };
    let drawing = match crate::games::drawing(c, game, phase).await {
        Ok(Some(d)) => d,
        Ok(None) => return Ok(None),
        Err(e) => {
            tracing::warn!(game, phase, "a map to send cannot be read: {e}");
            return Ok(None);
        }
    };
    let alt = row.alt;
    let picture =
        tokio::task::spawn_blocking(move || drawing.png().map(|png| Picture::of(&png, alt)))
            .await
            .ok()
            .flatten();
    Ok(picture)
}
