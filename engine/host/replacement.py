"""A new person in an empty seat (``/game replace``): the match's creator or a server admin offers a seat
that a computer holds for a person who left it (after timeouts, or a resignation), and the first eligible
person who takes the offer plays the seat from then on.

What players expect, as on Async TI4 and Board Game Arena:
- only a seat a person left can be offered (a computer seated from the start is part of the table the
  creator chose), and only while the match runs; a tournament's tables are its organisers' business
  (``/tournament replace``, which hands a seat over at once through ``hand_over``, recorded as an offer
  taken, so that the one who played it keeps nothing of it either);
- anyone on the server who does not play in the match may take it, first come first served: an offer
  taken, or made before the seat was taken by someone else, is stale;
- who resigned may not come back through an offer (their seat or another): resigning is for good. Who
  timed out takes their own seat back with ``/game return`` instead, while nobody has taken it;
- the newcomer gets the seat's hand privately and a summary of what the computer played for it
  (``engine.host.while_away``); the thread is told who plays the seat now;
- the rating counts the newcomer from their first move (see ``engine.host.ratings``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.contract import GameRules
from engine.core.errors import LobbyError, StaleVersion
from engine.core.presentation import GamePresentation
from engine.core.say import Say, items
from engine.host.clock import ALLOWANCES, ClockChange, Pace, SeatClock, begin_turn
from engine.host.locks import MatchLocks
from engine.host.move_words import folded
from engine.host.names import COMPUTER_SUFFIX
from engine.host.ports import (
    DeliveryDraft,
    MatchRecord,
    MatchStatus,
    MatchStore,
    Notice,
    Player,
    Scope,
    SeatOffer,
    payload,
)
from engine.host.refusals import require_active
from engine.host.table import OUT_OF_DATE
from engine.host.text import HOST
from engine.host.while_away import AwaySummary, away_summary
from lang.says import Namer, render

# The longest text of a command's suggestion (Discord's limit).
SUGGESTION_LIMIT = 100


class ReplacingHost(Protocol):
    """What offering a seat needs of the host: its store, clock, games, matches and seat clocks."""

    store: MatchStore
    clock: Callable[[], datetime]

    async def match(self, match_id: int, scope: Scope | None = None) -> MatchRecord: ...

    def rules(self, game: str) -> GameRules[Any, Any]: ...

    def presentation(self, game: str) -> GamePresentation[Any, Any]: ...

    def state_of(self, match: MatchRecord) -> BaseModel: ...

    async def state_at(self, match: MatchRecord, version: int) -> BaseModel: ...

    async def seat_clocks(self, match: MatchRecord) -> dict[int, SeatClock]: ...


@dataclass(frozen=True, slots=True)
class Offered:
    """A seat offered: the offer, what the thread's post of it says, and the answer to who offered it."""

    match: MatchRecord
    offer: SeatOffer
    post: Say
    answer: Say


@dataclass(frozen=True, slots=True)
class Taken:
    """A seat taken: the match as it stands now, what the offer's post says from now on, and what the
    newcomer reads in answer (their welcome, and the summary of the seat's moves meanwhile, which is for
    them alone)."""

    match: MatchRecord
    seat: int
    post: Say
    welcome: Say
    away: AwaySummary


def person_name(player: Player) -> str:
    """A player's name without the mark a computer adds while it plays their seat."""
    return player.name.removesuffix(COMPUTER_SUFFIX)


def left_seat(player: Player | None) -> bool:
    """Whether a computer holds this seat for a person who left it (resigned or timed out)."""
    return player is not None and player.bot is not None and player.user_id is not None


def seat_label(player: Player) -> Say:
    """A seat a person left, as people read it: whose it was and why a computer plays it."""
    person = person_name(player)
    if player.resigned:
        return HOST.say("{person}'s seat (computer, after {person} resigned)", person=person)
    return HOST.say("{person}'s seat (computer, while {person} is away)", person=person)


def offerable(match: MatchRecord) -> list[tuple[int, Say]]:
    """The seats of ``match`` that can be offered, each with its label; none unless it is running."""
    if match.status is not MatchStatus.ACTIVE:
        return []
    return [
        (seat, seat_label(player))
        for seat in range(match.seat_count)
        if left_seat(player := match.player_at(seat)) and player is not None
    ]


def offer_suggestions(match: MatchRecord, typed: str, locale: str, name: Namer) -> list[tuple[str, str]]:
    """The seats of ``match`` that can be offered whose label has ``typed`` in it, as (label in
    ``locale``, value) for a command's suggestions; the value is the seat's number (see
    ``chosen_seat``)."""
    wanted = folded(typed)
    found = []
    for seat, label in offerable(match):
        said = render(locale, label, name)
        if wanted in folded(said):
            found.append((said[:SUGGESTION_LIMIT], str(seat + 1)))
    return found


def chosen_seat(match: MatchRecord, chosen: str) -> int:
    """The seat ``chosen`` names: its number (as the command's suggestions give it), or a word of the
    name of the person who left it. Raises ``LobbyError`` listing the seats that can be offered."""
    seats = offerable(match)
    text = chosen.strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= match.seat_count:
        return int(text) - 1
    wanted = folded(text)
    fitting = [
        seat
        for seat, _ in seats
        if wanted and (player := match.player_at(seat)) and wanted in folded(person_name(player))
    ]
    if len(fitting) == 1:
        return fitting[0]
    if not seats:
        raise LobbyError(
            HOST.say(
                "no seat of match #{number} is held by a computer for someone who left it", number=match.id
            )
        )
    raise LobbyError(
        HOST.say(
            "choose the seat among those a computer holds in match #{number}: {seats}",
            number=match.id,
            seats=items((label for _, label in seats), "comma"),
        )
    )


class SeatOffers:
    """Offers seats to new people and hands a seat over to the first who takes it."""

    def __init__(self, host: ReplacingHost, store: MatchStore, locks: MatchLocks) -> None:
        """``locks``: the host's own, so that a handover never overlaps a move."""
        self.host, self.store, self.locks = host, store, locks

    async def offer(
        self, match_id: int, by_user: int, chosen: str, organiser: bool = False, scope: Scope | None = None
    ) -> Offered:
        """Offer the seat ``chosen`` (see ``chosen_seat``) of ``match_id`` to a new person, for its creator
        or (``organiser``) a server admin. Raises ``MatchClosed`` unless the match runs, ``LobbyError``
        for anyone else, a tournament's table, or a seat a person plays or a computer has held from the
        start."""
        async with self.locks(match_id):
            match = await self.host.match(match_id, scope)
            require_active(match)
            if await self.store.in_tournament(match.id):
                raise LobbyError(
                    HOST.say(
                        "match #{number} is a tournament's table: its organisers let someone take over a "
                        "place with /tournament replace",
                        number=match.id,
                    )
                )
            if not organiser and match.creator_id != by_user:
                raise LobbyError(HOST.say("only the match's creator or a server admin can offer a seat"))
            seat = chosen_seat(match, chosen)
            player = match.player_at(seat)
            if player is None or player.user_id is None:
                raise LobbyError(
                    HOST.say(
                        "a computer has played that seat since the start: only a seat someone left can be "
                        "offered"
                    )
                )
            if player.bot is None:
                raise LobbyError(
                    HOST.say(
                        "{player} plays that seat: only a seat a computer holds for someone who left it can "
                        "be offered",
                        player=player.name,
                    )
                )
            offer = await self.store.offer_seat(match.id, seat, by_user, match.version)
            label = seat_label(player)
            post = HOST.say(
                "🪑 A seat of match #{number} is free: {seat}. The first to press **Take this seat** plays "
                "it from now on, and the rating counts them from their first move.",
                number=match.id,
                seat=label,
            )
            answer = HOST.say("The seat is offered in the thread of match #{number}.", number=match.id)
            return Offered(match, offer, post, answer)

    async def take(self, offer_id: int, newcomer: Player, scope: Scope | None = None) -> Taken:
        """``newcomer`` takes the seat of offer ``offer_id``. Raises ``StaleVersion`` when the offer is
        not ours, was taken, or the seat is played by a person again; ``MatchClosed`` unless the match
        runs; ``LobbyError`` when the newcomer plays in the match, or played in it and left."""
        assert newcomer.user_id is not None
        user_id = newcomer.user_id
        offer = await self.store.seat_offer(offer_id)
        if offer is None:
            raise StaleVersion(OUT_OF_DATE)
        async with self.locks(offer.match_id):
            match = await self.host.match(offer.match_id, scope)
            require_active(match)
            offers = await self.store.seat_offers(match.id)
            current = next((o for o in offers if o.id == offer.id), offer)
            if current.taken_by is not None or any(
                o.seat == current.seat and (o.taken_version or 0) > current.offered_version for o in offers
            ):
                raise StaleVersion(HOST.say("this seat has been taken already; nothing changed"))
            seat = current.seat
            leaver = match.player_at(seat)
            if leaver is None or not left_seat(leaver):
                name = leaver.name if leaver is not None else f"#{seat + 1}"
                raise StaleVersion(HOST.say("{player} plays this seat again: the offer is over", player=name))
            self._require_newcomer(match, offers, user_id)
            away = await away_summary(self.host, match, seat)
            leaver_name = person_name(leaver)
            match = await self._seat(match, current, leaver, newcomer)
            post = HOST.say(
                "{newcomer} took this seat of match #{number}.", newcomer=newcomer.name, number=match.id
            )
            answer = HOST.say(
                "You now play the seat {person} left in match #{number}: your hand comes by direct message, "
                "or behind **My hand** under the latest post.",
                person=leaver_name,
                number=match.id,
            )
            return Taken(match, seat, post, answer, away)

    async def hand_over(
        self, match_id: int, seat: int, newcomer: Player, by_user: int, scope: Scope | None = None
    ) -> MatchRecord:
        """``newcomer`` plays ``seat`` of ``match_id`` from now on, whoever played it, at the word of
        ``by_user`` (a tournament's organiser, with ``/tournament replace``): recorded as an offer taken at
        once, so that what was given to the seat's person before is theirs alone, as with a seat offered
        and taken. Raises ``MatchClosed`` unless the match runs, ``StaleVersion`` when it moved on."""
        async with self.locks(match_id):
            match = await self.host.match(match_id, scope)
            require_active(match)
            leaver = match.player_at(seat)
            assert leaver is not None, f"match {match.id} has no seat {seat}"
            offer = await self.store.offer_seat(match.id, seat, by_user, match.version)
            return await self._seat(match, offer, leaver, newcomer)

    async def _seat(
        self, match: MatchRecord, offer: SeatOffer, leaver: Player, newcomer: Player
    ) -> MatchRecord:
        """``newcomer`` takes the seat of ``offer`` from ``leaver``: the thread is told, the newcomer gets
        the seat's hand, and the seat's clock is theirs from now on."""
        assert newcomer.user_id is not None
        seat = offer.seat
        rules = self.host.rules(match.game)
        to_act = tuple(sorted(rules.to_act(self.host.state_of(match))))
        leaver_name = person_name(leaver)
        told = HOST.say(
            "{newcomer} takes over the seat {person} left, and plays it from now on",
            newcomer=newcomer.name,
            person=leaver_name,
        )
        welcome = HOST.say(
            "You now play the seat {person} left in match #{number}; your hand is below.",
            person=leaver_name,
            number=match.id,
        )
        deliveries = [
            DeliveryDraft(payload=payload(Notice(says=(told,), to_act=to_act))),
            DeliveryDraft(seat=seat, payload=payload(Notice(says=(welcome,), to_act=to_act))),
        ]
        seated = newcomer.model_copy(update={"seat": seat, "bot": None, "resigned": False, "absent": False})
        return await self.store.take_seat(
            offer,
            match.version,
            seated,
            leaver,
            deliveries,
            await self._clock(match, seat, newcomer.user_id, to_act),
        )

    async def taken_from(self, match: MatchRecord, user_id: int) -> Say | None:
        """The refusal of ``user_id``, who has no seat in ``match`` any more, naming who plays the seat
        they played there since someone took it over (None when nobody did)."""
        taken = [o for o in await self.store.seat_offers(match.id) if o.taken_by is not None]
        left = [o for o in taken if o.leaver_id == user_id]
        if not left:
            return None
        latest = max(left, key=lambda o: o.taken_version or 0)
        player = match.player_at(latest.seat)
        name = person_name(player) if player is not None else ""
        return HOST.say(
            "{player} took over your seat in match #{number}; you no longer play in it",
            player=name,
            number=match.id,
        )

    async def handed_over_at(self, match_id: int, seat: int) -> datetime | None:
        """When ``seat`` of ``match_id`` last went to a new person (None: never). What was given to the
        seat's person before (a private page's link) is not the new person's, and opens nothing."""
        taken = [o.taken_at for o in await self.store.seat_offers(match_id) if o.seat == seat and o.taken_at]
        return max(taken, default=None)

    async def since_away(self, match: MatchRecord, user_id: int) -> AwaySummary:
        """What a computer played for ``user_id``'s seat of ``match`` since they last moved there (for a
        player back with ``/game return``); nothing when they have no seat."""
        seat = match.seat_of(user_id)
        return AwaySummary(0) if seat is None else await away_summary(self.host, match, seat)

    def _require_newcomer(self, match: MatchRecord, offers: list[SeatOffer], user_id: int) -> None:
        """Refuse a person who plays in ``match``, or played there and left (see the module docstring)."""
        mine = match.seat_of(user_id)
        if mine is not None:
            player = match.player_at(mine)
            if player is not None and player.resigned:
                raise LobbyError(
                    HOST.say(
                        "you resigned from match #{number}, so you cannot take a seat in it again",
                        number=match.id,
                    )
                )
            if player is not None and player.absent:
                raise LobbyError(
                    HOST.say(
                        "you already have a seat in match #{number}: take it back with /game return",
                        number=match.id,
                    )
                )
            raise LobbyError(HOST.say("you already play in match #{number}", number=match.id))
        if any(o.leaver_id == user_id for o in offers if o.taken_by is not None):
            raise LobbyError(
                HOST.say(
                    "you left a seat of match #{number}, so you cannot take a seat in it again",
                    number=match.id,
                )
            )

    async def _clock(
        self, match: MatchRecord, seat: int, user_id: int, to_act: tuple[int, ...]
    ) -> ClockChange | None:
        """The seat's clock for its newcomer: their own from now on, no timeouts yet, running if the seat
        is to act."""
        if match.pace is Pace.NONE:
            return None
        rows = await self.host.seat_clocks(match)
        clock = rows.get(seat) or SeatClock(match_id=match.id, seat=seat, user_id=user_id)
        clock = clock.model_copy(update={"timeouts": 0, "user_id": user_id})
        if seat in to_act and not clock.running:
            clock = begin_turn(clock, ALLOWANCES[match.pace], self.host.clock())
        return ClockChange(clocks=(clock,))
