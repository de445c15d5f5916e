"""A newcomer's whole first match played by clicking in a real browser, on a phone-sized window, in
English and in Italian; and a seat's private page, which never shows another seat's hand."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.wait import WebDriverWait

from engine.core.rng import Rng
from engine.host.places import touched_places
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.registry import POLICIES
from tests.web.browser.conftest import PATIENCE_S, LiveTable, screenshot
from tests.web.conftest import PEOPLE
from tests.web.test_leaks import strings

# The game of the whole match: two players, no choice of several items, some forty decisions each.
GAME = "ny_piatnik"
TITLE = "New York (Piatnik, 1995)"


def match_of(driver: WebDriver) -> int:
    """The match a private page's address opens."""
    return int(driver.current_url.rsplit("/p/", 1)[1].split(".")[0])


def start_first_match(driver: WebDriver, table: LiveTable, name: str) -> None:
    """From the home page, as a newcomer: the game, two players, normal computers, a name, Start."""
    driver.get(f"{table.base}/")
    driver.find_element(By.LINK_TEXT, TITLE).click()
    driver.find_element(By.CSS_SELECTOR, 'input[name="seats"][value="2"]').click()
    driver.find_element(By.CSS_SELECTOR, 'input[name="level"][value="greedy"]').click()
    box = driver.find_element(By.NAME, "name")
    box.clear()
    box.send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "button.start").click()
    WebDriverWait(driver, PATIENCE_S).until(lambda d: "/p/" in d.current_url)


def button_for(driver: WebDriver, move: str) -> WebElement:
    """The page's button that plays ``move``, its group unfolded first when it is folded."""
    for button in driver.find_elements(By.CSS_SELECTOR, 'form.moves button[name="move"]'):
        if button.get_attribute("value") == move:
            if not button.is_displayed():
                group = button.find_element(By.XPATH, "ancestor::details")
                group.find_element(By.TAG_NAME, "summary").click()
            return button
    raise AssertionError(f"no button plays {move!r}")


def from_the_board(driver: WebDriver, place: str, move: str) -> WebElement:
    """Click ``place`` on the board, then find ``move``'s button among the moves listed for it."""
    spot = driver.find_element(By.CSS_SELECTOR, f'a.spot[href*="place={quote(place)}"]')
    spot.click()
    WebDriverWait(driver, PATIENCE_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "section#place"))
    for button in driver.find_elements(By.CSS_SELECTOR, 'section#place button[name="move"]'):
        if button.get_attribute("value") == move:
            return button
    raise AssertionError(f"place {place!r} does not list {move!r}")


def play_to_the_end(driver: WebDriver, table: LiveTable, shots: str) -> MatchRecord:
    """Click, turn after turn, the move a normal computer would choose, until the match is over."""
    match_id = match_of(driver)
    rng = Rng(5)
    greedy = POLICIES[GAME]["greedy"]
    for turn in range(400):
        match = table.call(lambda host: host.match(match_id))
        if match.status is not MatchStatus.ACTIVE:
            return match
        host = table.host
        assert host is not None
        (seat,) = host.to_act(match)
        state = host.state_of(match)
        rules = host.rules(GAME)
        move = rules.notation(greedy.choose(rules, state, seat, rules.legal_actions(state, seat), rng))
        places = dict(touched_places(host, match, seat, "en"))
        touched = [key for entry, keys in places.items() if entry.notation == move for key in keys]
        if turn in (2, 9) and touched:
            # Pointing at the board: the place's link lists its moves, whose button plays one.
            button = from_the_board(driver, touched[0], move)
            screenshot(driver, f"{shots}-place")
        else:
            button = button_for(driver, move)
        if turn == 3:
            screenshot(driver, f"{shots}-turn")
        button.click()
        wait_past(driver, match.version)
        assert not driver.find_elements(By.CSS_SELECTOR, ".refused")
    raise AssertionError("the match did not end")


def wait_past(driver: WebDriver, version: int) -> None:
    """Wait for the page of a board past ``version`` (or of a match over)."""
    WebDriverWait(driver, PATIENCE_S, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: _version_on(d) > version
    )


def _version_on(driver: WebDriver) -> int:
    found = driver.find_elements(By.CSS_SELECTOR, 'input[name="version"]')
    if not found:
        return 1 << 30  # no form: the match is over
    return int(found[0].get_attribute("value") or 0)


def test_a_newcomer_plays_a_whole_match_by_clicking(table: LiveTable, browser: Any) -> None:
    driver = browser("en")
    start_first_match(driver, table, "Wilhelmina")
    screenshot(driver, "first-match-en-start")
    page = driver.find_element(By.TAG_NAME, "main").text
    assert "The hand and moves of Wilhelmina" in page and "Your moves now" in page
    match = play_to_the_end(driver, table, "first-match-en")
    assert match.status is MatchStatus.FINISHED
    driver.refresh()
    screenshot(driver, "first-match-en-end")
    page = driver.find_element(By.TAG_NAME, "main").text
    assert "Wilhelmina" in page and not driver.find_elements(By.CSS_SELECTOR, "form.moves")
    # The home page lists the match as over, and its link opens the same page.
    driver.get(f"{table.base}/")
    driver.find_element(By.PARTIAL_LINK_TEXT, f"match #{match.id}: over").click()
    assert match_of(driver) == match.id


def test_the_first_match_speaks_italian_to_an_italian_browser(table: LiveTable, browser: Any) -> None:
    driver = browser("it")
    driver.get(f"{table.base}/")
    assert "Gioca una partita contro giocatori computer" in driver.find_element(By.TAG_NAME, "h1").text
    screenshot(driver, "first-match-it-home")
    driver.find_element(By.LINK_TEXT, TITLE).click()
    assert "Giocatori, te compreso" in driver.find_element(By.TAG_NAME, "main").text
    screenshot(driver, "first-match-it-choices")
    start_first_match(driver, table, "Giuseppina")
    page = driver.find_element(By.TAG_NAME, "main").text
    assert "Giuseppina" in page and "Le tue mosse" in page, page
    assert "Your moves" not in page and "match #" not in page
    screenshot(driver, "first-match-it-start")
    # One move clicked: the page says in Italian what was played.
    first = driver.find_elements(By.CSS_SELECTOR, 'form.moves button[name="move"]')[0]
    button_for(driver, first.get_attribute("value") or "").click()
    WebDriverWait(driver, PATIENCE_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".played"))
    assert "Hai giocato" in driver.find_element(By.CSS_SELECTOR, ".played").text


def without_tokens(source: str) -> str:
    """A page without its signed link and form tokens: random text, where a short secret (a mission
    called M3) may stand by chance."""
    source = re.sub(r"[0-9]+\.[0-9]+\.[0-9]+\.[A-Za-z0-9_-]{20,}", "", source)
    return re.sub(r'name="form" value="[^"]*"', "", source)


def test_a_seats_page_never_shows_another_seats_hand(table: LiveTable, browser: Any) -> None:
    async def opened(host: GameHost) -> MatchRecord:
        match = await host.create_match("skyline", 3, frozenset({"hidden"}), creator=PEOPLE[0], seed=3)
        for person in PEOPLE[1:3]:
            await host.join(match.id, person)
        await host.start(match.id, by_user=PEOPLE[0].user_id)
        return await host.match(match.id)

    match = table.call(opened)
    host = table.host
    assert host is not None
    rules = host.rules(match.game)
    state = host.state_of(match)
    driver = browser("en")
    for seat in range(3):
        driver.get(table.private_link(match.id, seat))
        source = without_tokens(driver.page_source)
        own = strings(rules.view(state, seat))
        for other in range(3):
            if other == seat:
                continue
            view = rules.view(state, other)
            secrets = set()
            for field in ("hand", "mission"):
                if field in type(view).model_fields:
                    secrets |= strings(getattr(view, field), naming_only=True)
            leaked = {value for value in secrets - own if len(value) >= 2 and value in source}
            assert not leaked, (seat, other, leaked)
        hand = driver.find_element(By.CSS_SELECTOR, "figure.hand img")
        assert f"/p/{match.id}.{seat}." in (hand.get_attribute("src") or "")
        assert driver.execute_script("return arguments[0].naturalWidth", hand) > 0
    screenshot(driver, "private-page-skyline")
