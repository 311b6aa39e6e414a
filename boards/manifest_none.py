# Nothing frozen: the 32-bit unix port as a stock flash (tools/mp32.py stock).
