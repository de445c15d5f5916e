"""Seat-count and option checks shared by every game's ``validate_setup``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core.errors import SetupError


def parse_options(text: str | Iterable[str] | None) -> frozenset[str]:
    """``"a,b"`` or an iterable of ids -> a set of lower-case option ids (empty for ``None``/``""``)."""
    if text is None:
        return frozenset()
    parts = text.split(",") if isinstance(text, str) else list(text)
    return frozenset(p.strip().lower() for p in parts if p.strip())


def check_setup(
    game: str,
    seat_counts: range,
    known: Mapping[str, str],
    seats: int,
    options: frozenset[str],
    seats_for_option: Mapping[str, Iterable[int]] | None = None,
) -> None:
    """Raise ``SetupError`` when ``seats`` or ``options`` do not fit the game.

    ``seats_for_option`` restricts an option to some seat counts (e.g. a team game for 4 only).
    """
    counts = ", ".join(str(n) for n in seat_counts)
    if seats not in seat_counts:
        raise SetupError(f"{game} is played by {counts} players, not {seats}", [str(n) for n in seat_counts])
    unknown = sorted(options - set(known))
    if unknown:
        valid = sorted(known) or ["(none)"]
        raise SetupError(f"unknown option for {game}: {', '.join(unknown)}", valid)
    for option, allowed_seats in (seats_for_option or {}).items():
        allowed = sorted(allowed_seats)
        if option in options and seats not in allowed:
            fitting = sorted(o for o in known if seats in (seats_for_option or {}).get(o, seat_counts))
            raise SetupError(
                f"option {option} needs {' or '.join(map(str, allowed))} players, not {seats}",
                fitting or ["(none)"],
            )
