"""A match's lobby: opening it, seating people and computers, leaving, starting, and a rematch.

Each request reads the lobby, judges it and writes at the version read; when another process wrote the
lobby in between, the request is judged again from a fresh reading, so of two requests at once the
second gets what it would get after the first (joined already, full, started), never both carried out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.core.contract import GameRules, Policy, dump_state
from engine.core.errors import LobbyError, NotSeated, StaleVersion
from engine.core.presentation import GamePresentation
from engine.core.rng import SEAT_STREAM, Rng
from engine.core.say import items, who
from engine.host.clock import ClockChange, Pace
from engine.host.locks import MatchLocks
from engine.host.names import COMPUTER_SUFFIX, computer_name
from engine.host.ports import (
    DeliveryDraft,
    MatchRecord,
    MatchStatus,
    MatchStore,
    NewMatch,
    Notice,
    Player,
    Scope,
    payload,
)
from engine.host.refusals import check_setup_in_words, require_lobby
from engine.host.reliability import punctuality
from engine.host.results import ActResult
from engine.host.text import HOST, sentence, told

T = TypeVar("T")

# How many times a lobby request (or a return to one's seat) is judged again when another process
# changed the match between the request's reading and its write; beyond that, the person is told the
# match moved on.
LOBBY_TRIES = 3


class LobbyMoved(Exception):
    """Another process wrote the lobby after this request read it (the store's version guard said so)."""

    def __init__(self, stale: StaleVersion) -> None:
        super().__init__(stale.message)
        self.stale = stale


async def unless_moved(write: Awaitable[MatchRecord]) -> MatchRecord:
    """The lobby as ``write`` leaves it; ``LobbyMoved`` when its version guard failed."""
    try:
        return await write
    except StaleVersion as stale:
        raise LobbyMoved(stale) from None


async def judged_afresh(request: Callable[[], Awaitable[T]]) -> T:
    """``request`` (which reads the lobby, judges it and writes at the version read), made again from a
    fresh reading when another process wrote the lobby in between: of two requests at once, the second
    gets what it would get after the first (joined already, full, started), never both carried out."""
    for _ in range(LOBBY_TRIES - 1):
        try:
            return await request()
        except LobbyMoved:
            continue
    try:
        return await request()
    except LobbyMoved as moved:
        raise moved.stale from None


class LobbyHost(Protocol):
    """What the lobby needs of the host: its store, its games, the clocks and the computers' moves."""

    store: MatchStore

    async def match(self, match_id: int, scope: Scope | None = None) -> MatchRecord: ...

    def rules(self, game: str) -> GameRules[Any, Any]: ...

    def presentation(self, game: str) -> GamePresentation[Any, Any]: ...

    def policy(self, game: str, name: str) -> Policy[Any, Any]: ...

    async def clock_change(
        self,
        match: MatchRecord,
        before: Collection[int],
        after: Collection[int],
        timed_out: Collection[int] = (),
        undone: bool = False,
    ) -> ClockChange | None: ...

    async def play_computers(self, match: MatchRecord, state: BaseModel, lines: list[str]) -> MatchRecord: ...


def require_room(match: MatchRecord, player: Player) -> None:
    """Refuse a person a second seat, and anyone a seat in a full lobby (the store guards the same, for
    two requests at once)."""
    if player.user_id is not None and any(p.user_id == player.user_id for p in match.players):
        raise LobbyError(
            HOST.say("you have already joined match #{number}", number=match.id),
            ["leave"],
            hint=HOST.say("To give up your seat, press Leave."),
        )
    if len(match.players) >= match.seat_count:
        raise LobbyError(
            HOST.say_n(
                "match #{number} is full: its {count} seat is taken",
                "match #{number} is full: all {count} seats are taken",
                match.seat_count,
                number=match.id,
            ),
            hint=HOST.say("You can open a match of your own with /game new."),
        )


async def require_reliable(store: MatchStore, match: MatchRecord, player: Player) -> None:
    """Refuse a seat to a person whose share of turns played in time is below what the lobby asks.

    Computers are not measured, and the creator is never refused from their own lobby. A newcomer with
    no turn to judge by yet may join: a reliability is earned by playing, and a table that kept everyone
    new out would leave them no place to earn one (the queue takes them at their word too)."""
    least = match.least_reliability
    if least <= 0 or player.user_id is None or player.bot is not None or player.user_id == match.creator_id:
        return
    record = await punctuality(store, player.user_id)
    share = record.kept.share
    if share is None or share >= least:
        return
    raise LobbyError(
        HOST.say_n(
            "this table asks for players who played at least {asked} of their turns in time; you played "
            "{share} in your last match",
            "this table asks for players who played at least {asked} of their turns in time; you played "
            "{share} over your last {count} matches",
            record.matches,
            # A whole percentage reads the same in every language the bot speaks.
            asked=f"{round(least * 100)}%",
            share=f"{record.percent or 0}%",
        ),
        hint=HOST.say("You can open a match of your own with /game new."),
    )


class Lobby:
    """Opens, fills and starts the matches of a host."""

    def __init__(self, host: LobbyHost, locks: MatchLocks, seed_source: Callable[[], int]) -> None:
        """``locks``: the host's own, so that no lobby request overlaps a move; ``seed_source`` gives the
        seed of each new match."""
        self.host = host
        self.locks = locks
        self.seed_source = seed_source

    async def create_match(
        self,
        game: str,
        seat_count: int,
        options: frozenset[str] = frozenset(),
        creator: Player | None = None,
        seed: int | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        origin: str | None = None,
        pace: Pace = Pace.NONE,
        least_reliability: float = 0.0,
    ) -> MatchRecord:
        """Open a lobby after checking the game, seat count and options (``SetupError`` otherwise), on
        the clock ``pace``, for people who played at least ``least_reliability`` of their turns in time
        (see ``require_reliable``).

        A match with an ``origin`` (a tournament's table) is made once: asking again returns it."""
        rules = self.host.rules(game)
        check_setup_in_words(rules, self.host.presentation(game), seat_count, options)
        draft = NewMatch(
            game=rules.name,
            options=options,
            seat_count=seat_count,
            seed=self.seed_source() if seed is None else seed,
            creator_id=creator.user_id if creator else None,
            guild_id=guild_id,
            channel_id=channel_id,
            origin=origin,
            pace=pace,
            least_reliability=least_reliability,
        )
        return await self.host.store.create_match(draft, creator)

    async def join(self, match_id: int, player: Player, scope: Scope | None = None) -> MatchRecord:
        return await judged_afresh(lambda: self._seat(match_id, lambda _: player, scope))

    async def add_computer(
        self, match_id: int, policy: str = "greedy", scope: Scope | None = None
    ) -> MatchRecord:
        def computer(match: MatchRecord) -> Player:
            return Player(name=computer_name({p.name for p in match.players}), bot=policy)

        return await judged_afresh(lambda: self._seat(match_id, computer, scope))

    async def _seat(
        self, match_id: int, newcomer: Callable[[MatchRecord], Player | None], scope: Scope | None
    ) -> MatchRecord:
        """Add to the lobby the player ``newcomer`` makes of it as read (None: nobody, the lobby stays as
        it is)."""
        async with self.locks(match_id):
            match = await self.host.match(match_id, scope)
            require_lobby(match)
            player = newcomer(match)
            if player is None:
                return match
            if player.bot is not None:
                self.host.policy(match.game, player.bot)
            require_room(match, player)
            await require_reliable(self.host.store, match, player)
            return await unless_moved(self.host.store.add_player(match_id, match.version, player))

    async def leave(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        return await judged_afresh(lambda: self._leave(match_id, user_id, scope))

    async def _leave(self, match_id: int, user_id: int, scope: Scope | None) -> MatchRecord:
        async with self.locks(match_id):
            match = await self.host.match(match_id, scope)
            require_lobby(match)
            if all(p.user_id != user_id for p in match.players):
                raise LobbyError(
                    HOST.say("you have not joined match #{number}", number=match.id),
                    ["join"],
                    hint=HOST.say("To take a seat, press Join."),
                )
            return await unless_moved(self.host.store.remove_player(match_id, match.version, user_id))

    async def start(self, match_id: int, by_user: int | None = None, scope: Scope | None = None) -> ActResult:
        """Seat the players (shuffled with the match seed), set the game up and run computer seats."""
        return await judged_afresh(lambda: self._start(match_id, by_user, scope))

    async def _start(self, match_id: int, by_user: int | None, scope: Scope | None) -> ActResult:
        async with self.locks(match_id):
            match = await self.host.match(match_id, scope)
            require_lobby(match)
            if by_user is not None and match.creator_id not in (None, by_user):
                raise LobbyError(
                    HOST.say("only the player who created the match can start it"),
                    hint=HOST.say("It starts when they press Start."),
                )
            if len(match.players) != match.seat_count:
                raise LobbyError(
                    HOST.say_n(
                        "the match needs {count} player and has {seated}",
                        "the match needs {count} players and has {seated}",
                        match.seat_count,
                        seated=len(match.players),
                    ),
                    ["join", "add a computer player"],
                    hint=HOST.say(
                        "Wait for more players to press Join, or fill the empty seats with the list "
                        "“Add a computer player…”."
                    ),
                )
            rules = self.host.rules(match.game)
            order = Rng.from_seed(match.seed, SEAT_STREAM).shuffled(match.players)
            seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(order)]
            state = rules.setup(match.seat_count, match.seed, match.options)
            opening = rules.setup_events(match.seat_count, match.seed, match.options)
            names = ", ".join(f"S{seat + 1} {p.name}" for seat, p in enumerate(order))
            to_act = tuple(sorted(rules.to_act(state)))
            lines = (f"seats: {names}", *(e.text for e in opening if e.is_public))
            seating = HOST.say(
                "Order of play: {players}", players=items(map(who, range(len(order))), "comma")
            )
            begins = Notice(
                headline=f"{rules.title} begins",
                heading=HOST.say("{game} begins", game=HOST.say(rules.title)),
                lines=lines,
                says=(seating, *(sentence(e) for e in told(opening) if e.is_public)),
                to_act=to_act,
                everyone=True,
            )
            notices = [DeliveryDraft(payload=payload(begins))]
            for p in seated:
                assert p.seat is not None
                own = [e for e in opening if e.audience is not None and p.seat in e.audience]
                if not own:
                    continue  # nothing secret was dealt to this seat: no "your hand" message to send
                hand = Notice(
                    headline="your hand",
                    heading=HOST.say("Your hand"),
                    lines=tuple(e.text for e in own),
                    says=tuple(map(sentence, told(own))),
                    to_act=to_act,
                )
                notices.append(DeliveryDraft(seat=p.seat, payload=payload(hand)))
            clocks = await self.host.clock_change(
                match.model_copy(update={"players": tuple(seated)}), (), to_act
            )
            match = await unless_moved(
                self.host.store.start_match(
                    match_id, match.version, seated, dump_state(state), notices, clocks=clocks
                )
            )
            played = list(lines)
            match = await self.host.play_computers(match, state, played)
            return ActResult(match=match, lines=tuple(played))

    async def rematch(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        """A new match of a finished one, asked for by one of its players: the same people and computers
        and the same options, with a new seed (so new seats) and its own thread in the same channel, and
        no minimum reliability (its players have sat together already). Made once: a second request
        returns the same rematch."""
        match = await self.host.match(match_id, scope)
        if match.status is not MatchStatus.FINISHED:
            raise LobbyError(HOST.say("match #{number} is not over yet: finish it first", number=match_id))
        asker = next((p for p in match.players if p.user_id == user_id), None)
        if asker is None:
            raise NotSeated(HOST.say("you are not playing in match #{number}", number=match_id))

        def again(player: Player) -> Player:
            # A person who resigned or was replaced comes back as themselves.
            if player.user_id is not None:
                return Player(user_id=player.user_id, name=player.name.removesuffix(COMPUTER_SUFFIX))
            return Player(name=player.name, bot=player.bot)

        rematch = await self.create_match(
            match.game,
            match.seat_count,
            match.options,
            creator=again(asker),
            guild_id=match.guild_id,
            channel_id=match.channel_id,
            origin=f"rematch:{match_id}",
            pace=match.pace,
        )
        if rematch.status is not MatchStatus.LOBBY:
            return rematch

        def key(player: Player) -> int | str:
            return player.user_id if player.user_id is not None else player.name

        wanted = list(map(again, match.players))

        def first_missing(lobby: MatchRecord) -> Player | None:
            # Left out by a cut-short request, or not seated yet.
            return next((p for p in wanted if key(p) not in {key(q) for q in lobby.players}), None)

        rematch_id = rematch.id
        # Each step seats one player or starts; another request for the same rematch (a double tap, or
        # another process) may take any of them first, and then this one reads the rematch again.
        for step in range(2 * len(wanted) + 2):
            if rematch.status is not MatchStatus.LOBBY:
                return rematch
            try:
                if first_missing(rematch) is None:
                    return (await self.start(rematch_id)).match
                rematch = await judged_afresh(lambda: self._seat(rematch_id, first_missing, None))
            except (LobbyError, StaleVersion):
                if step == 2 * len(wanted) + 1:
                    raise
                rematch = await self.host.match(rematch.id)
        return rematch
