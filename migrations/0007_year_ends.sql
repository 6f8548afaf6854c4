-- Who owned each supply centre at the end of each game year (after its Fall turn): the centre
-- history of the final mail, SUMMARY, and Maharajiad X(1) (three years with no centre changing
-- owner end the game). owners: JSON [[centre, power or null], ...] in the map's order.
CREATE TABLE year_ends (
    game_id TEXT NOT NULL,
    year    INTEGER NOT NULL,
    owners  TEXT NOT NULL,
    PRIMARY KEY (game_id, year)
);
