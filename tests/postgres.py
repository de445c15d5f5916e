"""A real PostgreSQL server for the tests, started from the distribution's own programs in a temporary
folder and stopped at the end of the session; one fresh database per test (a copy of a migrated
template, or one an earlier test left, emptied: see ``Databases``).

When PostgreSQL is not installed the tests that need it are skipped with the reason, never faked;
``BIGAPPLE_TEST_POSTGRES=1`` (CI sets it) turns that skip into a failure.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from data.postgres.db import migrate

REQUIRED_ENV = "BIGAPPLE_TEST_POSTGRES"
# PostgreSQL refuses to run as root: a root test session runs the server as this system user.
SERVER_USER = "postgres"
TEMPLATE = "bigapple_template"
_numbers = itertools.count(1)


def server_programs() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` (PATH first, then Debian's layout)."""
    on_path = shutil.which("initdb")
    if on_path is not None and shutil.which("pg_ctl") is not None:
        return Path(on_path).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when PostgreSQL tests are required here."""
    if os.environ.get(REQUIRED_ENV) == "1":
        pytest.fail(f"{reason} ({REQUIRED_ENV}=1 requires the PostgreSQL tests)")
    pytest.skip(f"{reason}; install PostgreSQL to run the PostgreSQL tests")


@dataclass(frozen=True, slots=True)
class Server:
    """A running test server, reached on a Unix socket in ``socket_dir``."""

    socket_dir: Path
    port: int

    def dsn(self, database: str) -> str:
        return f"postgresql://bigapple@/{database}?host={self.socket_dir}&port={self.port}"


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", SERVER_USER, "--", *command]


@contextmanager
def running_server() -> Iterator[Server]:
    """Start a throw-away server (no durability: it lives for one test session) and stop it after."""
    programs = server_programs()
    if programs is None:
        unavailable("PostgreSQL's initdb and pg_ctl are not installed")
        raise AssertionError("unreachable")
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam(SERVER_USER)
        except KeyError:
            unavailable(f"running as root and there is no {SERVER_USER!r} user to run PostgreSQL as")
            raise AssertionError("unreachable") from None
    home = Path(tempfile.mkdtemp(prefix="bigapple-pg-"))
    data, sockets = home / "data", home / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        for path in (home, sockets):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    port = 5432 + os.getpid() % 20000
    log = home / "server.log"
    try:
        subprocess.run(
            _as_server_user(
                [str(programs / "initdb"), "-D", str(data), "-U", "bigapple", "--auth=trust", "-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
        )
        options = (
            f"-k {sockets} -p {port} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        subprocess.run(
            _as_server_user(
                [str(programs / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]
            ),
            check=True,
            capture_output=True,
        )
        yield Server(sockets, port)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                _as_server_user([str(programs / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                capture_output=True,
            )
        shutil.rmtree(home, ignore_errors=True)


async def prepare_template(server: Server) -> None:
    """A migrated database every test database is copied from (copying beats migrating each)."""
    admin = await asyncpg.connect(server.dsn("postgres"))
    try:
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    conn = await asyncpg.connect(server.dsn(TEMPLATE))
    try:
        await migrate(conn)
    finally:
        await conn.close()


async def fresh_database(server: Server) -> str:
    """A new, migrated, empty database; returns its DSN."""
    name = f"test_{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(server.dsn("postgres"))
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    finally:
        await admin.close()
    return server.dsn(name)


# What a database's schema is: a test that changed it (dropped a constraint, applied a migration of its
# own) hands back a database that no other test may be given.
_SCHEMA = """
SELECT md5(string_agg(item, ',' ORDER BY item)) FROM (
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type
    FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT 'constraint ' || conrelid::regclass || '.' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT 'trigger ' || tgrelid::regclass || '.' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL SELECT 'migration ' || version FROM schema_migrations
) AS schema (item)
"""
# Every row deleted (triggers off: the action log's append-only guard, the foreign keys) and every id
# counted from 1 again: as the template left it.
_EMPTY = """
DO $$
DECLARE
    name regclass;
BEGIN
    FOR name IN SELECT oid::regclass FROM pg_class WHERE relnamespace = 'public'::regnamespace
                AND relkind = 'r' AND relname <> 'schema_migrations'
    LOOP
        EXECUTE format('DELETE FROM %s', name);
    END LOOP;
    FOR name IN SELECT oid::regclass FROM pg_class WHERE relnamespace = 'public'::regnamespace
                AND relkind = 'S'
    LOOP
        PERFORM setval(name, 1, false);
    END LOOP;
END
$$
"""


class Databases:
    """Fresh, migrated, empty databases for the tests: a copy of the template, or a database an earlier
    test handed back, emptied (milliseconds, where a copy takes a few hundred). A database is taken back
    only when its schema is the template's and nobody is connected to it any more."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.free: list[str] = []
        self.pristine: str | None = None  # the template's schema (see ``_SCHEMA``)

    async def take(self) -> str:
        if self.free:
            return self.free.pop()
        dsn = await fresh_database(self.server)
        if self.pristine is None:
            conn = await asyncpg.connect(dsn)
            try:
                self.pristine = await conn.fetchval(_SCHEMA)
            finally:
                await conn.close()
        return dsn

    async def give_back(self, dsn: str) -> None:
        """Empty the database for the next test, or leave it be if it cannot be reused."""
        conn = await asyncpg.connect(dsn, server_settings={"lock_timeout": "2s"})
        try:
            for _ in range(50):  # connections closed a moment ago may still be ending on the server
                others = await conn.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                if others == 0:
                    break
                await asyncio.sleep(0.01)
            if others or await conn.fetchval(_SCHEMA) != self.pristine:
                return
            async with conn.transaction():
                await conn.execute("SET LOCAL session_replication_role = replica")
                await conn.execute(_EMPTY)
        except asyncpg.PostgresError:
            return
        finally:
            await conn.close()
        self.free.append(dsn)
