//! Movement-phase adjudication speed on realistic boards.
//!
//! `cargo bench --bench adjudicate` (add `-- --quick` for a short run). The phases come from
//! random legal play (the `generator` module below), generated once before timing. Criterion
//! times adjudicating all of them back to back (throughput in phases); then, outside criterion,
//! each phase is timed on its own and the median and p99 per phase are printed.

use chancery_core::adjudicator::adjudicate;
use chancery_core::map::Map;
use chancery_core::rules::Rules;
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

/// Median and p99 over the phases of one time per phase, with the unit range.
fn summary(label: &str, phases: &[MovementPhase], mut times: Vec<f64>, how: &str) {
    times.sort_by(f64::total_cmp);
    let k = times.len();
    let pct = |q: f64| times[((q * k as f64).ceil() as usize).clamp(1, k) - 1];
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
}

/// Per-phase times outside criterion.
///
/// The headline figure is interleaved: each round adjudicates every phase once, timing each call
/// on its own, and a phase's time is its median over the rounds. Running one phase many times
/// back to back lets the branch predictor learn that exact input and flatters the figure (by
/// about a third, on this code); a server adjudicates a different phase every time. The back-to-back
/// figure (mean of `rounds` consecutive runs, best of 3 batches) is printed second, for contrast.
fn per_phase_stats(map: &Map, rules: &Rules, phases: &[MovementPhase], rounds: usize) {
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); phases.len()];
    for (board, orders) in phases {
        black_box(adjudicate(map, rules, board, orders));
    }
    for _ in 0..rounds {
        for ((board, orders), s) in phases.iter().zip(&mut samples) {
            let t = Instant::now();
            black_box(adjudicate(map, rules, black_box(board), black_box(orders)));
            s.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let interleaved = samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect();
    summary(
        "",
        phases,
        interleaved,
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
}

/// What the generated sample looks like: order mix, and how the orders fared.
fn describe(map: &Map, rules: &Rules, phases: &[MovementPhase], gen_time: Duration) {
    use chancery_core::adjudicator::{Outcome, Reason};
    use chancery_core::order::Order;
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
        per_phase_stats(map, &rules, &phases, if quick { 50 } else { 200 });
        println!("Maharajah:");
        per_phase_stats(mj, &mj_rules, &mj_phases, if quick { 50 } else { 200 });
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

    use chancery_core::adjudicator::{Board, adjudicate};
    use chancery_core::map::{Location, Map, Power, Province, Unit, UnitType};
    use chancery_core::order::{Order, UnitRef};
    use chancery_core::phase::PhaseKind;
    use chancery_core::rules::Rules;

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
        options: &[chancery_core::adjudicator::RetreatOptions],
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
