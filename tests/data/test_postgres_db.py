"""The PostgreSQL database under the stores: its migrations, and the log's append-only guard."""

from __future__ import annotations

import asyncpg
import pytest

from data.postgres.db import Conn, Migration, PgDatabase, is_postgres, load_migrations, migrate
from tests.postgres import Databases


def test_urls_that_name_postgresql() -> None:
    assert is_postgres("postgresql://bot@db/bigapple") and is_postgres(" postgres://x/y")
    assert not is_postgres("/var/lib/bigapple.db") and not is_postgres("bigapple.db")


async def test_a_fresh_database_is_migrated_once(postgres_dsn: str) -> None:
    database = await PgDatabase.open(postgres_dsn)
    try:
        async with database.pool.acquire() as conn:
            assert await migrate(conn) == []  # the template was migrated already; opening again is a no-op
            recorded = [tuple(r) for r in await conn.fetch("SELECT version, name FROM schema_migrations")]
        assert recorded == [(m.version, m.name) for m in load_migrations()]
    finally:
        await database.close()


async def test_a_database_from_newer_code_is_refused(postgres_dsn: str) -> None:
    conn = await asyncpg.connect(postgres_dsn)
    try:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
        with pytest.raises(RuntimeError, match="newer code"):
            await migrate(conn)
    finally:
        await conn.close()


async def test_a_failing_migration_is_rolled_back_alone(postgres_dsn: str) -> None:
    conn = await asyncpg.connect(postgres_dsn)
    steps = [
        *load_migrations(),
        Migration(90, "good", "CREATE TABLE extra (x INTEGER)"),
        Migration(91, "bad", "CREATE TABLE half (x INTEGER); SELECT * FROM nowhere"),
    ]
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate(conn, steps)
        tables = {
            r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
        assert "extra" in tables and "half" not in tables
        assert 91 not in {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
    finally:
        await conn.close()


async def test_the_action_log_is_append_only(postgres_dsn: str) -> None:
    database = await PgDatabase.open(postgres_dsn)
    try:

        async def body(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO matches (game, seat_count, seed, created_at, updated_at) "
                "VALUES ('g', 2, 1, 't', 't')"
            )
            await conn.execute("INSERT INTO actions VALUES (1, 1, 0, 'm', 't')")

        await database.write(body)

        async def cheat(conn: Conn) -> None:
            await conn.execute("UPDATE actions SET notation = 'cheat'")

        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await database.write(cheat)
        assert await database.read(lambda conn: conn.fetchval("SELECT notation FROM actions")) == "m"
    finally:
        await database.close()


async def test_a_database_handed_back_is_emptied_for_the_next_test(postgres_databases: Databases) -> None:
    dsn = await postgres_databases.take()
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "INSERT INTO matches (game, seat_count, seed, created_at, updated_at) "
            "VALUES ('g', 2, 1, 't', 't')"
        )
        await conn.execute("INSERT INTO actions VALUES (1, 1, 0, 'm', 't')")  # append-only, yet emptied
    finally:
        await conn.close()
    await postgres_databases.give_back(dsn)
    assert await postgres_databases.take() == dsn
    conn = await asyncpg.connect(dsn)
    try:
        assert await conn.fetchval("SELECT COUNT(*) FROM actions") == 0
        made = await conn.fetchval(
            "INSERT INTO matches (game, seat_count, seed, created_at, updated_at) "
            "VALUES ('g', 2, 1, 't', 't') RETURNING id"
        )
        assert made == 1  # ids count from 1 again
        await conn.execute("ALTER TABLE matches DROP CONSTRAINT matches_status_check")
    finally:
        await conn.close()
    await postgres_databases.give_back(dsn)  # its schema changed: never handed out again
    assert dsn not in postgres_databases.free
