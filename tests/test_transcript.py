"""``python bot.py transcript``: a whole match as its players read it, called as the command-line contract
writes it, in both languages and for every game. What a person reads has no notation, names every person
and, in Italian, no English left behind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot
from engine.registry import GAMES

# Notation a person must never read: key=value words, codes such as B03, GY4 or T15, coordinates such as
# 1,0, and seats called by number (S1, P2). Board coordinates such as C4 are printed on the board images.
NOTATION = re.compile(r"\w=|\b(?:[A-Z]{2,3}\d{1,2}|[A-Z]\d{2})\b|-?\d+,-?\d+|\b[SP]\d\b")
# Common English words: a line that is the same in both languages must not contain any of them.
ENGLISH = re.compile(
    r"\b(the|and|your|you|with|from|for|to|on|is|are|has|plays|takes|builds|draws|buys|pays|wins|"
    r"turn|card|cards|points?|choices?|match|begins|order|act)\b"
)
PEOPLE = ("Ann", "Bob", "Carla")
# Per game, options that show most of what it says.
OPTIONS = {"ny_henn": "", "ny1901": "", "ny_piatnik": "events", "fifth_avenue": "", "skyline": "hidden"}


def transcript(
    capsys: pytest.CaptureFixture[str], game: str, locale: str, out: Path | None = None
) -> list[str]:
    args = ["transcript", "--game", game, "--seed", "3", "--locale", locale, "--options", OPTIONS[game]]
    if out is not None:
        args += ["--out", str(out)]
    assert bot.main(args) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_transcript_reads_in_words_in_both_languages(capsys: pytest.CaptureFixture[str], game: str) -> None:
    english = transcript(capsys, game, "en")
    italian = transcript(capsys, game, "it")
    assert len(english) == len(italian) > 50  # the same match, line for line
    for text in (english, italian):
        notation = [line for line in text if NOTATION.search(line)]
        assert not notation, notation[:5]
        joined = "\n".join(text)
        assert all(name in joined for name in PEOPLE)
        assert sum(line.startswith("option: ") for line in text) > 10
        assert any(line.startswith("🏆 ") for line in text)  # the final post names the winner first
    untranslated = [it for en, it in zip(english, italian, strict=True) if en == it and ENGLISH.search(en)]
    assert not untranslated, untranslated[:5]
    assert italian[0].endswith("partita n. 1") and "[messaggio nel thread]" in italian


def test_a_transcript_with_out_writes_the_images_of_posts_and_messages(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = transcript(capsys, "fifth_avenue", "it", tmp_path)
    boards = sorted(tmp_path.glob("*-board.png"))
    hands = sorted(tmp_path.glob("*-seat*.png"))
    assert len(boards) == sum(line == "[messaggio nel thread]" for line in lines)
    assert hands and all(p.read_bytes().startswith(b"\x89PNG") for p in boards[:3] + hands[:3])
