//! Where a bench window's CPU time went, from Linux's `/proc`: how busy the machine's cores
//! were, and how much of it this process (the servers being timed), PostgreSQL's processes and
//! everything else (the mail stack, mostly) used. A throughput that is bound by the cores shows
//! it here, and an instance more cannot make it faster (issue 28's second instance).

use std::collections::HashMap;
use std::fmt;

/// The CPU counters at one moment (clock ticks).
#[derive(Clone, Debug)]
pub struct CpuSnapshot {
    /// All cores: (every tick, idle and I/O-wait ticks).
    machine: (u64, u64),
    /// This process, its threads included.
    own: u64,
    /// Each other process's ticks, by pid, with whether it is PostgreSQL's.
    others: HashMap<u32, (bool, u64)>,
}

/// What a window between two snapshots used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuUse {
    pub cores: usize,
    /// How many cores' worth were busy, on average.
    pub busy_cores: f64,
    /// CPU seconds of this process, of PostgreSQL's processes, of everything else.
    pub own: f64,
    pub postgres: f64,
    pub other: f64,
}

impl CpuSnapshot {
    /// Now; None where `/proc` cannot be read (not Linux).
    pub fn take() -> Option<CpuSnapshot> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let machine = machine_ticks(&stat)?;
        let own = process_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)?.1;
        let me = std::process::id();
        let mut others = HashMap::new();
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == me {
                continue;
            }
            // A process may end while it is read: it is then left out.
            let Ok(text) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            if let Some((comm, ticks)) = process_ticks(&text) {
                others.insert(pid, (comm == "postgres", ticks));
            }
        }
        Some(CpuSnapshot {
            machine,
            own,
            others,
        })
    }

    /// What was used from `self` to `later`. A process that started within the window counts
    /// whole; one that ended within it is missing (its ticks went with it).
    pub fn until(&self, later: &CpuSnapshot) -> CpuUse {
        let total = later.machine.0.saturating_sub(self.machine.0);
        let idle = later.machine.1.saturating_sub(self.machine.1);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // /proc/stat sums every core: its ticks over the window's length in ticks per core.
        let busy_cores = if total == 0 {
            0.0
        } else {
            (total - idle) as f64 / total as f64 * cores as f64
        };
        let (mut postgres, mut other) = (0u64, 0u64);
        for (pid, (is_postgres, ticks)) in &later.others {
            let before = self.others.get(pid).map_or(0, |(_, t)| *t);
            let used = ticks.saturating_sub(before);
            if *is_postgres {
                postgres += used;
            } else {
                other += used;
            }
        }
        let secs = |t: u64| t as f64 / USER_HZ;
        CpuUse {
            cores,
            busy_cores,
            own: secs(later.own.saturating_sub(self.own)),
            postgres: secs(postgres),
            other: secs(other),
        }
    }
}

impl fmt::Display for CpuUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.2} of {} cores busy ({:.0}%); CPU seconds: Chancery {:.2}, PostgreSQL {:.2}, \
             the rest (the mail stack, mostly) {:.2}",
            self.busy_cores,
            self.cores,
            self.busy_cores / self.cores as f64 * 100.0,
            self.own,
            self.postgres,
            self.other
        )
    }
}

/// `/proc/stat`'s first line: (every tick, idle + iowait ticks).
fn machine_ticks(stat: &str) -> Option<(u64, u64)> {
    let line = stat.lines().next()?;
    let fields: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|f| f.parse().ok())
        .collect();
    let idle = fields.get(3)? + fields.get(4).copied().unwrap_or(0);
    // Guest time is already counted in user time.
    let total = fields.iter().take(8).sum();
    Some((total, idle))
}

/// A `/proc/<pid>/stat` line: the command name and user + system ticks. The name is between
/// the first `(` and the last `)` (it may hold either).
fn process_ticks(stat: &str) -> Option<(&str, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let comm = stat.get(open + 1..close)?;
    let rest: Vec<&str> = stat.get(close + 2..)?.split_whitespace().collect();
    // After the name: state is field 3 of the line, utime 14 and stime 15.
    let utime: u64 = rest.get(11)?.parse().ok()?;
    let stime: u64 = rest.get(12)?.parse().ok()?;
    Some((comm, utime + stime))
}

/// What `/proc` counts in (`USER_HZ`): 100 on every architecture Linux runs this on, fixed by
/// its ABI whatever the kernel's own tick rate.
const USER_HZ: f64 = 100.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_line_with_brackets_in_its_name() {
        let line = "4242 (tokio (rt) worker) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 8 0 1000 0 0";
        assert_eq!(process_ticks(line), Some(("tokio (rt) worker", 281)));
    }

    #[test]
    fn the_machine_line() {
        let stat = "cpu  100 5 50 800 20 3 2 0 0 0\ncpu0 50 2 25 400 10 1 1 0 0 0\n";
        assert_eq!(machine_ticks(stat), Some((980, 820)));
    }

    #[test]
    fn a_window_adds_what_each_process_used() {
        let snap = |machine, own, pg, mta| CpuSnapshot {
            machine,
            own,
            others: HashMap::from([(10, (true, pg)), (11, (false, mta))]),
        };
        let used = snap((1000, 600), 50, 20, 5).until(&snap((1400, 700), 150, 120, 55));
        assert!((used.own - 1.0).abs() < 1e-9);
        assert!((used.postgres - 1.0).abs() < 1e-9);
        assert!((used.other - 0.5).abs() < 1e-9);
        let cores = used.cores as f64;
        assert!((used.busy_cores - 0.75 * cores).abs() < 1e-9);
    }
}
