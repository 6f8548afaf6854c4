-- Issue 21: a game's own secret key for the order anonymous press is published in (WM D.X(2);
-- Maharajiad B.XI(2)). Black and grey press went out in the order it arrived, next to the
-- author's own white press sent in the same mail; it is now published in a keyed order no
-- reader can work out. 32 bytes from SQLite's generator (ChaCha20, seeded by the OS); never
-- sent, never shown.
ALTER TABLE games ADD COLUMN press_key BLOB NOT NULL DEFAULT X'';
UPDATE games SET press_key = randomblob(32);
