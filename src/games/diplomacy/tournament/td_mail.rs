//! A tournament director's command mail (subject `<tournament> TD`, found by [`addressed`]
//! before the engine's router looks for a game): from one of its directors only, authenticated as a master is (secret and/or DKIM, as
//! the tournament's preset says; `engine::master_mail` holds the pipeline); each command done
//! in the message's transaction, all or nothing, and answered line by line.

use crate::config::Env;
use crate::engine::Processed;
use crate::engine::house::House;
use crate::engine::master_mail::{self, CommandsRead, Desk, Scope, Sender, command_head};
use crate::engine::office::Done;
use crate::engine::receive::{AlertKind, Ctx, Tag, hourly_alerts};
use crate::engine::{EngineError, Result};
use crate::games::diplomacy::house::DiplomacyHouse;
use crate::games::diplomacy::store::{self, DirectorRow, TournamentRow};
use crate::games::diplomacy::tournament;
use crate::message::ReadMessage;
use crate::outgoing::diplomacy::compose::{self, Composed};
use crate::outgoing::render::CommandReplyLine;
use crate::rules::Rules;
use crate::store::Conn;
use crate::td_commands::{TdCommand, read_td_commands};
use crate::time::Ts;

/// The tournament a subject names for its directors: `<tournament> TD ...` (after any `Re:`).
pub async fn addressed(c: &mut Conn, subject: &str) -> Result<Option<TournamentRow>> {
    let (Some(id), Some(td)) = command_head(subject) else {
        return Ok(None);
    };
    if !td.eq_ignore_ascii_case("td") || id.len() > 32 {
        return Ok(None);
    }
    Ok(store::tournament(c, id).await?)
}

/// A command mail for tournament `t`.
pub async fn command_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    t: &TournamentRow,
) -> Result<(Processed, Tag)> {
    let rules = Rules::preset(&t.preset).map_err(|e| EngineError::Refused(e.to_string()))?;
    let directors = store::directors(c, &t.id).await?;
    let desk = DirectorsDesk {
        t,
        house: DiplomacyHouse::new(rules, &t.id, &t.variant),
        directors,
    };
    master_mail::command_mail(c, env, ctx, msg, &desk).await
}

/// A tournament's directors' desk.
struct DirectorsDesk<'a> {
    t: &'a TournamentRow,
    /// The house rules of the tournament's preset, which its directors are authenticated under.
    house: DiplomacyHouse,
    directors: Vec<DirectorRow>,
}

impl Desk for DirectorsDesk<'_> {
    type Command = TdCommand;

    fn scope(&self) -> Scope<'_> {
        Scope {
            noun: "tournament",
            id: &self.t.id,
            who: "directors",
        }
    }

    fn house(&self) -> &dyn House {
        &self.house
    }

    fn game(&self) -> Option<&store::GameRow> {
        None
    }

    fn read(&self, msg: &ReadMessage) -> CommandsRead<TdCommand> {
        let read = read_td_commands(&msg.lines);
        CommandsRead::from_intake(
            read.secret,
            read.lines.into_iter().map(|l| (l.text, l.read)),
        )
    }

    async fn sender(
        &self,
        _: &mut Conn,
        from: &str,
        _: &CommandsRead<TdCommand>,
    ) -> Result<Sender> {
        let director = self
            .directors
            .iter()
            .find(|d| d.address.eq_ignore_ascii_case(from));
        Ok(match director {
            Some(d) => Sender::Registered {
                address: d.address.clone(),
                secret: d.secret.clone(),
                role: None,
            },
            None => Sender::Stranger,
        })
    }

    async fn alert(
        &self,
        c: &mut Conn,
        env: &Env,
        facts: &str,
        _lines: usize,
        now: Ts,
    ) -> Result<()> {
        let t = self.t;
        let to: Vec<String> = self.directors.iter().map(|d| d.address.clone()).collect();
        let subject = format!("{}: a director's command mail was refused", t.id);
        let kind = AlertKind::DirectorCommandRefused;
        let alerts = hourly_alerts(c, env, None, &to, kind, &t.id, &subject, facts, now).await?;
        store::enqueue_many(c, &alerts, now).await?;
        Ok(())
    }

    /// All or nothing, as at the console: a refused command leaves nothing it wrote (a ROUND
    /// refused on board k keeps none of boards 1..k-1, nor their start mails).
    async fn execute(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        _from: &str,
        _sender: &Sender,
        cmd: &TdCommand,
    ) -> Result<Done> {
        store::savepoint(c, store::Savepoint::Command).await?;
        match tournament::execute(c, env, self.t, cmd, ctx.key, ctx.now).await {
            Ok(done) => {
                store::keep_savepoint(c, store::Savepoint::Command).await?;
                Ok(Done::ok(done))
            }
            Err(EngineError::Refused(why)) => {
                store::undo_savepoint(c, store::Savepoint::Command).await?;
                Ok(Done::refused(why))
            }
            Err(e) => Err(e),
        }
    }

    fn reply(
        &self,
        env: &Env,
        to: &str,
        msg: &ReadMessage,
        key: &str,
        lines: Vec<CommandReplyLine>,
    ) -> Composed {
        compose::td_reply(env, self.t, to, msg, key, lines)
    }
}
