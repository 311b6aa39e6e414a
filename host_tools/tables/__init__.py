# What the PC decides for a table: the game settings, names and seats it sets on a scorer, checked as the scorer checks them.
