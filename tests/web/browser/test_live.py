"""Pages that follow their match by themselves in a real browser: a spectator's window shows a move made
elsewhere without being reloaded, and the page of the seat whose turn it becomes offers its moves, keeping
the board at the size its reader chose."""

from __future__ import annotations

from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.wait import WebDriverWait

from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from tests.web.browser.conftest import PATIENCE_S, LiveTable, screenshot
from tests.web.conftest import PEOPLE
from web.live import LIVE


def shown_version(driver: WebDriver) -> int:
    return int(driver.find_element(By.TAG_NAME, "main").get_attribute("data-version") or -1)


def wait_for_version(driver: WebDriver, version: int) -> None:
    WebDriverWait(driver, PATIENCE_S, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: shown_version(d) >= version
    )


def test_pages_follow_a_move_made_elsewhere_without_a_reload(table: LiveTable, browser: Any) -> None:
    async def opened(host: GameHost) -> MatchRecord:
        match = await host.create_match("fifth_avenue", 2, creator=PEOPLE[0], seed=4)
        await host.join(match.id, PEOPLE[1])
        await host.start(match.id, by_user=PEOPLE[0].user_id)
        return await host.match(match.id)

    match = table.call(opened)
    host = table.host
    assert host is not None
    (seat,) = host.to_act(match)
    other = 1 - seat
    spectator = browser("en")
    spectator.get(f"{table.base}/m/{match.id}")
    waiting = browser("it")
    waiting.get(table.private_link(match.id, other))
    assert not waiting.find_elements(By.CSS_SELECTOR, "form.moves")
    # The waiting player looks at the board at full size.
    waiting.find_element(By.CSS_SELECTOR, "label.zoom-label").click()
    assert waiting.find_element(By.ID, "board-zoom").is_selected()
    # Marks the spectator's page: a reload would lose it, a live update keeps the window's own state.
    spectator.execute_script("window.stillHere = true")
    log_before = len(spectator.find_elements(By.CSS_SELECTOR, ".log li"))

    async def moved(host: GameHost) -> MatchRecord:
        """The seat to act plays its first legal moves until the turn passes to the other."""
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        now = match
        while other not in host.to_act(now):
            await host.act(match.id, player.user_id, host.legal_notations(now, seat)[-1])
            now = await host.match(match.id)
        return now

    after = table.call(moved)
    assert after.version > match.version
    wait_for_version(spectator, after.version)
    assert spectator.execute_script("return window.stillHere") is True
    assert len(spectator.find_elements(By.CSS_SELECTOR, ".log li")) > log_before
    screenshot(spectator, "live-spectator")
    wait_for_version(waiting, after.version)
    WebDriverWait(waiting, PATIENCE_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "form.moves"))
    assert "Tocca a te" in waiting.find_element(By.CSS_SELECTOR, ".waiting").text
    assert waiting.find_element(By.ID, "board-zoom").is_selected()
    screenshot(waiting, "live-seat-it")


def test_a_page_whose_stream_is_refused_says_it_no_longer_follows_the_match(
    table: LiveTable, browser: Any
) -> None:
    async def opened(host: GameHost) -> MatchRecord:
        match = await host.create_match("ny1901", 2, creator=PEOPLE[0], seed=4)
        await host.join(match.id, PEOPLE[1])
        await host.start(match.id, by_user=PEOPLE[0].user_id)
        return await host.match(match.id)

    match = table.call(opened)
    assert table.runner is not None
    table.runner.app[LIVE].streams_per_address = 0  # this address already follows too many
    spectator = browser("it")
    spectator.get(f"{table.base}/m/{match.id}")
    note = spectator.find_element(By.CSS_SELECTOR, ".live-off")
    WebDriverWait(spectator, PATIENCE_S).until(lambda _: note.is_displayed())
    assert note.text.startswith("Questa pagina non segue più la partita da sola")
    screenshot(spectator, "live-off-it")
