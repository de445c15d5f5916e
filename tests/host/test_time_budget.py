"""``TimeBudget``: the parts of ``bench`` sample less once the machine shows itself slow."""

from __future__ import annotations

import pytest

from bench.engine import TimeBudget


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_every_part_does_all_its_work_while_everything_fits() -> None:
    clock = Clock()
    budget = TimeBudget(20.0, {"a": 4.0, "b": 4.0, "c": 4.0}, clock=clock)
    for part in ("a", "b", "c"):
        assert budget.share(part) == 1.0
        clock.now += 4.0
        budget.spent(part, 4.0)
    assert budget.pace == 1.0 and budget.left() == pytest.approx(8.0)


def test_a_slow_machine_cuts_the_parts_still_to_run_to_the_time_left() -> None:
    clock = Clock()
    budget = TimeBudget(20.0, {"a": 4.0, "b": 4.0, "c": 4.0}, clock=clock)
    assert budget.share("a") == 1.0
    clock.now += 12.0  # three times as long as on a quiet machine
    budget.spent("a", 12.0)
    assert budget.pace == pytest.approx(3.0)
    # 8 s left; b and c would take 3 * 8 s: each does a third of its work.
    assert budget.share("b") == pytest.approx(1 / 3)
    assert budget.scaled("b", 30) == 10
    clock.now += 4.0
    budget.spent("b", 4.0)  # a third of 4 s, at the same pace
    assert budget.pace == pytest.approx(3.0)
    assert budget.share("c") == pytest.approx(4 / 12)


def test_fixed_costs_come_out_of_the_time_left_before_the_work_is_shared() -> None:
    clock = Clock()
    budget = TimeBudget(10.0, {"a": 8.0, "e2e": 4.0}, fixed={"e2e": 2.0}, clock=clock)
    assert budget.share("a") == pytest.approx(8 / 12)  # 10 s, less 2 fixed, for 12 s of work
    clock.now += 8.0 * 8 / 12
    budget.spent("a", 8.0 * 8 / 12)
    assert budget.share("e2e") == pytest.approx((10 - 8 * 8 / 12 - 2) / 4)


def test_a_late_run_keeps_the_floor_and_a_part_on_its_own_clock_leaves_the_pace_alone() -> None:
    clock = Clock()
    budget = TimeBudget(5.0, {"engine": 4.0, "render": 4.0}, clock=clock, floor=0.2)
    budget.share("engine")
    clock.now += 2.0
    budget.spent("engine", 2.0, paced=False)  # it stops at its time, whatever the machine
    assert budget.pace == 1.0
    assert budget.share("render") == pytest.approx(3 / 4)
    clock.now += 10.0
    assert budget.share("render") == 0.2 and budget.left() < 0
    assert budget.scaled("render", 24, least=6) == 6
