//! Arbitrary UTF-8 as a command mail's body, read by every command reader a master or a player
//! reaches by mail: the Diplomacy GM's and the TD's command readers, the Agora regulations'
//! actions and rulebooks, the proposals that draws and concessions are voted on, the
//! assistants' announcements, the Nomic player's mail and votes, and the ACWC office's mail and
//! match scores. Each must answer (a reading, or why not), never panic.
#![no_main]

use chancery_acwc::matches::{Stage, parse_block, parse_score};
use chancery_diplomacy::{assistants, commands, map::Map, regulations, rules::Rules, votes};
use chancery_intake::message::BodyLine;
use chancery_intake::td_commands;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static RULES: LazyLock<Rules> =
    LazyLock::new(|| Rules::preset("dpv2023").expect("dpv2023 preset"));

fuzz_target!(|text: &str| {
    let lines: Vec<BodyLine> = text
        .lines()
        .enumerate()
        .map(|(i, l)| BodyLine {
            number: i + 1,
            text: l.to_string(),
        })
        .collect();
    let _ = commands::read_commands(&lines);
    let _ = td_commands::read_td_commands(&lines);
    let _ = regulations::read_rulebook(text);
    let _ = chancery_nomic::mail::read_mail(text);
    let _ = chancery_nomic::grammar::read_rule_change(text);
    let _ = chancery_acwc::mail::read(text);
    let stage = if text.len() % 2 == 0 { Stage::Swiss } else { Stage::Candidates };
    let _ = parse_score(stage, text);
    let games = u16::try_from(text.len() % 15).unwrap_or(0);
    let _ = parse_block(text, games);
    // The one-line readers, on each line (bounded: a mail has few lines worth reading).
    for line in text.lines().take(8) {
        let _ = regulations::read_action(line);
        let _ = votes::read_proposal(Map::standard(), &RULES, line);
        let _ = assistants::read_line(line);
        let _ = chancery_nomic::votes::read_vote(line);
        let _ = chancery_nomic::grammar::read_rule_change_line(line);
    }
});
