"""A throwaway PostgreSQL server for the tests: one per session, on loopback, removed at the end.

It uses the server binaries of the system's PostgreSQL package (Debian: ``postgresql``, which
``make test`` installs when it is missing). PostgreSQL refuses to run as root, and CI runs as
root: then the server runs as the unprivileged ``postgres`` system user (``nobody`` if there is
none), started through ``setpriv``. A developer's own account runs it directly.

The server is for tests only: it listens on 127.0.0.1 at a free port (and a socket in its own
temporary folder, in memory where there is room: :func:`scratch_dir`), asks for a random password, and runs with ``fsync=off`` — fast, and unsafe for
anything that matters (but a killed server still keeps every commit it acknowledged: the WAL is in
the operating system's cache, so ``synchronous_commit`` stays on for the restart tests). A test gets
a place of its own: a new schema (``new_database``), or for the store contract tests, which only use
the store's methods, one of a few schemas reused and emptied for each test (``emptied_database``:
the tables are kept, so no migration runs again).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

SUPERUSER = "wom"
FAST_SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "shared_buffers": "32MB",
    "log_min_messages": "warning",
    "max_wal_size": "96MB",  # kept small: the folder may be in memory (see scratch_dir)
    "min_wal_size": "32MB",
}
MEMORY_DIR = "/dev/shm"
MEMORY_ROOM = 1 << 30
"""Free bytes the memory file system must have for the server to live there."""


class PostgresMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine; the message says how to get them."""


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: ``$WOM_PG_BINDIR``, then PATH, then Debian's newest."""
    explicit = os.environ.get("WOM_PG_BINDIR")
    if explicit:
        return Path(explicit)
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if debian:
        return Path(debian[-1]).parent
    raise PostgresMissing(
        "the tests need the PostgreSQL server (initdb, pg_ctl): `make test` installs the Debian package "
        "`postgresql` when run as root; otherwise install it (apt-get install postgresql, brew install "
        "postgresql, ...) or point WOM_PG_BINDIR at its bin folder"
    )


def scratch_dir() -> str | None:
    """Where the server's folder goes: ``/dev/shm`` (memory) if it is writable and has room, else the
    system's temporary folder (None). In memory, creating a database's files costs no waiting on a
    disk journal shared with every other busy process: ``initdb`` and each test's tables are several
    times quicker on a loaded machine.
    """
    try:
        stats = os.statvfs(MEMORY_DIR)
    except OSError:
        return None
    if stats.f_bavail * stats.f_frsize < MEMORY_ROOM or not os.access(MEMORY_DIR, os.W_OK | os.X_OK):
        return None
    return MEMORY_DIR


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThrowawayPostgres:
    """initdb + pg_ctl in a temporary folder; ``url`` reaches its ``postgres`` database."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.password = secrets.token_urlsafe(18)
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="wom-pg-", dir=scratch_dir()))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as: list[str] = []
        self._counter = 0
        self._reused: dict[str, tuple[str, str]] = {}
        """slot -> (URL, schema) of the schemas :meth:`emptied_database` reuses."""
        self._admin: Any = None
        """The one connection the helpers below use (a connection costs the server a new process)."""
        self._holder: socket.socket | None = None
        """While the server is stopped, a socket bound to its port, listening to nothing (see :meth:`stop`)."""
        if os.geteuid() == 0:
            name = "postgres" if _has_user("postgres") else "nobody"
            entry = pwd.getpwnam(name)
            self._as = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--"]
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.root.chmod(0o700)

    # ---- life cycle

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        env.pop("PGDATA", None)
        return subprocess.run([*self._as, *argv], capture_output=True, text=True, env=env, check=check,
                              cwd=self.root, timeout=120)

    def start(self) -> ThrowawayPostgres:
        """initdb (first time) and start the server; waits until it accepts connections."""
        if not self.data.exists():
            pwfile = self.root / "pw"
            pwfile.write_text(self.password + "\n")
            if self._as:
                os.chown(pwfile, *_uid_gid(self._as))
            try:
                self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-E", "UTF8",
                          "--locale=C", "--auth=scram-sha-256", f"--pwfile={pwfile}", "--no-sync",
                          "--no-instructions")
            except subprocess.CalledProcessError as exc:
                raise RuntimeError(f"initdb failed:\n{exc.stdout}\n{exc.stderr}") from None
            finally:
                pwfile.unlink()
        options = " ".join(f"-c {key}={value}" for key, value in FAST_SETTINGS.items())
        options += f" -p {self.port} -k {self.root}"
        self._release_port()
        result = self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                           "-t", "60", "-o", options, "start", check=False)
        if result.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start:\n{result.stderr}\n{self.log_text()}")
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate`` is a crash, ``fast`` ends sessions then shuts down cleanly).

        Its port stays this server's until it starts again: a socket bound to it and listening to nothing, so
        that a client meanwhile is refused (as by a database that is down), and no other process of a busy
        test run (which binds port 0 for its servers) takes the port, to accept that client and close on it,
        or to keep the server from starting again. (The kernel never picks a bound port for a port-0 bind.)
        """
        self._drop_admin()
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60", "-m", mode, "stop",
                  check=False)
        self._hold_port()

    def _hold_port(self) -> None:
        if self._holder is not None:
            return
        holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (the server's closed connections wait)
        try:
            holder.bind(("127.0.0.1", self.port))
        except OSError:
            holder.close()  # taken already: the start says so if it cannot have it
            return
        self._holder = holder

    def _release_port(self) -> None:
        if self._holder is not None:
            self._holder.close()
            self._holder = None

    def restart(self, mode: str = "fast") -> None:
        """Stop and start again on the same port and data (every open connection is cut)."""
        self.stop(mode)
        self.start()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        if self.data.exists():
            self.stop("immediate")
        self._release_port()
        shutil.rmtree(self.root, ignore_errors=True)

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    # ---- databases

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}:{self.password}@127.0.0.1:{self.port}/{dbname}"

    def _connection(self) -> Any:
        """The helpers' autocommit connection to the ``postgres`` database, opened when first needed (and
        again after a stop)."""
        if self._admin is None:
            import psycopg

            self._admin = psycopg.connect(self.url(), autocommit=True)
        return self._admin

    def _drop_admin(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None

    def sql(self, statement: str, dbname: str = "postgres") -> list[tuple]:
        """Run one statement (autocommit) and return its rows (empty if it returns none)."""
        if dbname == "postgres":
            cursor = self._connection().execute(statement)
            return cursor.fetchall() if cursor.description else []
        import psycopg

        with psycopg.connect(self.url(dbname), autocommit=True) as conn:
            cursor = conn.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def new_database(self, prefix: str = "t") -> str:
        """A fresh, empty place to keep a store, as a URL.

        Creating a database takes a checkpoint (about 0.2 s); a schema takes milliseconds, so each
        test gets its own schema in the one database, chosen by the URL's ``search_path``, the way
        an operator would give wom-tui a schema of its own in a shared database.
        """
        return self._new_schema(prefix)[0]

    def _new_schema(self, prefix: str) -> tuple[str, str]:
        self._counter += 1
        name = f"{prefix}_{os.getpid()}_{self._counter}"
        self.sql(f'CREATE SCHEMA "{name}"')
        return self.url() + f"?options=-csearch_path%3D{name}", name


    def emptied_database(self, slot: str = "main") -> str:
        """The URL of this process's reused schema ``slot``, emptied of every row a previous test kept.

        The first call makes the schema (as :meth:`new_database`); later calls delete every row of
        its wom_ tables (all but the migrations) in one transaction on the helpers' one connection: a
        few milliseconds, where a new schema costs its migration too (and a new connection, a new
        server process). A lock held by a store left open makes this fail after 5 s rather than wait.
        """
        reused = self._reused.get(slot)
        if reused is None:
            reused = self._reused[slot] = self._new_schema(f"reused_{slot}")
            return reused[0]
        from psycopg import sql

        url, schema = reused
        conn = self._connection()
        tables = [name for (name,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s "
            "AND tablename LIKE 'wom\\_%%' AND tablename <> 'wom_migrations'", (schema,))]
        if tables:
            # DELETE, not TRUNCATE: on tables of a few rows it is several times quicker (TRUNCATE
            # makes new files for every table and index). Identities go on counting; no test
            # depends on their values.
            with conn.transaction():
                conn.execute("SET LOCAL lock_timeout = '5s'")
                conn.execute(sql.SQL("; ").join(sql.SQL("DELETE FROM {}").format(sql.Identifier(schema, name))
                                                for name in tables))
        return url


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _uid_gid(setpriv_argv: list[str]) -> tuple[int, int]:
    uid = int(next(a for a in setpriv_argv if a.startswith("--reuid=")).split("=")[1])
    gid = int(next(a for a in setpriv_argv if a.startswith("--regid=")).split("=")[1])
    return uid, gid
