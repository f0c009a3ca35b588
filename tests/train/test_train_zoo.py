"""``experiments/train_zoo.py``: runs as documented, refuses to replace shipped agents unasked, installs verified."""

from __future__ import annotations

import hashlib
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from razz_env.agents.sb3_agent import UntrustedModelError  # noqa: E402
from razz_env.engine.errors import ConfigError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ZOO = REPO / "agents" / "zoo"


def _zoo_state() -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(ZOO.iterdir()) if p.is_file()}


@pytest.mark.parametrize("command", [["experiments/train_zoo.py"], ["-m", "experiments.train_zoo"]],
                         ids=["script", "module"])
def test_the_documented_commands_run_and_refuse_to_overwrite_the_shipped_zoo(command):
    before = _zoo_state()
    runs_before = (REPO / "runs" / "ppo_razz").exists()
    result = subprocess.run([sys.executable, *command], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("train_zoo: ppo_razz already in ") and "--overwrite-zoo" in result.stderr
    assert _zoo_state() == before
    assert (REPO / "runs" / "ppo_razz").exists() == runs_before, "nothing was trained"


@pytest.fixture
def train_zoo(tmp_path, monkeypatch):
    """The script's module with its zoo in a temporary folder."""
    monkeypatch.syspath_prepend(str(REPO))
    module = importlib.import_module("experiments.train_zoo")
    monkeypatch.setattr(module, "ZOO", tmp_path / "zoo")
    return module


def _tiny_config(tmp_path) -> str:
    path = tmp_path / "tiny.yaml"
    path.write_text(f"name: tiny\ntotal_timesteps: 128\nn_envs: 2\nnet_arch: [8]\n"
                    f"algo_kwargs: {{n_steps: 32, batch_size: 64, n_epochs: 1}}\neval_every: 64\neval_deals: 4\n"
                    f"checkpoint_every: 64\nopponents: {{snapshot_every: 64}}\noutput: {tmp_path / 'run'}\n")
    return str(path)


def test_install_verifies_the_run_and_replaces_only_when_asked(train_zoo, tmp_path, monkeypatch):
    monkeypatch.setattr(train_zoo, "plot_run", lambda run, target, title: target)
    config = _tiny_config(tmp_path)
    train_zoo.main(train_zoo.Args(configs=[config], curves=str(tmp_path)))
    zoo = tmp_path / "zoo"
    entry = json.loads((zoo / "manifest.json").read_text())["tiny"]
    assert entry["sha256"] == hashlib.sha256((zoo / "tiny.zip").read_bytes()).hexdigest()
    assert (entry["variant"], entry["num_players"], entry["steps"]) == ("razz", 2, 128)
    with pytest.raises(ConfigError, match="tiny already in .*pass --overwrite-zoo"):
        train_zoo.main(train_zoo.Args(configs=[config], curves=str(tmp_path)))
    train_zoo.main(train_zoo.Args(configs=[config], curves=str(tmp_path), overwrite_zoo=True))
    entry = json.loads((zoo / "manifest.json").read_text())["tiny"]
    (tmp_path / "run" / "final.zip").write_bytes(b"swapped")
    with pytest.raises(UntrustedModelError, match="final.zip: SHA-256 .* differs from the recorded"):
        train_zoo.main(train_zoo.Args(configs=[config], curves=str(tmp_path), overwrite_zoo=True))
    assert json.loads((zoo / "manifest.json").read_text())["tiny"] == entry


def test_best_checkpoint_selects_at_one_table_size_of_a_mixed_size_run(train_zoo, tmp_path):
    header = "steps,minutes,train_minutes,opponent,bb_per_100,ci95_low,ci95_high,hands,seats\n"
    rows = {(10, 2): (5.0, 1.0), (10, 6): (-9.0, -12.0), (20, 2): (3.0, 0.5), (20, 6): (8.0, 4.0)}
    (tmp_path / "eval.csv").write_text(header + "".join(
        f"{steps},1,1,razz_heuristic,{bb},{low},{bb + 1},100,{seats}\n" for (steps, seats), (bb, low) in rows.items()))
    with pytest.raises(ConfigError, match=r"evaluated against 'razz_heuristic' at 2 and 6 seats; name the table size"):
        train_zoo.best_checkpoint(tmp_path)
    assert train_zoo.best_checkpoint(tmp_path, seats=2)[0] == "checkpoints/step_10.zip"
    source, row, at_step = train_zoo.best_checkpoint(tmp_path, seats=6)
    assert source == "checkpoints/step_20.zip" and row["seats"] == "6"
    assert sorted(r["seats"] for r in at_step) == ["2", "6"]
    with pytest.raises(ConfigError, match=r"no evaluation against 'razz_heuristic' at 3 seats"):
        train_zoo.best_checkpoint(tmp_path, seats=3)


def test_install_records_a_given_command_instead_of_the_train_commands(train_zoo, tmp_path):
    config_path = _tiny_config(tmp_path)
    from razz_env.train.config import TrainConfig
    from razz_env.train.trainer import train

    config = TrainConfig.from_yaml(config_path)
    summary = train(config, progress=False)
    train_zoo.install(config, {**summary, "final_eval": []}, config_path, command="make it && widen it")
    train_zoo.install(config.__class__.from_yaml(config_path, name="plain"), {**summary, "final_eval": []}, config_path)
    manifest = json.loads((tmp_path / "zoo" / "manifest.json").read_text())
    assert manifest["tiny"]["command"] == "make it && widen it"
    assert manifest["plain"]["command"] == f"razz train --config {config_path}"
