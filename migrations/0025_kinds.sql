-- Issue 23: one server, several kinds of game.

-- Which kind of game a game is (`store::Kind`): the entry points of src/games choose by it.
-- Every game so far is a Diplomacy game.
ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'diplomacy' CHECK (kind IN ('diplomacy'));

-- When the game next needs the clock (`store::tick_candidates`): its kind's tick step sets it
-- each time it looks at the game (a deadline, a reminder, a held result's release; at once while
-- a phase may go early), and any write to what it depends on (a deadline, a pause, orders marked
-- final, the house rules, a new phase) sets it to "at once" (-2^63) so that the kind looks again.
-- NULL: the game needs no clock (not started, paused or over).
ALTER TABLE games ADD COLUMN due_at INTEGER;
CREATE INDEX games_due ON games(kind, due_at);

-- The running games' clocks, as the tick's candidate list read them until now: the open
-- phase's deadline (or the end of its NMR hold), the day before it while nobody was reminded,
-- and at once when some power marked its orders final, or when a retreat or adjustment phase
-- may go early on the conditional orders of its movement phase (WM D.II(5),
-- `conditional_early`). Once; from now on Diplomacy's tick step keeps it in Rust.
UPDATE games SET due_at = (
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM standing_orders s
                     WHERE s.game_id = p.game_id AND s.phase = p.phase AND s.final)
          OR (p.phase NOT LIKE '%M' AND json_extract(games.rules, '$.conditional_early') = 1
              AND EXISTS (SELECT 1 FROM conditional_orders o
                          WHERE o.game_id = p.game_id
                            AND o.phase = CASE WHEN p.phase LIKE '%R'
                                               THEN substr(p.phase, 1, length(p.phase) - 1) || 'M'
                                               ELSE 'F' || substr(p.phase, 2, length(p.phase) - 2) || 'M'
                                          END))
            THEN -9223372036854775808
        WHEN p.reminded_at IS NULL
            THEN min(coalesce(p.held_until, p.deadline), p.deadline - 86400)
        ELSE coalesce(p.held_until, p.deadline)
    END
    FROM phases p
    WHERE p.game_id = games.id AND p.adjudicated_at IS NULL
    ORDER BY p.seq DESC LIMIT 1)
WHERE status = 'active' AND paused_remaining IS NULL;
