"""The host's refusals of a request that does not fit a match's state: who may play, and when."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.contract import GameRules
from engine.core.errors import EngineError, LobbyError, MatchClosed, MatchNotFound, NotSeated, SetupError
from engine.core.presentation import GamePresentation
from engine.core.say import Say, items
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.text import HOST

ADMIN_CAN_ABANDON = "an admin can abandon it with /game abandon"

# A match's status as people read it.
STATUS_SAID = {
    MatchStatus.LOBBY: HOST.word("still in the lobby", "match"),
    MatchStatus.ACTIVE: HOST.word("being played", "match"),
    MatchStatus.FINISHED: HOST.word("over", "match"),
    MatchStatus.ABANDONED: HOST.word("abandoned", "match"),
}


def no_such_match(match_id: int) -> MatchNotFound:
    return MatchNotFound(HOST.say("there is no match #{number} here", number=match_id))


def require_lobby(match: MatchRecord) -> None:
    if match.status is not MatchStatus.LOBBY:
        raise LobbyError(
            HOST.say(
                "match #{number} is {status}; the lobby is closed",
                number=match.id,
                status=STATUS_SAID[match.status],
            )
        )


def require_active(match: MatchRecord) -> None:
    if match.status is not MatchStatus.ACTIVE:
        allowed = ["start"] if match.status is MatchStatus.LOBBY else []
        if match.status is MatchStatus.LOBBY:
            said = HOST.say("match #{number} has not started yet: no moves until it starts", number=match.id)
        else:
            said = HOST.say(
                "match #{number} is {status}: no more moves can be made",
                number=match.id,
                status=STATUS_SAID[match.status],
            )
        raise MatchClosed(said, allowed)


def require_seat(match: MatchRecord, user_id: int) -> int:
    """``user_id``'s seat in ``match``, unless they have none or a computer has taken it over."""
    seat = match.seat_of(user_id)
    if seat is None:
        raise NotSeated(
            HOST.say("you are not playing in match #{number}", number=match.id),
            hint=HOST.say("You can follow the match in its thread, or open one of your own with /game new."),
        )
    player = match.player_at(seat)
    if player is not None and player.bot is not None:
        if player.resigned:
            raise NotSeated(
                HOST.say(
                    "you resigned from match #{number}: a computer plays your seat until the end",
                    number=match.id,
                ),
                hint=HOST.say("You can follow the match in its thread."),
            )
        raise NotSeated(
            HOST.say("a computer player has taken over your seat in match #{number}", number=match.id),
            hint=HOST.say("To take your seat back, use /game return."),
        )
    return seat


def check_setup_in_words(
    rules: GameRules[Any, Any], presentation: GamePresentation[Any, Any], seats: int, options: frozenset[str]
) -> None:
    """``SetupError`` in words when ``seats`` or ``options`` do not fit the game (the checks of
    ``engine.core.options.check_setup``, which stays the rules' own guard), saying which would."""
    game = HOST.say(rules.title)
    counts = items([str(n) for n in rules.seat_counts], "or")
    if seats not in rules.seat_counts:
        raise SetupError(
            HOST.say(
                "{game} is played by {counts} players, not {seats}", game=game, counts=counts, seats=seats
            ),
            [str(n) for n in rules.seat_counts],
            hint=HOST.say("Choose {counts} players.", counts=counts),
        )
    unknown = sorted(options - set(rules.options))
    if unknown:
        raise SetupError(
            HOST.say_n(
                "{game} has no option {options}",
                "{game} has no options {options}",
                len(unknown),
                game=game,
                options=items([f"`{o}`" for o in unknown]),
            ),
            sorted(rules.options),
            hint=options_hint(rules, presentation, rules.options),
        )
    limits: Mapping[str, Iterable[int]] = getattr(rules, "seats_for_option", None) or {}
    for option, fitting in limits.items():
        needed = sorted(fitting)
        if option in options and seats not in needed:
            raise SetupError(
                HOST.say(
                    "the option `{option}` needs {counts} players",
                    option=option,
                    counts=items([str(n) for n in needed], "or"),
                ),
                hint=HOST.say(
                    "Choose {counts} players, or leave the option out.",
                    counts=items([str(n) for n in needed], "or"),
                ),
            )
    rules.validate_setup(seats, options)


def options_hint(
    rules: GameRules[Any, Any], presentation: GamePresentation[Any, Any], known: Iterable[str]
) -> Say:
    """Which options a game has, each with what it does, or that it has none."""
    described = [
        HOST.say("`{option}` ({about})", option=o, about=presentation.option_says.get(o) or rules.options[o])
        for o in sorted(known)
    ]
    if not described:
        return HOST.say("Leave the options out: this game has none.")
    return HOST.say("Choose among its options: {options}.", options=items(described, "comma"))


NO_SUCH_LEVEL = HOST.say("there is no computer player of that level here")
CHOOSE_A_LEVEL = HOST.say("Choose a level from the list “Add a computer player…”.")

# Refusals a front end makes of a command before it reaches the host.
SERVER_ONLY = EngineError(
    HOST.say("this command works in a server's channels, not in direct messages"),
    hint=HOST.say("Use it in the channel or thread of your match."),
)
NOT_HERE = EngineError(HOST.say("you cannot use this command here"))


def unreadable_option(value: object) -> EngineError:
    """A command's option whose ``value`` could not be read as the option asks."""
    return EngineError(
        HOST.say("“{value}” cannot be read for this option", value=str(value)[:50]),
        hint=HOST.say("Choose one of the values the command offers."),
    )
