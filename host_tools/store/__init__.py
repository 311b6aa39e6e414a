# The PC's database of sittings (SQLite or PostgreSQL), and what is read out of it.
