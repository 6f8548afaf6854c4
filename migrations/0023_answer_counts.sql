-- Issue 22: the answer limits count, for every answer, the last hour's answers to its address
-- and about its game (store::answers_since). With the kind in the index, the counts read the
-- index alone: without it they read each counted mail's row, a page a mail, so that a busy
-- hour slowed every mail read in it.
DROP INDEX outbox_to;
CREATE INDEX outbox_to ON outbox(to_address, created_at, kind);
DROP INDEX outbox_game;
CREATE INDEX outbox_game ON outbox(game_id, created_at, kind) WHERE game_id IS NOT NULL;
