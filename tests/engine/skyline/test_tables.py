"""The static tables against the counts and lists of spec §2."""

from __future__ import annotations

import re
from collections import Counter

from engine.skyline.cards import (
    BONUS_CARDS,
    ICON_SITES,
    MISSIONS,
    ORANGE_SITES,
    PLACEMENTS,
    SELL,
    SITE_BY_NAME,
    SITES,
    SUPPLY_PER_COLOUR,
)

from .spec import spec_text


def test_piece_counts_and_sell_prices() -> None:
    assert SUPPLY_PER_COLOUR == {"1": 8, "2": 6, "4": 4, "6": 3, "PH": 3}
    assert sum(SUPPLY_PER_COLOUR.values()) * 4 == 32 + 24 + 16 + 12 + 12
    assert SELL == {"1": 0, "2": 1, "4": 2, "6": 3, "PH": 5, "N": 2}


def test_board_matches_the_site_table() -> None:
    rows = re.findall(
        r"^\| ([A-F][1-6]) \| (\d) \| (\d) \| (\w+|–) \| (\*\*yes\*\*|–) \| (M\d|–) \|$", spec_text(), re.M
    )
    assert len(rows) == 36 == len(SITES)
    for name, x, y, icon, orange, mission in rows:
        site = SITES[SITE_BY_NAME[name]]
        assert (site.x, site.y) == (int(x), int(y))
        assert site.icon == (None if icon == "–" else icon)
        assert site.orange == (orange != "–")
        in_mission = [m.id for m in MISSIONS.values() if name in m.sites]
        assert in_mission == ([] if mission == "–" else [mission])
    assert sorted(ORANGE_SITES) == ["B5", "C2", "E4"]
    assert all(len(sites) == 3 for sites in ICON_SITES.values()) and len(ICON_SITES) == 6


def test_bonus_cards_match_the_card_list() -> None:
    rows = re.findall(r"^\| (B\d\d) \| (.+?) \| (\w{3}) \| (\w\d) \| (\d) \|$", spec_text(), re.M)
    assert len(rows) == 42 == len(BONUS_CARDS)
    for cid, name, icon, shape, reward in rows:
        assert tuple(BONUS_CARDS[cid][1:]) == (name, icon, shape, int(reward))
    assert Counter(c.reward for c in BONUS_CARDS.values()) == {5: 24, 8: 18}


def test_placement_counts_from_the_test_aid() -> None:
    counts = {cid: len(p) for cid, p in PLACEMENTS.items()}
    assert counts["B14"] == 8 == min(counts.values()) and counts["B41"] == 66 == max(counts.values())
    i3 = [counts[c] for c, card in BONUS_CARDS.items() if card.shape == "I3"]
    assert min(i3) == 11 and max(i3) == 14 and counts["B01"] == 12


def test_missions_are_paths_of_two_icon_and_two_plain_sites() -> None:
    used: set[str] = set()
    for m in MISSIONS.values():
        ks = [SITE_BY_NAME[n] for n in m.sites]
        assert all(ks[i + 1] in SITES[ks[i]].neighbours for i in range(3))
        assert sum(SITES[k].icon is not None for k in ks) == 2
        assert not any(SITES[k].orange for k in ks) and not used & set(m.sites)
        used |= set(m.sites)
    assert len(MISSIONS) == 6
