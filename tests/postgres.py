"""A real PostgreSQL server for the tests, started from the distribution's own programs in a temporary
folder and stopped at the end of the session; one fresh database per test.

When PostgreSQL is not installed the tests that need it are skipped with the reason, never faked;
``BIGAPPLE_TEST_POSTGRES=1`` (CI sets it) turns that skip into a failure.
"""

from __future__ import annotations

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
