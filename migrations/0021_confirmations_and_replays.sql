-- WM D.VII(1), D.VII(7): the confirmation box vouches for the time of a GM copy only when the
-- copy comes from the same sender, in the same game, with the GM addressed as the game's rules
-- require, and says the same (read_digest: a digest of the orders, Final marker, votes and
-- press read from it). A Message-ID alone vouched for anything that reused it (issue 21,
-- point 7). The rows from before could not say what their mail said: kept for the TD, who
-- checks the box only on a dispute, they vouch for nothing.
CREATE TABLE confirmations_new (
    message_id   TEXT NOT NULL,
    from_address TEXT NOT NULL,
    game_id      TEXT NOT NULL,
    read_digest  TEXT NOT NULL,
    received_at  INTEGER NOT NULL,
    PRIMARY KEY (message_id, from_address, game_id, read_digest)
);
INSERT INTO confirmations_new (message_id, from_address, game_id, read_digest, received_at)
    SELECT message_id, coalesce(from_address, ''), '', '', received_at FROM confirmations;
DROP TABLE confirmations;
ALTER TABLE confirmations_new RENAME TO confirmations;

-- Replays (issue 21, point 8): when each accepted mail says it was written (its Date header,
-- never later than its arrival). A mail older than the power's newest accepted one, or one
-- accepted already (by Message-ID), is refused: a signed copy sent to an ally must not be sent
-- again to undo newer orders. Rows from before: their submission time stands for it.
ALTER TABLE submissions ADD COLUMN dated_at INTEGER;
