-- Diplomacy's votes move to the office's proposals and ballots (issue 23: "proposals and secret
-- ballots (one pair of tables ...)"): a proposal of a phase is one `office_proposals` row, by
-- game, phase and the proposal in its one spelling (crates/diplomacy votes.rs, `canonical`), and
-- each voter's ballot on it one `office_ballots` row. `votes` and `refused_proposals` are carried
-- over and dropped.

-- The turn whose deadline the vote is due with (its kind's name for it, as `phases.phase`):
-- WM IX(2), "Votes will be due simultaneously with the next due date for orders". Such a
-- proposal is counted by its kind's tick when the turn is decided, not by `closes_at` (NULL).
-- NULL: a proposal that closes at `closes_at`, or when it passes (Agora BT8).
ALTER TABLE office_proposals ADD COLUMN phase TEXT;
-- Refused by a master, and by whom: not put to the vote, its ballots dropped and later ones not
-- taken (Maharajiad X(2): a repetitive proposal).
ALTER TABLE office_proposals ADD COLUMN refused_at INTEGER;
ALTER TABLE office_proposals ADD COLUMN refused_by TEXT;
-- Its turn was undone by a rollback (WM D.VIII(1)): it counts for nothing, and its ballots are
-- dropped.
ALTER TABLE office_proposals ADD COLUMN voided_at INTEGER;
-- A ballot a rule deems cast when the vote is counted, not cast by its voter (WM IX(1): the
-- uncast vote of a player who also NMRs, on a game-end proposal at a movement deadline, is a
-- yes).
ALTER TABLE office_ballots ADD COLUMN deemed INTEGER NOT NULL DEFAULT 0 CHECK (deemed IN (0, 1));

-- A turn's open proposals, one a proposal: a ballot finds its row, the tick a batch's rows.
CREATE UNIQUE INDEX office_proposals_open ON office_proposals(game_id, phase, payload)
    WHERE phase IS NOT NULL AND decided_at IS NULL AND withdrawn_at IS NULL
      AND refused_at IS NULL AND voided_at IS NULL;
-- The proposals a master refused, by game.
CREATE INDEX office_proposals_refused ON office_proposals(game_id, payload)
    WHERE refused_at IS NOT NULL;
-- The retention: the ballots of proposals decided long ago are dropped.
CREATE INDEX office_proposals_decided ON office_proposals(decided_at)
    WHERE decided_at IS NOT NULL;

-- The open votes, one proposal a (game, phase, proposal). A proposal is filed by its first word
-- (crates/diplomacy votes.rs, `Proposal::read`); a stored text with none of those words was
-- never counted and is not carried over. The electorate: the game's powers, and the GM on a
-- house-rule change (WM IX(5)); the threshold as the game's house rules say (WM IX(1),
-- Maharajiad X(1)). A vote whose phase is not the game's open one was left behind by a rollback:
-- it is carried over voided.
CREATE TEMP TABLE carried AS
SELECT v.game_id, v.phase, v.proposal,
       CASE
           WHEN upper(v.proposal) LIKE 'DRAW%' OR upper(v.proposal) LIKE 'DIAS%' THEN 'draw'
           WHEN upper(v.proposal) LIKE 'CONCE%' THEN 'concession'
           WHEN upper(v.proposal) LIKE 'CONTINUE%' THEN 'continue'
           WHEN upper(v.proposal) LIKE 'RULE %' OR upper(v.proposal) LIKE 'SET %' THEN 'house_rule'
       END AS kind,
       min(v.cast_at) AS first_cast,
       max(v.cast_at) AS last_cast
FROM votes v JOIN games g ON g.id = v.game_id
WHERE v.ballot IN ('yes', 'no', 'abstain')
GROUP BY v.game_id, v.phase, v.proposal;
DELETE FROM carried WHERE kind IS NULL;

INSERT INTO office_proposals (game_id, number, kind, payload, proposer, electorate, threshold,
                              majority_of, revision, disclosure, opens_at, closes_at,
                              withdrawn_at, decided_at, passed, created_at, phase, voided_at)
SELECT c.game_id,
       coalesce((SELECT max(number) FROM office_proposals o WHERE o.game_id = c.game_id), 0)
           + row_number() OVER (PARTITION BY c.game_id ORDER BY c.first_cast, c.phase, c.proposal),
       c.kind, json_quote(c.proposal), NULL,
       (SELECT json_group_array(e.who) FROM (
            SELECT power AS who FROM players p WHERE p.game_id = c.game_id
            UNION ALL SELECT 'GM' WHERE c.kind = 'house_rule'
            ORDER BY who) e),
       CASE json_extract(g.rules, '$.votes')
           WHEN 'maharajiad' THEN 'unanimity_bar_abstentions' ELSE 'unanimity' END,
       NULL, 'replaces', 'outcome', c.first_cast, NULL, NULL, NULL, NULL, c.first_cast, c.phase,
       CASE WHEN EXISTS (SELECT 1 FROM phases ph WHERE ph.game_id = c.game_id
                             AND ph.phase = c.phase AND ph.adjudicated_at IS NULL)
            THEN NULL ELSE c.last_cast END
FROM carried c JOIN games g ON g.id = c.game_id;

-- Each power's ballot (and the GM's agreement, WM IX(5)) on its proposal; a voided proposal's
-- ballots are dropped, as a rollback drops them.
INSERT INTO office_ballots (proposal_id, voter, choice, cast_at)
SELECT o.id, v.power, v.ballot, v.cast_at
FROM votes v JOIN office_proposals o
    ON o.game_id = v.game_id AND o.phase = v.phase AND o.payload = json_quote(v.proposal)
WHERE v.ballot IN ('yes', 'no', 'abstain') AND o.voided_at IS NULL;

-- The proposals the GM refused (Maharajiad X(2)): one row each, of no phase.
INSERT INTO office_proposals (game_id, number, kind, payload, proposer, electorate, threshold,
                              majority_of, revision, disclosure, opens_at, closes_at,
                              withdrawn_at, decided_at, passed, created_at, phase, refused_at,
                              refused_by)
SELECT r.game_id,
       coalesce((SELECT max(number) FROM office_proposals o WHERE o.game_id = r.game_id), 0)
           + row_number() OVER (PARTITION BY r.game_id ORDER BY r.at, r.proposal),
       k.kind, json_quote(r.proposal), NULL,
       (SELECT json_group_array(e.who) FROM (
            SELECT power AS who FROM players p WHERE p.game_id = r.game_id
            UNION ALL SELECT 'GM' WHERE k.kind = 'house_rule'
            ORDER BY who) e),
       CASE json_extract(g.rules, '$.votes')
           WHEN 'maharajiad' THEN 'unanimity_bar_abstentions' ELSE 'unanimity' END,
       NULL, 'replaces', 'outcome', r.at, NULL, NULL, NULL, NULL, r.at, NULL, r.at, r.by
FROM refused_proposals r JOIN games g ON g.id = r.game_id
JOIN (SELECT game_id, proposal,
             CASE
                 WHEN upper(proposal) LIKE 'DRAW%' OR upper(proposal) LIKE 'DIAS%' THEN 'draw'
                 WHEN upper(proposal) LIKE 'CONCE%' THEN 'concession'
                 WHEN upper(proposal) LIKE 'CONTINUE%' THEN 'continue'
                 WHEN upper(proposal) LIKE 'RULE %' OR upper(proposal) LIKE 'SET %' THEN 'house_rule'
             END AS kind
      FROM refused_proposals) k ON k.game_id = r.game_id AND k.proposal = r.proposal
WHERE k.kind IS NOT NULL;

DROP TABLE carried;
DROP TABLE votes;
DROP TABLE refused_proposals;

-- The ballots on the open proposals of a phase as `votes` showed them, by power, read-only: for
-- reading the store by hand (a TD looking into a dispute) and for the tests that did. Chancery
-- itself reads the office's tables.
CREATE VIEW votes AS
SELECT p.game_id, p.phase, b.voter AS power, json_extract(p.payload, '$') AS proposal,
       b.choice AS ballot, b.cast_at
FROM office_proposals p JOIN office_ballots b ON b.proposal_id = p.id
WHERE p.phase IS NOT NULL AND p.decided_at IS NULL AND p.withdrawn_at IS NULL
  AND p.refused_at IS NULL AND p.voided_at IS NULL;
