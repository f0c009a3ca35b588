"""``razz_env/train/psro.py``: generations of learner and best response, the pool growing with each best
response, the table and plot, continuing a stopped loop, and refusing to overwrite or mix runs."""

from __future__ import annotations

import csv
import hashlib
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train import best_response  # noqa: E402

torch.set_num_threads(1)

REPO = Path(__file__).resolve().parents[2]
# A tiny learner and best response: 2 environments, 64-step rollouts, a 16-unit layer, one epoch.
TINY_PPO = {"n_steps": 64, "batch_size": 64, "n_epochs": 1}
TINY_BR = {"n_envs": 2, "net_arch": [16], "algo_kwargs": TINY_PPO, "eval_every": 10**6, "eval_deals": 2,
           "checkpoint_every": 10**6}


@pytest.fixture
def psro(monkeypatch):
    """The script's module, its best responses tiny."""
    monkeypatch.syspath_prepend(str(REPO))
    monkeypatch.setattr(best_response, "DEFAULTS", {**best_response.DEFAULTS, **TINY_BR})
    return importlib.import_module("razz_env.train.psro")


def _base_config(tmp_path, file: str = "base.yaml", **changes) -> str:
    settings = {"name": "tiny", "n_envs": 2, "net_arch": [16], "algo_kwargs": TINY_PPO, "total_timesteps": 10**6,
                "eval_every": 10**6, "eval_deals": 2, "eval_opponents": ["random"], "checkpoint_every": 10**6,
                "opponents": {"baselines": ["random", "calling_station"], "weights": [1, 1]},
                "output": str(tmp_path / "unused"), **changes}
    path = tmp_path / file
    path.write_text(json.dumps(settings))  # JSON is YAML
    return str(path)


def _args(psro, tmp_path, **changes):
    settings = {"config": _base_config(tmp_path), "generations": 2, "steps_per_generation": 128, "br_steps": 128,
                "br_weight": 3.0, "deals": 10, "output": str(tmp_path / "psro"), "progress": False}
    return psro.Args(**{**settings, **changes})


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_generations_grow_the_pool_and_record_the_bound(psro, tmp_path):
    args = _args(psro, tmp_path)
    rows = psro.run_psro(args)
    out = tmp_path / "psro"
    assert [row["generation"] for row in rows] == [0, 1]
    assert [row["learner_steps"] for row in rows] == [128, 256]
    for row in rows:
        assert row["ci95_low"] <= row["br_bb_per_100"] <= row["ci95_high"]
        assert row["hands"] == 20 and row["br_steps"] == 128 and row["wall_minutes"] > 0
    with open(out / "psro.csv", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == list(psro.COLUMNS)
    assert [float(r["br_bb_per_100"]) for r in table] == [row["br_bb_per_100"] for row in rows]
    assert (out / "psro.png").stat().st_size > 0
    first = json.loads((out / "gen_0" / "generation.json").read_text())
    second = json.loads((out / "gen_1" / "learner" / "config.json").read_text())
    assert second["opponents"]["baselines"] == ["random", "calling_station", first["best_response"]]
    assert second["opponents"]["weights"] == [1.0, 1.0, 3.0]
    assert second["init_model"] == {"path": first["learner"]["path"], "sha256": first["learner"]["sha256"]}
    assert first["learner"]["path"] == str((out / "gen_0" / "learner" / "final.zip").resolve())
    assert json.loads((out / "gen_0" / "learner" / "config.json").read_text())["init_model"] is None
    exploit = json.loads((out / "gen_1" / "exploit" / "exploit.json").read_text())
    assert exploit["training"]["steps"] == 128 and exploit["bb_per_100"] == rows[1]["br_bb_per_100"]
    assert exploit["seed"] == -(0 + 1 + 1), "generation 1's match is on the seed -(seed + g + 1), never trained on"
    drawn = json.loads((out / "gen_1" / "learner" / "summary.json").read_text())["opponent_draws"]
    assert any("br_g0" in counts for counts in drawn), "the best response of generation 0 is drawn as an opponent"

    before = _files(out)
    more = psro.run_psro(_args(psro, tmp_path, generations=3))
    assert more[:2] == rows and len(more) == 3, "a rerun reads finished generations back and goes on"
    assert all(_files(out)[name] == digest for name, digest in before.items()
               if name.startswith("gen_0/") or name.startswith("gen_1/"))
    third = json.loads((out / "gen_2" / "learner" / "config.json").read_text())
    assert len(third["opponents"]["baselines"]) == 4


def test_a_different_loop_is_refused_and_fresh_deletes_only_the_loops_files(psro, tmp_path):
    out = tmp_path / "psro"
    out.mkdir()
    (out / "gen_0").mkdir()
    with pytest.raises(ConfigError, match=r"psro: has gen_0 but no psro.json written by this loop; not touching it "
                                          r"\(not even with --fresh\)"):
        psro.run_psro(_args(psro, tmp_path, fresh=True))
    (out / "gen_0").rmdir()
    (out / "notes.txt").write_text("mine")
    args = _args(psro, tmp_path, generations=1)
    psro.run_psro(args)
    before = _files(out)
    with pytest.raises(ConfigError, match=r"holds another PSRO run \(br_weight was 3.0, now 1.0; steps_per_generation "
                                          r"was 128, now 256\); pass --fresh to delete it, or choose another --output"):
        psro.run_psro(_args(psro, tmp_path, generations=1, br_weight=1.0, steps_per_generation=256))
    with pytest.raises(ConfigError, match=r"holds another PSRO run \(base_config.algo_kwargs.n_epochs was 1, now 2\)"):
        psro.run_psro(_args(psro, tmp_path, generations=1,
                            config=_base_config(tmp_path, "other.yaml", algo_kwargs={**TINY_PPO, "n_epochs": 2})))
    assert _files(out) == before, "a refused run changes nothing"
    rows = psro.run_psro(_args(psro, tmp_path, generations=1, deals=20, fresh=True))
    assert rows[0]["hands"] == 40
    assert (out / "notes.txt").read_text() == "mine", "files that are not the loop's are kept"


@pytest.mark.parametrize("changes, message", [
    ({"generations": 0}, "--generations: expected a positive integer, got 0"),
    ({"br_steps": -5}, "--br-steps: expected a positive integer, got -5"),
    ({"deals": 1.5}, "--deals: expected a positive integer, got 1.5"),
    ({"br_weight": 0.0}, "--br-weight: expected a positive finite weight, got 0.0"),
    ({"br_weight": float("nan")}, "--br-weight: expected a positive finite weight, got nan"),
    ({"seed": -1}, "--seed: expected an integer from 0 to 4294967295, got -1"),
    ({"max_minutes": 0}, "--max-minutes: expected a positive number of minutes, got 0"),
    ({"output": " "}, "--output: expected a folder path"),
    ({"config": "nowhere.yaml"}, "nowhere.yaml: no such file"),
    ({"base": {"num_seats": 3}}, "razz exploit measures heads-up with 1000-chip stacks at the variant's stakes "
                                   "[1, 2, 5, 10]; the config plays 3 seats, 1000-chip stacks, stakes [1, 2, 5, 10]"),
    ({"base": {"big_bet": 20}}, "the config plays 2 seats, 1000-chip stacks, stakes [1, 2, 5, 20]"),
    ({"base": {"init_model": {"path": "nowhere.zip", "sha256": "0" * 64}}},
     "init_model.path: nowhere.zip is not a model file"),
])
def test_bad_settings_are_one_line_before_anything_is_written(psro, tmp_path, changes, message):
    changes = dict(changes)
    if "base" in changes:
        changes["config"] = _base_config(tmp_path, "other.yaml", **changes.pop("base"))
    with pytest.raises(ConfigError) as err:
        psro.run_psro(_args(psro, tmp_path, **changes))
    assert message in str(err.value) and "\n" not in str(err.value)
    assert not (tmp_path / "psro").exists()


def test_generation_0_starts_from_the_base_configs_init_model_and_a_rerun_keeps_it(psro, tmp_path):
    psro.run_psro(_args(psro, tmp_path, generations=1, output=str(tmp_path / "first")))
    made = json.loads((tmp_path / "first" / "gen_0" / "generation.json").read_text())["learner"]
    start = {"path": made["path"], "sha256": made["sha256"]}
    config = _base_config(tmp_path, "warm.yaml", init_model=start)
    rows = psro.run_psro(_args(psro, tmp_path, generations=1, config=config))
    out = tmp_path / "psro"
    assert json.loads((out / "gen_0" / "learner" / "config.json").read_text())["init_model"] == start
    assert json.loads((out / "psro.json").read_text())["base_config"]["init_model"] == start
    assert rows[0]["learner_steps"] == 128, "the loop counts its own steps, not the starting model's"
    before = _files(out)
    forged = _base_config(tmp_path, "forged.yaml", init_model={**start, "sha256": "0" * 64})
    with pytest.raises(ConfigError, match=r"forged.yaml: init_model: .*SHA-256"):
        psro.run_psro(_args(psro, tmp_path, generations=2, config=forged))
    Path(tmp_path / "copy.zip").write_bytes(Path(made["path"]).read_bytes())
    other = _base_config(tmp_path, "other.yaml", init_model={**start, "path": str(tmp_path / "copy.zip")})
    with pytest.raises(ConfigError, match=r"holds another PSRO run \(base_config.init_model.path was "):
        psro.run_psro(_args(psro, tmp_path, generations=2, config=other))
    assert _files(out) == before, "a refused run changes nothing"


def test_the_command_line_exits_2_with_one_line_and_refuses_a_file_as_output(tmp_path):
    (tmp_path / "taken").write_text("mine")
    result = subprocess.run([sys.executable, "razz_env/train/psro.py", "--config", _base_config(tmp_path),
                             "--output", str(tmp_path / "taken"), "--no-progress"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"psro_razz: --output: {tmp_path / 'taken'} is a file; expected a folder for the loop\n"
    assert (tmp_path / "taken").read_text() == "mine"


def test_an_output_that_cannot_be_written_is_one_line(psro, tmp_path, capsys):
    (tmp_path / "taken").write_text("mine")
    inside = tmp_path / "taken" / "psro"
    assert psro.main(["--config", _base_config(tmp_path), "--output", str(inside), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"psro_razz: cannot write the loop's files in {inside}: ") and err.count("\n") == 1
    assert (tmp_path / "taken").read_text() == "mine"


def test_an_interrupted_loop_continues_where_it_stopped(psro, tmp_path, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    out = tmp_path / "psro"
    argv = ["--config", _base_config(tmp_path), "--generations", "1", "--steps-per-generation", "128", "--br-steps",
            "128", "--deals", "10", "--output", str(out), "--no-progress", "--no-plot"]
    measure = psro.best_response
    monkeypatch.setattr(psro, "best_response", interrupted)
    assert psro.main(argv) == 130
    assert capsys.readouterr().err.endswith(f"psro_razz: interrupted; what is finished is saved in {out}: rerun the "
                                            f"same command to continue\n")
    learner = _files(out / "gen_0" / "learner")
    assert "final.zip" in learner and not (out / "gen_0" / "generation.json").exists()
    monkeypatch.setattr(psro, "best_response", measure)
    assert psro.main(argv) == 0
    assert "gen_0/learner: already trained; using that run" in capsys.readouterr().err
    assert _files(out / "gen_0" / "learner") == learner, "the finished learner is not trained again"
    assert (out / "gen_0" / "generation.json").exists() and (out / "psro.csv").exists()
    assert not (out / "psro.png").exists()


def test_a_learner_killed_before_its_summary_is_trained_again_and_one_stopped_early_resumes(psro, tmp_path, capsys):
    args = _args(psro, tmp_path)
    base = psro.check_args(args)
    config = psro.learner_config(base, args, 0, [], None)
    run = Path(config.output)
    psro.train_learner(config, progress=False)
    (run / "summary.json").unlink()
    summary = psro.train_learner(config, progress=False)
    assert summary["steps"] == 128 and summary["resumed_from"] is None
    assert "--fresh: deleting" in capsys.readouterr().err
    longer = psro.learner_config(base, psro.Args(**{**vars(args), "steps_per_generation": 256}), 0, [], None)
    (run / "summary.json").unlink()
    summary = psro.train_learner(longer, progress=False)
    assert summary["steps"] == 256 and summary["resumed_from"] == 128
