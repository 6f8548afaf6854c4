//! The settings a mail's acceptance reads, for every kind of game: where the GM's address must
//! be (`GmAddress`) and how a sender proves who they are (`Authentication`). A kind keeps them
//! in its own house rules (Diplomacy's `Rules` has both, named by the same keys in its presets);
//! the shared intake (`chancery_intake::acceptance`) is handed the values.

use serde::{Deserialize, Serialize};

/// Where the GM's address must appear on an order mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GmAddress {
    /// Maharajiad B.III(2): "To" the GM, not CC or BCC.
    To,
    /// WM D.II(2): in "To" or "CC".
    ToOrCc,
}

/// How a sender proves to be the registered player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Authentication {
    /// The player's secret in the body or subject, or a DKIM/DMARC pass for the sender's domain
    /// in the receiving server's Authentication-Results.
    SecretOrDkim,
    /// The secret, always, whatever DKIM says: the tournament presets (WM D.X(6), Maharajiad
    /// B.XI(7)), where the GM must know who sent the orders.
    Secret,
    /// A DKIM/DMARC pass, always.
    Dkim,
}
