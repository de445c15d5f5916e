"""The tournament and settings stores on each backend: records kept whole under a version guard, the
matches they own, server and personal settings, and the tournaments a process's shards run."""

from __future__ import annotations

import pytest

from data.postgres.settings import PostgresSettings
from data.postgres.store import PostgresMatchStore
from data.postgres.tournaments import PostgresTournamentStore
from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.core.errors import MatchNotFound, StaleVersion
from engine.host.ports import NewMatch
from engine.host.shards import Shards
from engine.host.tournaments import RoundRecord, TableRecord, TournamentDraft, TournamentStatus
from engine.tournament.models import Round, Table, TournamentConfig
from tests.data.backends import AnyStore, Backdoor

SHARD_ONE = 1 << 22  # a server id on shard 1 of 2
SHARD_ZERO = 2 << 22  # and one on shard 0


def draft(guild_id: int | None = 7, name: str = "Cup") -> TournamentDraft:
    config = TournamentConfig(format="swiss", min_size=2, max_size=2)
    return TournamentDraft(name=name, game="ny_piatnik", config=config, seed=3, guild_id=guild_id)


def tournaments_of(
    store: AnyStore, shards: Shards | None = None
) -> SqliteTournamentStore | PostgresTournamentStore:
    if isinstance(store, PostgresMatchStore):
        return PostgresTournamentStore(store.database, shards=shards)
    assert isinstance(store, SqliteMatchStore)
    return SqliteTournamentStore.beside(store)


async def test_a_tournament_is_saved_whole_under_its_version(store: AnyStore) -> None:
    tournaments = tournaments_of(store)
    created = await tournaments.create_tournament(draft())
    assert (await tournaments.get_tournament(created.id)) == created
    match = await store.create_match(NewMatch(game="ny_piatnik", seat_count=2, seed=1, guild_id=7))
    pairing = Round(number=1, tables=(Table(number=1, players=("a", "b")),))
    table = TableRecord(number=1, players=("a", "b"), match_id=match.id)
    running = created.model_copy(
        update={"status": TournamentStatus.RUNNING, "rounds": (RoundRecord(round=pairing, tables=(table,)),)}
    )
    saved = await tournaments.save_tournament(running, created.version)
    assert saved.version == created.version + 1
    assert await tournaments.get_tournament(created.id) == saved
    assert await tournaments.tournament_of_match(match.id) == created.id
    assert await tournaments.save_tournament(saved, saved.version) is not None  # linking again is harmless
    with pytest.raises(StaleVersion, match="changed meanwhile"):
        await tournaments.save_tournament(running, created.version)
    with pytest.raises(MatchNotFound, match="no tournament 999"):
        await tournaments.get_tournament(999)
    listed = await tournaments.list_tournaments([TournamentStatus.RUNNING], guild_id=7)
    assert [t.id for t in listed] == [created.id]
    assert await tournaments.list_tournaments([TournamentStatus.DRAFT]) == []
    assert await tournaments.tournament_ids([TournamentStatus.RUNNING]) == [created.id]


async def test_server_and_personal_settings(store: AnyStore) -> None:
    tournaments = tournaments_of(store)
    await tournaments.set_setting(7, "tournament_role", "42")
    assert await tournaments.setting(7, "tournament_role") == "42"
    settings = (
        PostgresSettings(store.database)
        if isinstance(store, PostgresMatchStore)
        else SqliteSettings.beside(store)
    )
    assert await settings.get("guild", 7, "tournament_role") == "42"
    await settings.set("user", 101, "locale", "it")
    await settings.set("user", 101, "locale", "en")
    assert await settings.get("user", 101, "locale") == "en"
    await settings.set("user", 101, "locale", None)
    assert await settings.get("user", 101, "locale") is None


async def test_each_process_runs_the_tournaments_of_its_shards(store: AnyStore, backdoor: Backdoor) -> None:
    if not isinstance(store, PostgresMatchStore):
        pytest.skip("one process serves a SQLite database whole")
    everything = tournaments_of(store)
    one = await everything.create_tournament(draft(SHARD_ONE))
    zero = await everything.create_tournament(draft(SHARD_ZERO))
    direct = await everything.create_tournament(draft(None))
    mine = tournaments_of(store, Shards.of([1], 2))
    others = tournaments_of(store, Shards.of([0], 2))
    assert await mine.tournament_ids([TournamentStatus.DRAFT]) == [one.id]
    assert await others.tournament_ids([TournamentStatus.DRAFT]) == [zero.id, direct.id]
    assert await everything.tournament_ids([TournamentStatus.DRAFT]) == [one.id, zero.id, direct.id]
