"""The replay scrubber in a real browser: the range moved with the keyboard, the form sent with its
button, and the step shown changing, with no script on the page."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.wait import WebDriverWait

from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from tests.web.browser.conftest import PATIENCE_S, LiveTable, screenshot


async def finished_match(host: GameHost) -> MatchRecord:
    match = await host.create_match("ny_piatnik", 3, seed=4)
    for _ in range(3):
        await host.add_computer(match.id, "greedy")
    await host.start(match.id)
    return await host.match(match.id)


def test_the_scrubber_moves_through_the_match(table: LiveTable, browser: Any) -> None:
    match = table.call(finished_match)
    moves = len(table.call(lambda host: host.store.kept_actions(match.id)))
    driver = browser("en")
    driver.get(f"{table.base}/m/{match.id}")
    driver.find_element(By.LINK_TEXT, "Replay").click()
    where = driver.find_element(By.ID, "where")
    assert where.text == f"move {moves} of {moves}"
    # The first step, then three steps on along the range, sent with the button.
    driver.find_element(By.PARTIAL_LINK_TEXT, "First move").click()
    assert driver.find_element(By.ID, "where").text == "the opening"
    scrubber = driver.find_element(By.CSS_SELECTOR, 'input[type="range"][name="move"]')
    scrubber.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert scrubber.get_attribute("value") == "3"
    driver.find_element(By.CSS_SELECTOR, "form.scrubber button").click()
    WebDriverWait(driver, PATIENCE_S).until(lambda d: "move=3" in d.current_url)
    assert driver.find_element(By.ID, "where").text == f"move 3 of {moves}"
    board = driver.find_element(By.CSS_SELECTOR, "img.board-map")
    assert driver.execute_script("return arguments[0].naturalWidth", board) > 0
    assert driver.find_element(By.CSS_SELECTOR, ".said").text
    screenshot(driver, "replay-scrubber-en")
    # The end of the range, then a jump back to the first turn from the list.
    scrubber = driver.find_element(By.CSS_SELECTOR, 'input[type="range"][name="move"]')
    scrubber.send_keys(Keys.END)
    driver.find_element(By.CSS_SELECTOR, "form.scrubber button").click()
    WebDriverWait(driver, PATIENCE_S).until(lambda d: f"move={moves}" in d.current_url)
    assert driver.find_element(By.ID, "where").text == f"move {moves} of {moves}"
    driver.find_element(By.PARTIAL_LINK_TEXT, "Turn 1:").click()
    assert driver.find_element(By.ID, "where").text == f"move 1 of {moves}"
