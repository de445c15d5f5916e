"""Fixtures for the whole suite."""

from __future__ import annotations

import pytest

import data.db


@pytest.fixture(autouse=True)
def commits_without_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's database syncs the WAL to disk at every commit (``synchronous=FULL``, for power cuts);
    no test cuts the power, and a sync costs milliseconds, many more on a busy disk, at every move of
    every match a test plays. tests/data keeps FULL: it checks that the store asks for it, and why."""
    monkeypatch.setattr(data.db, "SYNCHRONOUS", "NORMAL")
