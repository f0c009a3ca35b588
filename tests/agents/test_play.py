"""``razz play`` driven by scripted keyboard input: bad keys re-prompt, hands finish, EOF quits cleanly."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from razz_env.agents.sb3_zoo import manifest
from razz_env.engine.actions import Action
from razz_env.engine.errors import ConfigError
from razz_env.play import default_opponent, parse_choice, play_cli


def scripted(bad: list[str]) -> Callable[[str], str]:
    """A person who first types ``bad`` keys, then always checks/calls (or brings in when forced)."""
    pending: Iterator[str] = iter(bad)

    def answer(prompt: str) -> str:
        for text in pending:
            return text
        return "c" if "[c/" in prompt else "i"

    return answer


def test_bad_input_then_valid_keys_completes_the_hand() -> None:
    lines: list[str] = []
    status = play_cli(opponents=["razz_heuristic"], seed=4, input_fn=scripted(["", "zz", "9", "B", "raise it"]),
                      output_fn=lines.append)
    text = "\n".join(lines)
    assert status == 0
    assert text.count("is not a legal move now") == 5
    assert "payoffs:" in text and "running totals after 1 hand:" in text
    assert "=== hand 1 of 1 ===" in text


def test_several_hands_against_several_opponents_keep_totals() -> None:
    lines: list[str] = []
    opponents = ["random", {"type": "monte_carlo", "samples": 16}, "calling_station"]
    status = play_cli("stud8", opponents, seat=2, hands=3, seed=1, input_fn=scripted([]), output_fn=lines.append)
    assert status == 0
    totals = [line for line in lines if line.startswith("running totals after")]
    assert len(totals) == 3 and totals[-1].startswith("running totals after 3 hands: seat 0 (random)")
    assert "you " in totals[-1] and "seat 3 (calling_station)" in totals[-1]


def test_the_player_sees_only_their_own_down_cards() -> None:
    lines: list[str] = []
    play_cli(seed=5, input_fn=scripted(["f", "f"]), output_fn=lines.append)
    tables = [line for line in "\n".join(lines).splitlines() if line.startswith("  seat 1:")]
    assert tables and all("[## ##]" in line for line in tables)


@pytest.mark.parametrize("interrupt", [EOFError, KeyboardInterrupt])
def test_end_of_input_quits_cleanly(interrupt: type[BaseException]) -> None:
    def stop(prompt: str) -> str:
        raise interrupt

    lines: list[str] = []
    assert play_cli(hands=5, seed=2, input_fn=stop, output_fn=lines.append) == 0
    assert "quitting" in lines[-2] and lines[-1] == "running totals after 0 hands: you +0, seat 1 (razz_heuristic) +0"


def test_quit_word() -> None:
    lines: list[str] = []
    assert play_cli(seed=2, input_fn=lambda prompt: "q", output_fn=lines.append) == 0
    assert any("quitting" in line for line in lines)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 3}, "--seat: expected 0-1"),
        ({"opponents": ["nobody"]}, "unknown agent"),
        ({"variant": "holdem"}, "unknown variant"),
        ({"opponents": []}, "at least one opponent"),
        ({"hands": 0}, "--hands: expected at least 1"),
        ({"stack": 0}, "--stack: expected a positive number of chips"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message: str) -> None:
    lines: list[str] = []
    with pytest.raises(ConfigError, match=message):
        play_cli(input_fn=scripted([]), output_fn=lines.append, **kwargs)
    assert lines == []


def test_the_table_is_the_one_the_zoo_was_trained_at_unless_a_stack_is_given() -> None:
    for kwargs, chips in (({"opponents": ["ppo_razz"]}, 1000), ({}, 1000), ({"stack": 300}, 300)):
        lines: list[str] = []
        assert play_cli(seed=1, input_fn=lambda prompt: "q", output_fn=lines.append, **kwargs) == 0
        assert f", {chips} chips each;" in lines[0]


def test_errors_go_to_stderr_with_exit_2() -> None:
    done = subprocess.run([sys.executable, "-m", "razz_env.cli", "play", "--hands", "0"], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "razz play: --hands: expected at least 1, got 0\n")


def test_parse_choice_keys_ids_and_names() -> None:
    legal = (Action.FOLD, Action.CHECK, Action.BET, Action.BET_BIG)
    assert parse_choice("B", legal) is Action.BET_BIG
    assert parse_choice("b", legal) is Action.BET
    assert parse_choice("4", legal) is Action.BET_BIG
    assert parse_choice("Check", legal) is Action.CHECK
    assert parse_choice("F", legal) is Action.FOLD
    assert parse_choice("bring in", (Action.BRING_IN, Action.COMPLETE)) is Action.BRING_IN
    assert parse_choice("c", (Action.BRING_IN, Action.COMPLETE)) is None


ZOO = sorted(manifest())


@pytest.mark.parametrize("name", ZOO)
def test_a_full_hand_against_each_zoo_agent_through_piped_input(name: str) -> None:
    """``razz play --variant <its variant> --opponents <zoo agent>`` with keys piped in plays the hand to the end."""
    keys = "c\ni\n" * 60
    done = subprocess.run([sys.executable, "-m", "razz_env.cli", "play", "--variant", manifest()[name]["variant"],
                           "--opponents", name, "--seed", "3"], input=keys, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "running totals after 1 hand:" in done.stdout and f"seat 1 ({name})" in done.stdout


@pytest.mark.parametrize("name", ZOO)
def test_a_zoo_agent_is_not_seated_at_a_table_it_was_not_trained_for(name: str) -> None:
    """A fixed-size layout plays its one table size; a padded one (flat8) every size of its variant; no agent
    plays another variant."""
    lines: list[str] = []
    variant, padded = manifest()[name]["variant"], manifest()[name]["encoding"].endswith("8")
    if padded:
        assert play_cli(variant, opponents=[name, "random"], seed=3, input_fn=scripted(["c", "i"] * 60),
                        output_fn=lines.append) == 0
        assert "running totals after 1 hand:" in "\n".join(lines)
    else:
        with pytest.raises(ConfigError, match=f"cannot be seated at {variant} with 3 seats"):
            play_cli(variant, opponents=[name, "random"], seed=3, input_fn=scripted([]), output_fn=lines.append)
    other = "stud8" if variant != "stud8" else "razz"
    with pytest.raises(ConfigError, match=f"cannot be seated at {other} with 2 seats"):
        play_cli(other, opponents=[name], input_fn=scripted([]), output_fn=lines.append)


def test_minirazz_plays_its_two_streets_against_the_default_opponent() -> None:
    lines: list[str] = []
    assert play_cli("minirazz", seed=2, hands=2, input_fn=scripted([]), output_fn=lines.append) == 0
    text = "\n".join(lines)
    assert text.startswith("MiniRazz") and "-- 2nd street --" in text and "4th street" not in text
    assert "running totals after 2 hands:" in text and f"seat 1 ({default_opponent('minirazz')})" in text
    assert default_opponent("razz") == "razz_heuristic" and default_opponent("minirazz") != "razz_heuristic"


def test_a_seven_card_agent_is_not_seated_at_minirazz() -> None:
    with pytest.raises(ConfigError) as refused:
        play_cli("minirazz", ["razz_heuristic"], input_fn=scripted([]), output_fn=print)
    assert str(refused.value) == ("agent 'razz_heuristic' plays razz or action_razz or stud or stud8 at any number "
                                  "of seats; it cannot be seated at minirazz with 2 seats")


@pytest.mark.parametrize("name", ["ppo_razz", "qrdqn_razz"])
def test_a_trained_agent_at_a_table_of_another_width_is_refused_in_one_line(name: str) -> None:
    """Issue 37 item 5: the WSOP 2023 rules leave heads-up uncapped, a longer history than the agent's network reads:
    exit 2, one line naming the agent and both widths, no traceback, before any hand (no stdin needed)."""
    done = subprocess.run([sys.executable, "-m", "razz_env.cli", "play", "--rules", "wsop_2023", "--opponents", name],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"razz play: agent '{name}' reads 676-value 'flat' vectors; this table's (razz, 2 "
                                  "seats, uncapped heads-up) have 1,226: it cannot be seated")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
