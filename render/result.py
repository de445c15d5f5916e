"""The line a finished board leads with: who won, or who tied for first place, in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from lang import t
from render.canvas import names_in
from render.since import who


def joined(names: Sequence[str], locale: str) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return t(locale, "{players} and {last}", players=", ".join(names[:-1]), last=names[-1])


def winners(places: Sequence[int]) -> list[int]:
    """The seats in first place (several when they tie)."""
    return [seat for seat, place in enumerate(places) if place == 1]


def result_line(places: Sequence[int], names: Sequence[str], locale: str) -> str:
    """ "Game over: Ann wins" or "Game over: tie for first place between Ann and Bob"; ``places`` by seat,
    1 = first (empty: the board does not know them, and says only that the game is over)."""
    first = [who(seat, names) for seat in winners(places)]
    if not first:
        return t(locale, "Game over")
    if len(first) == 1:
        return t(locale, "Game over: {player} wins", player=first[0])
    return t(locale, "Game over: tie for first place between {players}", players=joined(first, locale))


def fitted_result_line(
    places: Sequence[int], names: Sequence[str], locale: str, size: int, max_width: float, bold: bool = True
) -> str:
    """``result_line`` on one line of ``max_width`` units, the winners' names shortened if need be."""
    first = [who(seat, names) for seat in winners(places)]
    named = {seat: shown for seat, shown in zip(winners(places), first, strict=True)}

    def compose(shown: Sequence[str]) -> str:
        by_seat = dict(zip(named, shown, strict=True))
        return result_line(places, [by_seat.get(seat, "") for seat in range(len(places))], locale)

    return names_in(compose, first, size, max_width, bold)
