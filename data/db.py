"""Open the SQLite database: connection settings, numbered migrations and running work on the
connection's own thread.

Migrations are the files ``data/migrations/NNNN_name.sql``, applied in number order at start-up, each
in its own transaction and recorded in ``schema_migrations``; reopening a migrated file applies nothing.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

import aiosqlite
from pydantic import BaseModel, ValidationError

from data.checkpoints import pack_state
from engine.core.errors import CorruptRecord

T = TypeVar("T")
log = logging.getLogger(__name__)

DB_ENV = "BIGAPPLE_DB"
DB_FILENAME = "bigapple.db"
BUSY_TIMEOUT_MS = 5_000
# See ``configure``: every commit is synced to disk before a player is told about it.
SYNCHRONOUS = "FULL"
# Writes between two WAL checkpoints when inline; a move writes about four 4 KiB pages, so this is
# near SQLite's own default of 1000 pages.
CHECKPOINT_EVERY = 250

_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
# A migration that frees much space says so with this line; the file is vacuumed once it is applied.
_VACUUM_AFTER = "-- after: VACUUM"


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: its number, its name and its SQL script."""

    version: int
    name: str
    sql: str


def utc_now() -> str:
    """The current UTC time as ISO-8601 text with milliseconds, as stored in ``*_at`` columns."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


M = TypeVar("M", bound=BaseModel)


class Row(Protocol):
    """A stored row as the drivers give it (a tuple from sqlite3, a record from asyncpg): its values by
    position."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


# Columns whose stored text may hold a seat's secrets (whole states, private notices): a complaint
# about them never quotes what is stored, since it can reach a log line or a player.
SECRET_COLUMNS = frozenset({"state_json", "result_json", "payload"})


def validated_row(model: type[M], fields: dict[str, Any], what: str) -> M:
    """``model`` built strictly from stored ``fields``; raises ``CorruptRecord`` saying what is wrong."""
    try:
        return model.model_validate(fields, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "row"
        stored = (
            ""
            if first["loc"][:1] and first["loc"][0] in SECRET_COLUMNS
            else f" (stored {first['input']!r:.60})"
        )
        raise CorruptRecord(
            f"{what} cannot be read: {where}: {first['msg']}{stored}; nothing was changed"
        ) from None


def default_db_path() -> Path:
    """Where the bot keeps its database: ``$BIGAPPLE_DB`` if set, else ``bigapple.db`` next to ``bot.py``
    (the repository root, the parent of the ``data`` package)."""
    configured = os.environ.get(DB_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parent.parent / DB_FILENAME


def load_migrations(package: str = "data") -> list[Migration]:
    """Every migration shipped in ``package``'s ``migrations`` folder (``data``: SQLite's,
    ``data.postgres``: PostgreSQL's), in number order.

    Read with ``importlib.resources`` so an installed package finds them too. Raises ``ValueError``
    when two files share a number.
    """
    folder = resources.files(package).joinpath("migrations")
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        match = _MIGRATION_FILE.match(entry.name)
        if match is None:
            continue
        version = int(match.group(1))
        if version in found:
            raise ValueError(
                f"two migrations are numbered {version:04d}: {found[version].name}, {entry.name}"
            )
        found[version] = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def split_statements(script: str) -> list[str]:
    """The SQL statements of ``script``, one string each (trigger bodies and quoted ``;`` kept whole)."""
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending.strip())
            pending = ""
    if _has_code(pending[:-1]):
        raise ValueError(f"incomplete SQL statement at the end of the script: {pending[:-1].strip()[:80]!r}")
    return statements


def _has_code(sql: str) -> bool:
    """Whether ``sql`` holds anything besides blanks, ``--`` comments and semicolons."""
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return any(line.strip(" \t;") for line in lines)


def configure(raw: sqlite3.Connection, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
    """Set the connection's PRAGMAs: WAL journal, FULL sync, foreign keys enforced, and a busy timeout
    so concurrent writers wait rather than fail.

    FULL, because a move a player was told was accepted must survive a power cut or an OS crash, which
    WAL with NORMAL does not promise for the last commits: FULL syncs the WAL at every commit. Measured
    with ``python bot.py bench`` (``store.full_sync_cost_ratio``, plain sqlite3 writing a move's rows
    under both settings in the same run), that costs a few tenths of a millisecond per commit on these
    machines, far below what a Discord round trip takes; ``Database`` keeps those syncs off the event
    loop by running every write on its worker thread.
    """
    raw.execute("PRAGMA journal_mode = WAL")
    raw.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
    raw.execute("PRAGMA foreign_keys = ON")
    raw.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")


def migrate(raw: sqlite3.Connection, migrations: Sequence[Migration] | None = None) -> list[int]:
    """Apply the migrations not yet recorded in ``schema_migrations``; returns the numbers applied now.

    Each migration runs in its own ``BEGIN IMMEDIATE`` transaction, so two processes opening the same
    file at once apply it once. ``raw`` must be in autocommit mode (``isolation_level=None``). Raises
    ``RuntimeError`` when the file was migrated by newer code (it records a number this code lacks),
    and re-raises any SQL error after rolling that migration back.
    """
    steps = load_migrations() if migrations is None else list(migrations)
    raw.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    known = {step.version for step in steps}
    recorded = {row[0] for row in raw.execute("SELECT version FROM schema_migrations")}
    if recorded - known:
        raise RuntimeError(
            f"the database was migrated by newer code (schema version {max(recorded)}; this code knows "
            f"up to {max(known, default=0)}); upgrade the bot instead of opening it with this one"
        )
    # Migrations may call it to compress stored states (0014).
    raw.create_function("pack_state", 1, pack_state, deterministic=True)
    applied: list[int] = []
    for step in steps:
        if step.version in recorded:
            continue

        def apply(conn: sqlite3.Connection, step: Migration = step) -> bool:
            if conn.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (step.version,)).fetchone():
                return False  # another process applied it while we waited for the lock
            for statement in split_statements(step.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (step.version, step.name, utc_now()),
            )
            return True

        if write_transaction(raw, apply):
            applied.append(step.version)
            if _VACUUM_AFTER in step.sql:
                raw.execute("VACUUM")  # outside any transaction, as SQLite requires
    return applied


def write_transaction(raw: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``body`` inside ``BEGIN IMMEDIATE`` … ``COMMIT``; roll back and re-raise if anything fails.

    ``IMMEDIATE`` takes the write lock up front, so a writer waits (busy timeout) instead of failing
    half-way when another connection commits first.
    """
    return _transaction(raw, body, "BEGIN IMMEDIATE")


def read_transaction(raw: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``body`` inside a read transaction, so several SELECTs see one consistent state."""
    return _transaction(raw, body, "BEGIN")


def _transaction(raw: sqlite3.Connection, body: Callable[[sqlite3.Connection], T], begin: str) -> T:
    raw.execute(begin)
    try:
        result = body(raw)
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise
    return result


async def run(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Call ``fn(raw)`` with the underlying ``sqlite3`` connection on ``db``'s worker thread.

    One thread hop for the whole of ``fn``, however many statements it runs. aiosqlite has no public
    call for this, so it uses ``Connection._execute(fn, *args)``: the queue every public aiosqlite
    method goes through (checked against aiosqlite 0.22; the tests exercise it). Calls from several
    tasks run one after another, in the order they were made. Raises ``ValueError`` if ``db`` is closed, and
    whatever ``fn`` raises.
    """
    raw = db._conn  # raises ValueError("no active connection") once closed
    result: T = await db._execute(fn, raw)
    return result


async def connect(
    path: str | os.PathLike[str],
    *,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    check_same_thread: bool = True,
) -> aiosqlite.Connection:
    """Open (creating parent folders and the file if needed), configure and migrate a database.

    The connection is in autocommit mode: callers open their own transactions (see
    ``write_transaction``). ``check_same_thread=False`` lets ``Database`` use it from the event loop
    too. Raises ``sqlite3.Error`` when the file cannot be opened or migrated, ``RuntimeError`` when it
    was migrated by newer code.
    """
    target = os.fspath(path)
    if target != ":memory:":
        file = Path(target).expanduser()
        file.parent.mkdir(parents=True, exist_ok=True)
        target = os.fspath(file)
    db = await aiosqlite.connect(
        target, isolation_level=None, timeout=busy_timeout_ms / 1000, check_same_thread=check_same_thread
    )
    try:

        def prepare(raw: sqlite3.Connection) -> None:
            configure(raw, busy_timeout_ms)
            migrate(raw)

        await run(db, prepare)
    except BaseException:
        await db.close()
        raise
    return db


class Database:
    """One configured, migrated connection that runs each transaction as one function.

    A transaction runs on aiosqlite's worker thread (one thread hop, however many statements). With
    ``inline`` (the default), a read instead runs directly on the event loop when nothing is queued
    on the worker, and only if it gets the locks it needs without waiting: it runs with a zero busy
    timeout, and when the database is busy (another connection is writing) it is re-run on the
    worker, which waits up to the busy timeout without blocking the loop. A read costs the loop what
    the SQLite work costs, where a thread hop costs as much again in wake-ups. Writes always run on
    the worker: with ``synchronous=FULL`` each commit syncs the WAL to disk, and that wait must never
    hold the event loop.
    The ``fsync``-ing step, the WAL checkpoint, is taken off the loop: automatic checkpoints are
    switched off for this connection, and after every ``checkpoint_every`` writes the next write first
    runs a passive checkpoint on the worker.

    Transaction bodies must be re-runnable (no side effects outside the database) because of that
    fallback.
    """

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        inline: bool = True,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        """Wrap ``conn`` from ``connect`` (opened with ``check_same_thread=False`` when ``inline``)."""
        self._conn = conn
        self.inline = inline
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._checkpoint_every = max(1, checkpoint_every)
        self._queued = 0  # calls handed to the worker and not yet answered
        self._writing = 0
        self._release: Callable[[], None] | None = None  # of the file's lock (see ``hold_file``)
        # Whether the connection waits out its busy timeout (else it waits for no lock: the setting of
        # the reads run on the loop). Switched only when the other kind of call comes, so a run of reads
        # on the loop does not pay two PRAGMAs each, half of what a small read costs.
        self._waits = True
        self._writes = 0
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        inline: bool = True,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> Database:
        """Open, configure and migrate the file at ``path``, after taking the lock that keeps other
        processes off it (``RuntimeError`` when one has it; see ``connect`` for the rest)."""
        # Inline use shares the connection between two threads (never at once), which an SQLite built
        # single-threaded does not allow.
        inline = inline and sqlite3.threadsafety > 0
        # Before SQLite touches the file: a process that would find it half-created or half-migrated by
        # another is refused in words instead.
        release = None if os.fspath(path) == ":memory:" else hold_file(path)
        try:
            conn = await connect(path, busy_timeout_ms=busy_timeout_ms, check_same_thread=not inline)
        except BaseException:
            if release is not None:
                release()
            raise
        database = cls(
            conn, inline=inline, busy_timeout_ms=busy_timeout_ms, checkpoint_every=checkpoint_every
        )
        database._release = release
        if inline:
            await database.on_worker(lambda raw: raw.execute("PRAGMA wal_autocheckpoint = 0").fetchall())
        return database

    @property
    def writing(self) -> int:
        """Write transactions asked for and not finished yet (one waiting for the file's write lock among
        them)."""
        return self._writing

    async def close(self) -> None:
        """Close the connection after the calls already queued; closing twice is harmless."""
        if self._closed:
            return  # aiosqlite would wait forever for its stopped worker thread
        self._closed = True  # before awaiting: no inline call may use the connection while it closes
        try:
            await self._conn.close()
        finally:
            if self._release is not None:
                self._release()
                self._release = None

    async def read(self, body: Callable[[sqlite3.Connection], T], *, may_inline: bool = True) -> T:
        """Run ``body`` in one read transaction (consistent across its SELECTs).

        ``may_inline=False`` keeps a possibly long read (a whole listing) off the event loop.
        """
        return await self._run(lambda raw: read_transaction(raw, body), may_inline)

    async def write(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` in one ``BEGIN IMMEDIATE`` write transaction; rolled back if it raises."""
        if self.inline and self._writes >= self._checkpoint_every:
            # Before the write rather than after it, so a cancelled checkpoint never hides a commit.
            self._writes = 0
            await self._checkpoint()
        self._writing += 1
        try:
            result = await self._run(lambda raw: write_transaction(raw, body), False)
        finally:
            self._writing -= 1
        self._writes += 1
        return result

    async def on_worker(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(raw)`` on the worker thread (no transaction is opened for it)."""
        if self._closed:
            raise ValueError("the database is closed")
        self._queued += 1
        try:
            return await run(self._conn, self._waiting(fn))
        finally:
            self._queued -= 1

    def _waiting(self, fn: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
        """``fn`` run with the connection's full busy timeout (on the worker, where waiting is allowed)."""

        def waiting(raw: sqlite3.Connection) -> T:
            if not self._waits:
                raw.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
                self._waits = True
            return fn(raw)

        return waiting

    async def _run(self, fn: Callable[[sqlite3.Connection], T], may_inline: bool) -> T:
        if self._closed:
            raise ValueError("the database is closed")
        if self.inline and may_inline and self._queued == 0:
            # Nothing is queued or running on the worker, and this runs to the end without awaiting,
            # so the loop thread has the connection to itself.
            raw = self._conn._conn
            if self._waits:
                raw.execute("PRAGMA busy_timeout = 0")
                self._waits = False
            try:
                return fn(raw)
            except sqlite3.OperationalError as exc:
                if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in (
                    sqlite3.SQLITE_BUSY,
                    sqlite3.SQLITE_LOCKED,
                ):
                    raise
                # Busy: ``fn`` rolled back; wait for the lock on the worker instead.
        return await self.on_worker(fn)

    async def _checkpoint(self) -> None:
        """Copy the WAL into the database file on the worker thread; failures are only logged (the
        data is safe in the WAL, and the next checkpoint tries again)."""
        try:
            await self.on_worker(lambda raw: raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())
        except sqlite3.Error as exc:
            log.warning("WAL checkpoint failed: %s", exc)


class FileInUse(RuntimeError):
    """Another process holds the SQLite file (one process per file)."""


def _refusal(path: str | os.PathLike[str]) -> FileInUse:
    return FileInUse(
        f"another Big Apple process is already using {os.fspath(path)}; stop it first (one process "
        "per SQLite file: several processes need PostgreSQL)"
    )


@dataclass
class _Hold:
    """The lock file of one database held by this process, and how many of its openings hold it."""

    handle: IO[bytes] | None
    users: int = 0
    claimed: bool = False  # by ``OneProcess.claim``, which a second claim in this process is refused


# Lock files held by this process, by their resolved path: the connections of one process share its
# hold (an advisory lock taken twice by one process on two descriptors would refuse itself).
_HOLDS: dict[str, _Hold] = {}
_HOLDS_GUARD = threading.Lock()


def _lock_file(path: str | os.PathLike[str]) -> str:
    return os.path.realpath(Path(path).expanduser()) + ".lock"


def hold_file(path: str | os.PathLike[str], *, claim: bool = False) -> Callable[[], None]:
    """Take, for this process, the lock that keeps other processes off the SQLite file at ``path``
    (creating its folder when needed) before anything opens the file itself; returns what lets it go.
    Raises ``FileInUse`` saying what to do when another process holds it, or with ``claim`` when this
    process has claimed it already."""
    Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    key = _lock_file(path)
    with _HOLDS_GUARD:
        hold = _HOLDS.get(key)
        if hold is None:
            hold = _HOLDS[key] = _Hold(_locked(key, path))
        elif claim and hold.claimed:
            raise _refusal(path)
        hold.users += 1
        hold.claimed = hold.claimed or claim

    def release() -> None:
        with _HOLDS_GUARD:
            if claim:
                hold.claimed = False
            hold.users -= 1
            if hold.users == 0:
                del _HOLDS[key]
                if hold.handle is not None:
                    hold.handle.close()  # closing the file lets the lock go

    return release


def _locked(key: str, path: str | os.PathLike[str]) -> IO[bytes] | None:
    """The lock file ``key``, opened and locked; None where the system has no advisory locks."""
    try:
        import fcntl
    except ImportError:  # no advisory locks on this system: nothing to hold
        return None
    handle = open(key, "a+b")  # noqa: SIM115 (held until the last opening lets go)
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise _refusal(path) from None
    return handle


class OneProcess:
    """The bot's claim on its SQLite database: no other process may open the file while it runs (two
    would both send the same pending notices; PostgreSQL is the way to run several), and neither may a
    second bot in this one. Every opening of a file (``Database.open``) takes the same lock first, so the
    loser of two processes starting at once is refused before it creates or migrates anything."""

    def __init__(self, release: Callable[[], None] | None) -> None:
        self._release = release

    @classmethod
    def claim(cls, path: str | os.PathLike[str]) -> OneProcess:
        """Take the lock beside ``path``; ``RuntimeError`` saying what to do when another process has it."""
        return cls(hold_file(path, claim=True))

    def release(self) -> None:
        if self._release is not None:
            self._release()
            self._release = None
