"""The bench's figure of a drawing process's peak memory is that process's own, however large the process
that started it (on Linux, ``getrusage`` carries the starter's peak into a process it starts)."""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from bench.render import peak_rss_mb

# More than a fresh interpreter with the bench's modules ever holds.
STARTER_MB = 300


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the inherited peak is Linux's")
def test_a_new_process_reports_its_own_peak_not_its_starters() -> None:
    held = bytearray(STARTER_MB * 1024 * 1024)
    held[::4096] = b"\x01" * len(held[::4096])  # touched, so that it is resident
    assert peak_rss_mb() >= STARTER_MB
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        started = pool.submit(peak_rss_mb).result()
    assert 0 < started < STARTER_MB / 2
    del held
