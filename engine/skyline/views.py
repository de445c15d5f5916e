"""What players may see (spec §6, §9): a public view for the board image and a private view for DMs."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.core.contract import Frozen
from engine.skyline.cards import (
    BONUS_CARDS,
    COLOUR_HEX,
    COLOURED,
    ICONS,
    MISSIONS,
    PIECES,
    PLACEMENT_MASKS,
    SITES,
    shape_picture,
)
from engine.skyline.scoring import places, score
from engine.skyline.state import (
    SkylineState,
    Stack,
    code,
    colour,
    income_groups,
    mission_done,
    orange_tops,
    owner,
    penthouses,
    topped_mask,
)


class PieceView(Frozen):
    """One piece in a stack: its code and owner colour (``None`` for a neutral floor)."""

    code: str
    colour: str | None


class SiteView(Frozen):
    """One building site as drawn (§9): position, icon badge, orange flag, stack bottom → top."""

    id: str
    x: int
    y: int
    icon: str | None
    badge: str | None
    badge_colour: str | None
    orange: bool
    stack: tuple[PieceView, ...]
    top_colour: str | None  # who tops the site (None: empty or neutral top)
    last_build: bool


class ClaimView(Frozen):
    """A claimed bonus card (public, §6): card, reward and the placement used."""

    card: str
    name: str
    reward: int
    sites: tuple[str, ...]


class PlayerPanel(Frozen):
    """One player row of the §9 side panel. Hidden-variant fields are ``None`` for other viewers."""

    seat: int
    colour: str
    hex: str
    cash: int | None
    stock: dict[str, int] | None
    supply: dict[str, int] | None
    hand_count: int
    penthouses: int
    skyline_received: int
    claimed: tuple[ClaimView, ...]
    exchanges: int
    income_preview: int  # what phase 1 would pay on the current board
    income_sites: tuple[str, ...]
    prestige_preview: int  # penthouses + orange tops; the mission stays secret until the end
    last_income: int | None
    mission: str | None  # revealed at the end only
    mission_complete: bool | None
    active: bool


class PublicView(Frozen):
    """Everything everybody may see: no hands, missions, deck order (and no hidden-variant money)."""

    game: str = "skyline"
    seats: int
    hidden: bool
    tournament: bool
    phase: str  # build | invest | over
    turn: int
    active: int
    active_colour: str
    start: int
    sites: tuple[SiteView, ...]
    players: tuple[PlayerPanel, ...]
    neutral_supply: int
    deck_size: int
    final_round: bool
    trigger: str | None
    final_queue: tuple[str, ...]
    stall: int
    last_build: str | None
    last_move: str
    result: tuple[str, ...]
    places: tuple[int, ...] = ()  # once over: each seat's place, 1 = first, tied seats share it


class MissionView(Frozen):
    """The viewer's secret mission (§9 DM image)."""

    id: str
    name: str
    sites: tuple[str, ...]
    complete: bool


class CardView(Frozen):
    """A bonus card in the viewer's hand."""

    id: str
    name: str
    icon: str
    shape: str
    picture: tuple[str, ...]
    reward: int
    claimable: bool


class PrivateView(PublicView):
    """The public view plus the viewer's mission, hand, own money/stock/supply and legal actions."""

    seat: int
    mission: MissionView | None
    hand: tuple[CardView, ...]
    own_cash: int
    own_stock: dict[str, int]
    own_supply: dict[str, int]
    legal: tuple[str, ...]


def _stock(st: SkylineState, seat: int) -> dict[str, int]:
    return {p: st.stock[seat].count(p) for p in PIECES}


def _supply(st: SkylineState, seat: int) -> dict[str, int]:
    return dict(zip(COLOURED, st.supply[seat], strict=True))


def _panel(st: SkylineState, s: int, viewer: int | None) -> PlayerPanel:
    show = not st.hidden or viewer == s
    over = st.phase == "over"
    income, sites = income_groups(st.board, s)
    return PlayerPanel(
        seat=s,
        colour=colour(st, s),
        hex=COLOUR_HEX[colour(st, s)],
        cash=st.cash[s] if show else None,
        stock=_stock(st, s) if show else None,
        supply=_supply(st, s) if show else None,
        hand_count=len(st.hands[s]),
        penthouses=penthouses(st.board, s),
        skyline_received=st.skyline_received[s],
        claimed=tuple(
            ClaimView(
                card=c, name=BONUS_CARDS[c].name, reward=BONUS_CARDS[c].reward, sites=tuple(at.split(","))
            )
            for c, at in zip(st.claimed[s], st.claimed_at[s], strict=True)
        ),
        exchanges=st.exchanged[s],
        income_preview=income,
        income_sites=tuple(SITES[k].id for k in sites),
        # The mission counts once the end reveals it, so the final image agrees with the standings.
        prestige_preview=score(st, s).total if over else penthouses(st.board, s) + orange_tops(st.board, s),
        last_income=st.last_income[s] if show else None,
        mission=st.missions[s] if over else None,
        mission_complete=mission_done(st, s) if over else None,
        active=s == st.active and not over,
    )


@lru_cache(maxsize=4096)
def _site_view(index: int, stack: Stack, colours: tuple[str, ...], last_build: bool) -> SiteView:
    """Site ``index`` with ``stack`` on it, seats coloured ``colours``: most sites stay the same from one
    view to the next, so each is made once."""
    site = SITES[index]
    icon = ICONS[site.icon] if site.icon else None
    top = owner(stack[-1]) if stack else None
    return SiteView(
        id=site.id,
        x=site.x,
        y=site.y,
        icon=site.icon,
        badge=icon.badge if icon else None,
        badge_colour=icon.colour if icon else None,
        orange=site.orange,
        stack=tuple(
            PieceView(code=code(p), colour=None if (seat := owner(p)) is None else colours[seat])
            for p in stack
        ),
        top_colour=None if top is None else colours[top],
        last_build=last_build,
    )


def _fields(st: SkylineState, viewer: int | None) -> dict[str, object]:
    colours = tuple(colour(st, s) for s in range(st.seats))
    sites = tuple(
        _site_view(index, st.board[site.k], colours, st.last_build == site.k)
        for index, site in enumerate(SITES)
    )
    return {
        "seats": st.seats,
        "hidden": st.hidden,
        "tournament": st.tournament,
        "phase": st.phase,
        "turn": st.turn,
        "active": st.active,
        "active_colour": colour(st, st.active),
        "start": st.start,
        "sites": sites,
        "players": tuple(_panel(st, s, viewer) for s in range(st.seats)),
        "neutral_supply": st.neutral_supply,
        "deck_size": len(st.deck),
        "final_round": st.trigger is not None,
        "trigger": None if st.trigger is None else colour(st, st.trigger),
        "final_queue": tuple(colour(st, s) for s in st.final_queue),
        "stall": st.stall,
        "last_build": None if st.last_build is None else SITES[st.last_build].id,
        "last_move": st.last_move,
        "result": st.result,
        "places": places(st) if st.phase == "over" else (),
    }


def public_view(st: SkylineState) -> PublicView:
    """The channel's view (§6, §9)."""
    return PublicView(**_fields(st, None))  # type: ignore[arg-type]


def private_view(st: SkylineState, seat: int, legal: Sequence[str]) -> PrivateView:
    """``seat``'s DM view: the public view plus its own secrets (§6)."""
    mask = topped_mask(st.board, seat)
    mission = MISSIONS[st.missions[seat]]
    hand = tuple(
        CardView(
            id=c,
            name=BONUS_CARDS[c].name,
            icon=BONUS_CARDS[c].icon,
            shape=BONUS_CARDS[c].shape,
            picture=shape_picture(BONUS_CARDS[c].shape),
            reward=BONUS_CARDS[c].reward,
            claimable=st.phase != "over"
            and not st.claimed_this_turn
            and seat == st.active
            and any(mask & need == need for need, _ in PLACEMENT_MASKS[c]),
        )
        for c in st.hands[seat]
    )
    return PrivateView(
        **_fields(st, seat),  # type: ignore[arg-type]
        seat=seat,
        mission=MissionView(
            id=mission.id, name=mission.name, sites=mission.sites, complete=score(st, seat).mission
        ),
        hand=hand,
        own_cash=st.cash[seat],
        own_stock=_stock(st, seat),
        own_supply=_supply(st, seat),
        legal=tuple(legal),
    )
