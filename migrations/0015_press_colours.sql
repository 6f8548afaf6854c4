-- WM D.X(1); Maharajiad B.XI(1): dark grey press carries the name its author signed it with;
-- black press, the power it is printed as from. The author column stays the real author, and
-- never leaves the engine for grey, dark grey or black press (WM D.X(2); Maharajiad B.XI(2)).
ALTER TABLE press ADD COLUMN signature TEXT;
ALTER TABLE press ADD COLUMN attributed TEXT;
