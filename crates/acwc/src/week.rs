//! ACWC Timeline: "There is one week per Qualification round ... There is one week per
//! round-robin round ... The pairings for all subsequent rounds will be published on subsequent
//! Mondays as soon as possible (or earlier if all players finish their matches earlier). All
//! matches of a round must be completed by Sunday 23:59:59 UTC"; ACWC Match negotiations: offers
//! "by Wednesday at the latest", agreement "before the weekend".
//!
//! A round's week, as moments in UTC, from the moment its pairings were published.
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - a round's week runs Monday 00:00:00 to Sunday 23:59:59 UTC. Pairings published on a Monday
//!   or a Tuesday (a Monday publication "as soon as possible", a little late) belong to that
//!   week; pairings published Wednesday to Sunday were published early (every match of the
//!   previous round done, or the first round's "before Monday 30th September 00:00 UTC") and
//!   belong to the following week, so "one week per round" always leaves a round at least a
//!   whole Monday-to-Sunday week when published early, and at least one whole day (Wednesday)
//!   for the offers when published late;
//! - "by Wednesday" is Wednesday 23:59:59 UTC of the round's week, inclusive; "the weekend"
//!   begins Saturday 00:00:00 UTC of the round's week; the deadline, Sunday 23:59:59, inclusive;
//! - the next round's pairings are due the Monday 00:00:00 after the deadline, or as soon as
//!   every match of the round is done, whichever comes first (never before this round's own
//!   publication);
//! - the Final has no week: "The finals are played as the finalists see fit", so nothing here
//!   applies to it.

use crate::Ts;
use chancery_office::time::{DAY, Weekday, civil_from_days};

/// ACWC Timeline: one round's week, every moment in UTC; deadlines are inclusive (a moment
/// equal to one is in time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Week {
    /// When the pairings were published: negotiation may begin (ACWC Match negotiations:
    /// "as soon as their next pairing is known").
    pub published: Ts,
    /// Monday 00:00:00 UTC: the week's first moment.
    pub monday: Ts,
    /// Wednesday 23:59:59 UTC: "by Wednesday at the latest" (ACWC Match negotiations).
    pub offers_by: Ts,
    /// Saturday 00:00:00 UTC: "before the weekend" (ACWC Match negotiations).
    pub weekend: Ts,
    /// Sunday 23:59:59 UTC: "All matches of a round must be completed by Sunday 23:59:59 UTC"
    /// (ACWC Timeline).
    pub deadline: Ts,
    /// The Monday 00:00:00 UTC after the deadline: the next round's pairings are due then at
    /// the latest (ACWC Timeline).
    pub next_monday: Ts,
}

/// The first moment of the UTC day of `t`.
pub fn start_of_day(t: Ts) -> Ts {
    t.div_euclid(DAY).saturating_mul(DAY)
}

/// The weekday of `t`, UTC.
pub fn weekday(t: Ts) -> Weekday {
    Weekday::of_days(t.div_euclid(DAY))
}

/// The UTC date of `t`: (year, month, day).
pub fn date(t: Ts) -> (i64, i64, i64) {
    civil_from_days(t.div_euclid(DAY))
}

/// ACWC Timeline: the week of the round whose pairings were published at `published`. A
/// Monday or Tuesday publication is that week's (the Monday's, a little late); a Wednesday to
/// Sunday one is early, and the round is the following week's (module docs).
pub fn round_week(published: Ts) -> Week {
    let day = weekday(published).index();
    let this_monday = start_of_day(published).saturating_sub(day.saturating_mul(DAY));
    let monday = if day <= Weekday::Tuesday.index() {
        this_monday
    } else {
        this_monday.saturating_add(7 * DAY)
    };
    let at = |days: i64| monday.saturating_add(days.saturating_mul(DAY));
    Week {
        published,
        monday,
        offers_by: at(3).saturating_sub(1),
        weekend: at(5),
        deadline: at(7).saturating_sub(1),
        next_monday: at(7),
    }
}

impl Week {
    /// ACWC Timeline: is `t` in time for the round ("by Sunday 23:59:59 UTC", inclusive)?
    pub fn in_time(&self, t: Ts) -> bool {
        t <= self.deadline
    }

    /// ACWC Match negotiations: is `t` "by Wednesday" (inclusive)?
    pub fn by_wednesday(&self, t: Ts) -> bool {
        t <= self.offers_by
    }

    /// ACWC Match negotiations: has "the weekend" begun at `t`?
    pub fn weekend_begun(&self, t: Ts) -> bool {
        t >= self.weekend
    }

    /// ACWC Timeline: when the next round's pairings may be published: as soon as every match
    /// of this round is done (`all_done`, the moment the last one was), or else the Monday
    /// after the deadline; never before this round's own publication.
    pub fn next_publication(&self, all_done: Option<Ts>) -> Ts {
        match all_done {
            Some(done) => done.clamp(self.published, self.next_monday),
            None => self.next_monday,
        }
    }

    /// ACWC Timeline: may the round close at `now`, with `done` of its `matches` done? Early
    /// when every match is done ("or earlier if all players finish their matches earlier"),
    /// and in any case once the deadline has passed (what is left is for the TD).
    pub fn can_close(&self, now: Ts, done: usize, matches: usize) -> bool {
        done >= matches || now > self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_office::time::parse_gmt;

    fn gmt(s: &str) -> Ts {
        parse_gmt(s).unwrap_or(0)
    }

    #[test]
    fn acwc_timeline_a_monday_publication_is_that_weeks_round() {
        // 2019-10-07 was a Monday.
        let w = round_week(gmt("2019-10-07 09:30"));
        assert_eq!(w.monday, gmt("2019-10-07 00:00"));
        assert_eq!(w.offers_by, gmt("2019-10-10 00:00") - 1);
        assert_eq!(w.weekend, gmt("2019-10-12 00:00"));
        assert_eq!(w.deadline, gmt("2019-10-14 00:00") - 1);
        assert_eq!(w.next_monday, gmt("2019-10-14 00:00"));
        assert!(w.in_time(w.deadline) && !w.in_time(w.deadline + 1));
        assert!(w.by_wednesday(w.offers_by) && !w.by_wednesday(w.offers_by + 1));
        assert!(w.weekend_begun(w.weekend) && !w.weekend_begun(w.weekend - 1));
        // A late (Tuesday) publication keeps the week.
        assert_eq!(round_week(gmt("2019-10-08 23:00")).monday, w.monday);
    }

    #[test]
    fn acwc_timeline_an_early_publication_gets_the_following_week() {
        // Published on Friday 2019-10-11 (every match done): the round is the week of Monday
        // 2019-10-14, ending Sunday 2019-10-20 23:59:59.
        let w = round_week(gmt("2019-10-11 18:00"));
        assert_eq!(w.monday, gmt("2019-10-14 00:00"));
        assert_eq!(w.deadline, gmt("2019-10-21 00:00") - 1);
        assert_eq!(w.offers_by, gmt("2019-10-17 00:00") - 1);
        // The first round: "published before Monday 30th September 00:00 UTC".
        let first = round_week(gmt("2019-09-29 20:00"));
        assert_eq!(first.monday, gmt("2019-09-30 00:00"));
        assert_eq!(weekday(first.deadline), Weekday::Sunday);
        assert_eq!(date(first.deadline), (2019, 10, 6));
        // Wednesday is already early.
        assert_eq!(round_week(gmt("2019-10-09 00:00")).monday, w.monday);
    }

    #[test]
    fn acwc_timeline_the_next_round_is_due_monday_or_when_every_match_is_done() {
        let w = round_week(gmt("2019-10-07 09:30"));
        assert_eq!(w.next_publication(None), gmt("2019-10-14 00:00"));
        let done = gmt("2019-10-11 17:00");
        assert_eq!(w.next_publication(Some(done)), done);
        assert_eq!(
            w.next_publication(Some(gmt("2019-10-13 12:00"))),
            gmt("2019-10-13 12:00")
        );
        assert_eq!(
            w.next_publication(Some(gmt("2019-10-30 12:00"))),
            w.next_monday
        );
        assert!(w.can_close(done, 8, 8));
        assert!(!w.can_close(done, 7, 8));
        assert!(w.can_close(w.deadline + 1, 7, 8));
    }
}
