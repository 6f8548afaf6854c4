-- Agora BT2, BT7 (issue 24): the persons the Gamemaster invited to become Contestants (ADD),
-- who become Contestants when they consent by mail (`<game> ENTER`), and who sent each order
-- mail (a contestant, or an announced assistant under team orders).
CREATE TABLE entry_invitations (
    game_id    TEXT NOT NULL REFERENCES games(id),
    address    TEXT NOT NULL,                  -- lower case
    invited_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, address)
) WITHOUT ROWID;

-- Who sent an accepted order mail (its From, lower case): the power's player, or one of its
-- announced assistants (Agora BT7, `team_orders`). NULL for mails stored before.
ALTER TABLE submissions ADD COLUMN submitted_by TEXT;
