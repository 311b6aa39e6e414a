# What the PC decides for a table: the game settings and seats it assigns to a scorer.
