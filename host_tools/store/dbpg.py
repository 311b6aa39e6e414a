"""The sittings database on a PostgreSQL server (psycopg 3): a thin connection that speaks
the SQLite dialect host_tools.store.db is written in, so the same queries and migrations run on
both.

What it translates, and nothing more:
- `?` and `:name` placeholders (psycopg's are `%s` and `%(name)s`; a literal `%` is kept);
- `BEGIN IMMEDIATE` (SQLite's "I am about to write"): a transaction that first takes the
  tally42 writer lock (`pg_advisory_xact_lock`), so writers on every PC take turns and two
  PCs storing the same sitting at once store it once;
- rows by name and by index (like sqlite3.Row); booleans stored as 0/1 and numerics read
  back as int (or float), as SQLite gives them;
- `INTEGER PRIMARY KEY [AUTOINCREMENT]` in CREATE TABLE as an identity column, and the
  cursor's lastrowid after an INSERT into such a table; TEXT columns made (CREATE TABLE,
  ALTER TABLE) `COLLATE "C"`, so text orders and compares as in SQLite;
- errors: every psycopg error is raised as PgError, a sqlite3.DatabaseError, so the one
  `except sqlite3.Error` in host_tools.store.db catches both.
The schema version and the application id live in a table `tally42_meta` (SQLite keeps
them in PRAGMA user_version and application_id). A read-only open makes every transaction
read-only (`default_transaction_read_only`), and reads one snapshot: a REPEATABLE READ
transaction from its first query until `conn.execute("COMMIT")` or close."""
import decimal
import functools
import re
import sqlite3

try:
    import psycopg
    import psycopg.conninfo
    import psycopg.errors
    from psycopg.adapt import Dumper, Loader
except ImportError:         # SQLite needs nothing; a URL then says what to install
    psycopg = None

META = "tally42_meta"
# The writer lock's key: any one number all tally42s agree on ("T422", the application id).
WRITER_LOCK = 0x54343232


def shown(url):
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    netloc, slash, tail = rest.partition("/")
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = "%s@%s" % (user.split(":", 1)[0], host)
    tail = re.sub(r"(?i)((?:^|[?&])password=)[^&]*", r"\1***", tail)
    return scheme + sep + netloc + slash + tail


class PgError(sqlite3.DatabaseError):
    """An error from the PostgreSQL server or the link to it."""


class ConnectError(Exception):
    """The server cannot be reached or refuses us: the message says why."""


# ---- the SQLite dialect, translated ----

@functools.lru_cache(maxsize=512)
def translate(sql):
    """SQLite's `?` and `:name` placeholders as psycopg's; `%` doubled. Quoted strings,
    quoted names and comments are left as they are."""
    out = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c in "'\"":
            j = i + 1
            while j < n:
                if sql[j] == c:
                    if j + 1 < n and sql[j + 1] == c:    # '' inside a string
                        j += 2
                        continue
                    break
                j += 1
            out.append(sql[i:j + 1].replace("%", "%%"))
            i = j + 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            out.append(sql[i:j].replace("%", "%%"))
            i = j
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(sql[i:j].replace("%", "%%"))
            i = j
        elif c == "?":
            out.append("%s")
            i += 1
        elif c == "%":
            out.append("%%")
            i += 1
        elif (c == ":" and i + 1 < n and (sql[i + 1].isalpha() or sql[i + 1] == "_")
              and (i == 0 or sql[i - 1] != ":")):
            j = i + 1
            while j < n and (sql[j].isalnum() or sql[j] == "_"):
                j += 1
            out.append("%%(%s)s" % sql[i + 1:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Row(tuple):
    """A result row: by index, by column name, unpacked, or dict(row)."""
    __slots__ = ()
    _index = {}

    def __getitem__(self, key):
        if isinstance(key, str):
            try:
                key = self._index[key]
            except KeyError:
                raise IndexError("No item with that key: %s" % key) from None
        return tuple.__getitem__(self, key)

    def keys(self):
        return list(self._index)


def _row_factory(cursor):
    desc = cursor.description
    if desc is None:
        return tuple
    cls = type("Row", (Row,), {"__slots__": (), "_index": {d.name: i for i, d in
                                                           enumerate(desc)}})
    return cls


if psycopg is not None:
    class _NumericLoader(Loader):
        # SUM() of integers is numeric in PostgreSQL: an int again, as in SQLite (a
        # fraction, from AVG() say, a float).
        def load(self, data):
            d = decimal.Decimal(bytes(data).decode("ascii"))
            return int(d) if d == d.to_integral_value() else float(d)

    class _BoolDumper(Dumper):
        # SQLite stores True as 1: so do we (the columns are INTEGER).
        oid = psycopg.postgres.types["int4"].oid

        def dump(self, obj):
            return b"1" if obj else b"0"


_ROWID_KEY = re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.I)


_TEXT = re.compile(r"\bTEXT\b(?!\s+COLLATE)", re.I)


@functools.lru_cache(maxsize=128)
def _ddl(sql):
    # CREATE TABLE's `INTEGER PRIMARY KEY [AUTOINCREMENT]` (SQLite numbers the rows) as
    # PostgreSQL's identity column, which numbers them too. TEXT columns compare as in
    # SQLite, by code point (`COLLATE "C"`), whatever the server's locale: the same
    # order, the same ties, the same = on both.
    head = " ".join(sql.split()[:2]).upper()
    if head not in ("CREATE TABLE", "ALTER TABLE"):
        return sql
    out = []
    for code, text in _code_and_text(sql):
        if code:
            text = _TEXT.sub('TEXT COLLATE "C"', text)
            if head == "CREATE TABLE":
                text = _ROWID_KEY.sub("INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                                      text)
        out.append(text)
    return "".join(out)


def _code_and_text(sql):
    # (True, SQL) and (False, a quoted string or a comment), in order.
    parts = []
    i = start = 0
    n = len(sql)
    while i < n:
        c = sql[i]
        if c in "'\"" or sql.startswith("--", i) or sql.startswith("/*", i):
            if i > start:
                parts.append((True, sql[start:i]))
            if c in "'\"":
                j = sql.find(c, i + 1)
                while j >= 0 and sql.startswith(c, j + 1):     # '' inside
                    j = sql.find(c, j + 2)
                j = n if j < 0 else j + 1
            elif c == "-":
                j = sql.find("\n", i)
                j = n if j < 0 else j
            else:
                j = sql.find("*/", i + 2)
                j = n if j < 0 else j + 2
            parts.append((False, sql[i:j]))
            i = start = j
        else:
            i += 1
    if start < n:
        parts.append((True, sql[start:]))
    return parts


class Cursor:
    def __init__(self, cur, conn=None):
        self._cur = cur
        self._conn = conn

    @property
    def lastrowid(self):
        """After an INSERT into a table keyed `INTEGER PRIMARY KEY`: the number it was
        given (lastval()); None when the session has made none."""
        if self._conn is None:
            return None
        raw = self._conn.raw
        inside = self._conn.in_transaction
        try:
            if inside:      # a failed query would spoil the caller's transaction
                raw.execute("SAVEPOINT tally42_lastval")
            value = raw.execute("SELECT lastval()").fetchone()[0]
        except psycopg.errors.ObjectNotInPrerequisiteState:
            value = None
            if inside:
                _call(raw.execute, "ROLLBACK TO SAVEPOINT tally42_lastval")
        except psycopg.Error as e:
            raise PgError(_message(e)) from e
        if inside:
            _call(raw.execute, "RELEASE SAVEPOINT tally42_lastval")
        return value

    def fetchone(self):
        return None if self._cur is None else _call(self._cur.fetchone)

    def fetchall(self):
        return [] if self._cur is None else _call(self._cur.fetchall)

    def __iter__(self):
        return iter(self.fetchall())

    @property
    def rowcount(self):
        return -1 if self._cur is None else self._cur.rowcount

    @property
    def description(self):
        return None if self._cur is None else self._cur.description


def _call(func, *args):
    try:
        return func(*args)
    except psycopg.Error as e:
        raise PgError(_message(e)) from e


def _message(e):
    return " ".join(str(e).split()) or type(e).__name__


class Connection:
    """A PostgreSQL connection with sqlite3.Connection's execute/executemany, explicit
    BEGIN/COMMIT/ROLLBACK and in_transaction (autocommit between transactions)."""

    def __init__(self, raw, where, readonly):
        self.raw = raw
        self.where = where          # the URL without its password
        self.readonly = readonly

    def execute(self, sql, params=()):
        word = sql.strip().upper()
        if word in ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"):
            _call(self.raw.execute, "BEGIN")
            if not self.readonly:
                _call(self.raw.execute, "SELECT pg_advisory_xact_lock(%s)", (WRITER_LOCK,))
            return Cursor(None)
        if word == "BEGIN DEFERRED":
            sql = "BEGIN"
        elif word.startswith("PRAGMA FOREIGN_KEYS"):
            return Cursor(None)     # PostgreSQL always checks foreign keys
        elif self.readonly and not word.startswith(("BEGIN", "COMMIT", "ROLLBACK", "END")) \
                and not self.in_transaction:
            # A reader reads one snapshot, from its first query to COMMIT (or close): its
            # figures add up while other PCs write.
            _call(self.raw.execute, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        cur = self.raw.cursor()
        # Always with parameters (maybe none): psycopg then reads `%%` as `%`.
        _call(cur.execute, translate(_ddl(sql)), params)
        return Cursor(cur, self if word.startswith("INSERT") else None)

    def executescript(self, sql):
        """Several statements, no parameters (as sqlite3's; but inside the transaction
        the caller is in: sqlite3's executescript commits first)."""
        cur = self.raw.cursor()
        _call(cur.execute, sql)
        return Cursor(cur)

    def executemany(self, sql, seq):
        cur = self.raw.cursor()
        _call(cur.executemany, translate(sql), list(seq))
        return Cursor(cur)

    @property
    def in_transaction(self):
        # A transaction to end (a broken link has none: ROLLBACK would only fail again).
        status = self.raw.info.transaction_status
        return status in (psycopg.pq.TransactionStatus.INTRANS,
                          psycopg.pq.TransactionStatus.INERROR)

    def close(self):
        self.raw.close()

    # -- what SQLite keeps in PRAGMAs: host_tools.store.db asks these --
    def _meta(self, key):
        if not self._has_meta():
            return 0
        row = self.execute("SELECT value FROM %s WHERE key = ?" % META, (key,)).fetchone()
        try:
            return int(row[0]) if row else 0
        except (TypeError, ValueError):
            raise PgError("its %s says %s is %r, not a number" % (META, key, row[0])) from None

    def _has_meta(self):
        return self.execute("SELECT to_regclass(?) IS NOT NULL", (META,)).fetchone()[0]

    def _set_meta(self, key, value):
        self.execute("CREATE TABLE IF NOT EXISTS %s (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
                     % META)
        self.execute("INSERT INTO %s (key, value) VALUES (?, ?) ON CONFLICT (key) "
                     "DO UPDATE SET value = EXCLUDED.value" % META, (key, str(value)))

    def application_id(self):
        return self._meta("application_id")

    def user_version(self):
        return self._meta("schema_version")

    def set_application_id(self, value):
        self._set_meta("application_id", value)

    def set_user_version(self, value):
        self._set_meta("schema_version", value)

    def table_names(self):
        """The tables of the schema we work in (the first of the search path)."""
        return {r[0] for r in self.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name <> ?", (META,))}


def connect(url, readonly=False):
    """A Connection to the database a postgresql:// URL names; ConnectError if none."""
    where = shown(url)
    if psycopg is None:
        raise ConnectError("%s: a PostgreSQL database needs psycopg "
                           "(pip install \"psycopg[binary]\")" % where)
    try:
        given = psycopg.conninfo.conninfo_to_dict(url)
        kwargs = {"autocommit": True}
        if "application_name" not in given:
            kwargs["application_name"] = "tally42"
        if "connect_timeout" not in given:
            kwargs["connect_timeout"] = 10
        if readonly:    # added to the URL's own options (a search_path, say)
            kwargs["options"] = (given.get("options", "") +
                                 " -c default_transaction_read_only=on").strip()
        raw = psycopg.connect(url, row_factory=_row_factory, **kwargs)
    except psycopg.Error as e:
        raise ConnectError("%s: cannot open the database: %s" % (where, _message(e)))
    raw.adapters.register_loader("numeric", _NumericLoader)
    raw.adapters.register_dumper(bool, _BoolDumper)
    return Connection(raw, where, readonly)
