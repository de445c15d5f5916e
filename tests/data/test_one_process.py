"""One process per SQLite file, with real processes: whoever comes second, even to a file not created
yet, is refused in words before it touches the file."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import bot

REFUSAL = "another Big Apple process is already using"

# Opens the bot's stores on argv[1] (with argv[2] == "lock", only takes the file's lock, as a process
# does before it creates the file; with "store", opens the match store alone, as the command-line tools
# do), says so, and keeps them until its input closes.
CHILD = """
import asyncio, sys
from data.backend import open_stores
from data.db import hold_file
from data.store import SqliteMatchStore

async def main() -> int:
    try:
        if sys.argv[2:] == ["lock"]:
            hold_file(sys.argv[1])
            stores = None
        elif sys.argv[2:] == ["store"]:
            stores = await SqliteMatchStore.open(sys.argv[1])
        else:
            stores = await open_stores(sys.argv[1], clock=lambda: "2026-01-01T00:00:00.000+00:00")
    except RuntimeError as exc:
        print("refused:", exc, flush=True)
        return 3
    print("open", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    if stores is not None:
        await stores.close()
    return 0

sys.exit(asyncio.run(main()))
"""


def start(path: Path, *how: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), *how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@contextmanager
def running(path: Path, *how: str) -> Iterator[subprocess.Popen[str]]:
    """A process that holds ``path`` (it has said so) until the block ends."""
    first = start(path, *how)
    try:
        assert first.stdout is not None
        said = first.stdout.readline()
        assert said == "open\n", (said, first.stderr.read() if first.stderr else "")
        yield first
    finally:
        first.communicate(timeout=60)
    assert first.returncode == 0


def refused(path: Path, *how: str) -> str:
    second = start(path, *how)
    out, err = second.communicate(timeout=60)
    assert second.returncode == 3, (out, err)
    assert "database is locked" not in err
    return out


def test_a_second_process_opening_a_new_file_is_refused_while_the_first_has_it(tmp_path: Path) -> None:
    path = tmp_path / "new" / "bigapple.db"  # neither the file nor its folder exists yet
    with running(path):
        said = refused(path)
    assert said.startswith(f"refused: {REFUSAL} {path}") and "PostgreSQL" in said


def test_the_lock_is_taken_before_the_file_is_created_or_migrated(tmp_path: Path) -> None:
    path = tmp_path / "bigapple.db"
    with running(path, "lock"):  # the first process has the lock and has not created the file yet
        assert refused(path, "store").startswith(f"refused: {REFUSAL}")
        assert not path.exists()  # the refused one touched nothing
    with running(path):  # the first let go: the next one creates and opens it
        assert path.exists()


def test_the_replay_command_beside_a_running_bot_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bigapple.db"
    with running(path):  # the bot's stores, the file created
        code = bot.main(["replay", "--db", str(path), "--match", "1", "--out", str(tmp_path / "out")])
    assert code == 1
    assert f"error: {REFUSAL} {path}" in capsys.readouterr().err
