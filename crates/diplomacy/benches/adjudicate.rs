//! Movement-phase adjudication speed on realistic boards, side by side with the `diplomacy` crate.
//!
//! `cargo bench -p chancery-diplomacy --bench adjudicate` (add `-- --quick` for a short run, and a
//! filter that matches no criterion benchmark, e.g. `-- --quick none`, to print only the
//! per-phase figures). The phases come from random legal play (the `generator` module below),
//! generated once before timing. Criterion times adjudicating all of them back to back
//! (throughput in phases); then, outside criterion, each phase is timed on its own and the
//! median and p99 per phase are printed. The same standard-map phases are then judged by the
//! `diplomacy` crate (0.2, a dev-dependency only; see `side_by_side`): the run prints on how
//! many phases the two judges disagree (which moves succeed, which supports are given, which
//! units are dislodged), the crate's median and p99 per phase timed the same way, and the ratio.
//!
//! Figures on the development machine (2 cores shared with other jobs: criterion's means wander
//! by a factor of two under load, the interleaved medians by about 10%), from
//! `cargo bench -p chancery-diplomacy --bench adjudicate`; "after" is two runs, at load averages of
//! about 10 and 14:
//!
//! | standard map, 160 phases            | before (2fea49c) | after (issue 22 point 5) |
//! |-------------------------------------|------------------|--------------------------|
//! | median per phase (interleaved)      | 8.4–8.5 µs       | 3.8 / 4.2 µs             |
//! | p99 per phase (interleaved)         | 10.4–10.5 µs     | 4.5 / 5.2 µs             |
//! | same phase repeated, median         | 4.5 µs           | 2.3 / 3.2 µs             |
//! | criterion, all 160 phases           | 1.91 ms (84 k/s) | 0.85 / 0.93 ms           |
//! | `diplomacy` crate, median / p99     | 156 / 230 µs     | 178 / 263, 155 / 231 µs  |
//! | ratio crate / Chancery, median      | 18x              | 47x, 37x                 |
//! | Maharajah map, median / p99         | 8.1 / 10.2 µs    | 3.7 / 4.8, 3.6 / 4.5 µs  |
//!
//! The judges disagree on none of the 160 phases (moves, supports, dislodgements) when the crate
//! is given Chancery's map; on its own `standard_map()`, which lacks eleven borders, on 82.
//! The "before" column is the adjudicator of commit 2fea49c run by this same bench
//! (`git checkout 2fea49c -- crates/diplomacy/src`); the optimisation commits after it say what
//! changed. For a profile: `perf record -g <bench binary> --bench --profile-time 8
//! movement_phase/all_160_phases`, or callgrind with `--branch-sim=yes` on a build with
//! `CARGO_PROFILE_BENCH_DEBUG=line-tables-only`.

use chancery_diplomacy::adjudicator::adjudicate;
use chancery_diplomacy::map::Map;
use chancery_diplomacy::rules::Rules;
use criterion::{Criterion, Throughput, black_box};
use generator::MovementPhase;
use std::time::{Duration, Instant};

const SEED: u64 = 0x00C4_A1CE_2901_1901;
const PHASES: usize = 160;
const MIN_UNITS: usize = 22;
const MAX_UNITS: usize = 34;
/// Games restart after this many years, so the sample mixes openings, middle and end games.
const MAX_YEARS: u16 = 20;

fn bench_phases(
    c: &mut Criterion,
    group_name: &str,
    map: &Map,
    rules: &Rules,
    phases: &[MovementPhase],
) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(phases.len() as u64));
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(6));
    group.bench_function(format!("all_{}_phases", phases.len()), |b| {
        b.iter(|| {
            for (board, orders) in phases {
                black_box(adjudicate(map, rules, black_box(board), black_box(orders)));
            }
        })
    });
    // A fixed early and a late phase, for a per-phase figure criterion can compare across runs.
    let smallest = phases.iter().min_by_key(|(b, _)| b.units.len()).unwrap();
    let largest = phases.iter().max_by_key(|(b, _)| b.units.len()).unwrap();
    group.throughput(Throughput::Elements(1));
    for (name, (board, orders)) in [("smallest", smallest), ("largest", largest)] {
        group.bench_function(format!("{name}_{}_units", board.units.len()), |b| {
            b.iter(|| black_box(adjudicate(map, rules, black_box(board), black_box(orders))))
        });
    }
    group.finish();
}

/// Median and p99 over the phases of one time per phase, with the unit range; returns the median
/// and the p99.
fn summary(label: &str, phases: &[MovementPhase], mut times: Vec<f64>, how: &str) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let k = times.len();
    let pct = |q: f64| percentile(&times, q);
    let units = phases.iter().map(|(b, _)| b.units.len());
    let (umin, umax) = (units.clone().min().unwrap(), units.max().unwrap());
    println!(
        "{label}median per phase: {:.1} µs, p99 per phase: {:.1} µs over {k} phases \
         (units {umin}..{umax}); min {:.1} µs, max {:.1} µs; {how}",
        pct(0.5),
        pct(0.99),
        times[0],
        times[k - 1],
    );
    (pct(0.5), pct(0.99))
}

/// The `q` quantile (0 < q <= 1) of sorted times: the smallest time at or above that share of them.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let k = sorted.len();
    sorted[((q * k as f64).ceil() as usize).clamp(1, k) - 1]
}

/// Each phase's time in µs, as the median over `rounds` rounds; every round times every phase
/// once, in turn. `time(i)` judges phase `i` and returns the time it took.
fn interleaved_medians(n: usize, rounds: usize, mut time: impl FnMut(usize) -> f64) -> Vec<f64> {
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); n];
    for _ in 0..rounds {
        for (i, s) in samples.iter_mut().enumerate() {
            s.push(time(i));
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect()
}

/// Per-phase times outside criterion; returns the headline (interleaved) time of each phase.
///
/// The headline figure is interleaved: each round adjudicates every phase once, timing each call
/// on its own, and a phase's time is its median over the rounds. Running one phase many times
/// back to back lets the branch predictor learn that exact input and flatters the figure (by
/// about a third, on this code); a server adjudicates a different phase every time. The back-to-back
/// figure (mean of `rounds` consecutive runs, best of 3 batches) is printed second, for contrast.
fn per_phase_stats(map: &Map, rules: &Rules, phases: &[MovementPhase], rounds: usize) -> Vec<f64> {
    for (board, orders) in phases {
        black_box(adjudicate(map, rules, board, orders));
    }
    let interleaved = interleaved_medians(phases.len(), rounds, |i| {
        let (board, orders) = &phases[i];
        let t = Instant::now();
        black_box(adjudicate(map, rules, black_box(board), black_box(orders)));
        t.elapsed().as_secs_f64() * 1e6
    });
    summary(
        "",
        phases,
        interleaved.clone(),
        &format!("each the median of {rounds} single runs, interleaved across phases"),
    );

    let back_to_back = phases
        .iter()
        .map(|(board, orders)| {
            (0..3)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..rounds {
                        black_box(adjudicate(map, rules, black_box(board), black_box(orders)));
                    }
                    t.elapsed().as_secs_f64() * 1e6 / rounds as f64
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    summary(
        "(warm, same phase repeated) ",
        phases,
        back_to_back,
        &format!("each the mean of {rounds} consecutive runs, best of 3"),
    );
    interleaved
}

/// Do the two judges agree on each phase? Prints the count of phases where they differ, by kind,
/// and up to `show` of them in full.
fn agreement(
    map: &Map,
    rules: &Rules,
    phases: &[MovementPhase],
    converted: &[side_by_side::CratePhase],
    geo: &diplomacy::geo::Map,
    geo_name: &str,
    show: usize,
) {
    let (mut moves, mut supports, mut dislodged, mut any) = (0, 0, 0, 0);
    let mut examples = Vec::new();
    for (i, ((board, orders), theirs)) in phases.iter().zip(converted).enumerate() {
        let adj = adjudicate(map, rules, board, orders);
        let d = side_by_side::compare(map, geo, &adj, theirs);
        moves += usize::from(!d.moves.is_empty());
        supports += usize::from(!d.supports.is_empty());
        dislodged += usize::from(!d.dislodged.is_empty());
        if !d.is_empty() {
            any += 1;
            if examples.len() < show {
                examples.push((i, d));
            }
        }
    }
    println!(
        "diplomacy crate 0.2 (Rulebook::edition_2023, {geo_name}) on the same {} phases: the \
         judges disagree on {any} (on which moves succeed: {moves}; which supports are given: \
         {supports}; which units are dislodged: {dislodged})",
        phases.len()
    );
    for (i, d) in &examples {
        println!("  phase {i} ({}):", phases[*i].0.phase);
        for line in d.moves.iter().chain(&d.supports).chain(&d.dislodged) {
            println!("    {line}");
        }
    }
}

/// The same standard-map phases judged by the `diplomacy` crate: do the judges agree, and how
/// much slower is it? `ours` is Chancery's interleaved time per phase from `per_phase_stats`;
/// the crate is timed the same way.
fn against_diplomacy_crate(
    map: &Map,
    rules: &Rules,
    phases: &[MovementPhase],
    rounds: usize,
    ours: &[f64],
) {
    let converted: Vec<side_by_side::CratePhase> = phases
        .iter()
        .map(|(board, orders)| side_by_side::convert(map, board, orders))
        .collect();

    let geo = side_by_side::crate_map(map);
    let own = diplomacy::geo::standard_map();
    let (mine, its) = (side_by_side::borders(&geo), side_by_side::borders(own));
    println!(
        "Chancery's map in the crate's geo types has {} borders, the crate's standard_map() {}; \
         only in Chancery's: {:?}; only in the crate's: {:?}",
        mine.len(),
        its.len(),
        mine.difference(&its).collect::<Vec<_>>(),
        its.difference(&mine).collect::<Vec<_>>(),
    );
    agreement(
        map,
        rules,
        phases,
        &converted,
        own,
        "its own standard_map()",
        1,
    );
    agreement(
        map,
        rules,
        phases,
        &converted,
        &geo,
        "Chancery's map in its geo types",
        3,
    );

    for p in &converted {
        side_by_side::time_crate(&geo, p);
    }
    let theirs = interleaved_medians(converted.len(), rounds, |i| {
        side_by_side::time_crate(&geo, &converted[i]).as_secs_f64() * 1e6
    });
    let (p50, p99) = summary(
        "diplomacy crate: ",
        phases,
        theirs.clone(),
        &format!(
            "each the median of {rounds} single runs (submission and adjudication), interleaved"
        ),
    );
    let mut sorted_ours = ours.to_vec();
    sorted_ours.sort_by(f64::total_cmp);
    let (o50, o99) = (
        percentile(&sorted_ours, 0.5),
        percentile(&sorted_ours, 0.99),
    );
    let mut ratios: Vec<f64> = theirs.iter().zip(ours).map(|(t, o)| t / o).collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "ratio diplomacy crate / Chancery: {:.1}x at the median ({p50:.1} µs / {o50:.1} µs), \
         {:.1}x at p99 ({p99:.1} µs / {o99:.1} µs); per phase from {:.1}x to {:.1}x (median {:.1}x)",
        p50 / o50,
        p99 / o99,
        ratios[0],
        ratios[ratios.len() - 1],
        percentile(&ratios, 0.5),
    );
}

/// What the generated sample looks like: order mix, and how the orders fared.
fn describe(map: &Map, rules: &Rules, phases: &[MovementPhase], gen_time: Duration) {
    use chancery_diplomacy::adjudicator::{Outcome, Reason};
    use chancery_diplomacy::order::Order;
    let (mut moves, mut supports, mut holds, mut convoys) = (0, 0, 0, 0);
    let (mut invalid, mut void, mut succeeded_moves, mut dislodged) = (0, 0, 0, 0);
    for (board, orders) in phases {
        let adj = adjudicate(map, rules, board, orders);
        dislodged += adj.next.dislodged.len();
        for r in &adj.results {
            match r.order {
                Order::Move { .. } => {
                    moves += 1;
                    succeeded_moves += usize::from(r.outcome == Outcome::Succeeds);
                }
                Order::SupportHold { .. } | Order::SupportMove { .. } => supports += 1,
                Order::Hold { .. } => holds += 1,
                Order::Convoy { .. } => convoys += 1,
                _ => {}
            }
            invalid += usize::from(r.outcome == Outcome::Invalid);
            void += usize::from(r.reason == Some(Reason::Void));
        }
    }
    let total = moves + supports + holds + convoys;
    let pc = |x: usize| 100.0 * x as f64 / total as f64;
    let mut units: Vec<usize> = phases.iter().map(|(b, _)| b.units.len()).collect();
    units.sort();
    println!(
        "generated {} movement phases in {:.0} ms: units {}..{} (median {}), {total} orders: \
         {:.0}% moves ({succeeded_moves} succeed), {:.0}% supports ({void} void), {:.0}% holds, \
         {:.0}% convoys; {invalid} invalid; {dislodged} dislodgements",
        phases.len(),
        gen_time.as_secs_f64() * 1e3,
        units[0],
        units[units.len() - 1],
        units[units.len() / 2],
        pc(moves),
        pc(supports),
        pc(holds),
        pc(convoys),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let has = |f: &str| args.iter().any(|a| a == f);
    // As criterion decides: `cargo bench` passes --bench; `cargo test --benches` does not, and
    // then every benchmark runs once as a test.
    let benchmarking = has("--bench") && !has("--test") && !has("--list") && !has("--profile-time");
    let quick = has("--quick");

    let map = Map::standard();
    let rules = Rules::default();
    let t = Instant::now();
    let phases =
        generator::movement_phases(map, &rules, SEED, PHASES, MIN_UNITS, MAX_UNITS, MAX_YEARS);
    let gen_time = t.elapsed();

    if benchmarking {
        describe(map, &rules, &phases, gen_time);
    }

    // The Maharajah map (issue 13): the same random legal play, on its board and rules.
    let mj = Map::variant("maharajah").expect("the maharajah map is embedded");
    let mj_rules = Rules::preset("maharajiad").expect("the maharajiad preset");
    let mj_phases =
        generator::movement_phases(mj, &mj_rules, SEED, PHASES, MIN_UNITS, MAX_UNITS, MAX_YEARS);

    let mut c = Criterion::default().configure_from_args();
    bench_phases(&mut c, "movement_phase", map, &rules, &phases);
    bench_phases(
        &mut c,
        "maharajah_movement_phase",
        mj,
        &mj_rules,
        &mj_phases,
    );
    c.final_summary();

    if benchmarking {
        let rounds = if quick { 50 } else { 200 };
        let ours = per_phase_stats(map, &rules, &phases, rounds);
        against_diplomacy_crate(map, &rules, &phases, rounds, &ours);
        println!("Maharajah:");
        per_phase_stats(mj, &mj_rules, &mj_phases, rounds);
    }
}

mod generator {
    //! Deterministic generator of realistic movement phases, by random legal play from 1901.
    //!
    //! Each unit gets one legal order, weighted roughly like real play: about half move to a
    //! neighbouring province (preferring enemy units and centres not yet owned), a quarter
    //! support a neighbouring unit's actual order (so supports match; attacks on another
    //! power's unit are the favourite), a quarter hold, and a fleet at sea next to a coastal army
    //! convoys it (30% of such fleets) to a coastal province on the far side, the army moving via
    //! convoy. In the 160 phases: 51% moves, 21% supports, 25% holds, 3% convoys, 0 invalid,
    //! 72 dislodgements. Retreat phases (random legal retreat, one in ten disbands) and
    //! adjustment phases (builds in free owned home centres, removals of random units) are
    //! played too, year after year; a game that falls below the unit range or passes
    //! `max_years` restarts from 1901 with a new seed.

    use chancery_diplomacy::adjudicator::{Board, adjudicate};
    use chancery_diplomacy::map::{Location, Map, Power, Province, Unit, UnitType};
    use chancery_diplomacy::order::{Order, UnitRef};
    use chancery_diplomacy::phase::PhaseKind;
    use chancery_diplomacy::rules::Rules;

    /// SplitMix64: tiny, fast, and good enough to drive random play.
    pub struct Rng(u64);

    impl Rng {
        pub fn new(seed: u64) -> Rng {
            Rng(seed)
        }

        pub fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        /// Uniform in `0..n` (n > 0).
        pub fn below(&mut self, n: usize) -> usize {
            (((self.next_u64() >> 32) * n as u64) >> 32) as usize
        }

        /// True with probability `pct`%.
        pub fn pct(&mut self, pct: u32) -> bool {
            self.below(100) < pct as usize
        }

        /// One of `xs`, with probability proportional to its weight.
        pub fn pick_weighted<T: Copy>(&mut self, xs: &[T], weights: &[usize]) -> Option<T> {
            let total: usize = weights.iter().sum();
            if total == 0 {
                return None;
            }
            let mut r = self.below(total);
            for (x, &w) in xs.iter().zip(weights) {
                if r < w {
                    return Some(*x);
                }
                r -= w;
            }
            None
        }

        pub fn pick<T: Copy>(&mut self, xs: &[T]) -> Option<T> {
            if xs.is_empty() {
                None
            } else {
                Some(xs[self.below(xs.len())])
            }
        }
    }

    /// One movement phase: the board and every unit's order.
    pub type MovementPhase = (Board, Vec<(Power, Order)>);

    fn unit_ref(u: &Unit) -> UnitRef {
        UnitRef {
            unit_type: Some(u.unit_type),
            province: u.location.province,
            coast: u.location.coast,
            nationality: None,
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Plan {
        Move,
        Support,
        Hold,
        Convoy,
    }

    /// What a unit does, as far as supporters need to know: moves to a location, or stays.
    #[derive(Clone, Copy)]
    enum Intent {
        Stays,
        MovesTo(Location),
    }

    /// Random orders for every unit on a movement-phase board.
    pub fn movement_orders(map: &Map, board: &Board, rng: &mut Rng) -> Vec<(Power, Order)> {
        let units = &board.units;
        let n = units.len();
        let mut at: Vec<Option<usize>> = vec![None; map.province_count()];
        for (i, u) in units.iter().enumerate() {
            at[u.location.province.0 as usize] = Some(i);
        }
        // ~45% moves, ~25% supports, ~20% holds, ~10% convoys overall; only fleets at sea can
        // convoy, so they do it more often (30%) and other units move instead.
        let mut plan: Vec<Plan> = units
            .iter()
            .map(|u| {
                let at_sea = u.unit_type == UnitType::Fleet && map.is_sea(u.location.province);
                match (at_sea, rng.below(100)) {
                    (true, 0..35) | (false, 0..50) => Plan::Move,
                    (true, 35..55) | (false, 50..78) => Plan::Support,
                    (true, 55..70) | (false, 78..) => Plan::Hold,
                    (true, _) => Plan::Convoy,
                }
            })
            .collect();
        let mut orders: Vec<Option<Order>> = vec![None; n];
        let mut intent: Vec<Intent> = vec![Intent::Stays; n];

        // Convoys first: a fleet at sea picks a coastal army next to it and carries it to a coastal
        // province on the far side of its sea.
        for f in 0..n {
            if plan[f] != Plan::Convoy {
                continue;
            }
            let fu = units[f];
            let sea = fu.location.province;
            if fu.unit_type != UnitType::Fleet || !map.is_sea(sea) {
                plan[f] = Plan::Move;
                continue;
            }
            let shore = map.fleet_province_neighbours(sea);
            let armies: Vec<usize> = shore
                .iter()
                .filter_map(|p| at[p.0 as usize])
                .filter(|&a| {
                    units[a].unit_type == UnitType::Army
                        && map.is_coastal(units[a].location.province)
                        && orders[a].is_none()
                })
                .collect();
            let Some(a) = rng.pick(&armies) else {
                plan[f] = Plan::Move;
                continue;
            };
            let from = units[a].location.province;
            let dests: Vec<Province> = shore
                .iter()
                .filter(|&p| p != from && map.is_coastal(p))
                .collect();
            // The far side: not a province the army could walk to.
            let far: Vec<Province> = dests
                .iter()
                .copied()
                .filter(|&p| !map.army_adjacent(from, p))
                .collect();
            let Some(dest) = rng.pick(if far.is_empty() { &dests } else { &far }) else {
                plan[f] = Plan::Move;
                continue;
            };
            orders[f] = Some(Order::Convoy {
                unit: unit_ref(&fu),
                army: unit_ref(&units[a]),
                dest,
            });
            orders[a] = Some(Order::Move {
                unit: unit_ref(&units[a]),
                dest,
                dest_coast: None,
                via_convoy: true,
                route: Vec::new(),
            });
            plan[a] = Plan::Move;
            intent[a] = Intent::MovesTo(Location::new(dest));
        }

        // Moves and holds.
        for i in 0..n {
            if orders[i].is_some() {
                continue;
            }
            let u = units[i];
            match plan[i] {
                Plan::Move => {
                    let to: Vec<Location> = match u.unit_type {
                        UnitType::Army => map
                            .army_neighbours(u.location.province)
                            .iter()
                            .map(Location::new)
                            .collect(),
                        UnitType::Fleet => map.fleet_neighbours(u.location).to_vec(),
                    };
                    // Real moves aim at enemy units and at centres not yet owned.
                    let weights: Vec<usize> = to
                        .iter()
                        .map(|l| {
                            let p = l.province;
                            match at[p.0 as usize] {
                                Some(j) if units[j].power != u.power => 4,
                                _ if map.info(p).supply_center
                                    && board.owner(p) != Some(u.power) =>
                                {
                                    3
                                }
                                _ => 1,
                            }
                        })
                        .collect();
                    if let Some(to) = rng.pick_weighted(&to, &weights) {
                        orders[i] = Some(Order::Move {
                            unit: unit_ref(&u),
                            dest: to.province,
                            dest_coast: to.coast,
                            via_convoy: false,
                            route: Vec::new(),
                        });
                        intent[i] = Intent::MovesTo(to);
                    } else {
                        orders[i] = Some(Order::Hold { unit: unit_ref(&u) });
                    }
                }
                Plan::Hold => orders[i] = Some(Order::Hold { unit: unit_ref(&u) }),
                Plan::Support | Plan::Convoy => {}
            }
        }

        // Supports of what the neighbours really do, preferring one's own units.
        for s in 0..n {
            if orders[s].is_some() {
                continue;
            }
            let su = units[s];
            let here = su.location.province;
            // (order, weight): supports of attacks on another power's unit weigh most.
            let mut own: Vec<(Order, usize)> = Vec::new();
            let mut other: Vec<(Order, usize)> = Vec::new();
            for t in 0..n {
                if t == s {
                    continue;
                }
                let tu = units[t];
                let weighted = match intent[t] {
                    Intent::MovesTo(to) => {
                        if to.province == here
                            || !map.unit_reaches(su.unit_type, su.location, to.province)
                        {
                            continue;
                        }
                        let attack =
                            at[to.province.0 as usize].is_some_and(|j| units[j].power != tu.power);
                        let order = Order::SupportMove {
                            unit: unit_ref(&su),
                            target: unit_ref(&tu),
                            dest: to.province,
                            dest_coast: to.coast,
                        };
                        (order, if attack { 6 } else { 2 })
                    }
                    Intent::Stays => {
                        if !map.unit_reaches(su.unit_type, su.location, tu.location.province) {
                            continue;
                        }
                        let order = Order::SupportHold {
                            unit: unit_ref(&su),
                            target: unit_ref(&tu),
                        };
                        (order, 1)
                    }
                };
                if tu.power == su.power {
                    own.push(weighted);
                } else {
                    other.push(weighted);
                }
            }
            let pool = if !own.is_empty() && (other.is_empty() || rng.pct(80)) {
                own
            } else {
                other
            };
            let weights: Vec<usize> = pool.iter().map(|(_, w)| *w).collect();
            let idx: Vec<usize> = (0..pool.len()).collect();
            orders[s] = Some(match rng.pick_weighted(&idx, &weights) {
                Some(k) => pool[k].0.clone(),
                None => Order::Hold {
                    unit: unit_ref(&su),
                },
            });
        }

        units
            .iter()
            .zip(orders)
            .map(|(u, o)| (u.power, o.unwrap_or(Order::Hold { unit: unit_ref(u) })))
            .collect()
    }

    /// Random retreats (one in ten disbands) for a retreat-phase board.
    fn retreat_orders(
        options: &[chancery_diplomacy::adjudicator::RetreatOptions],
        rng: &mut Rng,
    ) -> Vec<(Power, Order)> {
        options
            .iter()
            .map(|o| {
                let u = o.dislodged.unit;
                let order = match rng.pick(&o.retreats) {
                    Some(to) if !rng.pct(10) => Order::Retreat {
                        unit: unit_ref(&u),
                        dest: to.province,
                        dest_coast: to.coast,
                    },
                    _ => Order::Disband { unit: unit_ref(&u) },
                };
                (u.power, order)
            })
            .collect()
    }

    /// Builds in free owned home centres, or removals of random units.
    fn adjustment_orders(map: &Map, board: &Board, rng: &mut Rng) -> Vec<(Power, Order)> {
        let mut orders = Vec::new();
        for power in map.all_powers() {
            let centers = board.center_count(power);
            let units = board.unit_count(power);
            if centers > units {
                let mut free: Vec<Province> = map
                    .home_centers(power)
                    .filter(|&p| board.owner(p) == Some(power) && board.unit_at(p).is_none())
                    .collect();
                for _ in 0..(centers - units).min(free.len()) {
                    let p = free.swap_remove(rng.below(free.len()));
                    let info = map.info(p);
                    let fleet = map.is_coastal(p) && rng.pct(40);
                    let coast = if fleet { rng.pick(&info.coasts) } else { None };
                    orders.push((
                        power,
                        Order::Build {
                            unit_type: Some(if fleet {
                                UnitType::Fleet
                            } else {
                                UnitType::Army
                            }),
                            province: p,
                            coast,
                        },
                    ));
                }
            } else if units > centers {
                let mut mine: Vec<Unit> = board
                    .units
                    .iter()
                    .copied()
                    .filter(|u| u.power == power)
                    .collect();
                for _ in 0..units - centers {
                    let u = mine.swap_remove(rng.below(mine.len()));
                    orders.push((power, Order::Remove { unit: unit_ref(&u) }));
                }
            }
        }
        orders
    }

    /// Movement phases from random games, whose boards hold `min_units..=max_units` units.
    /// Games restart from 1901 (with the generator's next seed) when they fall below `min_units`
    /// or pass `max_years`.
    pub fn movement_phases(
        map: &Map,
        rules: &Rules,
        seed: u64,
        count: usize,
        min_units: usize,
        max_units: usize,
        max_years: u16,
    ) -> Vec<MovementPhase> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::with_capacity(count);
        let mut board = Board::initial(map);
        let mut guard = 0usize;
        while out.len() < count {
            guard += 1;
            assert!(guard < 100_000, "the generator is not making progress");
            let too_old = board.phase.year >= map.start_year + max_years;
            if board.units.len() < min_units && board.phase.year > map.start_year || too_old {
                board = Board::initial(map);
                // A fresh game: reseed from the stream so that every game differs.
                rng = Rng::new(rng.next_u64());
            }
            // Only supply centres have owners (the adjudicator's update_ownership keeps to
            // them too; this guards the generator's own boards).
            for p in map.all_provinces() {
                if !map.info(p).supply_center {
                    board.owners[p.0 as usize] = None;
                }
            }
            match board.phase.kind {
                PhaseKind::Movement => {
                    let orders = movement_orders(map, &board, &mut rng);
                    let adj = adjudicate(map, rules, &board, &orders);
                    let next = adj.next;
                    let retreats = adj.retreats;
                    let n = board.units.len();
                    if (min_units..=max_units).contains(&n) {
                        out.push((board, orders));
                    }
                    board = next;
                    if board.phase.kind == PhaseKind::Retreat {
                        let orders = retreat_orders(&retreats, &mut rng);
                        board = adjudicate(map, rules, &board, &orders).next;
                    }
                }
                PhaseKind::Retreat => {
                    // Only reached if a retreat phase was not played right after its movement.
                    board = adjudicate(map, rules, &board, &[]).next;
                }
                PhaseKind::Adjustment => {
                    let orders = adjustment_orders(map, &board, &mut rng);
                    board = adjudicate(map, rules, &board, &orders).next;
                }
            }
        }
        out
    }
}

mod side_by_side {
    //! The same phases judged by the `diplomacy` crate (crates.io, 0.2), for a speed ratio and a
    //! cross-check of the results.
    //!
    //! Each Chancery phase is converted once, before any timing, into the crate's own types: its
    //! standard map's region keys (the same three-letter codes in lower case, coasts as
    //! `nc`/`sc`/`ec`), its nations (Chancery's power names) and its `MainCommand`s. Chancery's
    //! default rules are the 2023 rulebook (DATC 4.A.3: a convoy is used when the move says "via
    //! convoy" or the army's own power convoys it), so the crate judges with
    //! `Rulebook::edition_2023()`. The generator writes "via convoy" on every convoyed move.
    //!
    //! The crate's own `standard_map()` lacks eleven borders of the standard board (Gal-Ukr,
    //! Lvn-War, Nwy-StP for armies; Bot-Fin, Bot-Lvn, Bot-StP/SC, Bot-Swe, Con-Smy, MAO-Spa/SC,
    //! Nwy-StP/NC, Tus-TYS for fleets), so it calls some legal orders illegal. The timed and
    //! compared runs use Chancery's map converted with the crate's map builder (`crate_map`);
    //! the agreement under the crate's own map is printed too.

    use chancery_diplomacy::adjudicator::{Adjudication, Board, Outcome};
    use chancery_diplomacy::map::{Coast, Location, Map, Province, UnitType};
    use chancery_diplomacy::order::Order;
    use diplomacy::geo::builder::{BorderRegistry, ProvinceRegistry};
    use diplomacy::geo::{
        Coast as DCoast, Map as DMap, Province as DProvince, RegionKey, SupplyCenter, Terrain,
    };
    use diplomacy::judge::{MappedMainOrder, OrderOutcome, OrderState, Rulebook, Submission};
    use diplomacy::order::{ConvoyedMove, MainCommand, MoveCommand, SupportedOrder};
    use diplomacy::{Nation, Unit as DUnit, UnitPosition, UnitType as DUnitType};
    use std::collections::BTreeSet;

    /// One movement phase in the crate's types: the units on the board and the orders, index for
    /// index with Chancery's.
    pub struct CratePhase {
        pub start: Vec<UnitPosition<'static, RegionKey>>,
        pub orders: Vec<MappedMainOrder>,
    }

    fn region(map: &Map, loc: Location) -> RegionKey {
        let coast = loc.coast.map(|c| match c {
            Coast::North => DCoast::North,
            Coast::South => DCoast::South,
            Coast::East => DCoast::East,
            Coast::West => DCoast::West,
        });
        RegionKey::new(map.info(loc.province).code.to_lowercase(), coast)
    }

    fn unit_type(t: UnitType) -> DUnitType {
        match t {
            UnitType::Army => DUnitType::Army,
            UnitType::Fleet => DUnitType::Fleet,
        }
    }

    /// Chancery's map in the crate's geography: its regions are a province's land part and one
    /// sea region per named coast (a plain province is one region: sea, land or coast), and a
    /// border is "coast" when both armies and fleets cross it, "land" or "sea" otherwise.
    pub fn crate_map(map: &Map) -> DMap {
        let code = |p: Province| map.info(p).code.to_lowercase();
        let mut provinces = ProvinceRegistry::default();
        for p in map.all_provinces() {
            let info = map.info(p);
            let supply_center = match (info.supply_center, info.home) {
                (true, Some(h)) => SupplyCenter::Home(Nation::from(map.power_name(h))),
                (true, None) => SupplyCenter::Neutral,
                (false, _) => SupplyCenter::None,
            };
            let short_name = code(p);
            provinces
                .register(DProvince {
                    short_name,
                    supply_center,
                })
                .expect("a province");
        }
        let mut regions = provinces.finish();
        // Where a fleet in the province can stand.
        let fleet_spots = |p: Province| -> Vec<Location> {
            let info = map.info(p);
            if !map.is_sea(p) && !map.is_coastal(p) {
                Vec::new()
            } else if info.coasts.is_empty() {
                vec![Location::new(p)]
            } else {
                info.coasts
                    .iter()
                    .map(|c| Location::with_coast(p, *c))
                    .collect()
            }
        };
        for p in map.all_provinces() {
            let name = code(p);
            let mut add = |coast: Option<DCoast>, terrain| {
                regions.register(&name, coast, terrain).expect("a region");
            };
            if map.is_sea(p) {
                add(None, Terrain::Sea);
            } else if !map.is_coastal(p) {
                add(None, Terrain::Land);
            } else if map.info(p).coasts.is_empty() {
                add(None, Terrain::Coast);
            } else {
                add(None, Terrain::Land);
                for spot in fleet_spots(p) {
                    add(region(map, spot).coast(), Terrain::Sea);
                }
            }
        }
        let mut borders: BorderRegistry = regions.finish();
        let all: Vec<Province> = map.all_provinces().collect();
        for (i, &a) in all.iter().enumerate() {
            for &b in &all[i + 1..] {
                let army = map.army_adjacent(a, b);
                let fleet: Vec<(Location, Location)> = fleet_spots(a)
                    .into_iter()
                    .flat_map(|la| {
                        map.fleet_neighbours(la)
                            .iter()
                            .filter(|lb| lb.province == b)
                            .map(move |lb| (la, *lb))
                    })
                    .collect();
                let name = |l: Location| region(map, l).to_string();
                let mut add = |x: String, y: String, terrain| {
                    borders.register(&x, &y, terrain).expect("a border");
                };
                let plain = |l: Location| l.coast.is_none() && map.is_coastal(l.province);
                match fleet.as_slice() {
                    [(la, lb)] if army && plain(*la) && plain(*lb) => {
                        add(name(*la), name(*lb), Terrain::Coast)
                    }
                    edges => {
                        if army {
                            add(code(a), code(b), Terrain::Land);
                        }
                        for (la, lb) in edges {
                            add(name(*la), name(*lb), Terrain::Sea);
                        }
                    }
                }
            }
        }
        borders.finish()
    }

    /// A map's borders as "a-b (terrain)", each once, sorted.
    pub fn borders(geo: &DMap) -> BTreeSet<String> {
        geo.regions()
            .flat_map(|r| geo.borders_containing(&RegionKey::from(r)))
            .map(|b| {
                let (x, y) = b.sides();
                let (x, y) = (
                    x.to_string().min(y.to_string()),
                    x.to_string().max(y.to_string()),
                );
                format!("{x}-{y} ({:?})", b.terrain())
            })
            .collect()
    }

    /// The unit standing in `p`, as region and type (every order of the generator names one).
    fn unit_in(map: &Map, board: &Board, p: Province) -> (RegionKey, DUnitType) {
        let u = board
            .unit_at(p)
            .unwrap_or_else(|| panic!("the generator ordered no unit in {}", map.info(p).code));
        (region(map, u.location), unit_type(u.unit_type))
    }

    /// A Chancery movement phase in the crate's types.
    pub fn convert(
        map: &Map,
        board: &Board,
        orders: &[(chancery_diplomacy::map::Power, Order)],
    ) -> CratePhase {
        let start = board
            .units
            .iter()
            .map(|u| {
                let nation = Nation::from(map.power_name(u.power));
                UnitPosition::new(
                    DUnit::new(std::borrow::Cow::Owned(nation), unit_type(u.unit_type)),
                    region(map, u.location),
                )
            })
            .collect();
        let orders = orders
            .iter()
            .map(|(power, order)| {
                let Some(unit) = order.unit() else {
                    panic!("a movement order without a unit: {order:?}")
                };
                let (here, ut) = unit_in(map, board, unit.province);
                let command = match order {
                    Order::Hold { .. } => MainCommand::Hold,
                    Order::Move {
                        dest,
                        dest_coast,
                        via_convoy,
                        ..
                    } => {
                        let to = region(
                            map,
                            Location {
                                province: *dest,
                                coast: *dest_coast,
                            },
                        );
                        MainCommand::Move(if *via_convoy {
                            MoveCommand::with_mandatory_convoy(to)
                        } else {
                            MoveCommand::new(to)
                        })
                    }
                    Order::SupportHold { target, .. } => {
                        let (at, t) = unit_in(map, board, target.province);
                        MainCommand::Support(SupportedOrder::Hold(t, at))
                    }
                    Order::SupportMove {
                        target,
                        dest,
                        dest_coast,
                        ..
                    } => {
                        let (from, t) = unit_in(map, board, target.province);
                        let to = region(
                            map,
                            Location {
                                province: *dest,
                                coast: *dest_coast,
                            },
                        );
                        MainCommand::Support(SupportedOrder::Move(t, from, to))
                    }
                    Order::Convoy { army, dest, .. } => {
                        let (from, _) = unit_in(map, board, army.province);
                        MainCommand::Convoy(ConvoyedMove::new(
                            from,
                            region(map, Location::new(*dest)),
                        ))
                    }
                    other => panic!("not a movement order: {other:?}"),
                };
                MappedMainOrder::new(Nation::from(map.power_name(*power)), ut, here, command)
            })
            .collect();
        CratePhase { start, orders }
    }

    /// Where the two judges differ on one phase, in words (empty if they agree).
    #[derive(Default)]
    pub struct Disagreement {
        pub moves: Vec<String>,
        pub supports: Vec<String>,
        pub dislodged: Vec<String>,
    }

    impl Disagreement {
        pub fn is_empty(&self) -> bool {
            self.moves.is_empty() && self.supports.is_empty() && self.dislodged.is_empty()
        }
    }

    /// Compare one phase: which moves succeed, which supports are given (not cut), and which units
    /// are dislodged.
    pub fn compare(
        map: &Map,
        geo: &DMap,
        chancery: &Adjudication,
        phase: &CratePhase,
    ) -> Disagreement {
        let submission = Submission::new(geo, &phase.start, phase.orders.clone());
        let outcome = submission.adjudicate(Rulebook::edition_2023());
        let mut d = Disagreement::default();
        for (r, o) in chancery.results.iter().zip(&phase.orders) {
            let theirs = outcome.get(o);
            let ours = r.outcome == Outcome::Succeeds;
            match (&r.order, theirs) {
                (Order::Move { .. }, Some(t)) => {
                    let succeeds = OrderState::from(t) == OrderState::Succeeds;
                    if succeeds != ours {
                        d.moves.push(format!(
                            "{o}: chancery {:?} {:?}, crate {t:?}",
                            r.outcome, r.reason
                        ));
                    }
                }
                (
                    Order::SupportHold { .. } | Order::SupportMove { .. },
                    Some(t @ OrderOutcome::Support(_)),
                ) => {
                    let given = OrderState::from(t) == OrderState::Succeeds;
                    if given != ours {
                        d.supports.push(format!(
                            "{o}: chancery {:?} {:?}, crate {t:?}",
                            r.outcome, r.reason
                        ));
                    }
                }
                (_, None) => d.moves.push(format!("{o}: the crate gave no outcome")),
                _ => {}
            }
        }
        let ours: BTreeSet<String> = chancery
            .retreats
            .iter()
            .map(|r| region(map, r.dislodged.unit.location).to_string())
            .collect();
        let start = outcome.to_retreat_start();
        let theirs: BTreeSet<String> = start
            .dislodged()
            .keys()
            .map(|o| o.region.to_string())
            .collect();
        if ours != theirs {
            d.dislodged
                .push(format!("chancery {ours:?}, crate {theirs:?}"));
        }
        d
    }

    /// Judge one phase with the crate, timing the submission (its legality pass) and the
    /// adjudication; the clone of the orders it takes by value is made before the clock starts.
    pub fn time_crate(geo: &DMap, phase: &CratePhase) -> std::time::Duration {
        let orders = phase.orders.clone();
        let t = std::time::Instant::now();
        let submission = Submission::new(geo, &phase.start, orders);
        let outcome = submission.adjudicate(Rulebook::edition_2023());
        criterion::black_box(&outcome);
        let elapsed = t.elapsed();
        drop(outcome);
        elapsed
    }
}
