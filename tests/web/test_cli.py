"""``python bot.py web`` and ``web-link`` as a person or a checker runs them: separate processes on one
SQLite file, their JSON lines read as they come (with a time limit, never a pause)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

from data.store import SqliteMatchStore
from engine.host.service import GameHost
from tests.web.conftest import computers_match

ROOT = Path(__file__).resolve().parents[2]
READY_WITHIN_S = 60


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BIGAPPLE_", "DISCORD_"))}
    env.update(extra)
    return env


async def bot(*args: str, **env: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=environment(**env),
    )
    out, err = await asyncio.wait_for(process.communicate(), READY_WITHIN_S)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def stored_match(database: Path) -> int:
    async with await SqliteMatchStore.open(database) as store:
        return (await computers_match(GameHost(store, seed_source=lambda: 3), "ny_henn", 3)).id


async def test_web_link_prints_the_public_and_private_links(tmp_path: Path) -> None:
    database = tmp_path / "links.db"
    match_id = await stored_match(database)
    code, out, _ = await bot("web-link", "--db", str(database), "--match", str(match_id))
    assert code == 0
    assert json.loads(out) == {"public": f"http://127.0.0.1:8080/m/{match_id}"}
    code, out, _ = await bot(
        "web-link",
        "--db",
        str(database),
        "--match",
        str(match_id),
        "--seat",
        "2",
        BIGAPPLE_WEB_URL="https://table.example.org/",
    )
    assert code == 0
    (private,) = json.loads(out).values()
    assert list(json.loads(out)) == ["private"]
    assert private.startswith(f"https://table.example.org/p/{match_id}.2.")
    for wrong in (["--match", "999"], ["--match", str(match_id), "--seat", "3"]):
        code, out, err = await bot("web-link", "--db", str(database), *wrong)
        assert code == 1 and out == "" and "error" in err


async def test_web_serves_the_store_and_says_where(tmp_path: Path) -> None:
    database = tmp_path / "served.db"
    match_id = await stored_match(database)
    code, out, _ = await bot("web-link", "--db", str(database), "--match", str(match_id), "--seat", "0")
    assert code == 0
    token = json.loads(out)["private"].rsplit("/p/", 1)[1]
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        "web",
        "--db",
        str(database),
        "--port",
        "0",
        stdout=asyncio.subprocess.PIPE,
        env=environment(),
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), READY_WITHIN_S)
        base = json.loads(line)["web"]
        assert base.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/m/{match_id}") as answer:
                assert answer.status == 200
                assert "<svg" in await answer.text()
            # The link made before the server started still opens its seat: the secret is kept.
            async with session.get(f"{base}/p/{token}") as answer:
                assert answer.status == 200
            # A link asked for while the server runs on the same file is made and opens its seat.
            port = base.rsplit(":", 1)[1]
            asked = ("--match", str(match_id), "--seat", "1", "--port", port)
            code, out, err = await bot("web-link", "--db", str(database), *asked)
            assert code == 0, err
            async with session.get(json.loads(out)["private"]) as answer:
                assert answer.status == 200
            forged = token[:-1] + ("A" if token[-1] != "A" else "B")
            async with session.get(f"{base}/p/{forged}") as answer:
                assert answer.status == 403
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), READY_WITHIN_S)
    assert process.returncode == 0


async def started_without_token(database: Path, **env: str) -> tuple[asyncio.subprocess.Process, str, str]:
    """Plain ``python bot.py`` with no token, on ``database``: the process, what it said first and the
    address it gave."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        stdout=asyncio.subprocess.PIPE,
        cwd=database.parent,
        env=environment(BIGAPPLE_DB=str(database), **env),
    )
    assert process.stdout is not None
    said = (await asyncio.wait_for(process.stdout.readline(), READY_WITHIN_S)).decode()
    found = re.search(r"http://127\.0\.0\.1:\d+/", said)
    assert found is not None, said
    return process, said, found.group(0).rstrip("/")


async def stopped(process: asyncio.subprocess.Process) -> int:
    process.send_signal(signal.SIGINT)
    return await asyncio.wait_for(process.wait(), READY_WITHIN_S)


async def test_plain_invocation_without_token_serves_a_first_match_in_the_browser(tmp_path: Path) -> None:
    process, said, base = await started_without_token(tmp_path / "first.db", LANG="en_GB.UTF-8")
    try:
        assert said.startswith("No DISCORD_TOKEN configured")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/") as answer:
                assert answer.status == 200
                home = await answer.text()
            assert "Play a match against computer players" in home and "Fifth Avenue" in home
            async with session.get(f"{base}/new/ny_henn") as answer:
                assert answer.status == 200
                assert 'name="level" value="strong"' in await answer.text()
            chosen = {"seats": "3", "level": "random", "name": "Zebedee"}
            async with session.post(f"{base}/new/ny_henn", data=chosen, allow_redirects=False) as answer:
                assert answer.status == 303
                private = answer.headers["Location"]
            assert private.startswith("/p/")
            async with session.get(f"{base}{private}") as answer:
                assert answer.status == 200
                page = await answer.text()
            assert "The hand and moves of Zebedee" in page and 'name="move"' in page
            async with session.get(f"{base}/") as answer:
                assert "match #1: being played" in await answer.text()
    finally:
        assert await stopped(process) == 0


async def test_plain_invocation_in_an_italian_environment_invites_in_italian(tmp_path: Path) -> None:
    process, said, _ = await started_without_token(tmp_path / "primo.db", LANG="it_IT.UTF-8")
    try:
        assert said.startswith("Nessun DISCORD_TOKEN configurato")
    finally:
        assert await stopped(process) == 0
