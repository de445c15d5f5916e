"""Back-off per destination: one failing destination waits, the others are never held up."""

from __future__ import annotations

from engine.host.outbox import Backoff


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_failing_destination_waits_longer_each_time_and_others_do_not_wait() -> None:
    clock = ManualClock()
    backoff: Backoff[str] = Backoff(base=2.0, cap=10.0, clock=clock)
    assert backoff.ready("thread") and backoff.next_retry_in() is None
    assert backoff.failed("thread") == 2.0
    assert not backoff.ready("thread") and backoff.ready("dm")
    assert backoff.waiting() == frozenset({"thread"})
    clock.now += 1.5
    assert backoff.next_retry_in() == 0.5
    clock.now += 0.5
    assert backoff.ready("thread")
    assert [backoff.failed("thread") for _ in range(4)] == [4.0, 8.0, 10.0, 10.0]
    backoff.succeeded("thread")
    assert backoff.ready("thread") and backoff.waiting() == frozenset()
