"""The fake checks buttons as Discord does: a link button (style 5) opens its url and carries no custom_id,
its url at most 512 characters; every other button carries a custom_id and no url. Payloads are made by
discord.py itself, as the bot sends them."""

from __future__ import annotations

from typing import Any

import discord

from tests.discord.validation import URL_LIMIT, components_problem


def row(*buttons: discord.ui.Button[Any]) -> list[dict[str, Any]]:
    view = discord.ui.View()
    for item in buttons:
        view.add_item(item)
    return view.to_components()


def test_the_buttons_discord_py_makes_pass_and_broken_ones_are_refused() -> None:
    link = discord.ui.Button[Any](label="Watch", url="https://table.example/m/1")
    press = discord.ui.Button[Any](label="Play", custom_id="ba:play:1:2")
    made = row(press, link)
    assert components_problem(made, 0) is None
    sent = made[0]["components"][1]
    assert sent["style"] == 5 and sent["url"] == "https://table.example/m/1" and "custom_id" not in sent

    def changed(index: int, **fields: Any) -> list[dict[str, Any]]:
        components = [dict(c) for c in made[0]["components"]]
        components[index].update(fields)
        kept = [{key: value for key, value in c.items() if value is not None} for c in components]
        return [{"type": 1, "components": kept}]

    longest = "https://table.example/" + "x" * (URL_LIMIT - len("https://table.example/"))
    assert components_problem(changed(1, url=longest), 0) is None
    assert "512" in (components_problem(changed(1, url=longest + "x"), 0) or "")
    assert "custom_id" in (components_problem(changed(1, custom_id="ba:watch"), 0) or "")
    assert "needs a url" in (components_problem(changed(1, url=None), 0) or "")
    assert "not http" in (components_problem(changed(1, url="javascript:alert(1)"), 0) or "")
    assert "cannot have a url" in (components_problem(changed(0, url="https://table.example"), 0) or "")
    assert "needs a custom_id" in (components_problem(changed(0, custom_id=None), 0) or "")
    assert "label or an emoji" in (components_problem(changed(0, label=None), 0) or "")
