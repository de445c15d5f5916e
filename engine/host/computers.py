"""The computer players' loop: the moves that nobody has to choose, made after each move of a person.

Computer seats act, the rules make the moves they make for a person (``GameRules.automatic``), and a
person whose time ran out has their turn played by a stand-in, until a person must decide or the match
ends. Every move is committed on its own, as a person's would be.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.contract import Event, GameRules, Policy, Step
from engine.core.errors import EngineError
from engine.core.rng import bot_rng
from engine.core.say import Say
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.thinking import IN_PROCESSES, ThinkPool, think, think_registered

# A safety net against a rules bug that would let computer players loop forever.
MAX_AUTOMATED_ACTIONS = 10_000


class Committing(Protocol):
    """What the loop needs of the host: the games, their computer players and the commit of a move."""

    thinker: ThinkPool | None

    def rules(self, game: str) -> GameRules[Any, Any]: ...

    def policy(self, game: str, name: str) -> Policy[Any, Any]: ...

    async def commit(
        self,
        match: MatchRecord,
        rules: GameRules[Any, Any],
        seat: int,
        action: BaseModel,
        before: BaseModel,
        after: BaseModel,
        events: Sequence[Event],
        timed_out: Collection[int] = (),
        preface: Sequence[Say] = (),
    ) -> tuple[MatchRecord, list[str]]: ...


@dataclass(frozen=True, slots=True)
class StandIn:
    """A computer player ``policy`` playing the turn of the person in ``seat``, whose time ran out;
    ``preface`` goes before its first move in the thread."""

    seat: int
    policy: str
    preface: tuple[Say, ...] = ()


async def play(
    host: Committing,
    match: MatchRecord,
    state: BaseModel,
    lines: list[str],
    stand_in: StandIn | None = None,
) -> MatchRecord:
    """Let ``stand_in`` finish its person's turn, then computer seats act and the rules make the moves
    they make for a person, until a person must decide or the match ends; their public lines go to
    ``lines``."""
    rules = host.rules(match.game)
    computers = {p.seat: p.bot for p in match.players if p.bot is not None and p.seat is not None}
    for _ in range(MAX_AUTOMATED_ACTIONS):
        if match.status is not MatchStatus.ACTIVE:
            return match
        to_act = sorted(rules.to_act(state))
        timed_out: tuple[int, ...] = ()
        preface: tuple[Say, ...] = ()
        if stand_in is not None and stand_in.seat in to_act:
            seat, timed_out, preface = stand_in.seat, (stand_in.seat,), stand_in.preface
            action, step = await decide(host, match, stand_in.policy, state, seat)
            stand_in = StandIn(stand_in.seat, stand_in.policy)  # the preface goes once
        else:
            stand_in = None  # the person's turn is over: their next one is theirs again
            due = [s for s in to_act if s in computers]
            if due:
                seat = due[0]
                action, step = await decide(host, match, computers[seat] or "random", state, seat)
            else:
                forced = [(s, a) for s in to_act if (a := rules.automatic(state, s)) is not None]
                if not forced:
                    return match
                seat, action = forced[0]
                step = rules.apply(state, seat, action)
        match, new_lines = await host.commit(
            match, rules, seat, action, state, step.state, step.events, timed_out, preface
        )
        lines.extend(new_lines)
        state = step.state
    raise EngineError(f"computer players of match {match.id} did not finish their turns")


async def decide(
    host: Committing, match: MatchRecord, policy: str, state: BaseModel, seat: int
) -> tuple[BaseModel, Step[Any]]:
    """The move of computer player ``policy`` in ``seat`` and the step it leads to. It thinks (and the
    rules apply its move) off the event loop, which keeps answering everyone else meanwhile: in the
    thinking processes when it is slow and the registry's own, else in a thread."""
    from engine.registry import POLICIES

    chosen = host.policy(match.game, policy)
    rules = host.rules(match.game)
    rng = bot_rng(match.seed, match.version)
    registered = POLICIES.get(rules.name, {}).get(policy) is chosen
    if host.thinker is not None and policy in IN_PROCESSES and registered:
        return await host.thinker.run(think_registered, rules.name, policy, state, seat, rng)
    return await asyncio.to_thread(think, rules, chosen, state, seat, rng)
