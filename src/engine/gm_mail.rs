//! A game master's command mail (subject `<game> GM`): from one of the game's masters only
//! (`master_mail.rs` holds the pipeline); each line is done by what executes the game's
//! commands ([`Execute`]: `src/games`, which audits it). The one exception: an observer's own
//! `OBSERVER REMOVE <their address>`, which stops the game's mail to them.

use super::house::House;
use super::master_mail::{self, CommandsRead, Desk, Line, Scope, Sender, command_head};
use super::office::{Actor, Done, Execute};
use super::receive::{AlertKind, Ctx, Tag, alert_masters_hourly};
use super::{Processed, Result};
use crate::commands::{GmCommand, read_commands};
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose::{self, Composed};
use crate::outgoing::render::CommandReplyLine;
use crate::store::Conn;
use crate::store::{self, GameRow, Role, Via};
use crate::time::Ts;

/// Is this the subject of a command mail for game `game`: `<game> GM ...` (after any `Re:`)?
pub fn is_command_subject(subject: &str, game: &str) -> bool {
    match command_head(subject) {
        (Some(g), Some(gm)) => g.eq_ignore_ascii_case(game) && gm.eq_ignore_ascii_case("gm"),
        _ => false,
    }
}

/// A command mail for game `g`, each line done by `exec`.
pub async fn command_mail<E: Execute>(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    exec: &E,
) -> Result<(Processed, Tag)> {
    let desk = GameDesk {
        g,
        house: exec.house(g)?,
        exec,
    };
    master_mail::command_mail(c, env, ctx, msg, &desk).await
}

/// A game's masters' desk.
struct GameDesk<'a, E> {
    g: &'a GameRow,
    house: Box<dyn House>,
    exec: &'a E,
}

impl<E: Execute> Desk for GameDesk<'_, E> {
    type Command = GmCommand;

    fn scope(&self) -> Scope<'_> {
        Scope {
            noun: "game",
            id: &self.g.id,
            who: "masters",
        }
    }

    fn house(&self) -> &dyn House {
        &*self.house
    }

    fn game(&self) -> Option<&GameRow> {
        Some(self.g)
    }

    fn read(&self, msg: &ReadMessage) -> CommandsRead<GmCommand> {
        let read = read_commands(&msg.lines);
        CommandsRead::from_intake(
            read.secret,
            read.lines.into_iter().map(|l| (l.text, l.read)),
        )
    }

    async fn sender(
        &self,
        c: &mut Conn,
        from: &str,
        read: &CommandsRead<GmCommand>,
    ) -> Result<Sender> {
        let members = store::members(c, &self.g.id).await?;
        let is = |m: &&store::MemberRow| m.address.eq_ignore_ascii_case(from);
        if let Some(m) = members.iter().filter(is).find(|m| m.role.is_master()) {
            return Ok(Sender::Registered {
                address: m.address.clone(),
                secret: m.secret.clone(),
                role: Some(m.role),
            });
        }
        // An observer the GM added never asked for the game's mail: their own mail saying
        // `OBSERVER REMOVE <their address>`, and nothing else, stops it, without a secret (they
        // were never given one; a forger can only stop mail its owner can stop alike).
        let observer = members.iter().filter(is).any(|m| m.role == Role::Observer);
        let leaving = !read.lines.is_empty()
            && read.lines.iter().all(|(_, l)| {
                matches!(l, Line::Command(GmCommand::ObserverRemove(a))
                    if a.eq_ignore_ascii_case(from))
            });
        Ok(if observer && leaving {
            Sender::Excused
        } else {
            Sender::Stranger
        })
    }

    async fn alert(
        &self,
        c: &mut Conn,
        env: &Env,
        facts: &str,
        lines: usize,
        now: Ts,
    ) -> Result<()> {
        let g = self.g;
        let body = format!("{facts}Commands:    {lines} line(s), not shown\n");
        let subject = format!("{}: a command mail was refused", g.id);
        let kind = AlertKind::CommandRefused;
        alert_masters_hourly(c, env, Some(g), kind, &subject, &body, now).await
    }

    async fn execute(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        from: &str,
        sender: &Sender,
        cmd: &GmCommand,
    ) -> Result<Done> {
        let actor = Actor {
            who: from,
            via: Via::Mail,
            role: match sender {
                Sender::Registered { role, .. } => *role,
                Sender::Excused | Sender::Stranger => None,
            },
        };
        // Each command sees the game as the ones before it left it.
        let current = store::game(c, &self.g.id)
            .await?
            .unwrap_or_else(|| self.g.clone());
        self.exec
            .execute(c, env, &current, actor, cmd, ctx.now)
            .await
    }

    fn reply(
        &self,
        env: &Env,
        to: &str,
        msg: &ReadMessage,
        key: &str,
        lines: Vec<CommandReplyLine>,
    ) -> Composed {
        compose::command_reply(env, self.g, to, msg, key, lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_subjects() {
        assert!(is_command_subject("wm1 GM", "wm1"));
        assert!(is_command_subject("Re: WM1 gm: deadline", "wm1"));
        assert!(!is_command_subject("wm1 FRANCE S1901M", "wm1"));
        assert!(!is_command_subject("GM wm1", "wm1"));
    }
}
