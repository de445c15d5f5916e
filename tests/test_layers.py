"""The layers of ARCHITECTURE.md, enforced: who may import what."""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Top-level modules each folder must never import.
FORBIDDEN = {
    "engine": {"discord", "aiosqlite", "PIL", "data", "render", "cogs", "bot", "sqlite3", "bench", "web"},
    "render": {"discord", "aiosqlite", "data", "cogs", "bot", "sqlite3", "bench", "web"},
    "data": {"discord", "PIL", "render", "cogs", "bot", "bench", "web"},
    # Benchmarks and simulations drive the layers from outside; the Discord side is driven from ``tests``.
    "bench": {"discord", "cogs", "bot"},
    # The Discord side is handed the stores' opener by whoever starts it (bot.py, the tests).
    "cogs": {"data", "bench", "bot", "aiosqlite", "sqlite3", "web"},
    # The web table, like the Discord side, is handed the stores' opener and asks the host for the rest.
    "web": {"data", "discord", "cogs", "bench", "bot", "aiosqlite", "asyncpg", "sqlite3"},
}
# Rules code is pure: no clock, no global random, no async, no host.
PURE_FORBIDDEN = {"asyncio", "time", "datetime", "random", "secrets", "os", "engine.host", "lang"}


@functools.cache
def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, read once for all the checks of a run."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def sources(top: Path, skip: frozenset[str] = frozenset()) -> list[Path]:
    """The Python files under ``top``, without descending into hidden folders, virtual environments
    or the folders named in ``skip``."""
    found = []
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = [d for d in subfolders if not d.startswith(".") and d not in skip | {"venv"}]
        found += [Path(folder) / name for name in files if name.endswith(".py")]
    return found


def imported_modules(path: Path) -> set[str]:
    tree = parsed(path)
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
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources(ROOT, frozenset({"tests"}))
        if p.name != "bot.py" and "cogs" not in p.parts and violations(p, {"discord"})
    ]
    assert offenders == []


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import random\nfrom discord.ext import commands\n")
    assert imported_modules(sample) == {"random", "discord.ext"}


# Import cycles still to untangle: none. A cycle not listed here fails the test; one that is gone must
# leave it.
KNOWN_CYCLES: list[set[str]] = []


def project_modules() -> dict[str, Path]:
    found = {}
    for folder in ("engine", "data", "render", "cogs", "lang", "bench", "web"):
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_cycles(modules: dict[str, Path]) -> list[set[str]]:
    """The groups of modules that import one another, directly or not, by any import (at the top, for
    types only, or inside a function); a module's own package does not count, Python loads it first."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = parsed(path)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets.add(node.module)
                targets.update(f"{node.module}.{alias.name}" for alias in node.names)
        edges[name] = {t for t in targets if t in modules and not name.startswith(t + ".")}

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in edges[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    reached = {name: reach(name) for name in modules}
    groups: list[set[str]] = []
    for name in sorted(modules):
        group = {name} | {other for other in reached[name] if name in reached[other]}
        if len(group) > 1 and group not in groups:
            groups.append(group)
    return groups


def test_no_modules_import_each_other_beyond_the_known_cycles() -> None:
    cycles = import_cycles(project_modules())
    assert [c for c in cycles if c not in KNOWN_CYCLES] == []
    assert [c for c in KNOWN_CYCLES if c not in cycles] == []  # one untangled: take it off the list


def test_the_cycle_finder_sees_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    from b import g\n")
    (tmp_path / "b.py").write_text("import a\n")
    (tmp_path / "c.py").write_text("import a\n")
    modules = {name: tmp_path / f"{name}.py" for name in "abc"}
    assert import_cycles(modules) == [{"a", "b"}]


def private_imports(path: Path) -> list[str]:
    """The names starting with ``_`` that ``path`` imports from the project's other modules."""
    tree = parsed(path)
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        if node.module.split(".")[0] in {"engine", "data", "render", "cogs", "lang", "bench", "bot"}
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_module_imports_another_modules_private_names() -> None:
    found = {
        str(path.relative_to(ROOT)): names
        for path in project_modules().values()
        if (names := private_imports(path))
    }
    assert found == {}


def test_the_private_import_finder_sees_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from engine.core.rng import _mix, Rng\nfrom os import _exit\nfrom data import __all__\n"
    )
    assert private_imports(sample) == ["engine.core.rng._mix"]


# The Discord side reaches matches and tournaments through the hosts, and its own records through the
# ledger ports: never through a store. The client, which hands the stores it opened to the hosts and names
# the ledgers, is the one place that holds them.
STORE_NAMES = {"store", "stores", "tournament_store"}
STORE_OPENERS = {"cogs/_client.py"}


def store_reaches(path: Path) -> list[str]:
    """The places in ``path`` that name a store attribute (``x.store``, ``x.tournament_store``, …)."""
    tree = parsed(path)
    return [
        f"{path.name}:{node.lineno} .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in STORE_NAMES
    ]


def test_the_discord_side_reaches_no_store() -> None:
    found = {
        str(path.relative_to(ROOT)): reaches
        for path in sorted((ROOT / "cogs").glob("*.py"))
        if str(path.relative_to(ROOT)) not in STORE_OPENERS and (reaches := store_reaches(path))
    }
    assert found == {}
    assert all(store_reaches(ROOT / opener) for opener in STORE_OPENERS)  # one that no longer does: drop it


# The web table likewise: only what opens the stores for ``bot.py web`` holds them.
WEB_STORE_OPENERS = {"web/serving.py"}


def test_the_web_table_reaches_no_store() -> None:
    found = {
        str(path.relative_to(ROOT)): reaches
        for path in sorted((ROOT / "web").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in WEB_STORE_OPENERS and (reaches := store_reaches(path))
    }
    assert found == {}


def test_the_store_finder_sees_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("async def f(bot):\n    return await bot.store.live_post(1), bot.posts, store\n")
    assert store_reaches(sample) == ["sample.py:2 .store"]
