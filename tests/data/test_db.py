"""Connection settings, migrations and the default database path."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import zlib
from pathlib import Path

import pytest

import data.db as dbmod
from data.db import Database, Migration, connect, default_db_path, load_migrations, migrate, split_statements
from data.store import SqliteMatchStore

TABLES = {"matches", "players", "actions", "checkpoints", "deliveries", "schema_migrations"}


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as raw:
        return {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_migrations_are_numbered_and_loaded_as_package_resources() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "initial"
    assert "CREATE TABLE matches" in migrations[0].sql


async def test_fresh_file_is_configured_and_migrated(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "fresh.db"  # parent folders are created
    db = await connect(path)
    try:
        pragmas = await dbmod.run(
            db,
            lambda raw: [
                raw.execute(f"PRAGMA {name}").fetchone()[0]
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            ],
        )
    finally:
        await db.close()
    assert pragmas == ["wal", 2, 1, dbmod.BUSY_TIMEOUT_MS]  # synchronous 2 = FULL
    assert tables(path) >= TABLES
    with sqlite3.connect(path) as raw:
        recorded = raw.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert recorded == [(m.version, m.name) for m in load_migrations()]


async def test_reopening_applies_nothing_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "again.db"
    await (await connect(path)).close()
    with sqlite3.connect(path) as raw:
        raw.execute(
            "INSERT INTO matches (game, seat_count, seed, created_at, updated_at) "
            "VALUES ('g', 2, 1, 't', 't')"
        )
    database = await Database.open(path)
    try:
        assert await database.on_worker(lambda raw: migrate(raw)) == []
        count = await database.read(lambda raw: raw.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    finally:
        await database.close()
    assert count == 1


def test_a_failing_migration_is_rolled_back_alone(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    good = Migration(1, "good", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "bad", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(sqlite3.OperationalError):
        migrate(raw, [good, bad])
    names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "a" in names and "b" not in names
    assert [row[0] for row in raw.execute("SELECT version FROM schema_migrations")] == [1]
    fixed = Migration(2, "bad", "CREATE TABLE b (x INTEGER);")
    assert migrate(raw, [good, fixed]) == [2]
    assert migrate(raw, [good, fixed]) == []
    raw.close()


def test_a_database_from_newer_code_is_refused(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    migrate(raw)
    raw.execute("INSERT INTO schema_migrations VALUES (9999, 'future', 't')")
    with pytest.raises(RuntimeError, match="newer code"):
        migrate(raw)
    raw.close()


def test_split_statements_keeps_triggers_comments_and_quotes_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t_no_delete BEFORE DELETE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; never');
    END;
    -- trailing comment
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert "'a;b'" in statements[0]
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES ('unterminated)")


def test_default_path_is_next_to_bot_py(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BIGAPPLE_DB", raising=False)
    repo_root = Path(dbmod.__file__).resolve().parent.parent
    assert default_db_path() == repo_root / "bigapple.db"


def test_default_path_honours_bigapple_db(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BIGAPPLE_DB", str(tmp_path / "elsewhere.db"))
    assert default_db_path() == tmp_path / "elsewhere.db"
    monkeypatch.setenv("BIGAPPLE_DB", "")
    assert default_db_path().name == "bigapple.db"


async def test_closed_database_refuses_work(tmp_path: Path) -> None:
    database = await Database.open(tmp_path / "closed.db")
    await database.close()
    await database.close()  # harmless
    again = await Database.open(tmp_path / "closed.db")
    await asyncio.wait_for(asyncio.gather(again.close(), again.close()), 2)  # at the same time too
    with pytest.raises(ValueError, match="closed"):
        await database.read(lambda raw: raw.execute("SELECT 1").fetchone())


@pytest.mark.parametrize(("every", "grows"), [(10, False), (10_000, True)])
async def test_inline_writes_checkpoint_the_wal_off_the_loop(tmp_path: Path, every: int, grows: bool) -> None:
    path = tmp_path / "wal.db"
    database = await Database.open(path, inline=True, checkpoint_every=every)
    try:
        await database.write(lambda raw: raw.execute("CREATE TABLE blobs (x TEXT)"))
        for _ in range(300):
            await database.write(lambda raw: raw.execute("INSERT INTO blobs VALUES (?)", ("x" * 3000,)))
        wal_bytes = Path(f"{path}-wal").stat().st_size
    finally:
        await database.close()
    # 300 rows of 3 KB: without checkpoints the WAL holds them all (over 1 MB); with them it is reused.
    assert (wal_bytes > 1_000_000) is grows


async def test_commits_are_synced_to_disk_and_never_on_the_event_loop(tmp_path: Path) -> None:
    """A move a player was told about survives a power cut (synchronous=FULL), and the sync of each
    commit never holds the event loop (writes run on the worker thread)."""
    database = await Database.open(tmp_path / "durable.db", inline=True)
    loop_thread = threading.get_ident()
    try:
        seen = await database.write(
            lambda raw: (raw.execute("PRAGMA synchronous").fetchone()[0], threading.get_ident())
        )
        read_on = await database.read(lambda raw: threading.get_ident())
    finally:
        await database.close()
    synchronous, write_thread = seen
    assert synchronous == 2  # FULL
    assert write_thread != loop_thread
    assert read_on == loop_thread  # reads still take the short way


async def test_a_read_on_the_loop_waits_for_no_lock_and_the_worker_waits_its_busy_timeout(
    tmp_path: Path,
) -> None:
    """However they alternate; the setting changes only when the other kind of call comes, so a run of
    reads on the loop changes it once."""
    database = await Database.open(tmp_path / "busy.db", inline=True, busy_timeout_ms=4321)
    settings: list[str] = []
    database._conn._conn.set_trace_callback(
        lambda sql: settings.append(sql) if sql.startswith("PRAGMA busy_timeout =") else None
    )

    def timeout(raw: sqlite3.Connection) -> int:
        return int(raw.execute("PRAGMA busy_timeout").fetchone()[0])

    try:
        on_loop = [await database.read(timeout) for _ in range(3)]
        written = await database.write(timeout)
        read_again = await database.read(timeout)
        on_worker = await database.on_worker(timeout)
        kept_off = await database.read(timeout, may_inline=False)
    finally:
        await database.close()
    assert on_loop == [0, 0, 0] and read_again == 0
    assert written == on_worker == kept_off == 4321
    assert settings == [f"PRAGMA busy_timeout = {n}" for n in (0, 4321, 0, 4321)]


def test_a_second_process_on_one_file_is_refused_until_the_first_lets_go(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"
    first = dbmod.OneProcess.claim(db)
    with pytest.raises(RuntimeError, match="another Big Apple process is already using"):
        dbmod.OneProcess.claim(db)
    first.release()
    dbmod.OneProcess.claim(db).release()


def test_the_checkpoint_migration_thins_out_and_packs_old_snapshots(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        dbmod.configure(raw)
        migrate(raw, load_migrations()[:13])  # a database as the bot left it before checkpoints
        raw.execute(
            "INSERT INTO matches (id, game, seat_count, seed, status, version, state_json, created_at, "
            "updated_at) VALUES (1, 'g', 2, 1, 'active', 81, '{\"v\": 81}', 't', 't')"
        )
        big = "x" * 20_000  # every snapshot of the old store was a whole state
        for version in range(2, 82):
            if version > 2 and version != 81:
                raw.execute("INSERT INTO actions VALUES (1, ?, 0, 'm', 't')", (version,))
            raw.execute(
                "INSERT INTO snapshots VALUES (1, ?, ?)", (version, f'{{"v": {version}, "pad": "{big}"}}')
            )
        raw.execute("INSERT INTO void_actions VALUES (1, 80, 81)")  # version 81 was an undo
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        before = path.stat().st_size
        assert migrate(raw) == [m.version for m in load_migrations()[13:]]
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        after = path.stat().st_size
        kept = raw.execute("SELECT version, state FROM checkpoints ORDER BY version").fetchall()
        left = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        raw.close()
    # The opening, the multiples of 32 and the undo, each compressed; the rest is gone and the file shrank.
    assert [v for v, _ in kept] == [2, 32, 64, 81]
    assert [json.loads(zlib.decompress(s))["v"] for _, s in kept] == [2, 32, 64, 81]
    assert "snapshots" not in left
    assert after < before / 5


def test_the_third_reminder_migration_keeps_every_clock_and_what_it_already_sent(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        dbmod.configure(raw)
        migrate(raw, load_migrations()[:19])  # a database as the bot left it with two reminders a turn
        raw.execute(
            "INSERT INTO matches (id, game, seat_count, seed, status, version, state_json, created_at, "
            "updated_at) VALUES (1, 'g', 3, 1, 'active', 5, '{}', 't', 't')"
        )
        for seat in range(3):  # nothing sent yet, the half-time reminder sent, both sent
            raw.execute(
                "INSERT INTO seat_clocks (match_id, seat, user_id, bank_seconds, started_at, deadline, "
                "reminded, due_at, used_seconds) VALUES (1, ?, ?, 60, 's', 'd', ?, 'u', 7)",
                (seat, 100 + seat, seat),
            )
        assert 20 in migrate(raw)
        rows = raw.execute(
            "SELECT seat, user_id, bank_seconds, started_at, deadline, reminded, due_at, used_seconds, "
            "extended_seconds, extension_used FROM seat_clocks ORDER BY seat"
        ).fetchall()
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute("UPDATE seat_clocks SET reminded = 4")
    finally:
        raw.close()
    # The last reminder of old is the last of three now: it is not sent a second time.
    assert [row[5] for row in rows] == [0, 1, 3]
    assert rows[0] == (0, 100, 60.0, "s", "d", 0, "u", 7.0, 0.0, 0)


async def test_a_lobby_stored_before_lobbies_asked_for_reliability_asks_for_none(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        dbmod.configure(raw)
        migrate(raw, load_migrations()[:23])  # a database as the bot left it before lobbies asked for any
        raw.execute(
            "INSERT INTO matches (id, game, seat_count, seed, status, version, created_at, updated_at) "
            "VALUES (1, 'g', 2, 1, 'lobby', 0, 't', 't')"
        )
    finally:
        raw.close()
    async with await SqliteMatchStore.open(path) as store:
        assert (await store.get_match(1)).least_reliability == 0
    with sqlite3.connect(path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute("UPDATE matches SET least_reliability = 1.5")
