"""Access to the shared rules specification, which sits beside the repository (also in CI)."""

from __future__ import annotations

from pathlib import Path

SPEC = Path(__file__).resolve().parents[3] / ".." / "shared" / "games" / "ny1901.md"


def spec_text() -> str:
    """The spec's Markdown source."""
    assert SPEC.is_file(), f"the shared spec is missing: {SPEC}"
    return SPEC.read_text(encoding="utf-8")
