"""Spectators of one match page for ``bench``'s ``web`` figures, in a process of their own so that their
work is not counted as the table's: ``python -m bench.spectators URL MATCH COUNT``.

Each opens the match's stream and, as the page's script does, fetches the page again whenever the
version moves past the one it shows (one fetch at a time, the newest version next), at a moment chosen
at random within the spread the event tells, and the board's picture the page shows. It prints
``{"ready": true}`` once every stream has told its first version, ``{"reached": V}`` each time every
spectator has the page of version V, and when its input ends (or says ``stop``), one line with the
times (``time.monotonic``, which on Linux every process reads from the same clock) each spectator
received each version and had the page of each version.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import sys
import time
from dataclasses import dataclass, field

import aiohttp

# The board's picture in a match page's drawing.
BOARD_PICTURE = re.compile(r'<image href="(/[^"]+)"')


@dataclass
class Spectator:
    """What one spectator saw: when each version's event came, and when its page was fetched."""

    events: dict[int, float] = field(default_factory=dict)
    pages: dict[int, float] = field(default_factory=dict)
    newest: int = -1
    shown: int = -1
    fetching: bool = False


class Crowd:
    def __init__(self, base: str, match_id: int, count: int) -> None:
        self.base = base
        self.match_id = match_id
        self.people = [Spectator() for _ in range(count)]
        self.reached = -1
        self.ready = asyncio.Event()

    def _say(self, line: dict[str, object]) -> None:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()

    def _check(self) -> None:
        """Say when every spectator has first shown a version, then each version every one has the page of."""
        lowest = min(p.shown for p in self.people)
        if lowest < 0:
            return
        if not self.ready.is_set():
            self.ready.set()
            self.reached = lowest
            self._say({"ready": True, "version": lowest})
        elif lowest > self.reached:
            self.reached = lowest
            self._say({"reached": lowest})

    async def _page(self, browser: aiohttp.ClientSession, person: Spectator) -> None:
        if person.fetching:
            return
        person.fetching = True
        try:
            while person.newest > person.shown:
                asked = person.newest
                async with browser.get(f"{self.base}/m/{self.match_id}") as answer:
                    page = await answer.text()
                # As a browser does, the board's picture too: its address names the version, so it
                # is fetched once per version.
                for picture in dict.fromkeys(BOARD_PICTURE.findall(page)):
                    async with browser.get(self.base + html.unescape(picture)) as answer:
                        await answer.read()
                person.shown = asked
                person.pages.setdefault(asked, time.monotonic())
                self._check()
        finally:
            person.fetching = False

    def _fetch(self, browser: aiohttp.ClientSession, person: Spectator) -> None:
        asyncio.get_running_loop().create_task(self._page(browser, person))

    async def follow(self, browser: aiohttp.ClientSession, person: Spectator) -> None:
        async with browser.get(f"{self.base}/m/{self.match_id}/events") as stream:
            async for raw in stream.content:
                line = raw.decode().strip()
                if not line.startswith("data:"):
                    continue
                version, spread = map(int, line.split(":", 1)[1].split())
                now = time.monotonic()
                if version > person.newest:
                    person.events.setdefault(version, now)
                    first = person.newest < 0
                    person.newest = version
                    if first:
                        person.shown = version  # the page was loaded with it
                    else:  # as the page's script does, at a moment of its own within the spread
                        delay = random.random() * spread / 1000
                        asyncio.get_running_loop().call_later(delay, self._fetch, browser, person)
                    self._check()

    def report(self) -> dict[str, object]:
        return {
            "events": [{str(v): t for v, t in p.events.items()} for p in self.people],
            "pages": [{str(v): t for v, t in p.pages.items()} for p in self.people],
        }


async def watch(base: str, match_id: int, count: int) -> None:
    crowd = Crowd(base, match_id, count)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as browser:
        followers = [asyncio.create_task(crowd.follow(browser, p)) for p in crowd.people]
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while True:
            line = await reader.readline()
            if not line or line.strip() == b"stop":
                break
        for task in followers:
            task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
    sys.stdout.write(json.dumps(crowd.report()) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    base, match_id, count = argv[0], int(argv[1]), int(argv[2])
    asyncio.run(watch(base, match_id, count))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
