//! House rules: one typed settings struct, with a named preset per rulebook.
//!
//! Every option names the clause it implements. The presets live in `config/presets/*.toml` and
//! are embedded in the binary; a game may override any option. The default is `dpv2023`: the
//! DATC v3.0 preferences, which follow the 2023 rulebook.
//!
//! Where a clause is enforced, grep for its name (for example `WM D.V(2)`); the tests that prove
//! each option are in `tests/rule_options.rs`.

use serde::{Deserialize, Serialize};
use std::fmt;

// Every kind of game has these two, and the shared intake reads them (`acceptance`): they are
// the office's, kept here under their old paths.
pub use chancery_office::settings::{Authentication, GmAddress};

/// Convoy intent for a move to an adjacent province that could also go by convoy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvoyIntent {
    /// DATC 4.A.3 (2000/2023 rules), WM D.VI(2), Maharajiad B.VII(2): the move goes by convoy if it
    /// says "via convoy", or if a fleet of the army's own power is ordered to convoy it there.
    /// Otherwise it goes by land. There is no fallback from one route to the other.
    ExplicitOrOwnFleet,
    /// DPTG (DATC 4.A.3, last paragraph): only an explicit "via convoy" goes by convoy.
    ExplicitOnly,
}

/// How an explicit convoy route in a move order is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvoyRoutes {
    /// WM D.VI(3)–(4), Maharajiad B.VII(3)–(4): a specified route limits the convoy to those
    /// fleets, and is disrupted if any fleet on it is dislodged. An unspecified route is disrupted
    /// only when every possible route is broken (DATC 4.A.1 choice b).
    Honoured,
    /// DATC 4.A.6: a written route is read only as "via convoy"; any route may be used.
    Ignored,
}

/// Several orders for one unit in one order set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MultipleOrders {
    /// WM D.III(5): the last order, reading top to bottom, is used.
    LastWins,
    /// Maharajiad B.IV(6), DATC 4.D.3 choice c: the unit is ordered ambiguously and holds
    /// (it may receive hold support). Identical duplicates count as one order.
    Hold,
}

/// What an army move that needs a convoy must have to be legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvoyLegality {
    /// WM D.III(4), Maharajiad B.IV(5), DATC 4.E.1: a move is not illegal if fleets on the board,
    /// of any nationality, could carry it. Otherwise it is illegal: the unit holds and may receive
    /// hold support.
    UnitsOnBoard,
    /// Any chain of sea provinces makes the move legal; without fleets it simply fails.
    Geography,
}

/// A coast in a fleet move that the fleet cannot reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WrongMoveCoast {
    /// DATC 4.B.3 choice b: the order is illegal.
    Illegal,
    /// WM D.IV(3)(b): an inaccurate coast never invalidates a move; the reachable coast is used
    /// when there is exactly one.
    Corrected,
}

/// A wrong unit type or nationality in an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Designation {
    /// DATC 4.C.2/4.C.6, WM D.IV(1)–(2): the designation is ignored.
    Accept,
    /// Maharajiad B.V(2) and B.V(4): the order is invalid (the unit holds).
    Invalidate,
}

/// More builds or disbands than the position allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExcessAdjustments {
    /// DATC 4.D.4 and 4.D.6 choice b: the first legal orders, top to bottom, are used.
    FirstOrders,
    /// WM D.V(2): orders are followed from the bottom of the order set upwards until the count is
    /// reached.
    BottomUp,
    /// Maharajiad B.VI(2): excess builds are all refused; excess disbands are all set aside and the
    /// removals follow the civil-disorder rule.
    RefuseAll,
}

/// Several builds in one supply centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicateBuilds {
    /// DATC 4.D.5 choice b: the first build order is used.
    First,
    /// WM D.V(3): the first reading from bottom to top, that is the last one written.
    BottomUp,
    /// Maharajiad B.VI(3): no unit is built if the orders name different unit types (unless the
    /// centre cannot hold a fleet, when an army is built); identical orders count as one.
    NoneIfDifferent,
}

/// A build with no unit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UntypedBuild {
    /// DATC 4.C.3 choice c, WM D.V(1): an army in an inland centre; in a coastal centre nothing,
    /// unless a legal coast is written, when a fleet is built there.
    ArmyInlandFleetOnCoast,
    /// Maharajiad B.VI(1): an army in an inland centre; nothing in a coastal one.
    ArmyInlandOnly,
}

/// Which units a power that owes removals and did not order them loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CivilDisorder {
    /// 2023 rulebook, DATC 4.D.8 and 6.J: distance to the nearest supply centre the power owns,
    /// where armies and fleets both cross land and sea; ties go fleets first, then by the English
    /// province name.
    NearestOwnedCenter,
    /// WM D.V(4): distance to a home centre of the power. Armies move through land and sea (not
    /// Switzerland); fleets count legal fleet moves. Fleets go before armies, then in English
    /// province-name order.
    HomeCenterWm,
    /// Maharajiad B.VI(4): distance to the nearest home centre in legal moves, where sea provinces
    /// count as one move for any unit. Fleets before armies, then full-province-name order.
    HomeCenterSeasCount,
    /// Agora BT24: the units farthest from the country (its home centres) go first, measured over
    /// land and sea; fleets before armies, then alphabetically by province.
    FarthestFromCountry,
}

/// Which press the GM accepts and publishes. Chancery's press is white (signed) or grey
/// (anonymous); attributed press (dark grey, black) has no syntax yet and is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PressPolicy {
    /// WM D.X(1), Maharajiad B.XI(1) and its Alternatives A and B: white and grey press.
    WhiteAndGrey,
    /// WM D.X(1) Alternative B, Maharajiad B.XI(1) Alternative C: white press only.
    WhiteOnly,
    /// Maharajiad B.XI(1) Alternative D: the GM publishes no press.
    None,
}

/// Lines of an order mail that are no order at all ("Hi GM, here you go").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnknownLines {
    /// Listed in the reply as not read, and otherwise ignored.
    Ignore,
    /// Reported as errors (a strict GM; WM D.II(2) lets the GM set the format of order sets).
    Error,
}

/// What a new order set does to the earlier ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Submissions {
    /// WM D.III(3): the last set replaces the earlier ones, even when it is partial.
    Replace,
    /// WM D.III(3) Alternative Rule: the most recent order for each unit, across the sets.
    MergePerUnit,
}

/// Orders that arrive after the deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LateOrders {
    /// WM D.VII(3); Maharajiad B.VIII(3) Alternative Rule: not accepted after the deadline.
    Reject,
    /// Maharajiad B.VIII(3); WM D.VII(3) Alternative Rule: accepted until adjudication starts.
    UntilAdjudication,
}

/// How votes are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum VoteRule {
    /// WM IX(1): unanimity of the players remaining; abstaining or not voting is a no, except
    /// a player who also NMRs at a movement deadline, on a game-end proposal, counts as yes.
    #[default]
    Wm,
    /// Maharajiad X(1): unanimity except those who abstain; not voting is a no.
    Maharajiad,
}

/// The house rules of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The preset name this set came from.
    pub name: String,
    /// A line saying which rulebook it follows.
    pub description: String,
    /// DATC 4.A.3; WM D.VI(2); Maharajiad B.VII(2).
    pub convoy_intent: ConvoyIntent,
    /// WM D.VI(3)–(4); Maharajiad B.VII(3)–(4); DATC 4.A.1, 4.A.6.
    pub convoy_routes: ConvoyRoutes,
    /// WM D.III(4); Maharajiad B.IV(5); DATC 4.E.1.
    pub convoy_legality: ConvoyLegality,
    /// WM D.III(5); Maharajiad B.IV(6); DATC 4.D.3.
    pub multiple_orders: MultipleOrders,
    /// WM D.IV(1); Maharajiad B.V(1)–(2); DATC 4.C.1–4.C.2.
    pub unit_type_designation: Designation,
    /// WM D.IV(2); Maharajiad B.V(3)–(4); DATC 4.C.5–4.C.6.
    pub nationality_designation: Designation,
    /// WM D.IV(3); DATC 4.B.3.
    pub wrong_move_coast: WrongMoveCoast,
    /// WM D.V(2); Maharajiad B.VI(2); DATC 4.D.4, 4.D.6.
    pub excess_adjustments: ExcessAdjustments,
    /// WM D.V(3); Maharajiad B.VI(3); DATC 4.D.5.
    pub duplicate_builds: DuplicateBuilds,
    /// WM D.V(1); Maharajiad B.VI(1); DATC 4.C.3.
    pub untyped_build: UntypedBuild,
    /// 2023 rulebook; WM D.V(4); Maharajiad B.VI(4); Agora BT24.
    pub civil_disorder: CivilDisorder,
    /// WM D.X(1); Maharajiad B.XI(1).
    pub press: PressPolicy,
    /// Press to some powers only, rather than to all.
    pub partial_press: bool,
    /// How lines that are no order at all are treated; WM D.II(2).
    pub unknown_lines: UnknownLines,
    /// WM D.II(2); Maharajiad B.III(2).
    pub gm_address: GmAddress,
    /// The subject an order mail must have; `{game}`, `{power}` and `{phase}` are filled in and
    /// compared ignoring case (WM D.II(2), Maharajiad B.III(2): the GM states the format).
    pub subject_format: String,
    pub authentication: Authentication,
    /// WM D.III(3) and its Alternative Rule.
    pub submissions: Submissions,
    /// WM D.VII(3); Maharajiad B.VIII(3).
    pub late_orders: LateOrders,
    /// WM D.VII(1): the confirmation box's time counts when it is earlier than the GM's copy.
    /// Maharajiad B.VIII(1): only the GM's receipt counts.
    pub confirmation_time_counts: bool,
    /// WM D.VII(2); Maharajiad B.VIII(2): hours between adjudications when all are Final.
    pub early_adjudication_gap_hours: u32,
    /// WM D.VII(4)(a); Maharajiad B.VIII(4)(a): days allowed for each kind of turn.
    pub movement_days: u32,
    pub retreat_days: u32,
    pub adjustment_days: u32,
    /// WM D.VII(5): at most 7 days of extensions per position per game; Maharajiad B.VIII(5): 8.
    pub extension_days_total: u32,
    /// WM D.VII(5); Maharajiad B.VIII(5): extensions are asked at least this long before.
    pub extension_notice_hours: u32,
    /// WM D.VII(2); Maharajiad B.VIII(2): the weekly unavailable period a player may state.
    pub unavailable_hours_max: u32,
    /// WM D.VII(6)(b); Maharajiad B.VIII(6)(b): phases in which an NMR holds the results back
    /// and the player is replaced. Written as in `S1901M`.
    pub no_nmr_phases: Vec<String>,
    /// WM B(3): the game ends once this year's Fall turn is played (the team rounds 1909, the
    /// semi-final 1912, the final 1915), and the centre counts then stand. None: no final year.
    #[serde(default)]
    pub final_year: Option<u16>,
    /// WM IX(1); Maharajiad X(1): how votes are counted.
    #[serde(default)]
    pub votes: VoteRule,
    /// Maharajiad X(1): after this many game years with no supply centre changing owner the
    /// game ends, unless every player remaining votes CONTINUE. None: never.
    #[serde(default)]
    pub stalemate_years: Option<u16>,
    /// Agora BT9: once this many game years have passed with no supply centre changing owner,
    /// the GM may declare the game a draw, with [`GM_DRAW_NOTICE_HOURS`] hours' notice. None:
    /// the GM may not.
    #[serde(default)]
    pub gm_draw_years: Option<u16>,
    /// WM D.VII(5): how many extensions a position has as of right (WM: one); further ones are
    /// the GM's to grant. None: every extension within the allowance is guaranteed (Maharajiad
    /// B.VIII(5)).
    #[serde(default)]
    pub guaranteed_extensions: Option<u32>,
    /// WM D.VII(6)(a); Maharajiad B.VIII(6)(a): hours a player who NMRed has to contact the GM
    /// after the results (doubled when the period includes a weekend) before the masters are
    /// told to replace them. None: no contact window.
    #[serde(default)]
    pub nmr_contact_hours: Option<u32>,
    /// WM D.X(1) (and its Alternatives A and B): white press is published with the orders of
    /// its author. Maharajiad B.XI(1): all press in a section of its own (false).
    #[serde(default)]
    pub white_press_with_orders: bool,
    /// WM D.X(1), Maharajiad B.XI(1) Alternative A: dark grey press (signed with a name the
    /// author chose, printed with the anonymous press) is accepted.
    #[serde(default)]
    pub dark_grey_press: bool,
    /// Maharajiad B.XI(1): black press (printed as if the named power wrote it) is accepted; WM
    /// D.X(1) refuses it.
    #[serde(default)]
    pub black_press: bool,
    /// WM D.II(5): a retreat or adjustment phase in which every power due has Final orders or
    /// usable conditional ones is adjudicated at once, as the rule intends ("this will help
    /// speed the pace of the game"). False: it waits for its deadline.
    #[serde(default)]
    pub conditional_early: bool,
    /// WM D.VII(4)(a): "Games will typically progress at the pace of one season per week"
    /// (retreats and adjustments included): the target, in days per season, stated to the
    /// players; the turn lengths are the minimums. None: no target stated.
    #[serde(default)]
    pub pace_days_per_season: Option<u32>,
    /// Maharajiad B.I(5): "The adjustment phase or turn, commonly known as 'Winter', may be
    /// called 'Monsoon'": the mails say Monsoon. Subjects accept both (M1501A or W1501A).
    #[serde(default)]
    pub monsoon: bool,
    /// Agora BT15: turns on a fixed daily UTC timetable: each turn begins at 00:00 UTC, with
    /// [`Rules::negotiation_hours`] of negotiation, then [`Rules::ordering_hours`] in which orders
    /// are due, then [`Rules::resolution_hours`] until the next turn begins with the new state
    /// announced. No early adjudication (the turn's times are fixed). False: the deadlines
    /// of `movement_days`, `retreat_days` and `adjustment_days`.
    #[serde(default)]
    pub utc_turns: bool,
    /// Agora BT15: "from 0:00 UTC until 24:00 UTC on the same calendar day".
    #[serde(default = "default_negotiation_hours")]
    pub negotiation_hours: u32,
    /// Agora BT15: "a period until 12:00 UTC on the following day, during which orders CAN be
    /// submitted".
    #[serde(default = "default_ordering_hours")]
    pub ordering_hours: u32,
    /// Agora BT15: "The next turn will begin at 24:00 UTC on that day".
    #[serde(default = "default_resolution_hours")]
    pub resolution_hours: u32,
    /// Agora BT15, BT22, BT23: one set of orders a turn: the movement orders carry the
    /// conditional retreats and disbands and, after a Fall turn, the builds and removals; the
    /// retreat and adjustment phases are resolved at once from them, and a dislodged unit with
    /// no retreat order disbands.
    #[serde(default)]
    pub one_order_set: bool,
    /// Agora BT3: the victor is announced with this many hours' notice before the contest is
    /// concluded. None: the game ends with the adjudication that decides it.
    #[serde(default)]
    pub winner_notice_hours: Option<u32>,
    /// Agora BT1-BT8: the game is run under regulations kept as versioned text, which its
    /// contestants change by proposal and private vote (BT8). None: the house rules only.
    #[serde(default)]
    pub regulations: Option<Regulations>,
    /// Agora BT1: players enter by announcement (a mail to the game), at most one a power, until
    /// the entry closes. False: the GM registers the players.
    #[serde(default)]
    pub open_entry: bool,
    /// Agora BT7 (the 2020 game's proposal, passed 6-0): a contestant's team-mates (the
    /// assistants it announced) may submit its orders; any contestant may ask who submitted
    /// the orders for its power.
    #[serde(default)]
    pub team_orders: bool,
}

/// The regulations a game is run under (Agora BT0-BT25), loaded as the game's rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Regulations {
    /// The Agora Birthday Tournament 2020's regulations, BT0-BT25.
    AgoraBt2020,
}

fn default_negotiation_hours() -> u32 {
    24
}

fn default_ordering_hours() -> u32 {
    12
}

fn default_resolution_hours() -> u32 {
    12
}

/// Agora BT9: "with 2 days notice".
pub const GM_DRAW_NOTICE_HOURS: i64 = 48;

/// Who may change an option once a tournament game runs (WM D.I(1)(b), D.VII(4)(a), IX(5);
/// Maharajiad II(1)(b), B.VIII(4)(a), X(3)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The GM alone (turn lengths made longer).
    Gm,
    /// The GM and every player remaining, by a house-rule proposal: the policies the GM states
    /// at the outset (WM D.I(1)(b)) and shorter turns (WM D.VII(4)(a)).
    Vote,
    /// Nobody: the tournament rules fix it ("No changes may be made that contradict/violate
    /// the Tournament Rules", WM IX(5)).
    Nobody,
}

/// The options that are a GM's policy, stated at the outset (WM D.I(1)(b): D.II(2), D.III(3),
/// D.VII(3), D.X(1); Maharajiad II(1)(b)).
const POLICIES: &[&str] = &[
    "unknown_lines",
    "gm_address",
    "subject_format",
    "submissions",
    "late_orders",
    "press",
    "partial_press",
    "white_press_with_orders",
    "dark_grey_press",
    "black_press",
];

/// The turn lengths: longer on the GM's word, shorter only with the players' consent (WM
/// D.VII(4)(a)).
const TURN_LENGTHS: &[&str] = &["movement_days", "retreat_days", "adjustment_days"];

/// The embedded presets, by name.
const PRESETS: &[(&str, &str)] = &[
    (
        "dpv2023",
        include_str!("../../../config/presets/dpv2023.toml"),
    ),
    (
        "wm2004",
        include_str!("../../../config/presets/wm2004.toml"),
    ),
    (
        "maharajiad",
        include_str!("../../../config/presets/maharajiad.toml"),
    ),
    (
        "agora2020",
        include_str!("../../../config/presets/agora2020.toml"),
    ),
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    UnknownPreset(String),
    Invalid { preset: String, message: String },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(p) => write!(
                f,
                "unknown rules preset '{p}' (known: {})",
                Rules::preset_names().collect::<Vec<_>>().join(", ")
            ),
            RulesError::Invalid { preset, message } => {
                write!(f, "rules preset '{preset}' is invalid: {message}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    pub fn preset_names() -> impl Iterator<Item = &'static str> {
        PRESETS.iter().map(|(n, _)| *n)
    }

    /// A named preset. Aliases: `default`, `datc` and `2023` mean `dpv2023`.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        let key = match name.to_ascii_lowercase().as_str() {
            "default" | "datc" | "2023" | "dpv2023" => "dpv2023".to_string(),
            "wm" | "wm04" | "wm2004" | "worldmasters" => "wm2004".to_string(),
            "maharajiad" | "maharajiad1" => "maharajiad".to_string(),
            "agora" | "agora2020" => "agora2020".to_string(),
            other => other.to_string(),
        };
        // Each preset is parsed once: every stored board read (one a mail) asks for the
        // default rules, and parsing the TOML was a tenth of a mail's handling (issue 22).
        static PARSED: std::sync::OnceLock<Vec<(&str, Result<Rules, RulesError>)>> =
            std::sync::OnceLock::new();
        let parsed = PARSED.get_or_init(|| {
            PRESETS
                .iter()
                .map(|(n, text)| (*n, Rules::from_toml(n, text)))
                .collect()
        });
        parsed
            .iter()
            .find(|(n, _)| *n == key)
            .map(|(_, rules)| rules.clone())
            .ok_or_else(|| RulesError::UnknownPreset(name.to_string()))?
    }

    /// Parse a full rules table (as in a preset file).
    pub fn from_toml(name: &str, text: &str) -> Result<Rules, RulesError> {
        toml::from_str(text).map_err(|e| RulesError::Invalid {
            preset: name.to_string(),
            message: e.to_string(),
        })
    }
}

/// The clauses each option implements, for `chancery presets --show` and the start mail.
/// Kept beside the fields' own doc comments; a unit test checks that every option has one.
pub const CLAUSES: &[(&str, &str)] = &[
    (
        "convoy_intent",
        "DATC 4.A.3; WM D.VI(2); Maharajiad B.VII(2)",
    ),
    (
        "convoy_routes",
        "WM D.VI(3)-(4); Maharajiad B.VII(3)-(4); DATC 4.A.1, 4.A.6",
    ),
    (
        "convoy_legality",
        "WM D.III(4); Maharajiad B.IV(5); DATC 4.E.1",
    ),
    (
        "multiple_orders",
        "WM D.III(5); Maharajiad B.IV(6); DATC 4.D.3",
    ),
    (
        "unit_type_designation",
        "WM D.IV(1); Maharajiad B.V(1)-(2); DATC 4.C.1-4.C.2",
    ),
    (
        "nationality_designation",
        "WM D.IV(2); Maharajiad B.V(3)-(4); DATC 4.C.5-4.C.6",
    ),
    ("wrong_move_coast", "WM D.IV(3); DATC 4.B.3"),
    (
        "excess_adjustments",
        "WM D.V(2); Maharajiad B.VI(2); DATC 4.D.4, 4.D.6",
    ),
    (
        "duplicate_builds",
        "WM D.V(3); Maharajiad B.VI(3); DATC 4.D.5",
    ),
    ("untyped_build", "WM D.V(1); Maharajiad B.VI(1); DATC 4.C.3"),
    (
        "civil_disorder",
        "2023 rulebook; WM D.V(4); Maharajiad B.VI(4); Agora BT24",
    ),
    ("press", "WM D.X(1); Maharajiad B.XI(1)"),
    ("partial_press", "WM D.X(1); Maharajiad B.XI(1)"),
    ("unknown_lines", "WM D.II(2)"),
    ("gm_address", "WM D.II(2); Maharajiad B.III(2)"),
    ("subject_format", "WM D.II(2); Maharajiad B.III(2)"),
    ("authentication", "WM D.X(6)"),
    ("submissions", "WM D.III(3) and its Alternative Rule"),
    ("late_orders", "WM D.VII(3); Maharajiad B.VIII(3)"),
    (
        "confirmation_time_counts",
        "WM D.VII(1); Maharajiad B.VIII(1)",
    ),
    (
        "early_adjudication_gap_hours",
        "WM D.VII(2); Maharajiad B.VIII(2)",
    ),
    ("movement_days", "WM D.VII(4)(a); Maharajiad B.VIII(4)(a)"),
    ("retreat_days", "WM D.VII(4)(a); Maharajiad B.VIII(4)(a)"),
    ("adjustment_days", "WM D.VII(4)(a); Maharajiad B.VIII(4)(a)"),
    ("extension_days_total", "WM D.VII(5); Maharajiad B.VIII(5)"),
    (
        "extension_notice_hours",
        "WM D.VII(5); Maharajiad B.VIII(5)",
    ),
    ("unavailable_hours_max", "WM D.VII(2); Maharajiad B.VIII(2)"),
    ("no_nmr_phases", "WM D.VII(6)(b); Maharajiad B.VIII(6)(b)"),
    ("final_year", "WM B(3); Maharajiad A.10"),
    ("votes", "WM IX(1); Maharajiad X(1)"),
    ("stalemate_years", "Maharajiad X(1)"),
    ("gm_draw_years", "Agora BT9"),
    ("guaranteed_extensions", "WM D.VII(5); Maharajiad B.VIII(5)"),
    (
        "nmr_contact_hours",
        "WM D.VII(6)(a); Maharajiad B.VIII(6)(a)",
    ),
    ("white_press_with_orders", "WM D.X(1); Maharajiad B.XI(1)"),
    ("dark_grey_press", "WM D.X(1); Maharajiad B.XI(1)"),
    ("black_press", "WM D.X(1); Maharajiad B.XI(1)"),
    ("conditional_early", "WM D.II(5); Maharajiad B.III(5)"),
    ("pace_days_per_season", "WM D.VII(4)(a)"),
    ("monsoon", "Maharajiad B.I(5)"),
    ("utc_turns", "Agora BT15"),
    ("negotiation_hours", "Agora BT15"),
    ("ordering_hours", "Agora BT15"),
    ("resolution_hours", "Agora BT15"),
    ("one_order_set", "Agora BT15, BT22, BT23"),
    ("winner_notice_hours", "Agora BT3"),
    ("regulations", "Agora BT5, BT8"),
    ("open_entry", "Agora BT1"),
    ("team_orders", "Agora BT7"),
];

/// Why a single option could not be set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    BadValue { option: String, message: String },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(o) => write!(
                f,
                "unknown option '{o}' (known: {})",
                CLAUSES.iter().map(|c| c.0).collect::<Vec<_>>().join(", ")
            ),
            OptionError::BadValue { option, message } => {
                write!(f, "bad value for '{option}': {message}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

impl Rules {
    /// The clause an option implements.
    pub fn clause(option: &str) -> Option<&'static str> {
        CLAUSES.iter().find(|c| c.0 == option).map(|c| c.1)
    }

    /// Every option with its value (as `--set` takes it), in `CLAUSES` order.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        let table = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(t)) => t,
            _ => return Vec::new(),
        };
        CLAUSES
            .iter()
            .map(|(name, _)| {
                let v = table.get(*name).map_or_else(String::new, |v| v.to_string());
                (*name, v)
            })
            .collect()
    }

    /// The options that differ from the preset these rules came from: (option, value, clause).
    pub fn changed_from_preset(&self) -> Vec<(&'static str, String, &'static str)> {
        let Ok(base) = Rules::preset(&self.name) else {
            return Vec::new();
        };
        let base = base.options();
        self.options()
            .into_iter()
            .filter(|(k, v)| base.iter().any(|(bk, bv)| bk == k && bv != v))
            .map(|(k, v)| (k, v, Rules::clause(k).unwrap_or("")))
            .collect()
    }

    /// The game's policies in plain words, each with its clause: first the four a GM must state
    /// before the game (WM D.I(1)(b): D.II(2), D.III(3), D.VII(3), D.X(1)), then how players
    /// prove who they are and how long turns last; last, Agora BT15's timetable and one set of
    /// orders a turn (with an example), when the game has them.
    pub fn policies(&self) -> Vec<(&'static str, String)> {
        let mut out = self.base_policies();
        if self.utc_turns {
            out.push((
                "Agora BT15",
                format!(
                    "Each turn begins at 00:00 UTC: {} hours of negotiation, then orders are \
                     due {} hours later (12:00 UTC the next day with the defaults); the results \
                     are sent at the deadline and the next turn begins at 00:00 UTC {} hours \
                     after it. Orders may be sent and changed at any time until the deadline; \
                     there are no extensions and no early adjudication.",
                    self.negotiation_hours, self.ordering_hours, self.resolution_hours
                ),
            ));
        }
        if self.one_order_set {
            out.push((
                "Agora BT15, BT22, BT23",
                "One set of orders a turn: with your moves, send in a CONDITIONAL block where \
                 each unit should retreat should it be dislodged and, after a Fall turn, your \
                 builds or removals, first choice first; retreats and adjustments have no \
                 deadline of their own and are resolved with the turn. Example: \"A Par - Bur / \
                 F Bre - Mao / CONDITIONAL / A Par - Gas / A Par - Pic / Build F Bre / Build A \
                 Par / Remove A Mar / ENDCONDITIONAL\" (one line each). A dislodged unit with no \
                 usable retreat disbands (BT22); builds not given are waived, removals not \
                 given follow the civil disorder rule (BT23, BT24)."
                    .to_string(),
            ));
        }
        out
    }

    fn base_policies(&self) -> Vec<(&'static str, String)> {
        let to = match self.gm_address {
            GmAddress::To => "with the GM's address in To (not CC or BCC)",
            GmAddress::ToOrCc => "with the GM's address in To or CC",
        };
        let unknown = match self.unknown_lines {
            UnknownLines::Ignore => "lines that are no order are listed in the reply and ignored",
            UnknownLines::Error => "lines that are no order are reported as errors in the reply",
        };
        vec![
            (
                "WM D.II(2)",
                format!(
                    "Orders are sent by e-mail {to}, with the subject \"{}\"; {unknown}.",
                    self.subject_format
                ),
            ),
            (
                "WM D.III(3)",
                match self.submissions {
                    Submissions::Replace => "A new set of orders replaces the earlier ones as a \
                        whole, even when it is partial."
                        .to_string(),
                    Submissions::MergePerUnit => "Alternative Rule: sets of orders are merged: \
                        for each unit, its most recent order counts."
                        .to_string(),
                },
            ),
            (
                "WM D.VII(3)",
                match self.late_orders {
                    LateOrders::Reject => {
                        "Orders that arrive after the deadline are not accepted.".to_string()
                    }
                    LateOrders::UntilAdjudication => "Alternative Rule: orders that arrive after \
                        the deadline are accepted until the adjudication starts."
                        .to_string(),
                },
            ),
            (
                "WM D.X(1)",
                self.press_words(match (self.press, self.partial_press) {
                    (PressPolicy::WhiteAndGrey, true) => "White and grey press, to all or to some \
                        powers, is published with the results."
                        .to_string(),
                    (PressPolicy::WhiteAndGrey, false) => {
                        "White and grey press to all is published with the results.".to_string()
                    }
                    (PressPolicy::WhiteOnly, true) => "Only white (signed) press, to all or to \
                        some powers, is published with the results."
                        .to_string(),
                    (PressPolicy::WhiteOnly, false) => {
                        "Only white (signed) press to all is published with the results."
                            .to_string()
                    }
                    (PressPolicy::None, _) => "The GM publishes no press.".to_string(),
                }),
            ),
            (
                "WM D.X(6)",
                match self.authentication {
                    Authentication::Secret => {
                        "Every mail must carry your secret (a line SECRET <your secret>)."
                            .to_string()
                    }
                    Authentication::SecretOrDkim => "A mail proves it is yours by your secret (a \
                        line SECRET <your secret>) or by your mail service's DKIM signature."
                        .to_string(),
                    Authentication::Dkim => "A mail proves it is yours by your mail service's \
                        DKIM signature."
                        .to_string(),
                },
            ),
            (
                "WM D.VII(4)",
                format!(
                    "Deadlines: {} day(s) for a movement turn, {} for a retreat turn, {} for an \
                     adjustment turn.",
                    self.movement_days, self.retreat_days, self.adjustment_days
                ),
            ),
            (
                "WM D.VII(4)(a)",
                match self.pace_days_per_season {
                    Some(days) => format!(
                        "The game aims at a pace of one season, with its retreats and \
                         adjustments, every {days} days; turns are never shorter than the \
                         lengths above without the players' consent."
                    ),
                    None => "Turns are never shorter than the lengths above without the \
                             players' consent."
                        .to_string(),
                },
            ),
            (
                "WM D.VII(5)",
                format!(
                    "Extensions: at most {} day(s) in all per position, asked at least {} hours \
                     before the deadline.",
                    self.extension_days_total, self.extension_notice_hours
                ),
            ),
        ]
    }

    /// Whether this game's rules are a tournament's, whose rulebook binds the GM once the
    /// game runs (WM, the Maharajiad); other games are the GM's own to change.
    pub fn binds_gm(&self) -> bool {
        matches!(self.name.as_str(), "wm2004" | "maharajiad")
    }

    /// The options whose values differ between these rules and `new`, each with who may change
    /// it in a running game.
    fn changes(&self, new: &Rules) -> Vec<(&'static str, Change)> {
        let (old, newer) = (self.options(), new.options());
        old.iter()
            .zip(&newer)
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| {
                let who = if !self.binds_gm() {
                    Change::Gm
                } else if POLICIES.contains(&a.0) {
                    Change::Vote
                } else if TURN_LENGTHS.contains(&a.0) {
                    let longer = new.movement_days >= self.movement_days
                        && new.retreat_days >= self.retreat_days
                        && new.adjustment_days >= self.adjustment_days;
                    if longer { Change::Gm } else { Change::Vote }
                } else {
                    Change::Nobody
                };
                (a.0, who)
            })
            .collect()
    }

    /// The press policy's sentence, with dark grey and black press and where white press goes
    /// (WM D.X(1); Maharajiad B.XI(1)).
    fn press_words(&self, base: String) -> String {
        if self.press == PressPolicy::None {
            return base;
        }
        let mut out = base;
        if self.press == PressPolicy::WhiteAndGrey && self.dark_grey_press {
            out.push_str(
                " Dark grey press (signed with a name you choose) is printed with the anonymous press.",
            );
        }
        if self.black_press {
            out.push_str(" Black press (as if from another power) is accepted.");
        } else {
            out.push_str(" Black press is refused.");
        }
        if self.white_press_with_orders {
            out.push_str(" White press is printed with its author's orders.");
        }
        out
    }

    /// Why a running game may not change from these rules to `new` on the GM's word alone, if
    /// it may not. In a WM or Maharajiad game the GM's policies were stated at the outset and
    /// change only with every player's agreement (WM D.I(1)(b), IX(5)); turns shorter than the
    /// rulebook's need the players' consent (WM D.VII(4)(a); Maharajiad B.VIII(4)(a)); what the
    /// tournament rules fix, nobody changes (WM IX(5)).
    pub fn forbidden_change(&self, new: &Rules) -> Option<String> {
        let (option, who) = self
            .changes(new)
            .into_iter()
            .find(|(_, who)| *who != Change::Gm)?;
        let clause = Rules::clause(option).unwrap_or("");
        Some(match who {
            Change::Vote if TURN_LENGTHS.contains(&option) => format!(
                "the GM may not shorten turns in a running {} game without the players' consent                  ({clause}): propose it to them (VOTE RULE {option} <value> YES; WM IX(5))",
                self.name
            ),
            Change::Vote => format!(
                "{option} is a policy the GM stated at the outset (WM D.I(1)(b); {clause}): in a                  running game it changes only if the GM and every player agree (VOTE RULE                  {option} <value> YES; WM IX(5))"
            ),
            _ => self.fixed(option),
        })
    }

    /// Why a house-rule proposal may not change these rules to `new`, if it may not: only what
    /// the GM has discretion over (WM IX(5); Maharajiad X(3)).
    pub fn forbidden_by_vote(&self, new: &Rules) -> Option<String> {
        let (option, _) = self
            .changes(new)
            .into_iter()
            .find(|(_, who)| *who == Change::Nobody)?;
        Some(self.fixed(option))
    }

    fn fixed(&self, option: &str) -> String {
        format!(
            "{option} is fixed by the {} rules ({}); no change may contradict them (WM IX(5))",
            self.name,
            Rules::clause(option).unwrap_or("")
        )
    }

    /// These rules with one option changed (an alternative rule chosen for one game). The
    /// value is a JSON value; a bare word is taken as text:
    /// `convoy_intent=explicit`, `movement_days=2`, `no_nmr_phases=["S1901M"]`.
    pub fn set(&self, option: &str, value: &str) -> Result<Rules, OptionError> {
        let option = option.trim();
        if Rules::clause(option).is_none() {
            return Err(OptionError::Unknown(option.to_string()));
        }
        let bad = |message: String| OptionError::BadValue {
            option: option.to_string(),
            message,
        };
        let value = value.trim();
        let parsed: serde_json::Value = serde_json::from_str(value)
            .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
        let mut table = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(t)) => t,
            Ok(_) => return Err(bad("the rules are not a table".into())),
            Err(e) => return Err(bad(e.to_string())),
        };
        table.insert(option.to_string(), parsed);
        serde_json::from_value(serde_json::Value::Object(table)).map_err(|e| bad(e.to_string()))
    }
}

impl Default for Rules {
    fn default() -> Rules {
        match Rules::preset("dpv2023") {
            Ok(r) => r,
            // Embedded file; every preset is parsed by a unit test below.
            Err(e) => panic!("embedded preset dpv2023 is broken: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tournament_presets_require_the_secret_even_with_a_dkim_pass() {
        // WM D.X(6), Maharajiad B.XI(7): in a tournament the GM must know who sent the orders;
        // a DKIM pass alone (which a forged header once faked) is not enough.
        use chancery_intake::acceptance::{Authenticated, authenticate};
        let ours = "mx.example.test";
        let pass = vec!["mx.example.test; dkim=pass header.d=example.test".to_string()];
        let me = "player3@example.test";
        for name in ["wm2004", "maharajiad"] {
            let r = Rules::preset(name).expect("preset");
            assert_eq!(r.authentication, Authentication::Secret, "{name}");
            assert!(authenticate(r.authentication, me, me, None, "s3cret", &pass, ours).is_err());
            assert_eq!(
                authenticate(
                    r.authentication,
                    me,
                    me,
                    Some("s3cret"),
                    "s3cret",
                    &[],
                    ours
                ),
                Ok(Authenticated::Secret)
            );
        }
    }

    #[test]
    fn every_preset_parses_and_names_itself() {
        for name in Rules::preset_names() {
            let r = Rules::preset(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.name, name);
        }
    }

    #[test]
    fn every_option_names_its_clause_and_can_be_set_alone() {
        let d = Rules::default();
        let fields: Vec<String> = match serde_json::to_value(&d) {
            Ok(serde_json::Value::Object(t)) => t.keys().cloned().collect(),
            _ => panic!("rules are a table"),
        };
        for f in fields
            .iter()
            .filter(|f| *f != "name" && *f != "description")
        {
            assert!(Rules::clause(f).is_some(), "{f} names no clause");
        }
        assert_eq!(d.options().len(), CLAUSES.len());
        // WM D.III(3) Alternative Rule: merged order sets, chosen alone.
        let merged = d.set("submissions", "merge_per_unit").expect("merge");
        assert_eq!(merged.submissions, Submissions::MergePerUnit);
        assert_eq!(
            merged.convoy_intent, d.convoy_intent,
            "nothing else changes"
        );
        let days = d.set("movement_days", "2").expect("days");
        assert_eq!(days.movement_days, 2);
        let phases = d
            .set("no_nmr_phases", r#"["S1901M", "F1901M"]"#)
            .expect("phases");
        assert_eq!(phases.no_nmr_phases, vec!["S1901M", "F1901M"]);
        assert!(matches!(d.set("nope", "1"), Err(OptionError::Unknown(_))));
        let e = d.set("movement_days", "soon").unwrap_err().to_string();
        assert!(e.contains("movement_days"), "{e}");
        assert!(d.set("convoy_intent", "whenever").is_err());
        assert_eq!(
            merged.changed_from_preset(),
            vec![(
                "submissions",
                "\"merge_per_unit\"".to_string(),
                "WM D.III(3) and its Alternative Rule"
            )]
        );
        assert!(d.changed_from_preset().is_empty());
    }

    #[test]
    fn wm_d_vii_4_a_turns_are_not_shortened_on_the_gms_word() {
        let wm = Rules::preset("wm2004").unwrap();
        let short = wm.set("movement_days", "2").unwrap();
        let e = wm.forbidden_change(&short).expect("refused");
        assert!(e.contains("WM D.VII(4)(a)") && e.contains("consent"), "{e}");
        // The players may consent by a house-rule proposal (WM IX(5)).
        assert_eq!(wm.forbidden_by_vote(&short), None);
        let long = wm.set("movement_days", "5").unwrap();
        assert_eq!(wm.forbidden_change(&long), None);
    }

    #[test]
    fn wm_d_i_1_b_and_ix_5_policies_change_only_by_vote_and_tournament_rules_never() {
        let wm = Rules::preset("wm2004").unwrap();
        // A policy stated at the outset: not on the GM's word, but by the GM and all players.
        let merged = wm.set("submissions", "merge_per_unit").unwrap();
        let e = wm.forbidden_change(&merged).expect("refused");
        assert!(e.contains("WM D.I(1)(b)") && e.contains("WM IX(5)"), "{e}");
        assert_eq!(wm.forbidden_by_vote(&merged), None);
        // What the tournament rules fix: neither (WM IX(5), "no changes ... that contradict").
        for (option, value) in [
            ("convoy_intent", "explicit_only"),
            ("final_year", "1910"),
            ("votes", "maharajiad"),
            ("extension_days_total", "9"),
        ] {
            let new = wm.set(option, value).unwrap();
            let e = wm.forbidden_change(&new).expect(option);
            assert!(e.contains("fixed by the wm2004 rules"), "{e}");
            assert_eq!(wm.forbidden_by_vote(&new), Some(e));
        }
        // A game on the GM's own rules is the GM's to change.
        let own = Rules::preset("dpv2023").unwrap();
        assert_eq!(
            own.forbidden_change(&own.set("final_year", "1910").unwrap()),
            None
        );
        let agora = Rules::preset("agora2020").unwrap();
        assert_eq!(agora.gm_draw_years, Some(3), "Agora BT9");
    }

    #[test]
    fn the_four_policies_of_wm_d_i_1_b_are_stated() {
        let wm = Rules::preset("wm2004").unwrap();
        let clauses: Vec<&str> = wm.policies().iter().map(|p| p.0).collect();
        for c in ["WM D.II(2)", "WM D.III(3)", "WM D.VII(3)", "WM D.X(1)"] {
            assert!(clauses.contains(&c), "{c}");
        }
        let merged = wm.set("submissions", "merge_per_unit").unwrap();
        assert!(merged.policies()[1].1.contains("merged"));
        // WM D.X(1): dark grey accepted, black refused, white press with its author's orders.
        let press = &wm.policies()[3].1;
        assert!(
            press.contains("Dark grey press") && press.contains("Black press is refused"),
            "{press}"
        );
        assert!(press.contains("with its author's orders"), "{press}");
        let mj = Rules::preset("maharajiad").unwrap().policies()[3].1.clone();
        assert!(
            mj.contains("Black press (as if from another power) is accepted"),
            "{mj}"
        );
    }

    #[test]
    fn unknown_preset_is_named() {
        let e = Rules::preset("nope").unwrap_err().to_string();
        assert!(e.contains("'nope'") && e.contains("wm2004"), "{e}");
    }

    #[test]
    fn presets_differ_where_the_rulebooks_do() {
        let wm = Rules::preset("wm2004").unwrap();
        let mj = Rules::preset("maharajiad").unwrap();
        let d = Rules::default();
        assert_eq!(wm.multiple_orders, MultipleOrders::LastWins);
        assert_eq!(mj.multiple_orders, MultipleOrders::Hold);
        assert_eq!(wm.excess_adjustments, ExcessAdjustments::BottomUp);
        assert_eq!(mj.excess_adjustments, ExcessAdjustments::RefuseAll);
        assert_eq!(d.civil_disorder, CivilDisorder::NearestOwnedCenter);
        assert_eq!(wm.civil_disorder, CivilDisorder::HomeCenterWm);
        assert_eq!(mj.unit_type_designation, Designation::Invalidate);
    }
}
