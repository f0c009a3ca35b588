"""The ``razz`` command: demo, replay --check (counts, explanations, exit codes), tournament, play wiring."""

from __future__ import annotations

import json
import subprocess
import sys

from razz_env.cli import build_parser, main
from razz_env.engine.config import HandConfig
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState


def _records(count: int) -> list[dict]:
    out = []
    for seed in range(count):
        hand = HandState(HandConfig.create("razz", num_seats=3), seed=seed)
        while not hand.is_over:
            hand.act(hand.legal_actions()[-1] if hand.street < 4 else hand.legal_actions()[1])
        out.append(to_record(hand))
    return out


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
    assert out.splitlines()[0] == "7 hands, 1 mismatches, 2 illegal"
    assert "hands.jsonl:2: mismatch: payoffs: expected" in out
    assert "hands.jsonl:4: illegal: action 0 ('raise')" in out and "legal: bring_in, complete" in out
    assert "hands.jsonl:7" in out


def test_replay_check_passes_clean_records(tmp_path, capsys):
    path = tmp_path / "ok.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in _records(5)) + "\n")
    assert main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().out.startswith("5 hands, 0 mismatches, 0 illegal")


def test_tournament_command_runs_a_config(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text("agents: [random, calling_station]\ndeals: 20\nblock_deals: 10\nworkers: 1\n")
    code = main(["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--quiet",
                 "--no-plots"])
    assert code == 0
    out = capsys.readouterr().out
    assert "random vs calling_station" in out
    assert (tmp_path / "out" / "summary.json").exists()


def test_every_command_is_wired():
    parser = build_parser()
    for command in ("demo", "replay", "tournament", "play", "train"):
        args = parser.parse_args([command] + (["x.jsonl"] if command == "replay" else [])
                                 + (["--config", "c.yaml"] if command == "train" else []))
        assert callable(args.func)


def test_bad_config_is_a_clear_error_not_a_traceback(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("agents: [random, calling_station]\ndeals: 20\nhandz: 3\n")
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "o"), "--quiet"]) == 2
    assert "unknown key(s) ['handz']" in capsys.readouterr().err


def test_console_script_entry_point_runs():
    result = subprocess.run([sys.executable, "-m", "razz_env.cli", "demo", "--seats", "2"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0 and "payoffs:" in result.stdout
