//! Tournaments (issue 14; WM 2004 B and C, Maharajiad I A), which are Diplomacy's: created,
//! signed up, run round by round (each board a game of the round's preset and final year),
//! scored after every finished game, and the standings mailed to the directors and, once
//! released, to every player. The console (`chancery tournament ...`) and the directors'
//! command mails (`td_mail.rs`) both come here. `rounds.rs` seats and starts a round;
//! `standings.rs` scores the boards and mails the standings.

use crate::config::Env;
use crate::engine::{EngineError, Result, secret};
use crate::games::diplomacy::store::{self, DirectorRow, EntrantRow, TournamentRow};
use crate::map::Map;
use crate::outgoing::compose;
use crate::outgoing::notices;
use crate::rules::Rules;
use crate::standings::Rulebook;
use crate::store::{Conn, Pool};
use crate::td_commands::TdCommand;
use crate::time::Ts;

mod rounds;
mod standings;
pub mod td_mail;

pub use rounds::{RoundMade, start_round};
pub use standings::{Table, after_games_ended, mail_standings, standings_input, table, table_of};

/// What a new tournament needs.
pub struct NewTournament<'a> {
    pub id: &'a str,
    /// `wm2004` or `maharajiad`.
    pub rulebook: &'a str,
    /// The house rules of its games; None: the rulebook's own preset.
    pub preset: Option<&'a str>,
    /// None: the rulebook's map (standard; maharajah for the Maharajiad).
    pub variant: Option<&'a str>,
    pub gm_address: &'a str,
    pub confirm_address: &'a str,
    /// The published seed of the dice and the seating; None: the tournament's id.
    pub seed: Option<&'a str>,
    /// Single house-rule options set in every game (deadlines and the like).
    pub options: &'a [(String, String)],
}

fn refused(why: impl Into<String>) -> EngineError {
    EngineError::Refused(why.into())
}

fn map_of_tournament(t: &TournamentRow) -> Result<&'static Map> {
    Map::variant(&t.variant).ok_or_else(|| EngineError::UnknownVariant {
        game: t.id.clone(),
        variant: t.variant.clone(),
    })
}

/// Create a tournament: its rulebook, the preset and options of its games, the seed.
pub async fn create(pool: &Pool, n: &NewTournament<'_>, now: Ts) -> Result<TournamentRow> {
    let rulebook: Rulebook = n.rulebook.parse().map_err(|e| refused(format!("{e}")))?;
    // Each rulebook's preset is named as the rulebook.
    let preset = n.preset.unwrap_or(rulebook.name());
    let variant = n.variant.unwrap_or(rulebook.variant());
    let mut rules = Rules::preset(preset).map_err(|e| refused(e.to_string()))?;
    for (o, v) in n.options {
        rules = rules.set(o, v).map_err(|e| refused(e.to_string()))?;
    }
    if Map::variant(variant).is_none() {
        return Err(refused(format!("unknown variant '{variant}'")));
    }
    let id = n.id.trim();
    if id.is_empty()
        || id.len() > 32
        || !id.chars().all(|c| c.is_ascii_alphanumeric())
        || !id.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return Err(refused(
            "a tournament id is a letter then letters and digits, at most 32 (it is written in subjects)",
        ));
    }
    let mut c = pool.acquire().await?;
    if store::game(&mut c, id).await?.is_some() {
        return Err(refused(format!("'{id}' is already a game's name")));
    }
    let t = TournamentRow {
        id: id.to_ascii_lowercase(),
        rulebook,
        preset: preset.to_string(),
        variant: variant.to_string(),
        gm_address: n.gm_address.to_string(),
        confirm_address: n.confirm_address.to_string(),
        seed: n.seed.unwrap_or(id).to_string(),
        options: serde_json::to_string(n.options)?,
        released: false,
    };
    store::create_tournament(&mut c, &t, now).await?;
    store::tournament(&mut c, id)
        .await?
        .ok_or_else(|| refused("the tournament just created is gone"))
}

/// The tournament of this id, or why not.
pub async fn get(c: &mut Conn, id: &str) -> Result<TournamentRow> {
    store::tournament(c, id)
        .await?
        .ok_or_else(|| refused(format!("no tournament '{id}'")))
}

/// Add a tournament director: they command the tournament by mail (subject `<id> TD`) with the
/// secret returned, and are a TD master of every game it starts.
pub async fn add_director(pool: &Pool, id: &str, address: &str, tz: &str) -> Result<DirectorRow> {
    let mut c = pool.acquire().await?;
    let t = get(&mut c, id).await?;
    if tz != "UTC" && tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(refused(format!("unknown time zone '{tz}'")));
    }
    let d = DirectorRow {
        address: address.to_ascii_lowercase(),
        tz: tz.to_string(),
        // A refusal: the director's line is answered (and undone), not the whole mail failed.
        secret: secret::generate().map_err(|e| refused(e.to_string()))?,
    };
    store::add_director(&mut c, &t.id, &d).await?;
    Ok(d)
}

/// Sign a player up (WM B.2: teams and captains; B.5: the power the team gives in round one;
/// reserves), checked against the tournament's map and the teams so far.
pub async fn add_entrant(c: &mut Conn, t: &TournamentRow, e: &EntrantRow) -> Result<()> {
    let map = map_of_tournament(t)?;
    let power = match &e.power {
        Some(p) => Some(
            map.power_by_name(p)
                .map(|p| map.power_name(p).to_string())
                .ok_or_else(|| refused(format!("unknown power '{p}'")))?,
        ),
        None => None,
    };
    if e.tz != "UTC" && e.tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(refused(format!("unknown time zone '{}'", e.tz)));
    }
    if !store::boards(c, &t.id).await?.is_empty() && !e.reserve {
        return Err(refused(
            "the first round has started: only reserves can sign up now (WM B.2, B.8(d))",
        ));
    }
    if let Some(team) = &e.team {
        let mates: Vec<EntrantRow> = store::entrants(c, &t.id)
            .await?
            .into_iter()
            .filter(|x| x.team.as_deref() == Some(team.as_str()) && !x.reserve)
            .collect();
        if !e.reserve && mates.len() >= map.powers.len() {
            return Err(refused(format!(
                "team {team} already has {} players (WM B.2: teams of {})",
                mates.len(),
                map.powers.len()
            )));
        }
        if let Some(p) = &power
            && mates.iter().any(|m| m.power.as_deref() == Some(p.as_str()))
        {
            return Err(refused(format!(
                "a player of team {team} already plays {p} (WM B.6(a))"
            )));
        }
        if e.captain && mates.iter().any(|m| m.captain) {
            return Err(refused(format!("team {team} already has a captain")));
        }
    }
    let row = EntrantRow { power, ..e.clone() };
    store::add_entrant(c, &t.id, &row).await?;
    Ok(())
}

/// WM B.8(b): "In the event of an NMR the GM will notify the TD who will send an email to both
/// the Team Captain and Team Members." When the contact window of an NMR on a WM tournament's
/// board has closed (D.VII(6)(a)), the player's team-mates, captain first, are told, so that
/// the captain can choose the replacement (B.8(a); in round one the captain is the default
/// replacement, B.8(c)). Returns how many were told.
pub async fn tell_team_of_nmr(
    c: &mut Conn,
    env: &Env,
    game: &str,
    power: &str,
    phase: &str,
    now: Ts,
) -> Result<usize> {
    let Some((tid, round)) = store::tournament_of_game(c, game).await? else {
        return Ok(0);
    };
    let t = get(c, &tid).await?;
    if t.rulebook != Rulebook::Wm2004 {
        return Ok(0);
    }
    let Some(player) = store::players(c, game)
        .await?
        .into_iter()
        .find(|p| p.power == power)
    else {
        return Ok(0);
    };
    let entrants = store::entrants(c, &t.id).await?;
    let Some(team) = entrants
        .iter()
        .find(|e| e.address.eq_ignore_ascii_case(&player.address))
        .and_then(|e| e.team.clone())
    else {
        return Ok(0);
    };
    let mut mates: Vec<&EntrantRow> = entrants
        .iter()
        .filter(|e| {
            e.team.as_deref() == Some(team.as_str())
                && !e.address.eq_ignore_ascii_case(&player.address)
        })
        .collect();
    mates.sort_by_key(|e| !e.captain);
    let captain = mates
        .iter()
        .find(|e| e.captain)
        .map_or("your captain".to_string(), |e| e.address.clone());
    let directors: Vec<String> = store::directors(c, &t.id)
        .await?
        .into_iter()
        .map(|d| d.address)
        .collect();
    let text = notices::team_nmr(&notices::TeamNmr {
        tid: &t.id,
        game,
        power,
        who: &player.address,
        phase,
        captain: &captain,
        directors: &directors.join(", "),
        first_round: round == 1,
    })?;
    let subject = format!("{game}: {power} NMRed in {phase}; your team chooses a replacement");
    let key = format!("team-nmr|{game}|{power}|{phase}");
    let mails: Vec<store::NewMail> = mates
        .iter()
        .map(|e| {
            compose::tournament_mail(
                env,
                store::MailKind::Notice,
                &t.gm_address,
                &e.address,
                &key,
                &subject,
                &text,
            )
        })
        .collect();
    store::enqueue_many(c, &mails, now).await?;
    Ok(mails.len())
}

/// One director's command, in the caller's transaction; what was done, or why not (Refused).
/// A refused command changes nothing: it is checked before it writes.
pub async fn execute(
    c: &mut Conn,
    env: &Env,
    t: &TournamentRow,
    cmd: &TdCommand,
    key: &str,
    now: Ts,
) -> Result<String> {
    // Each command sees the tournament as the ones before it left it.
    let t = get(c, &t.id).await?;
    match cmd {
        TdCommand::Entrant {
            address,
            team,
            captain,
            power,
            reserve,
            name,
        } => {
            let e = EntrantRow {
                address: address.clone(),
                name: name.clone(),
                tz: "UTC".into(),
                team: team.clone(),
                captain: *captain,
                power: power.clone(),
                reserve: *reserve,
                declined: false,
            };
            add_entrant(c, &t, &e).await?;
            Ok(format!("{address} signed up"))
        }
        TdCommand::Round => Ok(round_made(&start_round(c, Some(env), &t, now).await?)),
        TdCommand::Standings => {
            let n = mail_standings(c, env, &t, false, &format!("asked|{key}"), now).await?;
            Ok(format!("the standings were mailed to the {n} director(s)"))
        }
        TdCommand::Release => {
            store::set_released(c, &t.id).await?;
            let n = mail_standings(c, env, &t, true, &format!("released|{key}"), now).await?;
            Ok(format!(
                "the standings were mailed to {n} reader(s); from now on every player gets them after each game"
            ))
        }
        TdCommand::Decline(address) => {
            if store::set_declined(c, &t.id, address).await? {
                Ok(format!(
                    "{address} declines the next round; the next placed player takes the place (WM C.10, Maharajiad A.21)"
                ))
            } else {
                Err(EngineError::Refused(format!("{address} is not an entrant")))
            }
        }
        TdCommand::Status => status(c, &t).await,
    }
}

/// What ROUND answers: the boards made, and the first few constraints the seating could not
/// meet (a reply is not a dump).
fn round_made(made: &RoundMade) -> String {
    let games: Vec<&str> = made.boards.iter().map(|(_, g)| g.as_str()).collect();
    let mut said = format!(
        "round {} made: {} board(s), {}; every player was sent a start mail",
        made.round,
        games.len(),
        games.join(", ")
    );
    if !made.unmet.is_empty() {
        let shown: Vec<&str> = made.unmet.iter().take(3).map(String::as_str).collect();
        said.push_str(&format!(
            ". The seating could not meet {} constraint(s): {}{}",
            made.unmet.len(),
            shown.join("; "),
            if made.unmet.len() > 3 { "; ..." } else { "" }
        ));
    }
    said
}

/// STATUS: the rounds, their boards and which games are still playing.
async fn status(c: &mut Conn, t: &TournamentRow) -> Result<String> {
    let boards = store::boards(c, &t.id).await?;
    let entrants = store::entrants(c, &t.id).await?.len();
    let mut said = format!(
        "tournament {} ({}), {entrants} entrant(s), {} board(s) made",
        t.id,
        t.rulebook,
        boards.len()
    );
    for b in &boards {
        let status = store::game(c, &b.game_id)
            .await?
            .map_or("missing".to_string(), |g| g.status.to_string());
        said.push_str(&format!(
            "; round {} board {}: {} {status}",
            b.round, b.board, b.game_id
        ));
    }
    Ok(said)
}

/// A director's command at the console, in one transaction: what was done, or why not.
pub async fn console(pool: &Pool, env: &Env, id: &str, cmd: &TdCommand, now: Ts) -> Result<String> {
    let mut tx = crate::store::begin_write(pool).await?;
    let t = get(&mut tx, id).await?;
    let done = execute(&mut tx, env, &t, cmd, &format!("console|{now}"), now).await?;
    tx.commit().await?;
    Ok(done)
}
