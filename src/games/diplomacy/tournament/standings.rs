//! A tournament's standings: each finished board's facts read from the store for scoring (who
//! played each power, how the game ended, the centres year by year), the standings computed
//! (`chancery_diplomacy::standings`), and mailed to the directors after each finished game (in
//! the tick's transaction) and to every player once released.

use super::{get, map_of_tournament, refused};
use crate::config::Env;
use crate::engine::{EngineError, Result};
use crate::games::diplomacy::rules_of;
use crate::games::diplomacy::store::{self, BoardRow, EndKind, EntrantRow, TournamentRow};
use crate::map::{Map, Power};
use crate::outgoing::compose;
use crate::phase::Phase;
use crate::standings::{self, End, Entrant, GameResult, Position, Standings, Stint};
use crate::store::Conn;
use crate::time::Ts;
use std::collections::HashMap;

/// Who played each power of a game, in order: from the replacements recorded (WM B.7-B.8) and
/// the players now. The first stint of each power is its initial player, from the start.
async fn stints_of(
    c: &mut Conn,
    game: &str,
    map: &Map,
    players: &[store::PlayerRow],
) -> Result<(Vec<(Power, Vec<Stint>)>, Phase)> {
    let start = crate::adjudicator::Board::initial(map).phase;
    let replacements = store::replacements(c, game).await?;
    let mut out = Vec::new();
    for p in map.all_powers() {
        let name = map.power_name(p);
        let reps: Vec<&store::ReplacementRow> =
            replacements.iter().filter(|r| r.power == name).collect();
        let initial = match reps.first() {
            Some(r) => r.old_address.to_ascii_lowercase(),
            None => players
                .iter()
                .find(|x| x.power == name)
                .map(|x| x.address.to_ascii_lowercase())
                .unwrap_or_default(),
        };
        let mut stints = vec![Stint {
            player: initial.clone(),
            from: start,
            permanent: true,
        }];
        for r in reps {
            let who = r.new_address.to_ascii_lowercase();
            stints.push(Stint {
                permanent: r.kind == store::Tenure::Permanent || who == initial,
                player: who,
                from: r.phase.parse()?,
            });
        }
        out.push((p, stints));
    }
    Ok((out, start))
}

/// The facts of one finished board, for scoring.
async fn game_result(c: &mut Conn, map: &Map, b: &BoardRow) -> Result<Option<GameResult>> {
    let Some(g) = store::game(c, &b.game_id)
        .await?
        .filter(|g| g.status == store::GameStatus::Finished)
    else {
        return Ok(None);
    };
    let Some(ended) = store::game_ended(c, &g.id).await? else {
        return Ok(None);
    };
    let rules = rules_of(&g)?;
    let power = |name: &str| {
        map.power_by_name(name)
            .ok_or_else(|| EngineError::StoredBoard(format!("unknown power '{name}'")))
    };
    let after: Phase = ended.after.parse()?;
    let winner = ended.winner.as_deref().map(power).transpose()?;
    let end = match (ended.end, winner) {
        (EndKind::Solo, Some(w)) => End::Solo(w),
        (EndKind::ConcededSolo, Some(w)) => End::ConcededSolo(w),
        // The draw's powers are not recorded: every survivor is in it (WM D.IX(4) aside).
        (EndKind::Vote, _) => End::Vote {
            excluded: Vec::new(),
        },
        // A game that stopped before its final year (or without one) without a solo or a vote
        // was stopped by Maharajiad B.X(1): three years without a centre changing owner.
        _ if rules.final_year.is_none_or(|y| after.year < y) => End::Stalemate,
        _ => End::Played,
    };
    let mut centres = Vec::new();
    for (name, n) in &ended.centres {
        centres.push((power(name)?, *n));
    }
    let history = store::year_ends(c, &g.id)
        .await?
        .into_iter()
        .map(|end| {
            let counts = map
                .all_powers()
                .map(|p| {
                    let name = map.power_name(p);
                    let n = end
                        .owners
                        .iter()
                        .filter(|o| o.owner.as_deref() == Some(name))
                        .count() as u32;
                    (p, n)
                })
                .collect();
            (end.year, counts)
        })
        .collect();
    let players = store::players(c, &g.id).await?;
    let (stints, start) = stints_of(c, &g.id, map, &players).await?;
    Ok(Some(GameResult {
        round: b.round as u8,
        board: b.board as u32,
        start_year: start.year,
        // Maharajiad A.10: the second round has none (played until the victory criterion).
        final_year: rules.final_year,
        ended_after: after,
        end,
        centres,
        history,
        positions: stints
            .into_iter()
            .map(|(power, stints)| Position { power, stints })
            .collect(),
    }))
}

/// What the standings are computed from: the `entrants` and their declines (as the caller read
/// them), and each of `boards` that has finished, read from the store.
pub async fn standings_input(
    c: &mut Conn,
    t: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
) -> Result<standings::TournamentIn<'static>> {
    let map = map_of_tournament(t)?;
    let mut games = Vec::new();
    for b in boards {
        if let Some(r) = game_result(c, map, b).await? {
            games.push(r);
        }
    }
    Ok(standings::TournamentIn {
        rulebook: t.rulebook,
        map,
        seed: t.seed.clone(),
        entrants: entrants
            .iter()
            .map(|e| Entrant {
                name: e.address.clone(),
                team: e.team.clone(),
            })
            .collect(),
        games,
        declined: entrants
            .iter()
            .filter(|e| e.declined)
            .map(|e| e.address.clone())
            .collect(),
        advance: Vec::new(),
        // The rounds are made as B.1's four, whatever the number of teams.
        round_two: standings::RoundTwo::TeamRound,
    })
}

/// The standings of the latest round, with how many of its games are over, and the names to
/// show.
pub struct Table {
    pub standings: Standings,
    pub finished: usize,
    pub games: usize,
    /// For the directors and the console: an entrant's name, else their address.
    pub names: HashMap<String, String>,
    /// For every player (released standings): an entrant's name, else "player N" by sign-up
    /// order; never an address.
    pub public_names: HashMap<String, String>,
}

/// The standings now: the latest round's (round one before any is made).
pub async fn table(c: &mut Conn, t: &TournamentRow) -> Result<Table> {
    table_of(c, t, None).await
}

/// The standings after `round` (None: the latest), from the games finished so far.
pub async fn table_of(c: &mut Conn, t: &TournamentRow, round: Option<i64>) -> Result<Table> {
    let entrants = store::entrants(c, &t.id).await?;
    let boards = store::boards(c, &t.id).await?;
    let input = standings_input(c, t, &entrants, &boards).await?;
    let latest = boards.iter().map(|b| b.round).max().unwrap_or(1);
    let round = match round {
        None => latest,
        Some(r) if (1..=latest).contains(&r) => r,
        Some(r) => {
            return Err(refused(format!(
                "round {r} has not been made (rounds 1 to {latest})"
            )));
        }
    };
    let games = boards.iter().filter(|b| b.round == round).count();
    let finished = input
        .games
        .iter()
        .filter(|g| i64::from(g.round) == round)
        .count();
    let standings = standings::standings(&input, round as u8);
    let signed_up = store::entrants_in_sign_up_order(c, &t.id).await?;
    let public_names = public_names(&entrants, &signed_up, &standings);
    let names = entrants
        .into_iter()
        .map(|e| {
            let shown = if e.name.is_empty() {
                e.address.clone()
            } else {
                e.name.clone()
            };
            (e.address, shown)
        })
        .collect();
    Ok(Table {
        standings,
        finished,
        games,
        names,
        public_names,
    })
}

/// The names every player may read: an entrant's own, else "player N" (N their place in the
/// sign-up order); anyone else the standings name (a replacement who is no entrant) "player N"
/// after them, in the order they appear. Players' addresses are theirs to give, not the TD's.
fn public_names(
    entrants: &[EntrantRow],
    signed_up: &[String],
    s: &Standings,
) -> HashMap<String, String> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut number = 0;
    let mut next = |names: &mut HashMap<String, String>, address: &str| {
        if names.contains_key(address) {
            return;
        }
        number += 1;
        let named = entrants
            .iter()
            .find(|e| e.address == address)
            .map(|e| e.name.trim())
            .filter(|n| !n.is_empty());
        let shown = named.map_or_else(|| format!("player {number}"), str::to_string);
        names.insert(address.to_string(), shown);
    };
    for a in signed_up {
        next(&mut names, a);
    }
    let shown = s
        .players
        .iter()
        .map(|p| &p.player)
        .chain(s.best_country.iter().map(|b| &b.player))
        .chain(&s.advancing)
        .chain(&s.winner);
    for a in shown {
        next(&mut names, a);
    }
    names
}

/// Mail the standings now to the directors, and to every entrant too if `everyone` (the TD
/// released them). `key` names the cause, so each reader gets one mail per cause.
pub async fn mail_standings(
    c: &mut Conn,
    env: &Env,
    t: &TournamentRow,
    everyone: bool,
    key: &str,
    now: Ts,
) -> Result<usize> {
    let table = table(c, t).await?;
    let text = crate::outgoing::diplomacy::standings::standings_table(
        &t.id,
        &table.standings,
        table.finished,
        table.games,
        // Released, every player reads it: names, never addresses.
        if everyone {
            &table.public_names
        } else {
            &table.names
        },
    );
    let mut to: Vec<String> = store::directors(c, &t.id)
        .await?
        .into_iter()
        .map(|d| d.address)
        .collect();
    if everyone {
        // Every entrant (the table's keys are their addresses).
        to.extend(table.names.keys().cloned());
    }
    to.sort();
    to.dedup();
    let subject = format!(
        "{} standings: round {}, {} of {} games over",
        t.id, table.standings.round, table.finished, table.games
    );
    let mails: Vec<store::NewMail> = to
        .iter()
        .map(|a| {
            compose::tournament_mail(
                env,
                store::MailKind::Standings,
                &t.gm_address,
                a,
                key,
                &subject,
                &text,
            )
        })
        .collect();
    store::enqueue_many(c, &mails, now).await?;
    Ok(mails.len())
}

/// After games finished (the tick's transaction): each tournament with a board among them sends
/// its standings once to its directors, and to every player if released. (A round's boards
/// often end at one deadline: one mail for them all, the standings computed once.)
pub async fn after_games_ended(c: &mut Conn, env: &Env, games: &[&str], now: Ts) -> Result<()> {
    let mut ended: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for game in games {
        if let Some((tid, _round)) = store::tournament_of_game(c, game).await? {
            ended.entry(tid).or_default().push(game);
        }
    }
    for (tid, games) in ended {
        let t = get(c, &tid).await?;
        // A board rolled back (WM D.VIII(1)) and ended again is a new cause: its rollback count
        // is in the key.
        let mut causes = Vec::with_capacity(games.len());
        for game in &games {
            let rollbacks = store::game(c, game).await?.map_or(0, |g| g.rollbacks);
            causes.push(format!("{game}#{rollbacks}"));
        }
        let key = format!("ended|{}", causes.join(","));
        mail_standings(c, env, &t, t.released, &key, now).await?;
    }
    Ok(())
}
