"""Babel extractors for what ``pybabel extract`` cannot see on its own (see ``lang/babel.cfg``): the names,
descriptions and choices of slash commands (and of their groups), and the games' titles.

Command and option names get the contexts ``command`` and ``option`` (``cogs._lang`` translates them
under those), everything else none.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

# What Babel takes from an extractor: line, function name, message, comments (and optionally a context).
Result = tuple[Any, ...]
# Parameters of a command callback that are not options.
NOT_OPTIONS = {"self", "interaction"}


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _name(node: ast.expr) -> str:
    """The last part of a called name: ``app_commands.command`` -> ``command``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _plain(line: int, text: str | None) -> Iterator[Result]:
    if text:
        yield line, "gettext", text, []


def _named(line: int, context: str, text: str | None) -> Iterator[Result]:
    if text:
        yield line, "pgettext", (context, text), []


def _command_metadata(tree: ast.AST) -> Iterator[Result]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for keyword in node.keywords:
                if keyword.arg == "group_name":
                    yield from _named(node.lineno, "command", _text(keyword.value))
                elif keyword.arg == "group_description":
                    yield from _plain(node.lineno, _text(keyword.value))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            calls = [d for d in node.decorator_list if isinstance(d, ast.Call)]
            if not any(_name(c.func) == "command" for c in calls):
                continue
            for call in calls:
                decorator = _name(call.func)
                for keyword in call.keywords:
                    if decorator == "command" and keyword.arg == "name":
                        yield from _named(call.lineno, "command", _text(keyword.value))
                    elif (decorator, keyword.arg) == ("command", "description") or decorator == "describe":
                        yield from _plain(call.lineno, _text(keyword.value))
            for argument in node.args.args:
                if argument.arg not in NOT_OPTIONS:
                    yield from _named(node.lineno, "option", argument.arg)
        elif isinstance(node, ast.Call) and _name(node.func) == "Group":
            for keyword in node.keywords:
                if keyword.arg == "name":
                    yield from _named(node.lineno, "command", _text(keyword.value))
                elif keyword.arg == "description":
                    yield from _plain(node.lineno, _text(keyword.value))
        elif isinstance(node, ast.Call) and _name(node.func) == "Choice":
            for keyword in node.keywords:
                if keyword.arg == "name":
                    yield from _plain(node.lineno, _text(keyword.value))


def extract_commands(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Result]:
    """The messages of a cog: what the code says (as ``extract_python`` finds them) and its commands'
    names, descriptions, option names and choices."""
    source = fileobj.read()
    yield from _command_metadata(ast.parse(source))
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[arg-type]


def extract_titles(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Result]:
    """A game's title (``title: ClassVar[str] = "..."`` in its rules), which the edges translate."""
    for node in ast.walk(ast.parse(fileobj.read())):
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.AnnAssign) and isinstance(target, ast.Name) and target.id == "title":
            yield from _plain(node.lineno, _text(node.value))
