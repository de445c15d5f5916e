"""What ``/stats`` says: how often each place in the order of play wins a game, as measured by self-play
of the strongest computer player (``engine.host.seat_advantage``), in the reader's language, written with
the front end's ``Marks``."""

from __future__ import annotations

from engine.host.lobby_words import level_choice
from engine.host.marks import Marks
from engine.host.refusals import check_setup_in_words
from engine.host.seat_advantage import SeatAdvantage, measured
from engine.registry import get_game, get_presentation
from lang import N_, join, t, tn

# The places in the order of play after the first, as a clause names them ("the second 30%").
ORDINALS = (
    N_("the second"),
    N_("the third"),
    N_("the fourth"),
    N_("the fifth"),
    N_("the sixth"),
)


def percent(rate: float) -> int:
    """A rate as a whole percentage."""
    return round(rate * 100)


def seat_sentence(locale: str, figures: SeatAdvantage) -> str:
    """ "In a 3-player match, whoever plays first wins 38% of the time (between 35% and 41%), the second
    30% (27–33%) and the third 32% (29–35%)." """
    clauses = []
    for seat, (rate, (low, high)) in enumerate(zip(figures.first_rate_by_seat, figures.ci95, strict=True)):
        numbers = {"rate": percent(rate), "low": percent(low), "high": percent(high)}
        if seat == 0:
            clauses.append(
                t(
                    locale,
                    "In a {players}-player match, whoever plays first wins {rate}% of the time "
                    "(between {low}% and {high}%)",
                    players=figures.players,
                    **numbers,
                )
            )
        else:
            place = t(locale, ORDINALS[seat - 1])
            clauses.append(t(locale, "{place} {rate}% ({low}–{high}%)", place=place, **numbers))
    return join(locale, clauses) + "."


def measured_sentence(locale: str, figures: SeatAdvantage) -> str:
    """How many matches the figures come from, and what they would be if the order did not matter."""
    return tn(
        locale,
        "Measured on {count} match; if the order of play did not matter, each would win {fair}% of the time.",
        "Measured on {count} matches; if the order of play did not matter, each would win {fair}% of the "
        "time.",
        figures.matches,
        fair=percent(1 / figures.players),
    )


def seat_stats(locale: str, game: str, players: int | None, marks: Marks) -> str:
    """How much the order of play matters in ``game``: with ``players`` seats, or with every seat count
    measured. Raises ``SetupError`` in words for a seat count the game is not played with."""
    rules = get_game(game)
    title = t(locale, rules.title)
    counts = [players] if players is not None else list(rules.seat_counts)
    if players is not None:
        check_setup_in_words(rules, get_presentation(rules.name), players, frozenset())
    tables = [figures for n in counts if (figures := measured(rules.name, n)) is not None]
    if not tables:
        return t(locale, "The order of play in {game} has not been measured yet.", game=title)
    lines = [t(locale, "{game}: how much it matters to play first", game=marks.strong(title))]
    for figures in tables:
        lines.append(f"{seat_sentence(locale, figures)} {measured_sentence(locale, figures)}")
    policies = {figures.policy for figures in tables}
    lines.append(
        t(
            locale,
            "In every match the computer player “{level}” held every seat. A range in brackets holds the "
            "true figure 95 times in 100; a first place shared by several players counts as a win for each.",
            level=join(locale, [level_choice(locale, policy) for policy in sorted(policies)]),
        )
    )
    return "\n".join(lines)
