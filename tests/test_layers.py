"""The layers of ARCHITECTURE.md, enforced: who may import what."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Top-level modules each folder must never import.
FORBIDDEN = {
    "engine": {"discord", "aiosqlite", "PIL", "data", "render", "cogs", "bot", "sqlite3"},
    "render": {"discord", "aiosqlite", "data", "cogs", "bot", "sqlite3"},
    "data": {"discord", "PIL", "render", "cogs", "bot"},
}
# Rules code is pure: no clock, no global random, no async, no host.
PURE_FORBIDDEN = {"asyncio", "time", "datetime", "random", "secrets", "os", "engine.host", "lang"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def violations(path: Path, forbidden: set[str]) -> list[str]:
    found = []
    for module in imported_modules(path):
        for banned in forbidden:
            if module == banned or module.startswith(banned + "."):
                found.append(f"{path.relative_to(ROOT)} imports {module}")
    return found


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_layer_imports(folder: str) -> None:
    problems = [v for p in (ROOT / folder).rglob("*.py") for v in violations(p, FORBIDDEN[folder])]
    assert problems == []


def test_rules_code_is_pure() -> None:
    pure = [p for p in (ROOT / "engine").rglob("*.py") if "host" not in p.relative_to(ROOT / "engine").parts]
    assert pure, "no rules modules found"
    problems = [v for p in pure for v in violations(p, PURE_FORBIDDEN)]
    assert problems == []


def test_only_bot_and_cogs_import_discord() -> None:
    sources = [p for p in ROOT.rglob("*.py") if ".venv" not in p.parts and "tests" not in p.parts]
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources
        if p.name != "bot.py" and "cogs" not in p.parts and violations(p, {"discord"})
    ]
    assert offenders == []


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import random\nfrom discord.ext import commands\n")
    assert imported_modules(sample) == {"random", "discord.ext"}
