"""A real PostgreSQL server for the tests: initdb a cluster in a temp dir and run it on a
unix socket there (no TCP port to collide with), as the user `postgres` (or `nobody`)
when the tests run as root, since the server refuses root. Stopped and removed at the end.

Server(): start it; .url(dbname) a URL for one of its databases; .new_database() a fresh
empty database's URL; .stop(). missing() says why there is no server to start, or None."""
import atexit
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time

USER = "tally42"        # the cluster's superuser (trust auth on its private socket)
PORT = 5432             # only names the socket file: the socket lives in our temp dir


def bin_dir():
    """Where initdb and postgres are: $TALLY42_PG_BIN, Debian's /usr/lib/postgresql/N/bin
    (the newest), else the PATH; None when there are none."""
    given = os.environ.get("TALLY42_PG_BIN")
    if given:
        return given if os.path.exists(os.path.join(given, "initdb")) else None
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if found:
        found.sort(key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def missing():
    """Why the PostgreSQL tests cannot run here (a line), or None when they can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (make setup installs it)"
    if bin_dir() is None:
        return ("PostgreSQL is not installed (apt-get install postgresql, or set "
                "TALLY42_PG_BIN to its bin folder)")
    return None


def _run_as():
    # The server will not run as root: then as postgres (Debian's package makes it), or
    # nobody.
    if os.geteuid() != 0:
        return None
    import pwd
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root and there is no postgres or nobody user")


class Server:
    def __init__(self):
        self.bin = bin_dir()
        self.user = _run_as()
        base = tempfile.gettempdir()
        if (self.user is not None or len(base) > 60) and os.path.isdir("/tmp"):
            base = "/tmp"   # one the server's user can reach, short enough for a socket
        self.dir = tempfile.mkdtemp(prefix="tally42-pg-", dir=base)
        self.data = os.path.join(self.dir, "data")
        self.socket_dir = self.dir
        self.proc = None
        self._n = 0
        atexit.register(self.stop)      # should the tests end without their teardown
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _popen_args(self):
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def _start(self):
        if self.user is not None:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        os.chmod(self.dir, 0o700)
        log = os.path.join(self.dir, "initdb.log")
        with open(log, "wb") as out:
            rc = subprocess.call(
                [os.path.join(self.bin, "initdb"), "-D", self.data, "-U", USER,
                 "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                stdout=out, stderr=subprocess.STDOUT, cwd=self.dir, **self._popen_args())
        if rc:
            with open(log, errors="replace") as f:
                raise RuntimeError("initdb failed:\n" + f.read())
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        # Durability is not what is tested here: no fsync makes each test's database fast.
        self.proc = subprocess.Popen(
            [os.path.join(self.bin, "postgres"), "-D", self.data, "-k", self.socket_dir,
             "-p", str(PORT), "-c", "listen_addresses=", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=60"],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=self.dir,
            start_new_session=True, **self._popen_args())
        self._wait_ready()

    def _wait_ready(self):
        import psycopg
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("postgres exited (%s):\n%s" % (self.proc.returncode,
                                                                  self.server_log()))
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError("postgres did not start in 60 s:\n" + self.server_log())
                time.sleep(0.1)

    def server_log(self):
        try:
            with open(os.path.join(self.dir, "server.log"), errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    def url(self, dbname):
        return "postgresql://%s@/%s?host=%s&port=%d" % (USER, dbname, self.socket_dir, PORT)

    def admin(self, sql):
        import psycopg
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self, prefix="t"):
        """A fresh, empty database on the server: its URL."""
        self._n += 1
        name = "%s_%d_%d" % (prefix, os.getpid(), self._n)
        self.admin('CREATE DATABASE "%s"' % name)
        return self.url(name)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)       # fast shutdown
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        if getattr(self, "log", None):
            self.log.close()
            self.log = None
        shutil.rmtree(self.dir, ignore_errors=True)


if __name__ == "__main__":
    # A server to try things by hand: prints a database's URL, stops on Ctrl-C (or TERM).
    why = missing()
    if why:
        raise SystemExit(why)
    def stop_on_term(*_):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop_on_term)
    s = Server()
    print(s.new_database("try"), flush=True)
    try:
        s.proc.wait()
    except KeyboardInterrupt:
        pass
    finally:
        s.stop()
