"""The command-line contract: exit codes and output formats, called as written."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile
from pydantic import BaseModel

import bot
from data.store import SqliteMatchStore
from engine.core.replay import LoggedAction
from engine.host.service import GameHost
from engine.registry import GAMES
from render.registry import render_view
from web.live import STREAMS_PER_ADDRESS


@pytest.fixture(autouse=True)
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")


def test_run_without_token_exits_2_and_points_at_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "python bot.py demo" in err


def test_selfplay_prints_one_line_per_match_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = bot.main(["selfplay", "--game", "ny_piatnik", "--players", "3", "--games", "3", "--seed", "5"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    matches, summary = lines[:-1], lines[-1]["summary"]
    assert [m["seed"] for m in matches] == [5, 6, 7]
    for m in matches:
        assert set(m) == {"game", "options", "seed", "players", "moves", "scores", "places", "ms"}
        assert m["game"] == "ny_piatnik" and m["players"] == 3 and len(m["scores"]) == 3
        assert sorted(m["places"])[0] == 1 and m["moves"] > 0
    assert summary["games"] == 3 and summary["finished"] == 3 and summary["failed"] == 0
    assert summary["mean_moves"] == pytest.approx(sum(m["moves"] for m in matches) / 3)


def test_selfplay_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--game", "ny_piatnik", "--players", "4", "--games", "2", "--options", "events"]
    bot.main(args)
    first = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:-1]]
    bot.main(args)
    second = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:-1]]
    strip = [{k: v for k, v in m.items() if k != "ms"} for m in first]
    assert strip == [{k: v for k, v in m.items() if k != "ms"} for m in second]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--game", "chess", "--players", "3"], "unknown game"),
        (["--game", "ny_piatnik", "--players", "9"], "not 9"),
        (["--game", "ny_piatnik", "--players", "3", "--options", "turbo"], "unknown option"),
        (["--game", "ny_piatnik", "--players", "3", "--options", "team"], "team"),
    ],
)
def test_bad_setup_is_an_error_listing_valid_choices(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bot.main(["selfplay", *args]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Allowed:" in err


# The environment variables that name a person's language, cleared so a test picks the language itself.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# What the engine's log notation looks like: key=value pairs ("at=5AV-45", "pay=1"), "=>" and seats
# called S1, S2, ... ("prelim S1 place"). Players never read these.
NOTATION = re.compile(r"\w=\S|=>|\bS\d\b")


@pytest.fixture
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


class QuickImages:
    """Stands in for the renderer in demos whose images are not under test (drawing them takes most of
    a demo's time): the board is a fixed byte string, a seat's view one that changes every second time
    that seat's view is drawn. Keeps, per seat, the images it drew in order."""

    def __init__(self) -> None:
        self.hands: dict[int, list[bytes]] = {}

    def __call__(self, game: str, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        seat = getattr(view, "seat", None)
        if seat is None:
            return b"board"
        drawn = self.hands.setdefault(seat, [])
        drawn.append(f"seat {seat}, view {len(drawn) // 2}".encode())
        return drawn[-1]


@pytest.fixture
def quick_images(monkeypatch: pytest.MonkeyPatch) -> QuickImages:
    images = QuickImages()
    monkeypatch.setattr("render.registry.render_view", images)
    return images


def test_demo_plays_a_whole_match_into_a_real_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], english_environment: None
) -> None:
    out = tmp_path / "demo"
    assert bot.main(["demo", "--players", "3", "--seed", "2", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "New York (Piatnik, 1995), 3 players, seed 2 — no options"
    assert "Final standings:" in lines and any(line.startswith("🏆 ") for line in lines)
    assert any(line.startswith("• Preliminary round: ") for line in lines)
    assert [line for line in lines if NOTATION.search(line)] == []
    assert (out / "bigapple.db").stat().st_size > 0
    boards = sorted(out.glob("board-*.png"))
    assert boards[0].name == "board-0001.png" and (out / "final.png").stat().st_size > 0
    # Each seat's saved views follow one another only when they differ.
    for seat in range(3):
        hands = [path.read_bytes() for path in sorted(out.glob(f"hand-seat{seat}-*.png"))]
        assert hands and all(before != after for before, after in itertools.pairwise(hands))


def test_demo_speaks_the_language_it_is_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], english_environment: None, quick_images: QuickImages
) -> None:
    args = ["demo", "--game", "ny1901", "--players", "2", "--options", "intro", "--out", str(tmp_path)]
    assert bot.main([*args, "--locale", "it"]) == 0
    italian = capsys.readouterr().out.splitlines()
    assert (
        italian[0]
        == "New York 1901, 2 giocatori, seme casuale 1 — opzione: Partita introduttiva: nessuna carta sfida"
    )
    assert "Classifica finale:" in italian and "Final standings:" not in italian
    assert any(line.startswith("• Ordine di gioco: ") for line in italian)
    assert not any("Order of play" in line for line in italian)
    assert [line for line in italian if NOTATION.search(line)] == []

    assert bot.main(args) == 0
    english = capsys.readouterr().out.splitlines()
    assert english[0] == "New York 1901, 2 players, seed 1 — option: Introductory game: no challenge card"
    assert "Final standings:" in english and "Classifica finale:" not in english
    # The same match, told line for line in each language.
    assert len(english) == len(italian)


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"LANG": "it_IT.UTF-8"}, "Classifica finale:"),
        ({"LANGUAGE": "it:en", "LANG": "en_GB.UTF-8"}, "Classifica finale:"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "it_IT.UTF-8"}, "Final standings:"),
    ],
)
def test_demo_without_a_locale_speaks_the_environments_language(
    environment: dict[str, str],
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    quick_images: QuickImages,
) -> None:
    for variable in LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    assert bot.main(["demo", "--game", "ny1901", "--players", "2", "--out", str(tmp_path)]) == 0
    assert expected in capsys.readouterr().out.splitlines()


def test_demo_prints_the_engine_notation_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], quick_images: QuickImages
) -> None:
    args = ["demo", "--game", "ny1901", "--players", "2", "--out", str(tmp_path), "--notation"]
    assert bot.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "New York 1901 (ny1901), 2 players, options none, seed 1"
    assert sum(1 for line in lines if NOTATION.search(line)) > 10
    assert "Final standings:" in lines and any(line.startswith("  1. S") for line in lines)


def test_demo_saves_a_seats_view_only_when_it_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], quick_images: QuickImages
) -> None:
    # Piatnik's New York sends each seat its hand after every move.
    assert bot.main(["demo", "--game", "ny_piatnik", "--players", "2", "--out", str(tmp_path)]) == 0
    for seat in (0, 1):
        drawn = quick_images.hands[seat]
        changes = [image for n, image in enumerate(drawn) if n == 0 or image != drawn[n - 1]]
        saved = sorted(tmp_path.glob(f"hand-seat{seat}-*.png"))
        assert len(changes) < len(drawn)
        assert [path.name for path in saved] == [
            f"hand-seat{seat}-{n:04d}.png" for n in range(1, len(changes) + 1)
        ]
        assert [path.read_bytes() for path in saved] == changes
    assert (tmp_path / "board-0001.png").read_bytes() == b"board" == (tmp_path / "final.png").read_bytes()


def test_demo_with_its_defaults_plays_a_whole_match_in_words(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    english_environment: None,
    quick_images: QuickImages,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert bot.main(["demo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "New York (Piatnik, 1995), 4 players, seed 1 — no options"
    assert "Final standings:" in lines and [line for line in lines if NOTATION.search(line)] == []
    assert (tmp_path / "demo" / "bigapple.db").stat().st_size > 0


def test_demo_in_an_italian_environment_speaks_italian(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    english_environment: None,
    quick_images: QuickImages,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert bot.main(["demo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "New York (Piatnik, 1995), 4 giocatori, seme casuale 1 — nessuna opzione"


def test_bench_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = bot.main(
        [
            "bench",
            "--game",
            "ny1901",
            "--json",
            "--seconds",
            "1",
            "--store-actions",
            "50",
            "--e2e-moves",
            "3",
            "--winrate",
            "3",
            "--budget",
            "30",  # each part samples less, as on a busy machine: the keys are what this test reads
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    # New York 1901: its strong player thinks quickest, so the --winrate matches take seconds.
    figures = report["games"]["ny1901"]
    assert set(figures) >= {
        "legal_ms",
        "apply_ms",
        "selfplay_games_per_s",
        "state_json_bytes",
        "render_ms",
        "render_floor_ratio",
        "png_bytes",
        "greedy_first_rate",
        "animation_ms_per_frame",
        "match_frames",
        "animation_s",
        "strong",
    }
    assert figures["render_floor_ratio"] > 0
    strong = figures["strong"]  # one strong player against two greedy ones, over the --winrate matches
    assert 0 <= strong["ci95"][0] <= strong["first_rate"] <= strong["ci95"][1] <= 1
    assert 0 < strong["decision_ms"]["p50"] <= strong["decision_ms"]["p95"]
    # The animation's time is its cost per frame over the match's frames (the opening and each move).
    assert figures["animation_ms_per_frame"] > 0 and figures["match_frames"] > 10
    assert figures["animation_s"] == pytest.approx(
        figures["animation_ms_per_frame"] * figures["match_frames"] / 1000, abs=0.01
    )
    assert 0 <= figures["greedy_first_rate"] <= 1
    # The animation of the longest match the bench makes (as many moves as its time allows), drawn in a
    # process of its own, as the bot draws it: its peak memory is that whole process's.
    longest = report["animation"]
    assert 60 <= longest["moves_longest"] <= 520 and longest["s_longest"] > 0
    assert 30 < longest["peak_mb_longest"] < 400 and longest["shows_longest"] == "moves"
    assert 0 < figures["png_bytes"] < 1_000_000 and figures["render_ms"]["p95"] > 0
    assert figures["legal_ms"]["p50"] > 0 and figures["state_json_bytes"] > 0
    assert set(report["store"]) >= {
        "moves_per_s",
        "raw_sqlite_per_s",
        "store_vs_raw_sqlite",
        "full_sync_cost_ratio",
    }
    assert set(report["e2e_ms"]) == {"p50", "p95", "render_share", "games"}
    assert set(report["e2e_ms"]["games"]) == {"ny1901"}
    assert 0 < report["e2e_ms"]["games"]["ny1901"]["p50"] <= report["e2e_ms"]["games"]["ny1901"]["p95"]
    assert 0 < report["e2e_ms"]["p50"] <= report["e2e_ms"]["p95"] and 0 < report["e2e_ms"]["render_share"] < 1
    loop = report["loop"]
    assert set(loop) == {
        "max_stall_ms",
        "max_stall_ms_replay",
        "p99_stall_ms_replay",
        "max_stall_ms_idle",
        "p99_stall_ms_idle",
    }
    assert loop["max_stall_ms"] >= 0
    for kind in ("replay", "idle"):
        assert 0 <= loop[f"p99_stall_ms_{kind}"] <= loop[f"max_stall_ms_{kind}"]


def test_bench_full_reports_what_a_turn_costs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "--game", "skyline", "--json", "--seconds", "1", "--store-actions", "20"]
    throughput = ["--throughput-matches", "2", "--throughput-seconds", "4"]
    crowd = ["--tournaments", "10", "--tournament-moves", "12"]
    short = ["--animation-moves", "40"]  # the longest animation is the other test's
    spectators = ["--spectators", "5", "--web-moves", "3"]
    full = ["--full", "--turn-moves", "30", *throughput, *crowd, *short, *spectators]
    code = bot.main([*args, "--e2e-moves", "2", *full])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    turns = report["games"]["skyline"]["turns"]
    assert set(turns) >= {
        "posts_per_turn",
        "mentions_per_turn",
        "requests_per_move",
        "bytes_uploaded_per_move",
        "taps_per_step_p50",
        "taps_per_turn_p50",
    }
    # A multi-step game: one post and one mention per turn however many steps it takes.
    assert (
        turns["moves"] > turns["turns"]
        and turns["posts_per_turn"] <= 1.2
        and turns["mentions_per_turn"] <= 1.2
    )
    assert turns["taps_per_step_p50"] >= 1 and turns["bytes_uploaded_per_move"] > 0
    sustained = report["throughput"]
    assert set(sustained) == {"moves_per_s", "p95_ms", "matches", "offered"} and sustained["matches"] == 2
    # A rate whose short window timed no move (a busy machine lost them all) reads p95 0; others were timed.
    offered = sustained["offered"]
    assert offered and all(rate > 0 and p95 >= 0 for rate, p95 in offered)
    assert any(p95 > 0 for _, p95 in offered)
    assert sustained["moves_per_s"] in [0.0, *(rate for rate, p95 in sustained["offered"] if p95 <= 300)]
    crowded = report["tournaments"]
    assert crowded["tournaments"] == 10 and crowded["moves"] == 12
    assert crowded["move_p95_ms"] >= crowded["move_p50_ms"] > 0 and crowded["finish_ms"]["max"] > 0
    assert_web_figures(report["web"], spectators=5, moves=3)


def assert_web_figures(web: dict[str, Any], spectators: int, moves: int) -> None:
    assert web["spectators"] == spectators and web["moves"] == moves
    assert 0 < web["update_median_ms"] <= web["update_p95_ms"] <= web["update_max_ms"]
    assert web["page_p95_ms"] >= web["update_median_ms"]
    # The page, its style sheet and its script, without the board.
    assert 2_000 < web["page_bytes"] <= 150_000 and web["page_bytes"] == max(
        web["page_bytes_by_game"].values()
    )
    loop = web["loop"]
    assert loop["max_stall_ms"] >= loop["p99_stall_ms"] >= 0 and loop["max_busy_ms"] >= 0
    assert loop["max_stall_ms_idle"] >= loop["p99_stall_ms_idle"] >= 0


def test_bench_only_web_reports_the_web_figures_alone(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "bench",
        "--only",
        "web",
        "--game",
        "ny_piatnik",
        "--json",
        "--spectators",
        str(STREAMS_PER_ADDRESS + 5),  # more than one address may open: they stand for many people
        "--web-moves",
        "2",
    ]
    assert bot.main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report) == ["web"]
    assert_web_figures(report["web"], spectators=STREAMS_PER_ADDRESS + 5, moves=2)
    assert list(report["web"]["page_bytes_by_game"]) == ["ny_piatnik"]


@pytest.mark.parametrize(
    ("players", "fmt", "extra"),
    [(13, "swiss", ["--rounds", "3"]), (13, "elimination", []), (6, "roundrobin", [])],
)
def test_tournament_sim_prints_standings_per_round_and_a_final_json_line(
    players: int, fmt: str, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament-sim", "--game", "ny_piatnik", "--players", str(players), "--format", fmt, *extra]
    assert bot.main([*args, "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    final = json.loads(lines[-1])["standings"]
    assert sorted(row["rank"] for row in final) == [row["rank"] for row in final]
    assert len(final) == players and final[0]["rank"] == 1
    assert len({row["player"] for row in final}) == players
    assert any(line.startswith("== ") and "standings after round 1" in line for line in lines)


def test_tournament_sim_refuses_an_impossible_field(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament-sim", "--game", "ny_piatnik", "--players", "1", "--format", "swiss"]
    assert bot.main(args) == 2
    assert "Allowed" in capsys.readouterr().err


@pytest.mark.parametrize("game", sorted(GAMES))
def test_clock_sim_finishes_a_match_with_a_silent_seat(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        bot.main(["clock-sim", "--game", game, "--clock", "fast", "--silent-seat", "2", "--seed", "3"]) == 0
    )
    *events, last = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = last["summary"]
    silent = [e for e in events if e["event"] != "finished"]
    # The silent seat is reminded twice a turn, times out once, then the computer keeps it.
    assert [e["event"] for e in silent] == [
        "reminder",
        "reminder",
        "timeout",
        "reminder",
        "reminder",
        "takeover",
    ]
    assert {e["seat"] for e in silent} == {2}
    hours = [e["t_hours"] for e in events]
    assert hours == sorted(hours) and events[-1]["event"] == "finished"
    # On the fast clock the first turn's reminders fall at half an hour and at 54 minutes of its hour.
    first_half, first_last, first_timeout = (e["t_hours"] for e in silent[:3])
    assert round(first_last - first_half, 2) == 0.4 and round(first_timeout - first_last, 2) == 0.1
    assert summary == {
        "reminders": 4,
        "timeouts": 2,
        "takeovers": 1,
        "finished": True,
        "t_hours": events[-1]["t_hours"],
    }


def test_clock_sim_refuses_a_seat_that_is_not_there(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.main(["clock-sim", "--game", "ny1901", "--players", "2", "--silent-seat", "5"]) == 1
    assert "silent-seat" in capsys.readouterr().err


def test_replay_writes_every_move_and_the_animation_of_a_demo_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo, out = tmp_path / "demo", tmp_path / "replay"
    assert (
        bot.main(["demo", "--game", "ny_piatnik", "--players", "2", "--seed", "3", "--out", str(demo)]) == 0
    )
    capsys.readouterr()
    database = demo / "bigapple.db"
    assert bot.main(["replay", "--db", str(database), "--match", "1", "--out", str(out), "--animation"]) == 0
    line = json.loads(capsys.readouterr().out)
    kept = asyncio.run(kept_actions(database, 1))
    assert line["frames"] == line["actions"] + 1 == len(kept) + 1
    assert sorted(p.name for p in out.glob("move-*.png")) == [
        f"move-{n:04d}.png" for n in range(line["frames"])
    ]
    animation = out / "match-1.gif"
    assert line["animation_bytes"] == animation.stat().st_size <= 8 * 1024 * 1024
    with cast(GifImageFile, Image.open(animation)) as gif:
        assert gif.format == "GIF" and gif.n_frames == line["frames"]

    # A seat's own view after move N is that seat's view of the stored board at that move.
    seat_out = tmp_path / "seat"
    assert (
        bot.main(["replay", "--db", str(database), "--match", "1", "--out", str(seat_out), "--seat", "1"])
        == 0
    )
    number, version = 5, kept[4][0]
    expected = asyncio.run(drawn_at(database, 1, version, 1))
    assert (seat_out / f"move-{number:04d}.png").read_bytes() == expected
    assert expected != (out / f"move-{number:04d}.png").read_bytes()  # the hand is not on the public board


def test_replay_of_an_unknown_match_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo"
    assert bot.main(["demo", "--game", "ny_piatnik", "--players", "2", "--out", str(demo)]) == 0
    capsys.readouterr()
    args = ["replay", "--db", str(demo / "bigapple.db"), "--match", "99", "--out", str(tmp_path / "x")]
    assert bot.main(args) == 1
    assert "99" in capsys.readouterr().err
    assert bot.main(["replay", "--db", str(tmp_path / "none.db"), "--match", "1", "--out", "x"]) == 1


async def kept_actions(database: Path, match_id: int) -> list[tuple[int, LoggedAction]]:
    async with await SqliteMatchStore.open(database) as store:
        return await store.kept_actions(match_id)


async def drawn_at(database: Path, match_id: int, version: int, seat: int) -> bytes | None:
    async with await SqliteMatchStore.open(database) as store:
        host = GameHost(store)
        match = await host.match(match_id)
        view = host.view(match, seat, await host.state_at(match, version))
        return render_view(match.game, view, match.seat_names())


def test_league_sim_prints_a_line_a_day_and_the_seasons_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.main(["league-sim", "--players", "9", "--days", "3", "--seed", "4"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    days, (last,) = lines[:-1], lines[-1:]
    assert [d["day"] for d in days] == [1, 2, 3]
    assert all(d["opened"] >= 0 and d["finished"] >= 0 and d["waiting"] >= 0 for d in days)
    summary = last["summary"]
    assert summary["matches"] == sum(d["finished"] for d in days) > 0
    waits = summary["queue_wait_h"]
    assert 0 <= waits["p50"] <= waits["p95"]
    assert summary["rating_spread"] >= 0
    table = summary["table"]
    assert {row["player"] for row in table} <= {f"Player {n:02d}" for n in range(1, 10)}
    assert sum(row["matches"] for row in table) >= summary["matches"]  # each counts once per person in it
    assert all(row["points"] >= 0 for row in table)
    # The same seed, the same month.
    assert bot.main(["league-sim", "--players", "9", "--days", "3", "--seed", "4"]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == lines


def test_league_sim_refuses_a_server_too_small(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.main(["league-sim", "--players", "1", "--days", "3"]) == 2
    assert "at least 2 players" in capsys.readouterr().err
