"""The ``razz`` command: demo, replay --check (counts, explanations, exit codes), tournament, play wiring."""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.cli import COMMANDS, Command, Group, main
from razz_env.engine.config import HandConfig
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS


def _records(count: int) -> list[dict]:
    out = []
    for seed in range(count):
        hand = HandState(HandConfig.create("razz", num_seats=3), seed=seed)
        while not hand.is_over:
            hand.act(hand.legal_actions()[-1] if hand.street < 4 else hand.legal_actions()[1])
        out.append(to_record(hand))
    return out


@pytest.mark.parametrize("variant", ["minirazz", "minirazz_tiny", "minirazz_small", "minirazz_large"])
def test_demo_plays_each_minirazz_game_at_as_many_seats_as_its_deck_deals(variant, capsys):
    assert main(["demo", "--variant", variant, "--seed", "2", "--record"]) == 0
    out = capsys.readouterr().out
    record = json.loads(out.strip().splitlines()[-1])
    most = {"minirazz": 5, "minirazz_tiny": 2, "minirazz_small": 3, "minirazz_large": 3}[variant]
    deck = VARIANTS[variant]
    assert record["variant"] == variant and len(record["stacks"]) == min(4, most) and sum(record["payoffs"]) == 0
    assert out.startswith("MiniRazz") and record["stakes"] == {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
    assert main(["demo", "--variant", variant, "--seats", "6"]) == 2
    assert capsys.readouterr().err == (f"razz demo: --seats: {variant} seats 2 to {most} (its {len(deck.deck)}-card "
                                       f"deck deals {deck.cards_per_seat} cards a seat), got 6\n")


def test_demo_prints_a_finished_hand(capsys):
    assert main(["demo", "--variant", "stud8", "--seats", "3", "--seed", "4", "--record"]) == 0
    out = capsys.readouterr().out
    assert "payoffs:" in out
    record = json.loads(out.strip().splitlines()[-1])
    assert record["variant"] == "stud8" and sum(record["payoffs"]) == 0


def test_replay_check_counts_and_explains_failures(tmp_path, capsys):
    records = _records(6)
    records[1]["payoffs"] = [p + (1 if i == 0 else -1 if i == 1 else 0) for i, p in enumerate(records[1]["payoffs"])]
    records[3]["actions"][0] = "raise"
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\nnot json\n")
    assert main(["replay", str(path), "--check"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "7 hands, 1 mismatches, 1 illegal, 1 invalid"
    assert f"{path}:2: payoffs: expected" in out
    assert f"{path}:4: action 0 ('raise')" in out and "legal: bring_in, complete" in out
    assert f"{path}:7: record: not valid JSON (Expecting value at column 1)" in out


def test_replay_check_passes_clean_records(tmp_path, capsys):
    path = tmp_path / "ok.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in _records(5)) + "\n")
    assert main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().out.startswith("5 hands, 0 mismatches, 0 illegal, 0 invalid")


def test_replay_reports_every_bad_line_and_carries_on(tmp_path, capsys):
    good = json.dumps(_records(1)[0]).encode()
    record = _records(1)[0]
    lines = [
        good,
        b"\xff\xfe not utf-8",
        b"[" * 100_000,
        b'{"variant": "razz", "stacks": [' + b"9" * 5000 + b"]}",
        b"NaN",
        json.dumps({**record, "stacks": "lots"}).encode(),
        json.dumps({**record, "cards": [[1, 2, 3], ["As"], ["Ks"]]}).encode(),
        json.dumps({**record, "actions": [["bring_in"]]}).encode(),
        json.dumps({**record, "payoffs": {"0": 1}}).encode(),
        json.dumps({**record, "stakes": {**record["stakes"], "street_bets": 10}}).encode(),
        b"\xef\xbb\xbf" + good,  # a byte-order mark inside the file is not stripped
        json.dumps([record]).encode(),
        good,
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["replay", str(path), "--check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "13 hands, 0 mismatches, 0 illegal, 11 invalid"
    expected = [
        "2: record: not UTF-8 text (byte 1 is 0xff)",
        "3: record: JSON nested too deeply",
        "4: record: not valid JSON (Exceeds the limit (4300 digits)",
        "5: record: not valid JSON (NaN is not a JSON number)",
        "6: stacks: expected a list of chip counts, got 'lots'",
        "7: cards[0][0]: unknown card 1",
        "8: actions[0]: expected an action name",
        "9: payoffs: expected a list of 3 chip counts (one per seat), got {'0': 1}",
        "10: stakes.street_bets: expected a list of 5 bet sizes (3rd to 7th street), got 10",
        "11: record: not valid JSON (Unexpected UTF-8 BOM",
        "12: record: expected a JSON object, got list",
    ]
    assert len(out) == 1 + len(expected)
    for printed, start in zip(out[1:], expected):
        assert printed.startswith(f"  {path}:{start}"), printed
    assert main(["replay", str(path)]) == 0  # without --check the report is all
    assert capsys.readouterr().out.startswith("13 hands, 0 mismatches, 0 illegal, 11 invalid")


def test_replay_accepts_a_utf8_byte_order_mark_at_the_start_of_a_file(tmp_path, capsys):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(json.dumps(r) for r in _records(2)).encode() + b"\n")
    assert main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().out.startswith("2 hands, 0 mismatches, 0 illegal, 0 invalid")


def test_replay_names_gzip_and_utf16_files(tmp_path, capsys):
    import gzip

    text = "\n".join(json.dumps(r) for r in _records(3)) + "\n"
    packed, wide = tmp_path / "hands.jsonl.gz", tmp_path / "wide.jsonl"
    packed.write_bytes(gzip.compress(text.encode()))
    wide.write_text(text, encoding="utf-16")
    ok = tmp_path / "ok.jsonl"
    ok.write_text(text)
    assert main(["replay", str(packed), str(wide), str(ok), "--check"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "5 hands, 0 mismatches, 0 illegal, 2 invalid"
    assert f"{packed}:1: record: not a hand-record file: gzip-compressed data; decompress it first" in out
    assert f"{wide}:1: record: not a hand-record file: UTF-16 text (byte-order mark FF FE); save it as UTF-8" in out


def test_replay_explain_limits_the_failures_printed(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("x\n" * 4)
    assert main(["replay", str(path), "--explain", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["4 hands, 0 mismatches, 0 illegal, 4 invalid",
                   f"  {path}:1: record: not valid JSON (Expecting value at column 1)", "  ... and 3 more"]
    assert main(["replay", str(path), "--explain", "-1"]) == 2
    assert "razz replay: --explain: must be at least 0, got -1" in capsys.readouterr().err


def test_replay_of_a_missing_file_or_a_directory_is_a_message_and_exit_2(tmp_path, capsys):
    ok = tmp_path / "ok.jsonl"
    ok.write_text(json.dumps(_records(1)[0]) + "\n")
    assert main(["replay", str(ok), str(tmp_path / "nope.jsonl"), str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (f"razz replay: {tmp_path / 'nope.jsonl'}: no such file; "
                                    f"{tmp_path}: is a directory; give hand-record files (JSON lines)")


def test_tournament_command_runs_a_config(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text("agents: [random, calling_station]\ndeals: 20\nblock_deals: 10\nworkers: 1\n")
    code = main(["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--quiet",
                 "--no-plots"])
    assert code == 0
    out = capsys.readouterr().out
    assert "random vs calling_station" in out
    assert (tmp_path / "out" / "summary.json").exists()


def _commands() -> dict[str, Command]:
    """Every runnable command by its words (``zoo list``)."""
    return {f"{name} {sub}".strip(): command for name, entry in COMMANDS.items()
            for sub, command in (entry.commands.items() if isinstance(entry, Group) else [("", entry)])}


def test_every_command_is_wired():
    import importlib

    commands = _commands()
    assert {"demo", "replay", "show", "tournament", "equity", "play", "train", "curves", "ppo", "solve", "exploit",
            "bench", "agents", "serve", "zoo list", "zoo reproduce"} == set(commands)
    for words, command in commands.items():
        module = importlib.import_module(command.module)
        assert callable(getattr(module, command.run)) and dataclasses.is_dataclass(getattr(module, command.args))
        assert command.parser(f"razz {words}").prog == f"razz {words}"


def test_bad_config_is_a_clear_error_not_a_traceback(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("agents: [random, calling_station]\ndeals: 20\nhandz: 3\n")
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "o"), "--quiet"]) == 2
    assert "unknown key(s) 'handz'; known: name, format" in capsys.readouterr().err


TINY = "agents: [random, calling_station]\ndeals: 20\nblock_deals: 10\nworkers: 1\n"


def _tournament_setup(case: str, tmp_path: Path) -> list[str]:
    """Arguments of ``razz tournament`` for one kind of bad input (files made in ``tmp_path``)."""
    config = tmp_path / "c.yaml"
    config.write_text({"unparsable": "agents: [random\n", "empty": "", "typo": "agents: [random, rndom]\n",
                       "escape": "name: ../../escape\nagents: [random, calling_station]\n",
                       "records": TINY + "records: 'no'\n", "timeout": TINY + "decision_timeout: .nan\n",
                       "seed": TINY + "seed: '1'\n"}.get(case, TINY))
    (tmp_path / "file").write_text("x")
    extra = {"missing": ["--config", str(tmp_path / "missing.yaml")], "output_is_a_file": ["--output", "file"],
             "output_below_a_file": ["--output", "file/out"], "workers": ["--workers", "0"],
             "deals": ["--deals", "-5"], "empty_output": ["--output", ""]}.get(case, [])
    return ["tournament", "--config", str(config), "--quiet", "--no-plots", *extra]


@pytest.mark.parametrize("case", ["missing", "unparsable", "empty", "typo", "escape", "records", "timeout", "seed",
                                  "output_is_a_file", "output_below_a_file", "workers", "deals", "empty_output"])
def test_tournament_bad_input_is_one_line_and_exit_2_with_nothing_written(tmp_path, monkeypatch, capsys, case):
    args = _tournament_setup(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("razz tournament: ") and err.count("\n") == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before and (tmp_path / "file").read_text() == "x"


def test_tournament_records_replay_with_check(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text(TINY)
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--records", "--quiet",
                 "--no-plots"]) == 0
    files = sorted(str(p) for p in (tmp_path / "out" / "hands").glob("*.jsonl"))
    assert len(files) == 2
    capsys.readouterr()
    assert main(["replay", *files, "--check"]) == 0
    assert capsys.readouterr().out.startswith("40 hands, 0 mismatches, 0 illegal, 0 invalid")


def test_tournament_resumed_with_records_warns_that_earlier_blocks_have_none(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text(TINY)
    args = ["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--quiet", "--no-plots"]
    assert main(args) == 0
    capsys.readouterr()
    assert main([*args, "--records", "--deals", "40"]) == 0
    assert capsys.readouterr().err == ("razz tournament: warning: 2 of the 2 blocks played earlier have no hand "
                                       "records (played without --records); use --fresh to record every block\n")


def test_tournament_refuses_a_second_concurrent_run(tmp_path, capsys):
    import fcntl
    import os

    config = tmp_path / "tiny.yaml"
    config.write_text(TINY)
    args = ["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--quiet", "--no-plots"]
    assert main(args) == 0
    descriptor = os.open(tmp_path / "out" / ".lock", os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        capsys.readouterr()
        assert main(args) == 2
    finally:
        os.close(descriptor)
    assert "another razz tournament is running in this folder" in capsys.readouterr().err


def _without_root_override(command: list[str]) -> list[str]:
    """``command``, run so that file permissions bind (root drops the capability to override them)."""
    import os
    import shutil

    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    drop = [setpriv, "--bounding-set=-dac_override,-dac_read_search"] if setpriv else []
    if not drop or subprocess.run([*drop, "true"], capture_output=True).returncode != 0:
        pytest.skip("running as root without a way to drop CAP_DAC_OVERRIDE: permissions cannot bind")
    return [*drop, *command]


def test_tournament_read_only_output_is_one_line_and_exit_2(tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(TINY)
    finished = tmp_path / "finished"
    assert main(["tournament", "--config", str(config), "--output", str(finished), "--quiet", "--no-plots"]) == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    for path in [empty, finished, *finished.iterdir()]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        for output in (empty, finished, empty / "below"):
            result = subprocess.run(_without_root_override(
                [sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config), "--output", str(output),
                 "--quiet", "--no-plots"]), capture_output=True, text=True, timeout=120)
            assert result.returncode == 2, result.stderr
            assert result.stderr.startswith(f"razz tournament: output: cannot write to {output}")
            assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert list(empty.iterdir()) == []
    finally:
        for path in [empty, finished, *finished.iterdir()]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_default_tournament_runs(tmp_path, capsys):
    """The README's main job: ``razz tournament`` with no config (here 2 deals per pairing)."""
    assert main(["tournament", "--deals", "2", "--workers", "1", "--output", str(tmp_path / "d"), "--quiet",
                 "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert "ppo_razz vs qrdqn_razz" in out and "monte_carlo vs check_raiser" in out and "rock vs tag" in out
    assert "ppo_razz_pool vs maniac" in out and "ppo_razz_multiway" not in out
    assert "ppo_razz_psro vs maniac" in out and "mccfr_razz vs maniac" in out


@pytest.mark.parametrize("variant", ["stud8", "action_razz"])
def test_a_variants_default_tournament_runs(tmp_path, capsys, monkeypatch, variant):
    """``razz tournament --variant V``: that game's default lineup, in results/default_<V> (here 2 deals a pairing)."""
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "--variant", variant, "--deals", "2", "--workers", "1", "--quiet", "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert "razz_heuristic vs monte_carlo" in out and "rock vs tag" in out
    assert ("stud8_heuristic vs monte_carlo" in out) == (variant == "stud8")
    assert ("monte_carlo vs mccfr_action_razz" in out) == (variant == "action_razz")
    assert ("monte_carlo vs mccfr_stud8" in out) == (variant == "stud8")
    summary = json.loads((tmp_path / "results" / f"default_{variant}" / "summary.json").read_text())
    assert summary["config"]["variant"] == variant
    assert main(["tournament", "--variant", variant, "--config", "x.yaml"]) == 2
    assert "--variant: picks a variant's default lineup; with --config" in capsys.readouterr().err


def test_console_script_entry_point_runs():
    result = subprocess.run([sys.executable, "-m", "razz_env.cli", "demo", "--seats", "2"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0 and "payoffs:" in result.stdout


def test_equity_prints_the_exact_published_matchup(capsys):
    assert main(["equity", "As 2s 3s", "6h 7h 8h"]) == 0
    out = capsys.readouterr().out
    assert "59.56%" in out and "40.44%" in out
    assert "exact (ranks): 18,265,297,050 deals" in out


def test_equity_json_and_sampling_report_their_method(capsys):
    assert main(["equity", "Ah Kh", "x x Qd", "--variant", "stud", "--max-outcomes", "10",
                 "--samples", "2000", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["method"] == "monte_carlo" and not result["exact"] and len(result["std_errors"]) == 2


@pytest.mark.parametrize(("argv", "message"), [
    (["As As", "2d"], "card As is dealt twice"),
    (["As"], "give 2 to 8 players"),
    (["As", "Zz"], "hands[1]: unknown card 'Zz'"),
    (["As", "2d", "--samples", "1", "--method", "monte_carlo"], "samples: must be at least 2, got 1"),
])
def test_equity_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(["equity", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1 and not captured.out


def test_version_prints_the_package_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"razz {version('razz-env')}"


def _options(parser):
    """Every (command path, option) of ``parser`` and its subcommands, help actions excepted."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for path, option in _options(sub):
                    yield (f"{name} {path}".strip(), option)
        elif not isinstance(action, argparse._HelpAction):
            yield ("", action)


def test_every_option_of_every_command_has_help_text():
    """Each field of a command's settings has its docstring, shown as the flag's help."""
    options = [(words, option) for words, command in _commands().items()
               for path, option in _options(command.parser(f"razz {words}"))]
    missing = [f"razz {words} {'/'.join(o.option_strings) or o.dest}" for words, o in options
               if not (o.help or "").strip()]
    assert missing == []


def test_agents_lists_every_agent_with_its_tables_and_idea(capsys):
    from razz_env.agents.registry import available_agents

    assert main(["agents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["agent", "variants", "seats", "idea"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == set(available_agents())
    assert rows["random"].split()[1:3] == ["all", "2-8"] and "Uniformly random" in rows["random"]
    assert rows["ppo_razz"].split()[1:3] == ["razz", "2"]
    assert "as its spec says" in rows["sb3_model"]
    assert main(["agents", "monte_carlo", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [{"name": "monte_carlo", "idea": listed[0]["idea"],
                       "variants": ["razz", "action_razz", "stud", "stud8"], "seat_counts": None, "tables_known": True}]
    assert rows["razz_heuristic"].split()[1:6] == ["razz,", "action_razz,", "stud,", "stud8", "2-8"]
    assert main(["agents", "h9_nowhere:Bot"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("razz agents: agent 'h9_nowhere:Bot': no module named") and err.count("\n") == 1


USER_BOTS = """
import numpy as np

from razz_env.encoding.interface import Declaration


class MyBot:
    name = "mybot"
    declaration = Declaration(observes=())

    def __init__(self, aggression=1, seed=None):
        self.aggression = aggression

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        legal = np.flatnonzero(observation.action_mask)
        return int(legal[-1] if self.aggression > 1 else legal[0])


class NotABot:
    pass
"""


@pytest.fixture
def user_bots(tmp_path, monkeypatch):
    """``h9_cli_bots.py`` (the user's own agents) in a folder on sys.path for this test only."""
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "h9_cli_bots.py").write_text(USER_BOTS)
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    sys.modules.pop("h9_cli_bots", None)


def test_tournament_plays_a_module_class_agent_in_two_worker_processes(tmp_path, capsys, user_bots):
    config = tmp_path / "mine.yaml"
    config.write_text('agents: [calling_station, {type: "h9_cli_bots:MyBot", aggression: 2, label: mine}]\n'
                      "deals: 20\nblock_deals: 5\nworkers: 2\n")
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--quiet",
                 "--no-plots"]) == 0
    assert "calling_station vs mine" in capsys.readouterr().out
    lines = (tmp_path / "out" / "matches.jsonl").read_text().splitlines()
    assert len(lines) == 4 and all("error" not in json.loads(line) for line in lines)


def test_console_script_finds_a_module_in_the_current_directory_and_on_pythonpath(tmp_path):
    import os

    script = Path(sys.executable).parent / "razz"
    if not script.exists():
        pytest.skip("the razz console script is not installed next to this Python")
    code = tmp_path / "code"
    code.mkdir()
    (code / "h9_cli_bots.py").write_text(USER_BOTS)
    config = tmp_path / "mine.yaml"
    config.write_text('agents: [random, "h9_cli_bots:MyBot"]\ndeals: 10\nblock_deals: 5\nworkers: 2\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for cwd, extra, workers in ((code, {}, "2"), (elsewhere, {"PYTHONPATH": str(code)}, "1")):
        output = tmp_path / f"out_{cwd.name}"
        result = subprocess.run([str(script), "tournament", "--config", str(config), "--output", str(output),
                                 "--workers", workers, "--quiet", "--no-plots"], cwd=cwd, env={**env, **extra},
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert "random vs h9_cli_bots:MyBot" in result.stdout
    result = subprocess.run([str(script), "tournament", "--config", str(config), "--output", str(tmp_path / "no"),
                             "--quiet"], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "no module named 'h9_cli_bots' (put it in the current directory, on PYTHONPATH" in result.stderr


def test_play_takes_module_class_specs_with_options(monkeypatch, capsys, user_bots):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--opponents", '{"type": "h9_cli_bots:MyBot", "aggression": 2}', "--seed", "1"]) == 0
    assert "seat 1 (mybot)" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--opponents", "{type: h9_cli_bots:MyBot, aggression: 2}", "--seed", "1"]) == 0


@pytest.mark.parametrize(("spec", "message"), [
    ("{type: h9_cli_bots:MyBot, aggression: [}", "is not a mapping like"),
    ('{"aggression": 2}', "needs a 'type' naming the agent"),
    ("h9_cli_bots:NotABot", "class NotABot is not an agent"),
    ("h9_cli_bots:Missing", "h9_cli_bots has no 'Missing'"),
    ('{"type": "h9_cli_bots:MyBot", "agression": 2}', "unexpected keyword argument 'agression'"),
])
def test_play_bad_agent_spec_is_one_line_and_exit_2(capsys, user_bots, spec, message):
    assert main(["play", "--opponents", spec]) == 2
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert message in text and text.count("\n") == 1 and "Traceback" not in text


# RAZZ_FUZZ_EXAMPLES=2000 pytest tests/test_cli.py -n 0 -s -k fuzz prints the figures.
FUZZ_EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "40"))
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\ncli fuzz figures:", dict(sorted(FIGURES.items()))))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(text=st.one_of(
    st.text(max_size=30).map(lambda t: "{" + t),
    st.builds(lambda k, v: json.dumps({k: v}), st.sampled_from(["type", "typ", "aggression"]),
              st.none() | st.integers() | st.text(max_size=8) | st.lists(st.integers(), max_size=2)),
    st.text(max_size=20)))
def test_fuzz_opponent_texts_give_a_spec_or_one_clean_line(text):
    from razz_env.encoding.agent_specs import agent_spec_from_text
    from razz_env.engine.errors import ConfigError

    try:
        spec = agent_spec_from_text("--opponents", text)
    except ConfigError as err:
        FIGURES["--opponents text: clean error"] += 1
        assert str(err).startswith("--opponents: ") and "\n" not in str(err)
        return
    FIGURES["--opponents text: spec"] += 1
    assert spec == text if not text.lstrip().startswith("{") else isinstance(spec["type"], str)


def test_exploit_reports_a_lower_bound_on_the_agents_exploitability(tmp_path, capsys):
    folder = tmp_path / "exploit"
    argv = ["exploit", "--agent", "calling_station", "--deals", "2", "--output", str(folder), "--quiet", "--no-plots"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "lbr against calling_station" in out and "a lower bound on calling_station's exploitability" in out
    summary = json.loads((folder / "exploit.json").read_text())
    assert summary["hands"] == 4 and summary["method"] == "lbr" and summary["agent"] == "calling_station"
    assert (folder / "exploit.csv").exists() and not (folder / "exploit.png").exists()


@pytest.mark.parametrize(("argv", "message"), [
    (["--agent", "nobody", "--deals", "2"], "razz exploit: --agent: unknown agent 'nobody'"),
    (["--agent", "razz_env.agents.base:BaseAgent", "--deals", "2"], "states no policy (no action_probabilities)"),
    (["--agent", "random", "--deals", "0"], "razz exploit: --deals: must be at least 1, got 0"),
    (["--agent", "random", "--deals", "2", "--workers", "0"], "--workers: must be at least 1"),
    (["--agent", "random", "--deals", "2", "--seed", "-3"], "--seed: must be at least 0"),
    (["--agent", "random", "--deals", "2", "--steps", "5"], "--steps: only --method rl trains"),
    (["--agent", "random", "--deals", "2", "--method", "rl"], "--steps: expected a number of training steps"),
    (["--agent", "random", "--deals", "2", "--method", "rl", "--steps", "9", "--suit-blind"],
     "--suit-blind: options of --method lbr"),
    (["--agent", "random", "--deals", "2", "--suit-blind", "--variant", "stud8"], "--suit-blind: suits matter"),
    (["--agent", "cli_test_razz_only", "--deals", "2", "--variant", "stud"], "cannot be seated at stud"),
    (["--agent", '{"aggression": 2}', "--deals", "2"], "--agent: "),
])
def test_exploit_bad_input_is_one_line_and_exit_2_with_nothing_written(tmp_path, capsys, argv, message):
    from razz_env.agents.registry import register
    from razz_env.agents.simple import CallingStation

    razz_only = dataclasses.replace(CallingStation.declaration, variants=("razz",))
    register("cli_test_razz_only", replace=True)(type("RazzOnly", (CallingStation,), {"declaration": razz_only}))
    folder = tmp_path / "exploit"
    assert main(["exploit", *argv, "--output", str(folder)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not folder.exists()


@pytest.mark.parametrize("suffix", [".zip", ".pt", ".npz"])
def test_a_garbage_model_file_is_one_line_naming_its_path(tmp_path, capsys, suffix):
    model = tmp_path / f"model{suffix}"
    model.write_bytes(b"garbage here")
    assert main(["exploit", "--agent", str(model), "--deals", "2", "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("razz exploit: --agent: ") and f"{model}" in err and "not a zip archive" in err, err
    assert err.count("\n") == 1 and "BytesIO" not in err and not (tmp_path / "out").exists()


def test_exploit_into_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.write_text("mine")
    assert main(["exploit", "--agent", "random", "--deals", "2", "--output", str(taken), "--fresh"]) == 2
    assert "is a file" in capsys.readouterr().err and taken.read_text() == "mine"


def _razz_without(modules: str, *argv: str) -> subprocess.CompletedProcess:
    """Run ``razz argv`` in a subprocess where the comma-separated ``modules`` cannot be imported."""
    code = (f"import sys\nfor m in {modules!r}.split(','): sys.modules[m] = None\n"
            f"from razz_env.cli import main\nsys.exit(main({list(argv)!r}))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})


def test_agents_lists_the_zoo_from_the_manifest_without_the_train_extra():
    result = _razz_without("sb3_contrib,stable_baselines3,torch", "agents")
    assert result.returncode == 0, result.stderr
    assert "torch" not in result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:]}
    assert "ppo_razz_multiway" in rows and "2/3/4/5/6/7/8" in rows["ppo_razz_multiway"]
    assert "stud " in rows["ppo_stud"]


def test_a_missing_optional_dependency_names_the_extra_to_install():
    result = _razz_without("sb3_contrib", "play", "--opponents", "ppo_razz")
    assert result.returncode == 2
    assert result.stderr.strip() == ("razz play: this needs sb3_contrib, which is not installed: "
                                     "pip install 'razz-env[train]'")


def test_ctrl_c_in_exploit_exact_is_one_line_and_exit_130(monkeypatch, tmp_path, capsys):
    import razz_env.exploit

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(razz_env.exploit, "exploitability", interrupted)
    assert main(["exploit", "--agent", "minirazz_cfr", "--method", "exact", "--variant", "minirazz",
                 "--output", str(tmp_path / "out")]) == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("razz exploit: interrupted") and captured.err.count("\n") == 1


def test_a_tournament_seating_a_trained_agent_without_the_train_extra_names_it(tmp_path):
    result = _razz_without("sb3_contrib", "tournament", "--deals", "2", "--output", str(tmp_path / "t"), "--quiet",
                           "--no-plots")
    assert result.returncode == 2
    assert result.stderr.strip() == ("razz tournament: agents[4] (ppo_razz): this needs sb3_contrib, which is not "
                                     "installed: pip install 'razz-env[train]'")


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``razz agents | head -1``: the pipe closes before the command has written; no traceback, exit 1."""
    process = subprocess.Popen([sys.executable, "-m", "razz_env.cli", "agents"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
    process.stdout.close()  # before the command has imported anything, let alone written
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 1 and errors == b""
