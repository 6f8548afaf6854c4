-- The office (issue 23, crates/office), shared by every kind of game: proposals and their secret
-- ballots, and rule sets kept as dated revisions. Diplomacy's votes stay in `votes` for now.

-- A proposal put to the vote in a game: a Nomic rule-change (Suber's rules 103, 109), an Agora
-- BT8 proposal to change the regulations; Diplomacy's draws, concessions and house-rule changes
-- (WM IX, Maharajiad X) once they move here. Its number is the game's own (Nomic rule 109: from
-- 301, the next integer for each proper proposal).
CREATE TABLE office_proposals (
    id           INTEGER PRIMARY KEY,
    game_id      TEXT NOT NULL REFERENCES games(id),
    number       INTEGER NOT NULL CHECK (number >= 0),
    kind         TEXT NOT NULL
                 CHECK (kind IN ('rule_change', 'draw', 'concession', 'continue', 'house_rule')),
    payload      TEXT NOT NULL,                 -- JSON: what is proposed, read by its kind of game
    proposer     TEXT,                          -- the voter who proposed it, if a voter did
    electorate   TEXT NOT NULL,                 -- JSON array of voters: who may vote on it
    threshold    TEXT NOT NULL
                 CHECK (threshold IN ('unanimity', 'unanimity_bar_abstentions',
                                      'unanimity_of_votes_cast', 'simple_majority',
                                      'more_than_half')),
    majority_of  INTEGER CHECK (majority_of >= 0), -- more_than_half: more than half of this many
    revision     TEXT NOT NULL CHECK (revision IN ('replaces', 'final')),
    disclosure   TEXT NOT NULL CHECK (disclosure IN ('outcome', 'counts')),
    opens_at     INTEGER NOT NULL,
    closes_at    INTEGER,                       -- NULL: open until it passes (Agora BT8)
    withdrawn_at INTEGER,
    decided_at   INTEGER,                       -- when its result was acted on
    passed       INTEGER CHECK (passed IN (0, 1)),
    created_at   INTEGER NOT NULL,
    UNIQUE (game_id, number),
    CHECK ((threshold = 'more_than_half') = (majority_of IS NOT NULL)),
    CHECK (closes_at IS NULL OR closes_at > opens_at),
    CHECK ((decided_at IS NULL) = (passed IS NULL))
);
-- The tick's list: the proposals still to decide, by closing time.
CREATE INDEX office_proposals_due ON office_proposals(closes_at)
    WHERE decided_at IS NULL AND withdrawn_at IS NULL AND closes_at IS NOT NULL;

-- One ballot a voter a proposal: a revised ballot replaces the earlier one (WM IX(2)); where the
-- first one stands (Nomic rule 113) a second is refused before it gets here. Secret: only the
-- office's count reads these rows, and what it gives out names nobody.
CREATE TABLE office_ballots (
    proposal_id INTEGER NOT NULL REFERENCES office_proposals(id),
    voter       TEXT NOT NULL,
    choice      TEXT NOT NULL CHECK (choice IN ('yes', 'no', 'abstain')),
    cast_at     INTEGER NOT NULL,
    PRIMARY KEY (proposal_id, voter)
) WITHOUT ROWID;

-- A game's rule set as dated revisions (the Nomic's rules, the Agora tournament's regulations),
-- in order: replayed, they give the rules as they stood at any moment.
CREATE TABLE rule_revisions (
    game_id    TEXT NOT NULL REFERENCES games(id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    at         INTEGER NOT NULL,               -- when it took effect (Nomic rule 206)
    change     TEXT NOT NULL
               CHECK (change IN ('enact', 'amend', 'repeal', 'renumber', 'transmute')),
    number     INTEGER NOT NULL CHECK (number >= 0),
    new_number INTEGER CHECK (new_number >= 0),  -- renumber: the rule's new number
    text       TEXT,                            -- enact, amend: JSON array of paragraphs
    mutability TEXT CHECK (mutability IN ('mutable', 'immutable')), -- enact, transmute
    proposal   INTEGER,                         -- the proposal that made it; none for an initial set
    PRIMARY KEY (game_id, seq),
    CHECK ((change = 'renumber') = (new_number IS NOT NULL)),
    CHECK ((change IN ('enact', 'amend')) = (text IS NOT NULL)),
    CHECK ((change IN ('enact', 'transmute')) = (mutability IS NOT NULL))
) WITHOUT ROWID;
