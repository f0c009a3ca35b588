"""``razz show`` (razz_env.show): replay steps and street pictures of known hands, the page in a real browser."""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from razz_env.cli import main
from razz_env.engine.cards import parse_cards
from razz_env.engine.config import HandConfig
from razz_env.engine.record import hand_from_record, to_record
from razz_env.engine.state import HandState
from razz_env.envs.render import COLOURS, HEIGHT, WIDTH, card_box
from razz_env.show import load_hands, page, parse_selection

CARDS = [parse_cards("4c 5d 2h 3s 6c 7d 8h"), parse_cards("Kc Qd Ks Qs Jc Td 9h")]
SNEAKY = "</script><script>document.title='pwned'</script>"


def _showdown() -> dict:
    """Heads-up: seat 1 brings in, seat 0 calls, then check-call to a showdown (seat 0's 8-low wins)."""
    hand = HandState(HandConfig.create("razz", num_seats=2), cards=CARDS)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act("bring_in" if "bring_in" in map(str, legal) else "check" if hand.can_act("check") else "call")
    return to_record(hand, players=["ann", SNEAKY])


def _fold() -> dict:
    """Three seats, over on 4th street: a bet and two folds."""
    hand = HandState(HandConfig.create("razz", num_seats=3), seed=11)
    for action in ("bring_in", "call", "call"):
        hand.act(action)
    hand.act("bet")
    hand.act("fold")
    hand.act("fold")
    assert hand.is_over and hand.street == 4
    return to_record(hand)


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def _share(region: np.ndarray, colour: str, tolerance: int = 0) -> float:
    return float((np.abs(region.astype(int) - _rgb(colour)).max(axis=-1) <= tolerance).mean())


def _card(picture: np.ndarray, seat: int) -> np.ndarray:
    """The inside of ``seat``'s first down card in a heads-up picture."""
    left, top, right, bottom = card_box(2, seat, 0)
    return picture[top + 3:bottom - 3, left + 3:right - 3]


def test_steps_follow_every_action_and_pictures_every_street(tmp_path):
    showdown, fold = _showdown(), _fold()
    hands = load_hands([str(_write(tmp_path / "h.jsonl", [showdown, fold]))])
    assert [len(h.steps) for h in hands] == [len(showdown["actions"]) + 1, len(fold["actions"]) + 1]
    assert [name for name, _ in hands[0].streets] == ["3rd", "4th", "5th", "6th", "7th"]
    assert [name for name, _ in hands[1].streets] == ["3rd", "4th"]
    first, last = hands[0].steps[0], hands[0].steps[-1]
    assert first.actor == 1 and not first.over and first.actions == ()
    assert last.over and [s.payoff for s in last.seats] == showdown["payoffs"]
    assert [s.name for s in last.seats] == ["ann", SNEAKY]
    assert hands[0].source.endswith("h.jsonl:1") and hands[1].number == 2
    assert [len(state.seats[0].cards) for _, state in hands[0].streets] == [3, 4, 5, 6, 7]


def test_a_seat_sees_only_its_own_down_cards_until_the_showdown(tmp_path):
    path = _write(tmp_path / "h.jsonl", [_showdown()])
    hand = load_hands([str(path)], viewer=0)[0]
    assert hand.steps[0].seats[1].cards[0] == (None, True) and hand.steps[0].seats[0].cards[0] == ("4c", True)
    assert hand.streets[-2][1].seats[1].cards[0] == (None, True)
    assert hand.steps[-1].seats[1].cards[0] == ("Kc", True)


def test_a_seat_is_checked_in_the_chosen_hands_only(tmp_path):
    from razz_env.engine.errors import ConfigError

    path = str(_write(tmp_path / "h.jsonl", [_showdown(), _fold()]))  # 2 seats, then 3
    assert [hand.number for hand in load_hands([path], viewer=2, selection="2")] == [2]
    with pytest.raises(ConfigError, match=r"h.jsonl:1: --seat 2: hand 1 has seats 0 to 1 \(--hands picks"):
        load_hands([path], viewer=2)


def test_page_is_self_contained_and_names_cannot_break_out_of_the_data(tmp_path):
    html = page(load_hands([str(_write(tmp_path / "h.jsonl", [_showdown()]))]), "razz show: <h.jsonl>")
    assert SNEAKY not in html and "&lt;h.jsonl&gt;" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert html.count("<script") == 3  # the data, the shared table drawing (envs/table.js), the page's own
    payload = html.split('<script type="application/json" id="data">')[1].split("</script>")[0]
    data = json.loads(payload)
    assert data["hands"][0]["steps"][0]["seats"][1]["name"] == SNEAKY


def test_selection_parses_ranges_and_refuses_bad_ones():
    from razz_env.engine.errors import ConfigError

    assert parse_selection("3,1-2,3", 5) == [3, 1, 2]
    for bad in ("0", "2-1", "6", "a", "1-"):
        with pytest.raises(ConfigError, match="--hands"):
            parse_selection(bad, 5)


def test_show_writes_a_page_and_one_picture_per_street(tmp_path, capsys):
    records = _write(tmp_path / "h.jsonl", [_showdown(), _fold()])
    out = tmp_path / "pictures"
    assert main(["show", str(records), "--html", str(tmp_path / "r.html"), "--png", str(out), "--seat", "0"]) == 0
    assert "wrote" in capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"hand-0001-{s}.png" for s in ("3rd", "4th", "5th", "6th", "7th")] + \
        ["hand-0002-3rd.png", "hand-0002-4th.png"]
    picture = np.asarray(Image.open(out / "hand-0001-3rd.png").convert("RGB"))
    assert picture.shape == (HEIGHT, WIDTH, 3)
    assert _share(_card(picture, seat=1), COLOURS["back"]) > 0.3  # seat 0 cannot see seat 1's down card
    assert _share(_card(picture, seat=0), COLOURS["hole_face"]) > 0.3
    again = tmp_path / "again"
    assert main(["show", str(records), "--png", str(again), "--seat", "0"]) == 0
    assert (again / "hand-0001-3rd.png").read_bytes() == (out / "hand-0001-3rd.png").read_bytes()


def _bad(case: str, tmp_path: Path) -> list[str]:
    good = _write(tmp_path / "good.jsonl", [_showdown(), _fold()])
    broken = _fold()
    broken["payoffs"] = [broken["payoffs"][0] + 1, broken["payoffs"][1] - 1, broken["payoffs"][2]]
    bad = _write(tmp_path / "bad.jsonl", [_showdown(), broken])
    (tmp_path / "taken.html").write_text("keep")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("keep")
    html = ["--html", str(tmp_path / "new.html")]
    return {
        "no_output": ["show", str(good)],
        "missing_file": ["show", str(tmp_path / "nope.jsonl"), *html],
        "bad_record": ["show", str(bad), *html],
        "not_json": ["show", str(_write(tmp_path / "x.jsonl", [])), *html],
        "html_exists": ["show", str(good), "--html", str(tmp_path / "taken.html")],
        "html_is_folder": ["show", str(good), "--html", str(tmp_path / "full")],
        "html_no_folder": ["show", str(good), "--html", str(tmp_path / "no" / "r.html")],
        "png_not_empty": ["show", str(good), "--png", str(tmp_path / "full")],
        "png_is_file": ["show", str(good), "--png", str(tmp_path / "taken.html")],
        "seat": ["show", str(good), *html, "--seat", "2"],
        "negative_seat": ["show", str(good), *html, "--seat", "-1"],
        "hands": ["show", str(good), *html, "--hands", "1-3"],
    }[case]


@pytest.mark.parametrize("case", ["no_output", "missing_file", "bad_record", "not_json", "html_exists",
                                  "html_is_folder", "html_no_folder", "png_not_empty", "png_is_file", "seat",
                                  "negative_seat", "hands"])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, capsys, case):
    args = _bad(case, tmp_path)
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("razz show: ") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "taken.html").read_text() == "keep" and (tmp_path / "full" / "notes.txt").read_text() == "keep"
    if case == "bad_record":
        assert "bad.jsonl:2: payoffs: expected" in captured.err
    if case == "not_json":
        assert "no hand records to show" in captured.err


def test_force_replaces_the_page_and_only_the_old_hand_pictures(tmp_path):
    records = _write(tmp_path / "h.jsonl", [_showdown(), _fold()])
    out, html = tmp_path / "out", tmp_path / "r.html"
    assert main(["show", str(records), "--png", str(out), "--html", str(html)]) == 0
    (out / "notes.txt").write_text("keep")
    assert main(["show", str(records), "--png", str(out), "--hands", "2", "--html", str(html), "--force"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["hand-0002-3rd.png", "hand-0002-4th.png", "notes.txt"]
    assert '"number":1,' not in html.read_text() and '"number":2,' in html.read_text()


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no Chromium on this machine (Debian: apt-get install chromium); the replay page is not "
                "loaded in a browser")


@pytest.mark.parametrize("game", ["razz", "minirazz"])
def test_replay_page_draws_the_table_in_a_headless_browser(tmp_path, game):
    browser = _chromium()
    records = _write(tmp_path / "h.jsonl", [_showdown(), _fold()] if game == "razz" else [_minirazz(), _showdown()])
    html = tmp_path / "replay.html"
    assert main(["show", str(records), "--html", str(html), "--seat", "0"]) == 0
    shot = tmp_path / "shot.png"
    result = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,760",
         f"--screenshot={shot}", f"{html.as_uri()}#hand=1&step=1"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and shot.exists(), result.stderr[-2000:]
    picture = np.asarray(Image.open(shot).convert("RGB"))
    assert picture.shape == (760, 1000, 3)
    assert _share(picture, COLOURS["felt"]) > 0.2  # the script drew the table
    assert _share(picture, COLOURS["back"]) > 0.001  # seat 1's down cards face down (seen by seat 0)
    assert _share(picture, COLOURS["hole_face"]) > 0.001  # seat 0's own down cards face up
    assert _share(picture, COLOURS["turn"], tolerance=8) > 0.0005  # whose turn is framed


# ------------------------------------------------------------------ fuzz
# RAZZ_FUZZ_EXAMPLES=2000 pytest tests/test_show.py -n 0 -s -k fuzz prints the figures per category.

EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nshow fuzz figures:", dict(sorted(FIGURES.items()))))

scalars = (st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=10)
           | st.sampled_from(["As", "Kd", "x", "bring_in", "call", "fold", "complete", "razz", "stud8", SNEAKY]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def _mutate(record: dict, data: st.DataObject) -> dict:
    """``record`` with one field replaced, a list item changed, a field dropped or the players renamed."""
    record = json.loads(json.dumps(record))
    kind = data.draw(st.sampled_from(["field", "item", "drop", "players", "actions"]), label="kind")
    key = data.draw(st.sampled_from(sorted(record)), label="key")
    if kind == "field":
        record[key] = data.draw(values, label="value")
    elif kind == "item" and isinstance(record[key], list) and record[key]:
        record[key][data.draw(st.integers(0, len(record[key]) - 1))] = data.draw(values, label="item")
    elif kind == "drop":
        record.pop(key)
    elif kind == "players":
        record["players"] = data.draw(st.lists(st.text(min_size=1, max_size=12), min_size=len(record["stacks"]),
                                               max_size=len(record["stacks"])), label="players")
    else:
        record["actions"] = data.draw(st.lists(st.sampled_from(["bring_in", "complete", "call", "check", "fold",
                                                                "bet", "raise"]), max_size=30), label="actions")
    return record


@FUZZ
@given(data=st.data())
def test_fuzz_records_give_a_replay_or_one_clean_line(tmp_path_factory, data):
    from razz_env.engine.errors import ConfigError

    base = data.draw(st.sampled_from([_showdown(), _fold()]), label="base")
    record = _mutate(base, data)
    path = tmp_path_factory.mktemp("fuzz") / "h.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    viewer = data.draw(st.none() | st.integers(0, 3), label="viewer")
    try:
        hands = load_hands([str(path)], viewer)
    except ConfigError as err:
        FIGURES["records: clean error"] += 1
        assert "\n" not in str(err) and str(err).startswith(f"{path}:1: ")
        return
    FIGURES["records: valid"] += 1
    html = page(hands, "fuzz")
    payload = html.split('<script type="application/json" id="data">')[1].split("</script>")[0]
    assert json.loads(payload)["hands"][0]["steps"][-1]["over"]
    if record.get("payoffs") is not None:  # optional in a record: the replay's own are shown
        assert [s.payoff for s in hands[0].steps[-1].seats] == record["payoffs"]


@FUZZ
@given(text=st.text(alphabet="0123456789-, x", max_size=12), total=st.integers(1, 30))
def test_fuzz_hand_selections_give_numbers_in_range_or_one_clean_line(text, total):
    from razz_env.engine.errors import ConfigError

    try:
        chosen = parse_selection(text, total)
    except ConfigError as err:
        FIGURES["--hands: clean error"] += 1
        assert str(err).startswith("--hands: ") and "\n" not in str(err)
        return
    FIGURES["--hands: valid"] += 1
    assert chosen and all(1 <= n <= total for n in chosen) and len(set(chosen)) == len(chosen)


def _minirazz() -> dict:
    """Heads-up MiniRazz to a showdown: three cards each, two streets."""
    hand = HandState(HandConfig.create("minirazz"), cards=[parse_cards("Ac 2c 3c"), parse_cards("6d 5d 4d")])
    for action in ("bring_in", "call", "check", "check"):
        hand.act(action)
    return to_record(hand, players=["ann", "bob"])


def test_minirazz_hands_show_two_streets_of_three_cards_beside_a_seven_card_hand(tmp_path):
    records = _write(tmp_path / "h.jsonl", [_minirazz(), _showdown()])
    out, html = tmp_path / "out", tmp_path / "r.html"
    out.mkdir()
    (out / "hand-0001-2nd.png").write_bytes(b"an old picture")
    assert main(["show", str(records), "--png", str(out), "--html", str(html), "--seat", "0", "--force"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names[:2] == ["hand-0001-2nd.png", "hand-0001-3rd.png"] and len(names) == 2 + 5
    picture = np.asarray(Image.open(out / "hand-0001-2nd.png").convert("RGB"))
    left, top, right, bottom = card_box(2, 1, 0, 3)
    assert _share(picture[top + 3:bottom - 3, left + 3:right - 3], COLOURS["back"]) > 0.3
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html.read_text()).group(1))
    assert sorted(data["layouts"]) == ["2/3", "2/7"] and len(data["layouts"]["2/3"]["cards"][0]) == 3
    assert data["hands"][0]["steps"][0]["cards_per_seat"] == 3
    assert "${state.seats.length}/${state.cards_per_seat}" in html.read_text()


def test_unknown_cards_are_drawn_face_down_even_to_the_all_seeing_viewer(tmp_path):
    fold = _fold()
    seat = hand_from_record(fold).folded.index(True)
    fold["cards"][seat][0] = fold["cards"][seat][1] = "??"
    hand = load_hands([str(_write(tmp_path / "h.jsonl", [fold]))])[0]
    assert hand.steps[-1].seats[seat].cards[:2] == ((None, True), (None, True))
    assert hand.steps[-1].seats[seat].cards[2][0] is not None  # the door was seen


def test_a_televised_phh_hand_is_shown_like_a_record(tmp_path):
    phh = sorted((Path(__file__).resolve().parent / "data" / "phh").glob("*stud8.phh"))[0]
    hands = load_hands([str(phh)])
    assert len(hands) == 1 and hands[0].steps[-1].over and hands[0].source == f"{phh}:hand"
    html = tmp_path / "televised.html"
    assert main(["show", str(phh), "--html", str(html)]) == 0
    assert "Seven-card stud hi/lo, eight or better" in html.read_text()
