//! A Diplomacy order mail to the GM box, once the router has found its running game: the seat
//! it is for and who sent it (`engine::seat`), the orders read (with the player's own
//! abbreviations), checked against replays and the deadline (`engine::timeliness`), combined
//! with what stands (WM D.III(3)), stored with its press and votes, its requests answered
//! (`engine::extension`), and acknowledged.

use super::house::DiplomacyHouse;
use super::reading::{addressed_power, read_digest, read_with};
use super::{abbreviations, assistants, board_from_json, map_of, press, regulations};
use crate::acceptance;
use crate::adjudicator::Board;
use crate::config::Env;
use crate::engine::extension::{Request, Requests};
use crate::engine::receive::{Ctx, Recipient, Tag, answer};
use crate::engine::seat::{self, Seat};
use crate::engine::timeliness::{self, Timeliness};
use crate::engine::{Processed, Result};
use crate::games::diplomacy::store::StandingOrder;
use crate::games::diplomacy::store::{self, GameRow, PhaseRow, PlayerRow};
use crate::map::{Map, Power};
use crate::message::ReadMessage;
use crate::order::{Order, parse_order};
use crate::orderset::{MailRead, RequestOut};
use crate::outgoing::diplomacy::compose;
use crate::phase::Phase;
use crate::policy;
use crate::rules::Rules;
use crate::store::Conn;
use crate::time::Ts;

/// An order mail for game `g` (running).
pub async fn order_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<(Processed, Tag)> {
    let m = OrderMail {
        env,
        ctx,
        msg,
        g,
        house: DiplomacyHouse::of(g)?,
        map: map_of(g)?,
    };
    let mut tag = Tag::of(g);
    let seated = match m.seated(c, &mut tag).await? {
        Ok(seated) => seated,
        Err(why) => {
            seat::refuse_unproven(c, env, ctx, msg, g, why.to_string()).await?;
            return Ok((Processed::Rejected, tag));
        }
    };
    let outcome = match m.read_proven(c, &seated).await? {
        Some(read) => m.accept(c, &seated, read).await?,
        None => Processed::Rejected,
    };
    Ok((outcome, tag))
}

/// The mail being handled, and its game's house (its rules) and map.
struct OrderMail<'a> {
    env: &'a Env,
    ctx: &'a Ctx<'a>,
    msg: &'a ReadMessage,
    g: &'a GameRow,
    house: DiplomacyHouse,
    map: &'static Map,
}

/// The seat a mail is for, found before its sender is proven.
struct Seated {
    power: Power,
    phase: PhaseRow,
    /// The phase, parsed.
    kind: Phase,
    player: PlayerRow,
    players: Vec<PlayerRow>,
    /// The phase's board, read once a mail (the acknowledgement shows it too).
    board: Board,
    /// Who sent the mail: the power's player, or one of its announced assistants (Agora BT7).
    sender: Sender,
    /// What the store holds of the power that the rest of the mail's handling needs, read with
    /// the phase.
    record: store::PowerRecord,
}

/// Who sent an order mail for a power.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sender {
    /// Its player (or whoever claims to be: proven by `engine::seat`).
    Player,
    /// An assistant the power's contestant announced (Agora BT7), its address: its orders are
    /// taken only with `team_orders`, proven by the contestant's secret or DKIM for its own
    /// address.
    Assistant(String),
}

/// Why a mail is for no seat the sender could have: refused before the sender is proven.
#[derive(Debug, thiserror::Error)]
enum NotSeated {
    /// The GM's address is not where the house rules want it.
    #[error(transparent)]
    Addressing(#[from] acceptance::AddressingError),
    #[error("the subject must name your power, as in \"{0}\"")]
    NoPower(String),
    #[error("{0} has no player in this game")]
    NoPlayer(String),
}

/// Why a proven player's mail is refused as a replay (issue 21, point 8).
#[derive(Debug, thiserror::Error)]
enum Replayed {
    #[error(
        "this mail (Message-ID {0}) was accepted already: a copy of it sent again changes \
         nothing. To change your orders, write a new mail"
    )]
    Copy(String),
    #[error(
        "this mail is dated {}, before your newest accepted mail ({}): an older mail sent \
         again must not undo newer orders, so nothing in it was used. To change your \
         orders, write a new mail",
        crate::outgoing::time::gmt(*dated),
        crate::outgoing::time::gmt(*newest)
    )]
    Older { dated: Ts, newest: Ts },
}

/// When a mail was submitted and written, and how it stands against the deadline.
struct Timing {
    submitted: Ts,
    dated: Ts,
    timeliness: Timeliness,
}

impl OrderMail<'_> {
    fn from(&self) -> String {
        self.msg.from_address.clone().unwrap_or_default()
    }

    /// The seat: the GM addressed as the house rules want, the power named in the subject (or
    /// the sender's), the open phase, the power's player. The ledger's `tag` names the power
    /// and the phase once found.
    async fn seated(
        &self,
        c: &mut Conn,
        tag: &mut Tag,
    ) -> Result<std::result::Result<Seated, NotSeated>> {
        let (g, msg, rules) = (self.g, self.msg, &self.house.rules);
        if let Err(e) =
            acceptance::check_addressing(rules.gm_address, &g.gm_address, &msg.to, &msg.cc)
        {
            return Ok(Err(NotSeated::Addressing(e)));
        }
        let from = self.from();
        let no_power = || {
            let example = rules.subject_format.replace("{game}", &g.id);
            Ok(Err(NotSeated::NoPower(example)))
        };
        let Some((power, players)) = addressed_power(c, g, msg, &from).await? else {
            return no_power();
        };
        let name = self.map.power_name(power).to_string();
        // The phase and the power's record in one round trip. Everything the record holds stays
        // put until it is used: only the tick adds NMRs, and it leaves this game alone while
        // this mail holds it; confirmations are written by the confirmation box, which takes
        // the game's row too; nothing before the orders are stored writes standing orders (a
        // contestant's are dropped only by a director's command, Agora BT2).
        let id = msg.message_id.as_deref();
        let found = store::current_phase_and_record(c, &g.id, &name, id, &from).await?;
        let Some((phase, record)) = found else {
            return no_power();
        };
        tracing::Span::current().record("power", name.as_str());
        tag.power = Some(name.clone());
        tag.phase = Some(phase.phase.clone());
        let Some(player) = players.iter().find(|p| p.power == name).cloned() else {
            return Ok(Err(NotSeated::NoPlayer(name)));
        };
        let kind: Phase = phase.phase.parse()?;
        let board = board_from_json(self.map, &phase.board, &phase.phase)?;
        let sender = self.sender(c, &player).await?;
        Ok(Ok(Seated {
            power,
            phase,
            kind,
            player,
            players,
            board,
            sender,
            record,
        }))
    }

    /// Who sent the mail for `player`'s power: an assistant its contestant announced (Agora
    /// BT7) if From is one and not the player, else the player.
    async fn sender(&self, c: &mut Conn, player: &PlayerRow) -> Result<Sender> {
        let from = self.from();
        if from.is_empty() || from.eq_ignore_ascii_case(&player.address) {
            return Ok(Sender::Player);
        }
        let helps = store::assistants(c, &self.g.id)
            .await?
            .into_iter()
            .any(|a| a.power == player.power && a.address.eq_ignore_ascii_case(&from));
        Ok(if helps {
            Sender::Assistant(from.to_ascii_lowercase())
        } else {
            Sender::Player
        })
    }

    /// The mail read for the seat, once its sender is proven to be the seat's player (WM
    /// D.X(6)) or, with team orders, one of its announced assistants (Agora BT7), its subject
    /// in the game's format and it no replay; None if refused (and answered).
    async fn read_proven(&self, c: &mut Conn, s: &Seated) -> Result<Option<MailRead>> {
        let (env, ctx, msg, g) = (self.env, self.ctx, self.msg, self.g);
        let player = &s.player;
        let own = abbreviations::parse(self.map, s.record.abbreviations.as_deref())?;
        let read = read_with(self.map, &self.house.rules, s.power, &s.board, msg, &own);
        // Agora BT7: an assistant proves itself as its contestant would, for its own address:
        // the contestant's secret, or DKIM for the assistant's address.
        let as_assistant = match &s.sender {
            Sender::Player => None,
            Sender::Assistant(_) if !self.house.rules.team_orders => {
                let why = format!(
                    "{} assists {} (Agora BT7: assistance is announced, as it was), but orders \
                     from an assistant are not taken in this game: team orders are not allowed \
                     (team_orders is false; a proposal can enact it). The contestant sends \
                     the orders",
                    self.from(),
                    player.power
                );
                seat::refuse_unproven(c, env, ctx, msg, g, why).await?;
                return Ok(None);
            }
            Sender::Assistant(address) => Some(PlayerRow {
                address: address.clone(),
                ..player.clone()
            }),
        };
        let seat = Seat {
            player: as_assistant.as_ref().unwrap_or(player),
            players: &s.players,
            phase: &s.phase.phase,
        };
        if !seat::proven(
            c,
            env,
            ctx,
            msg,
            g,
            &self.house,
            &seat,
            read.secret.as_deref(),
        )
        .await?
        {
            return Ok(None);
        }
        let subject = acceptance::check_subject(
            &self.house.rules.subject_format,
            &msg.subject,
            &g.id,
            &player.power,
            s.kind,
        );
        if let Err(e) = subject {
            seat::refuse(c, env, ctx, msg, g, player, e.to_string()).await?;
            return Ok(None);
        }
        // A signed copy (or one with the secret) sent again must not undo newer orders.
        if let Some(e) = self.replayed(&s.record) {
            seat::refuse(c, env, ctx, msg, g, player, e.to_string()).await?;
            return Ok(None);
        }
        Ok(Some(read))
    }

    /// A proven mail: its abbreviations registered, judged against the deadline, its effects
    /// stored, its requests answered, and acknowledged.
    async fn accept(&self, c: &mut Conn, s: &Seated, mut read: MailRead) -> Result<Processed> {
        let (env, ctx, g, player) = (self.env, self.ctx, self.g, &s.player);
        let record = &s.record;
        let abbreviations_note = self.abbreviations(c, s, &mut read).await?;
        // Agora BT8: "At any time": the lines on the regulations are done whatever the
        // deadline says of the orders.
        let regulation_notes = self.regulations(c, s, &read).await?;
        // Agora BT7: the assistants announced, at any time too.
        let assistant_notes = self.assistants(c, s, &read).await?;
        let timing = match self.timing(c, s, &read, record).await? {
            Ok(timing) => timing,
            Err(late) => {
                let why = with_regulations(late.to_string(), &read, &regulation_notes);
                let why = with_assistants(why, &read, &assistant_notes);
                seat::refuse(c, env, ctx, self.msg, g, player, why).await?;
                return Ok(Processed::Rejected);
            }
        };
        let phase = &s.phase.phase;
        press::cap(c, g, phase, &player.power, &mut read, &env.limits).await?;
        let (combined, final_) = self.record_effects(c, s, &read, &timing, record).await?;
        // The replacement's orders for a held phase: the tick looks at it again at once.
        if timing.timeliness == Timeliness::Replacement {
            store::wake_held(c, &g.id, s.phase.seq, ctx.now).await?;
        }
        // Any authenticated mail from the player is contact with the GM (WM D.VII(6)(a)). Only
        // the tick adds NMRs, and it leaves this game alone while this mail holds it.
        if record.nmr_open {
            store::nmr_contact(c, &g.id, &player.power, ctx.now).await?;
        }
        let note = abbreviations_note.as_deref();
        let (notes, deadline) = self.requests(c, s, &read.requests, note).await?;
        let gaps = self.conditional_gaps(c, s).await?;
        let ack = compose::Ack {
            game: g,
            map: self.map,
            player,
            msg: self.msg,
            key: ctx.key,
            read: &read,
            standing: &combined,
            final_,
            board: &s.board,
            power: s.power,
            phase,
            deadline,
            late: timing.timeliness == Timeliness::LateAccepted,
            request_notes: &notes,
            regulation_notes: &regulation_notes,
            standing_notes: &gaps,
            assistant_notes: &assistant_notes,
            submitted_by: match &s.sender {
                Sender::Player => None,
                Sender::Assistant(a) => Some(a.as_str()),
            },
            received_at: ctx.arrived,
        };
        let mail = compose::acknowledgement(env, &ack);
        answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
        if let Sender::Assistant(a) = &s.sender {
            // Agora BT7: the assistant who sent the orders gets the acknowledgement too.
            let to_assistant = PlayerRow {
                address: a.clone(),
                ..player.clone()
            };
            // Its own Message-ID: the answer's seed names its reader.
            let key = format!("{}|{a}", ctx.key);
            let copy = compose::Ack {
                player: &to_assistant,
                key: &key,
                ..ack
            };
            let mail = compose::acknowledgement(env, &copy);
            answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
        }
        Ok(Processed::Accepted)
    }

    /// Agora BT15, BT22, BT23: in a game of one order set a turn, what the conditional orders
    /// kept for this movement turn lack (none elsewhere).
    async fn conditional_gaps(&self, c: &mut Conn, s: &Seated) -> Result<Vec<String>> {
        let rules = &self.house.rules;
        if !rules.one_order_set || s.kind.kind != crate::phase::PhaseKind::Movement {
            return Ok(Vec::new());
        }
        let (g, power) = (self.g, &s.player.power);
        let lines = store::conditional_lines(c, &g.id, power, &s.phase.phase).await?;
        Ok(super::conditional::gaps_notes(
            self.map,
            rules,
            &s.board,
            s.power,
            lines.as_deref().unwrap_or(""),
        ))
    }

    /// Agora BT7: the assistants the contestant announces in this mail, each stored and
    /// published to every player, master and observer; what the acknowledgement says of each.
    /// Only the contestant announces them, never an assistant.
    async fn assistants(&self, c: &mut Conn, s: &Seated, read: &MailRead) -> Result<Vec<String>> {
        if read.assistants.is_empty() {
            return Ok(Vec::new());
        }
        if let Sender::Assistant(_) = s.sender {
            let no = "refused: only the contestant announces its assistants (Agora BT7)";
            return Ok(read.assistants.iter().map(|_| no.to_string()).collect());
        }
        let mut notes = Vec::with_capacity(read.assistants.len());
        for l in &read.assistants {
            let note = match &l.read {
                Err(why) => format!("not read: {why}"),
                Ok(a) => assistants::announce(c, self.env, self.g, &s.player, a, self.ctx.now)
                    .await?
                    .unwrap_or_else(|why| format!("refused: {why}")),
            };
            notes.push(note);
        }
        Ok(notes)
    }

    /// Agora BT8: the mail's proposals, withdrawals and votes, done in turn by the sender's
    /// power among the contestants (the powers still in the game). What the acknowledgement
    /// says of each.
    async fn regulations(&self, c: &mut Conn, s: &Seated, read: &MailRead) -> Result<Vec<String>> {
        if read.regulations.is_empty() {
            return Ok(Vec::new());
        }
        // A power in civil disorder with no player (a contestant removed, or none drawn for
        // it: Agora BT2) has no contestant to count.
        let contestants = crate::votes::survivors(self.map, &s.board)
            .into_iter()
            .map(|p| self.map.power_name(p).to_string())
            .filter(|name| s.players.iter().any(|p| p.power == *name))
            .collect();
        let who = regulations::Contestant {
            power: &s.player.power,
            contestants,
        };
        let (env, g, now) = (self.env, self.g, self.ctx.now);
        regulations::handle(c, env, g, &who, &read.regulations, now).await
    }

    /// WM D.III(1): a list of the player's own abbreviations, once proven who sent it; this
    /// mail's orders are read again with it. What the acknowledgement says of it.
    async fn abbreviations(
        &self,
        c: &mut Conn,
        s: &Seated,
        read: &mut MailRead,
    ) -> Result<Option<String>> {
        let listed = read.requests.iter().find_map(|r| match r {
            RequestOut::Abbreviations { text, .. } => Some(text.clone()),
            _ => None,
        });
        let Some(text) = listed else {
            return Ok(None);
        };
        let (env, g, map, now) = (self.env, self.g, self.map, self.ctx.now);
        let (note, list) =
            abbreviations::register(c, env, g, map, &s.phase, &s.player, &text, now).await?;
        if let Some(list) = list {
            *read = read_with(map, &self.house.rules, s.power, &s.board, self.msg, &list);
        }
        Ok(Some(note))
    }

    /// When the mail was submitted: when the receiving server got it (WM D.VII(1)), or the
    /// confirmation box if earlier; and whether that is in time (WM D.VII(3)).
    async fn timing(
        &self,
        c: &mut Conn,
        s: &Seated,
        read: &MailRead,
        record: &store::PowerRecord,
    ) -> Result<std::result::Result<Timing, timeliness::LateRefused>> {
        let (g, ctx) = (self.g, self.ctx);
        // The copy's time is looked up by what it says only where the box has a copy at all.
        let confirm_time = if record.confirmed_copy {
            self.confirmed_at(c, read).await?
        } else {
            None
        };
        let submitted = policy::submission_time(&self.house.rules, ctx.arrived, confirm_time);
        let judged =
            timeliness::judge(c, g, &self.house, &s.phase, &s.player, submitted, ctx.now).await?;
        Ok(judged.map(|timeliness| Timing {
            submitted,
            dated: dated_at(self.msg, ctx.arrived),
            timeliness,
        }))
    }

    /// The requests of the mail, each answered in turn: extensions, holidays and unavailable
    /// periods as every kind answers them, the conditional orders and the abbreviations list
    /// as Diplomacy does. What the acknowledgement says of each, and the deadline after them.
    async fn requests(
        &self,
        c: &mut Conn,
        s: &Seated,
        requests: &[RequestOut],
        abbreviations: Option<&str>,
    ) -> Result<(Vec<String>, Ts)> {
        let (env, g, now) = (self.env, self.g, self.ctx.now);
        let shared: Vec<Request<'_>> = requests.iter().filter_map(shared_request).collect();
        let (house, phase, player) = (&self.house, &s.phase, &s.player);
        let mut answered = Requests::new(c, env, g, house, phase, player, &shared, now).await?;
        let mut notes = Vec::with_capacity(requests.len());
        for r in requests {
            let note = match (r, shared_request(r)) {
                (_, Some(shared)) => answered.answer(c, shared).await?,
                (RequestOut::Conditional { text, entries, .. }, None) => {
                    let one_set = self.house.rules.one_order_set;
                    conditional(c, g, s, text, *entries, one_set, now).await?
                }
                // Registered before the orders were read ([`OrderMail::abbreviations`]).
                (RequestOut::Abbreviations { .. }, None) => {
                    abbreviations.unwrap_or("not read").to_string()
                }
                (_, None) => String::new(),
            };
            notes.push(note);
        }
        Ok((notes, answered.deadline))
    }

    /// Why the mail is refused as a replay, if it is (issue 21, point 8): a copy of a mail
    /// already accepted (its Message-ID), or a mail dated before the power's newest accepted
    /// one. A signed mail copied to an ally, or one carrying the secret, could otherwise be
    /// sent to the GM again later to put back the orders it held. The rulebooks are silent; a
    /// careful GM takes the newest orders a player wrote, never an older mail that turns up
    /// again (WM D.III(3)).
    fn replayed(&self, record: &store::PowerRecord) -> Option<Replayed> {
        let id = self.msg.message_id.as_deref();
        let dated = dated_at(self.msg, self.ctx.arrived);
        if record.seen {
            return Some(Replayed::Copy(id.unwrap_or_default().to_string()));
        }
        match record.newest {
            Some(newest) if dated < newest => Some(Replayed::Older { dated, newest }),
            _ => None,
        }
    }

    /// When the confirmation box received this very mail (WM D.VII(1), D.VII(7)): a copy with
    /// the same Message-ID, from the same sender, in the same game, with the GM addressed as
    /// the rules require (the receipt recorded only such copies) and saying the same. A copy
    /// that shares only the Message-ID (a dummy sent before the deadline) lends its time to
    /// nothing.
    async fn confirmed_at(&self, c: &mut Conn, read: &MailRead) -> Result<Option<Ts>> {
        let Some(id) = &self.msg.message_id else {
            return Ok(None);
        };
        let digest = read_digest(self.map, read)?;
        let from = self.from();
        let copy = store::Confirmation {
            message_id: id,
            from: &from,
            game: &self.g.id,
            read_digest: &digest,
        };
        Ok(store::confirmation_time(c, &copy).await?)
    }

    /// Store what an accepted mail does: the standing order set combined with its orders (WM
    /// D.III(3)), the submission as read, its accepted press and its votes. Returns the order
    /// set that now stands and whether it is final.
    async fn record_effects(
        &self,
        c: &mut Conn,
        s: &Seated,
        read: &MailRead,
        timing: &Timing,
        record: &store::PowerRecord,
    ) -> Result<(Vec<StandingOrder>, bool)> {
        let (g, phase, power, now) = (self.g, &s.phase.phase, &s.player.power, self.ctx.now);
        let (combined, final_) = self.stand(c, phase, power, read, record).await?;
        let read_json = serde_json::to_string(read)?;
        let submission = store::NewSubmission {
            game: &g.id,
            phase,
            power,
            message_id: self.msg.message_id.as_deref(),
            submitted_at: timing.submitted,
            dated_at: timing.dated,
            final_: read.final_,
            late: timing.timeliness == Timeliness::LateAccepted,
            read_json: &read_json,
            submitted_by: &self.from(),
        };
        store::insert_submission(c, &submission).await?;
        press::store(c, g, phase, power, read, now).await?;
        for v in &read.votes {
            // A proposal the GM refused as repetitive is not voted on (Maharajiad X(2)); the
            // players were told when it was refused.
            if store::proposal_refused(c, &g.id, &v.proposal).await? {
                continue;
            }
            store::cast_vote(c, &g.id, phase, power, &v.proposal, v.vote.as_str(), now).await?;
        }
        Ok((combined, final_))
    }

    /// The power's standing order set after this mail (WM D.III(3)), stored; and whether it is
    /// final. What stood is the set read with the power's record ([`OrderMail::seated`]):
    /// nothing the mail does before this writes standing orders (a contestant's orders are
    /// dropped by a director's command, Agora BT2, never by a player's mail).
    async fn stand(
        &self,
        c: &mut Conn,
        phase: &str,
        power: &str,
        read: &MailRead,
        record: &store::PowerRecord,
    ) -> Result<(Vec<StandingOrder>, bool)> {
        let (g, map) = (self.g, self.map);
        let mine = record.standing.as_ref();
        let standing: Vec<StandingOrder> = mine.map(|(o, _)| o.clone()).unwrap_or_default();
        let new: Vec<StandingOrder> = read
            .orders
            .iter()
            .filter_map(|l| {
                l.typed.as_ref().map(|o| StandingOrder {
                    order: o.display(map).to_string(),
                    written: l.text.clone(),
                })
            })
            .collect();
        let combined = if new.is_empty() {
            standing.clone()
        } else {
            combine_standing(map, &self.house.rules, &standing, &new)
        };
        // A mail with only press, a vote or FINAL gives no orders: the power stays without any
        // (an NMR is judged by the orders, not by the mail), and there is nothing to mark final.
        let final_ = !combined.is_empty()
            && (read.final_ || (new.is_empty() && mine.is_some_and(|(_, f)| *f)));
        if !combined.is_empty() || mine.is_some() {
            let now = self.ctx.now;
            store::set_standing_orders(c, &g.id, phase, power, &combined, final_, now).await?;
        }
        Ok((combined, final_))
    }
}

/// A late mail's refusal, with what its lines on the regulations did all the same (Agora
/// BT8: a proposal or a vote may be sent at any time).
fn with_regulations(why: String, read: &MailRead, notes: &[String]) -> String {
    if notes.is_empty() {
        return why;
    }
    let mut out = format!(
        "{why}. Your lines on the regulations were read all the same (Agora BT8: at any time):"
    );
    for (l, note) in read.regulations.iter().zip(notes) {
        let text = l
            .read
            .as_ref()
            .map_or_else(|_| l.text.clone(), |r| r.describe());
        out.push_str(&format!(" line {}: {text}: {note};", l.line));
    }
    out.pop();
    out
}

/// A late mail's refusal, with what its assistant lines did all the same (Agora BT7).
fn with_assistants(why: String, read: &MailRead, notes: &[String]) -> String {
    if notes.is_empty() {
        return why;
    }
    let mut out = format!("{why}. Your assistant lines were read all the same (Agora BT7):");
    for (l, note) in read.assistants.iter().zip(notes) {
        out.push_str(&format!(" line {}: {}: {note};", l.line, l.text));
    }
    out.pop();
    out
}

/// A request every kind of game answers alike (`engine::extension`), as this mail wrote it;
/// None for Diplomacy's own (conditional orders, an abbreviations list).
fn shared_request(r: &RequestOut) -> Option<Request<'_>> {
    Some(match r {
        RequestOut::Extension { days, .. } => Request::Extension { days: *days },
        RequestOut::Weekly { period, .. } => Request::Weekly {
            period: period.as_ref(),
        },
        RequestOut::HolidayExtension { .. } => Request::HolidayExtension,
        RequestOut::Unavailable { from, to, .. } => Request::Unavailable { from, to },
        RequestOut::Conditional { .. } | RequestOut::Abbreviations { .. } => return None,
    })
}

/// WM D.II(5): conditional retreat and adjustment orders, kept for the phase after this
/// movement phase. What the acknowledgement says of them.
async fn conditional(
    c: &mut Conn,
    g: &GameRow,
    s: &Seated,
    text: &str,
    entries: usize,
    one_set: bool,
    now: Ts,
) -> Result<String> {
    if s.kind.kind != crate::phase::PhaseKind::Movement {
        return Ok(
            "refused: conditional orders come with movement orders (WM D.II(5)); in \
             this phase, send the orders themselves"
                .to_string(),
        );
    }
    store::set_conditional(c, &g.id, &s.player.power, &s.phase.phase, text, now).await?;
    if one_set {
        return Ok(format!(
            "kept ({entries} line(s)): your retreats and disbands should a unit be dislodged, \
             and after a Fall turn your builds and removals, resolved at this turn's deadline \
             with your orders, first possible choice first (Agora BT15, BT22, BT23)"
        ));
    }
    Ok(format!(
        "kept ({entries} line(s)): used, first possible choice first, for the \
         retreat or adjustment phase that follows if you send no orders for it \
         (WM D.II(5))"
    ))
}

/// When a mail says it was written: its Date, never later than its arrival (a sender's clock
/// ahead of ours must not date it in the future), or its arrival when it has no Date.
fn dated_at(msg: &ReadMessage, arrived: Ts) -> Ts {
    msg.dated.map_or(arrived, |d| d.min(arrived))
}

/// Combine the standing orders with a new set, per the submissions rule (WM D.III(3)).
pub fn combine_standing(
    map: &Map,
    rules: &Rules,
    standing: &[StandingOrder],
    new: &[StandingOrder],
) -> Vec<StandingOrder> {
    let parse = |s: &[StandingOrder]| -> Vec<Order> {
        s.iter()
            .filter_map(|o| parse_order(map, &o.order).ok())
            .collect()
    };
    let combined = policy::combine(rules, &parse(standing), &parse(new));
    // Keep the written text: from the new set where the order came from it, else the old.
    combined
        .iter()
        .filter_map(|o| {
            let text = o.display(map).to_string();
            new.iter()
                .chain(standing.iter())
                .find(|s| s.order == text)
                .cloned()
        })
        .collect()
}
