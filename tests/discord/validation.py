"""Discord's documented limits, checked by the fake so a bot Discord would reject fails here too.

Each checker returns None when the payload is fine, or a human-readable problem; the fake turns a problem into
``400 / 50035 Invalid Form Body`` (or ``50006`` for an empty message), as Discord does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tests.discord.models import BUTTON, IS_COMPONENTS_V2, JSON, SELECT_TYPES, walk_components

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
# Button styles: 1-4 send an interaction (and carry a custom_id), LINK opens its url, PREMIUM its SKU.
LINK_STYLE = 5
PREMIUM_STYLE = 6
URL_LIMIT = 512
LINK_SCHEMES = ("http://", "https://", "discord://")


def embed_problem(embed: JSON) -> str | None:
    """The first limit this embed breaks, if any (title 256, description 4096, 25 fields, ...)."""
    limits = (("title", 256), ("description", 4096))
    total = 0
    for key, limit in limits:
        text = embed.get(key) or ""
        total += len(text)
        if len(text) > limit:
            return f"embed {key} is {len(text)} characters (limit {limit})"
    fields = embed.get("fields") or []
    if len(fields) > 25:
        return f"embed has {len(fields)} fields (limit 25)"
    for embed_field in fields:
        name, value = embed_field.get("name") or "", embed_field.get("value") or ""
        if not name or not value:
            return "embed field name and value must not be empty"
        if len(name) > 256 or len(value) > 1024:
            return "embed field name > 256 or value > 1024 characters"
        total += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048 or len(author) > 256:
        return "embed footer > 2048 or author name > 256 characters"
    total += len(footer) + len(author)
    if total > 6000:
        return f"embed text totals {total} characters (limit 6000)"
    return None


def components_problem(components: Sequence[JSON], flags: int) -> str | None:
    """The first component rule broken: rows, per-row counts, custom_id length/uniqueness, selects."""
    custom_ids: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                return f"custom_id {custom_id!r} must be 1-100 characters"
            if custom_id in custom_ids:
                return f"custom_id {custom_id!r} is used twice in one message"
            custom_ids.add(custom_id)
        if component.get("type") == BUTTON and (problem := _button_problem(component)) is not None:
            return problem
        if component.get("type") in SELECT_TYPES:
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not (0 <= low <= high <= 25 and high >= 1):
                return f"select {custom_id!r} has min_values={low}, max_values={high}"
            if len(component.get("placeholder") or "") > 150:
                return f"select {custom_id!r} has a placeholder longer than 150 characters"
            if component.get("type") == 3:
                options = component.get("options") or []
                if not 1 <= len(options) <= 25:
                    return f"select {custom_id!r} has {len(options)} options (1-25 allowed)"
                if high > len(options):
                    return f"select {custom_id!r} has max_values={high} but {len(options)} options"
                if (problem := _options_problem_of_select(custom_id, options)) is not None:
                    return problem
    if flags & IS_COMPONENTS_V2:
        return None
    if len(components) > 5:
        return f"{len(components)} action rows (limit 5)"
    for row in components:
        if row.get("type") != 1:
            return (
                f"top-level component of type {row.get('type')} is not an action row (set IS_COMPONENTS_V2)"
            )
        children = row.get("components") or []
        kinds = {child.get("type") for child in children}
        if not children or (kinds & SELECT_TYPES and len(children) != 1) or len(children) > 5:
            return "an action row holds 1-5 buttons or exactly one select"
    return None


def _button_problem(button: JSON) -> str | None:
    """The first rule a button breaks: a link button has a url (http, https or discord, at most 512
    characters) and no custom_id; a premium one a sku_id and neither; any other a custom_id and no url;
    all but premium ones a label (at most 80 characters) or an emoji."""
    style, url, custom_id = button.get("style"), button.get("url"), button.get("custom_id")
    if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
        return f"button style {style!r} is not one of 1-6"
    if style == PREMIUM_STYLE:
        if not button.get("sku_id") or url is not None or custom_id is not None:
            return "a premium button needs a sku_id, and no url or custom_id"
        return None
    if style == LINK_STYLE:
        if custom_id is not None:
            return "a link button cannot have a custom_id"
        if not isinstance(url, str) or not url:
            return "a link button needs a url"
        if len(url) > URL_LIMIT:
            return f"a link button's url is {len(url)} characters (limit {URL_LIMIT})"
        if not url.startswith(LINK_SCHEMES):
            return f"a link button's url {url[:40]!r} is not http, https or discord"
    elif url is not None:
        return f"button {custom_id!r} of style {style} cannot have a url"
    elif custom_id is None:
        return f"a button of style {style} needs a custom_id"
    if len(button.get("label") or "") > 80:
        return "button label longer than 80 characters"
    if not button.get("label") and not button.get("emoji"):
        return "a button needs a label or an emoji"
    return None


def _options_problem_of_select(custom_id: str | None, options: Sequence[JSON]) -> str | None:
    """The first rule the options of a string select break: a label and a value of 1-100 characters, a
    description of at most 100, and no value twice in one select."""
    values: set[str] = set()
    for option in options:
        label, value = option.get("label") or "", option.get("value") or ""
        if not 1 <= len(label) <= 100:
            return f"select {custom_id!r} has an option label of {len(label)} characters (1-100 allowed)"
        if not 1 <= len(value) <= 100:
            return f"select {custom_id!r} has an option value of {len(value)} characters (1-100 allowed)"
        if len(option.get("description") or "") > 100:
            return f"select {custom_id!r} has an option description longer than 100 characters"
        if value in values:
            return f"select {custom_id!r} offers the value {value!r} twice"
        values.add(value)
    return None


def message_problem(
    *,
    content: str,
    embeds: Sequence[JSON],
    components: Sequence[JSON],
    attachments: int,
    flags: int,
    extra: Any = None,
) -> tuple[int, str] | None:
    """Validate a message's final state; returns ``(code, problem)`` or None.

    ``extra`` is anything else that makes a message non-empty (stickers, poll).
    """
    if len(content) > 2000:
        return 50035, f"content is {len(content)} characters (limit 2000)"
    if len(embeds) > 10:
        return 50035, f"{len(embeds)} embeds (limit 10)"
    for embed in embeds:
        if (problem := embed_problem(embed)) is not None:
            return 50035, problem
    if (problem := components_problem(components, flags)) is not None:
        return 50035, problem
    if flags & IS_COMPONENTS_V2 and (content or embeds):
        return 50035, "content and embeds cannot be used with IS_COMPONENTS_V2"
    if not (content or embeds or attachments or extra or (components and flags & IS_COMPONENTS_V2)):
        return 50006, "Cannot send an empty message"
    return None


def command_problem(command: JSON) -> str | None:
    """The first rule a command registration breaks (names, descriptions, option counts and order)."""
    name = command.get("name", "")
    kind = command.get("type", 1)
    if kind == 1 and (not COMMAND_NAME.match(name) or name != name.lower()):
        return f"command name {name!r} must be 1-32 lowercase letters, digits, - or _"
    if kind == 1 and not 1 <= len(command.get("description") or "") <= 100:
        return f"/{name}: description must be 1-100 characters"
    return _options_problem(f"/{name}", command.get("options") or [])


def _options_problem(where: str, options: Sequence[JSON]) -> str | None:
    if len(options) > 25:
        return f"{where}: {len(options)} options (limit 25)"
    seen_optional = False
    for option in options:
        label = f"{where} {option.get('name')}"
        if not COMMAND_NAME.match(option.get("name", "")):
            return f"{label}: invalid option name"
        if not 1 <= len(option.get("description") or "") <= 100:
            return f"{label}: description must be 1-100 characters"
        if len(option.get("choices") or []) > 25:
            return f"{label}: more than 25 choices"
        if option.get("type") in (1, 2):
            if (problem := _options_problem(label, option.get("options") or [])) is not None:
                return problem
            continue
        if option.get("required"):
            if seen_optional:
                return f"{label}: required options must come before optional ones"
        else:
            seen_optional = True
    return None
