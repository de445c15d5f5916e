"""Which servers a process looks after: Discord's own shard formula."""

from __future__ import annotations

import pytest

from engine.host.shards import Shards


def test_a_server_belongs_to_the_shard_discord_puts_it_on() -> None:
    guild = 81384788765712384  # guild >> 22 is 19403645698, which is 2 modulo 4
    first, second = Shards.of([0, 1], 4), Shards.of([2, 3], 4)
    assert second.shard_of(guild) == 2
    assert second.owns(guild) and not first.owns(guild)
    assert first.owns(None) and not second.owns(None)  # direct messages are on shard 0
    assert Shards.every().owns(guild) and Shards.every().everything and not first.everything


def test_shard_ids_must_lie_within_the_count() -> None:
    with pytest.raises(ValueError, match=r"0 \.\. 3"):
        Shards.of([4], 4)
    with pytest.raises(ValueError):
        Shards.of([], 2)


def test_the_settings_name_shards_as_ranges_or_lists() -> None:
    assert Shards.parse("0-2,5", 8) == Shards.of([0, 1, 2, 5], 8)
    assert Shards.parse(None, 4) == Shards.of(range(4), 4)
    assert Shards.parse(None, None) is None
    with pytest.raises(ValueError, match="needs BIGAPPLE_SHARD_COUNT"):
        Shards.parse("1", None)
    with pytest.raises(ValueError, match="such as 0-3"):
        Shards.parse("one", 4)
    with pytest.raises(ValueError, match=r"0 \.\. 3"):
        Shards.parse("2-5", 4)
