//! A master's command mail: the pipeline a game's masters (`gm_mail.rs`) and a tournament's
//! directors (`td_mail.rs`) share. Only those who may command there are heard, authenticated
//! as a player is (secret and/or DKIM, WM D.X(6)); each command line is done in the message's
//! transaction and answered line by line. A refused mail does nothing: the masters are alerted
//! (at most hourly) and the sender is answered only at a registered address.

use super::Result;
use super::house::{House, Proof};
use super::office::Done;
use super::receive::{Ctx, Recipient, Tag, answer};
use crate::config::Env;
use crate::engine::Processed;
use crate::message::ReadMessage;
use crate::outgoing::compose::{self, Composed};
use crate::outgoing::notices;
use crate::outgoing::render::CommandReplyLine;
use crate::store::Conn;
use crate::store::{GameRow, Role};
use crate::time::Ts;

/// One line of a command mail, as read.
pub enum Line<C> {
    Command(C),
    /// Not a command: why, as the reader said.
    Unread(String),
}

/// A command mail, read: the secret (never echoed), then each line's text and reading.
pub struct CommandsRead<C> {
    pub secret: Option<String>,
    pub lines: Vec<(String, Line<C>)>,
}

impl<C> CommandsRead<C> {
    /// A mail's command lines as the intake read them, GM's or TD's alike: each line's text
    /// with its command, or why it is none.
    pub fn from_intake<E: std::fmt::Display>(
        secret: Option<String>,
        lines: impl IntoIterator<Item = (String, std::result::Result<C, E>)>,
    ) -> Self {
        let lines = lines
            .into_iter()
            .map(|(text, read)| {
                let line = match read {
                    Ok(cmd) => Line::Command(cmd),
                    Err(why) => Line::Unread(why.to_string()),
                };
                (text, line)
            })
            .collect();
        CommandsRead { secret, lines }
    }
}

/// Who sent a command mail, as the desk knows them.
pub enum Sender {
    /// One of those who may command here: proven against their registered address and secret.
    Registered {
        address: String,
        secret: String,
        role: Option<Role>,
    },
    /// Heard without proof: an observer's own mail that only stops the game's mail to them.
    Excused,
    /// Nobody who may command here.
    Stranger,
}

/// What the mail is for, in the words of the answers and alerts.
pub struct Scope<'a> {
    /// `game` or `tournament`.
    pub noun: &'static str,
    pub id: &'a str,
    /// Who may command it: `masters` or `directors`.
    pub who: &'static str,
}

/// A desk that takes command mails: who may send them, and what executes a line.
pub trait Desk: Sync {
    type Command: Sync;
    fn scope(&self) -> Scope<'_>;
    /// The house whose rules the sender is authenticated under.
    fn house(&self) -> &dyn House;
    /// The game the answers are about (the answer limits, the ledger's tag), if a game.
    fn game(&self) -> Option<&GameRow>;
    fn read(&self, msg: &ReadMessage) -> CommandsRead<Self::Command>;
    fn sender(
        &self,
        c: &mut Conn,
        from: &str,
        read: &CommandsRead<Self::Command>,
    ) -> impl Future<Output = Result<Sender>> + Send;
    /// Alert those who keep the desk that a mail was refused (`facts`: what every desk says).
    fn alert(
        &self,
        c: &mut Conn,
        env: &Env,
        facts: &str,
        lines: usize,
        now: Ts,
    ) -> impl Future<Output = Result<()>> + Send;
    /// Do one command, in the message's transaction.
    fn execute(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        from: &str,
        sender: &Sender,
        cmd: &Self::Command,
    ) -> impl Future<Output = Result<Done>> + Send;
    fn reply(
        &self,
        env: &Env,
        to: &str,
        msg: &ReadMessage,
        key: &str,
        lines: Vec<CommandReplyLine>,
    ) -> Composed;
}

/// A command mail at `desk`: the sender heard or refused, each line done and answered.
pub async fn command_mail<D: Desk>(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    desk: &D,
) -> Result<(Processed, Tag)> {
    let tag = Tag {
        game: desk.game().map(|g| g.id.clone()),
        ..Tag::default()
    };
    let from = msg.from_address.clone().unwrap_or_default();
    let read = desk.read(msg);
    let sender = desk.sender(c, &from, &read).await?;
    if let Some(why) = refusal(env, desk, msg, &from, &read, &sender) {
        refuse(
            c,
            env,
            ctx,
            msg,
            desk,
            (&from, &sender),
            read.lines.len(),
            why,
        )
        .await?;
        return Ok((Processed::Rejected, tag));
    }
    let mut lines = Vec::with_capacity(read.lines.len());
    for (text, line) in &read.lines {
        let done = match line {
            Line::Command(cmd) => desk.execute(c, env, ctx, &from, &sender, cmd).await?,
            Line::Unread(why) => Done::refused(why.clone()),
        };
        lines.push(CommandReplyLine {
            text: text.clone(),
            ok: done.ok,
            answer: done.answer,
        });
    }
    let mail = desk.reply(env, &from, msg, ctx.key, lines);
    answer(c, env, ctx, mail, Recipient::Registered, desk.game()).await?;
    Ok((Processed::Accepted, tag))
}

/// Why the whole mail is refused: a sender who may not command here, or one not proven.
fn refusal<D: Desk>(
    env: &Env,
    desk: &D,
    msg: &ReadMessage,
    from: &str,
    read: &CommandsRead<D::Command>,
    sender: &Sender,
) -> Option<String> {
    match sender {
        Sender::Excused => None,
        Sender::Stranger => {
            let Scope { noun, id, who } = desk.scope();
            Some(format!(
                "commands for {noun} {id} are accepted only from its {who}; {from} is not one"
            ))
        }
        Sender::Registered {
            address, secret, ..
        } => desk
            .house()
            .authenticate(&Proof {
                from,
                registered: address,
                secret_given: read.secret.as_deref(),
                secret,
                auth_results: &msg.authentication_results,
                authserv_id: &env.authserv_id,
            })
            .err()
            .map(|e| e.to_string()),
    }
}

/// Nothing is done. The desk's keepers are told (a command from a stranger or a forger is worth
/// knowing about); the sender is answered only at a registered address (no backscatter).
#[allow(clippy::too_many_arguments)]
async fn refuse<D: Desk>(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    desk: &D,
    (from, sender): (&str, &Sender),
    lines: usize,
    why: String,
) -> Result<()> {
    let Scope { noun, id, .. } = desk.scope();
    let subject = compose::echo_subject(&msg.subject);
    let facts = notices::command_mail_refused(&notices::CommandMailRefused {
        noun,
        id,
        from,
        subject: &subject,
        mid: msg.message_id.as_deref().unwrap_or("(none)"),
        why: &why,
    })?;
    desk.alert(c, env, &facts, lines, ctx.now).await?;
    if let Sender::Registered { address, .. } = sender {
        let line = CommandReplyLine {
            text: "(the whole mail)".into(),
            ok: false,
            answer: why,
        };
        let mail = desk.reply(env, address, msg, ctx.key, vec![line]);
        answer(c, env, ctx, mail, Recipient::Registered, desk.game()).await?;
    }
    Ok(())
}

/// The first two words of a subject after any `Re:` or `Fwd:`, punctuation trimmed: a command
/// mail's `<game> GM` or a director's `<tournament> TD`.
pub fn command_head(subject: &str) -> (Option<&str>, Option<&str>) {
    let mut words = subject
        .split_whitespace()
        .map(|w| w.trim_matches(|ch: char| !ch.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .skip_while(|w| crate::acceptance::is_reply_word(w));
    (words.next(), words.next())
}
