"""``experiments/install_chain.py``: a model of runs that continue each other installed with the chain's totals."""

from __future__ import annotations

import hashlib
import importlib
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.config import TrainConfig  # noqa: E402
from razz_env.train.trainer import train  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
RESULTS = ("agent,opponent,hands,bb_per_100,ci95_low,ci95_high,ci95_half_width\n"
           "me,random,200,50.5,40.0,61.0,10.5\nme,monte_carlo,200,1.5,-2.0,5.0,3.5\n")


@pytest.fixture
def install_chain(tmp_path, monkeypatch):
    """The script's module, its zoo in a temporary folder."""
    monkeypatch.syspath_prepend(str(REPO))
    module = importlib.import_module("experiments.install_chain")
    monkeypatch.setattr(module.train_zoo, "ZOO", tmp_path / "zoo")
    return module


def _config(tmp_path, name: str, init_model: dict | None = None) -> str:
    settings = {"name": name, "total_timesteps": 128, "n_envs": 2, "net_arch": [8],
                "algo_kwargs": {"n_steps": 32, "batch_size": 64, "n_epochs": 1}, "eval_every": 64, "eval_deals": 2,
                "checkpoint_every": 64, "opponents": {"snapshot_every": 64}, "output": str(tmp_path / name),
                "init_model": init_model}
    path = tmp_path / f"{name}.yaml"
    path.write_text(json.dumps(settings))  # JSON is YAML
    return str(path)


def _final(tmp_path, name: str) -> dict:
    hashes = json.loads((tmp_path / name / "hashes.json").read_text())
    return {"path": str(tmp_path / name / "final.zip"), "sha256": hashes["final.zip"]}


@pytest.fixture
def chain(tmp_path) -> list[str]:
    """Two tiny runs, the second starting from the first's final model."""
    first = _config(tmp_path, "first")
    train(TrainConfig.from_yaml(first), progress=False)
    second = _config(tmp_path, "second", _final(tmp_path, "first"))
    train(TrainConfig.from_yaml(second), progress=False)
    return [first, second]


def test_a_checkpoint_of_the_last_run_is_installed_with_the_chains_totals(install_chain, chain, tmp_path):
    (tmp_path / "results.csv").write_text(RESULTS)
    entry = install_chain.main(install_chain.Args(
        configs=chain, name="chained", model="checkpoints/step_64.zip", acceptance=str(tmp_path / "results.csv"),
        selected_by="by hand", curve=str(tmp_path / "curve.png")))
    zoo = tmp_path / "zoo"
    assert entry == json.loads((zoo / "manifest.json").read_text())["chained"]
    assert entry["sha256"] == hashlib.sha256((zoo / "chained.zip").read_bytes()).hexdigest()
    assert entry["steps"] == 128 + 64, "the first run's 128 steps, then 64 of the second"
    clocks = [json.loads((tmp_path / name / "clock.json").read_text()) for name in ("first", "second")]
    minutes = clocks[0]["128"]["train_minutes"] + clocks[1]["64"]["train_minutes"]
    assert entry["train_minutes_2_core_cpu"] == round(minutes, 1)
    assert entry["command"] == f"razz train --config {chain[0]} && razz train --config {chain[1]}"
    assert entry["config"] == chain[1] and entry["selected_by"] == "by hand"
    assert entry["final_eval"][1] == {"opponent": "monte_carlo", "bb_per_100": 1.5, "ci95_low": -2.0,
                                      "ci95_high": 5.0, "hands": 200}
    assert (tmp_path / "curve.png").stat().st_size > 0
    with pytest.raises(ConfigError, match=r"chained already in .*pass --overwrite-zoo"):
        install_chain.main(install_chain.Args(configs=chain, name="chained"))


def test_runs_that_do_not_continue_each_other_and_bad_input_are_refused_before_writing(install_chain, chain,
                                                                                       tmp_path):
    stray = _config(tmp_path, "stray")
    train(TrainConfig.from_yaml(stray), progress=False)
    cases = [
        ({"configs": [chain[0], stray]}, r"stray: did not start from a model of .*first"),
        ({"configs": [chain[1], chain[0]]}, r"first: did not start from a model of .*second"),
        ({"configs": chain, "model": "snapshots/step_64.zip"}, r"--model snapshots/step_64.zip: expected final.zip"),
        ({"configs": chain, "name": "Bad-Name"}, r"--name 'Bad-Name': expected lowercase letters"),
        ({"configs": chain, "acceptance": str(tmp_path / "missing.csv")}, r"--acceptance .*missing.csv: not a results"),
    ]
    for changes, message in cases:
        with pytest.raises(ConfigError, match=message):
            install_chain.main(install_chain.Args(**{"name": "chained", **changes}))
        assert not (tmp_path / "zoo").exists()


def test_the_command_line_refuses_in_one_line(tmp_path):
    result = subprocess.run([sys.executable, str(REPO / "experiments" / "install_chain.py"), "--configs",
                             str(tmp_path / "none.yaml"), "--name", "x"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("install_chain: ") and "none.yaml" in result.stderr


def test_a_chain_from_an_imitation_warm_start_gets_its_command_first_and_its_minutes(install_chain, tmp_path):
    """The first run's ``init_model`` sits beside an ``imitation.json`` naming its SHA-256: the entry's command
    starts with the imitation's, and its seconds count in the training minutes."""
    from experiments.imitation_warm_start import command_of

    seed = _config(tmp_path, "seed_run")
    train(TrainConfig.from_yaml(seed), progress=False)
    imitation = tmp_path / "imitation"
    imitation.mkdir()
    start = _final(tmp_path, "seed_run")
    (imitation / "model.zip").write_bytes(Path(start["path"]).read_bytes())
    record = {"config": "c.yaml", "out": str(imitation), "teacher": "monte_carlo", "hands": 10, "epochs": 2,
              "batch_size": 64, "learning_rate": 0.0003, "seed": 0, "opponents": ["rock", "tag"], "weights": [1.0, 2.5],
              "seconds": 120.0, "sha256": start["sha256"]}
    (imitation / "imitation.json").write_text(json.dumps(record))
    only = _config(tmp_path, "only", {"path": str(imitation / "model.zip"), "sha256": start["sha256"]})
    train(TrainConfig.from_yaml(only), progress=False)
    entry = install_chain.main(install_chain.Args(configs=[only], name="imitated"))
    assert entry["command"] == f"{command_of(record)} && razz train --config {only}"
    assert entry["command"].startswith("python experiments/imitation_warm_start.py --config c.yaml --teacher "
                                       "monte_carlo --hands 10 --epochs 2 --batch-size 64 --learning-rate 0.0003")
    assert entry["command"].split(" && ")[0].endswith("--opponents rock tag --weights 1 2.5")
    minutes = json.loads((tmp_path / "only" / "clock.json").read_text())["128"]["train_minutes"]
    assert entry["train_minutes_2_core_cpu"] == round(minutes + 2.0, 1)
    record["sha256"] = "0" * 64
    (imitation / "imitation.json").write_text(json.dumps(record))
    other = install_chain.main(install_chain.Args(configs=[only], name="not_imitated"))
    assert other["command"] == f"razz train --config {only}", "a record of another model is not this start"


@pytest.fixture
def psro_loop(chain, tmp_path, monkeypatch) -> tuple[str, Path]:
    """A tiny three-generation ``razz_env/train/psro.py`` loop continuing ``chain``: its base config and folder."""
    from razz_env.train import best_response

    monkeypatch.setattr(best_response, "DEFAULTS", {**best_response.DEFAULTS, "n_envs": 2, "net_arch": [8],
                                                    "algo_kwargs": {"n_steps": 32, "batch_size": 64, "n_epochs": 1},
                                                    "eval_every": 10**6, "eval_deals": 2, "checkpoint_every": 10**6})
    psro = importlib.import_module("razz_env.train.psro")
    base = _config(tmp_path, "base", _final(tmp_path, "second"))
    loop = tmp_path / "loop"
    psro.run_psro(psro.Args(config=base, generations=3, steps_per_generation=64, br_steps=64, br_weight=1.5,
                            deals=4, seed=7, output=str(loop), progress=False, plot=False))
    return base, loop


def _minutes(clock_path: Path) -> float:
    """A run's training minutes at its last clock entry."""
    return max(json.loads(clock_path.read_text()).values(), key=lambda e: e["train_minutes"])["train_minutes"]


def _last_best_response_made_slow(loop: Path) -> tuple[dict, dict]:
    """Generation 1's learner and best response of ``loop`` as specs, the best response's clock 3 minutes longer
    (visible after the manifest's rounding)."""
    clock_path = loop / "gen_1" / "exploit" / "training" / "clock.json"
    clock = json.loads(clock_path.read_text())
    clock_path.write_text(json.dumps({step: {key: minutes + 3.0 for key, minutes in entry.items()}
                                      for step, entry in clock.items()}))
    learner = {"path": str(loop / "gen_1" / "learner" / "final.zip"),
               "sha256": json.loads((loop / "gen_1" / "learner" / "hashes.json").read_text())["final.zip"]}
    return learner, json.loads((loop / "gen_1" / "generation.json").read_text())["best_response"]


def _pool_config(tmp_path, name: str, init_model: dict, pool: list) -> str:
    """A tiny config starting from ``init_model`` against ``pool`` (equal weights)."""
    path = Path(_config(tmp_path, name, init_model))
    settings = json.loads(path.read_text())
    settings["opponents"] = {"baselines": pool, "weights": [1.0] * len(pool), "snapshot_every": 64}
    path.write_text(json.dumps(settings))
    return str(path)


def test_a_chain_that_goes_on_with_a_psro_loop_gets_its_command_generations_and_best_responses(
        install_chain, chain, psro_loop, tmp_path):
    """``--psro CONFIG:OUTPUT:GENERATION``: the loop's learners of generations 0 to GENERATION join the chain, the
    loop's command follows the configs', and the best responses that trained the model count in its minutes."""
    psro = importlib.import_module("razz_env.train.psro")
    base, loop = psro_loop
    entry = install_chain.main(install_chain.Args(configs=chain, psro=[f"{base}:{loop}:1"], name="psro_chained"))
    assert entry["steps"] == 128 + 128 + 64 + 64, "both runs, then generations 0 and 1 (not 2)"
    assert entry["command"] == (f"razz train --config {chain[0]} && razz train --config {chain[1]} && "
                                f"python razz_env/train/psro.py --config {base} --generations 2 "
                                f"--steps-per-generation 64 --br-steps 64 --br-weight 1.5 --deals 4 --seed 7 "
                                f"--output {loop}")
    assert entry["config"] == base
    spelled = shlex.split(entry["command"].split(" && ")[-1])
    parsed = psro.Args(**vars(psro._parser().parse_args(spelled[2:])))
    assert (parsed.config, parsed.generations, parsed.output) == (base, 2, str(loop))
    assert psro.record_of(parsed, TrainConfig.from_yaml(base)) == json.loads((loop / "psro.json").read_text()), \
        "the spelled command reruns the same loop"
    alone = install_chain.main(install_chain.Args(configs=[], psro=[f"{base}:{loop}:2"], name="psro_alone"))
    assert alone["command"] == " ".join([*spelled[:5], "3", *spelled[6:]]) and alone["steps"] == 3 * 64
    minutes = [_minutes(path) for path in (tmp_path / "first" / "clock.json", tmp_path / "second" / "clock.json",
                                           loop / "gen_0" / "learner" / "clock.json",
                                           loop / "gen_1" / "learner" / "clock.json",
                                           loop / "gen_0" / "exploit" / "training" / "clock.json")]
    assert entry["train_minutes_2_core_cpu"] == round(sum(minutes), 1), "generation 0's best response counts, 1's not"
    stage = install_chain.PsroStage.parse(f"{base}:{loop}:1")
    best_responses = [json.loads((loop / f"gen_{g}" / "exploit" / "training" / "clock.json").read_text())
                      for g in range(3)]
    seconds = [60 * max(e["train_minutes"] for e in c.values()) for c in best_responses]
    assert all(s > 0 for s in seconds)
    assert stage.best_response_seconds(1) == pytest.approx(seconds[0])
    assert stage.best_response_seconds(3) == pytest.approx(sum(seconds))
    assert stage.runs() == [loop / "gen_0" / "learner", loop / "gen_1" / "learner"]

    cases = [
        (f"{base}:{loop}", r"expected CONFIG:OUTPUT:GENERATION"),
        (f"{base}:{loop}:3", r"finished generations 0 to 2, not 3"),
        (f"{chain[0]}:{loop}:1", r"first.yaml is not the base config the loop in .*loop recorded"),
        (f"{base}:{tmp_path / 'first'}:0", r"holds no readable psro.json"),
    ]
    for text, message in cases:
        with pytest.raises(ConfigError, match=message):
            install_chain.main(install_chain.Args(configs=chain, psro=[text], name="other"))
    with pytest.raises(ConfigError, match=r"loop/gen_0/learner: did not start from a model of .*first"):
        install_chain.main(install_chain.Args(configs=chain[:1], psro=[f"{base}:{loop}:0"], name="other"))
    with pytest.raises(ConfigError, match=r"the chain is empty"):
        install_chain.main(install_chain.Args(configs=[], name="other"))
    assert json.loads((tmp_path / "zoo" / "manifest.json").read_text()).keys() == {"psro_chained", "psro_alone"}


def test_then_configs_continue_the_loops_learner_and_count_its_last_best_response_when_their_pool_holds_it(
        install_chain, chain, psro_loop, tmp_path):
    """``--then CONFIG ...``: ``razz train`` runs after the loop join the chain and its command; the loop's last best
    response counts in the minutes only when a ``--then`` pool holds it."""
    base, loop = psro_loop
    learner, last_br = _last_best_response_made_slow(loop)
    runs = {}
    for name, pool in (("with_br", ["random", last_br]), ("without_br", ["random"])):
        runs[name] = _pool_config(tmp_path, name, learner, pool)
        train(TrainConfig.from_yaml(runs[name]), progress=False)
    before = [_minutes(tmp_path / run / "clock.json") for run in ("first", "second")]
    before += [_minutes(loop / f"gen_{g}" / "learner" / "clock.json") for g in (0, 1)]
    best_responses = [_minutes(loop / f"gen_{g}" / "exploit" / "training" / "clock.json") for g in (0, 1)]
    for name, counted in (("with_br", best_responses), ("without_br", best_responses[:1])):
        entry = install_chain.main(install_chain.Args(configs=chain, psro=[f"{base}:{loop}:1"], then=[runs[name]],
                                                      name=name))
        assert entry["steps"] == 128 + 128 + 64 + 64 + 128
        assert entry["command"].endswith(f"--output {loop} && razz train --config {runs[name]}")
        assert entry["config"] == runs[name]
        own = _minutes(tmp_path / name / "clock.json")
        assert entry["train_minutes_2_core_cpu"] == round(sum(before) + own + sum(counted), 1)
    assert best_responses[1] > 3.0
    with pytest.raises(ConfigError, match=r"--then continues a PSRO loop's learner: give --psro too"):
        install_chain.main(install_chain.Args(configs=chain, then=[runs["with_br"]], name="other"))
    with pytest.raises(ConfigError, match=r"with_br: did not start from a model of"):
        install_chain.main(install_chain.Args(configs=chain, psro=[f"{base}:{loop}:2"], then=[runs["with_br"]],
                                              name="other"))


def test_a_later_psro_stage_counts_the_earlier_loops_last_best_response_when_its_pool_holds_it(
        install_chain, chain, psro_loop, tmp_path):
    """Two ``--psro`` stages: the first loop's last best response counts in the minutes when the second loop's
    base pool holds it, and not when it does not."""
    psro = importlib.import_module("razz_env.train.psro")
    base, loop = psro_loop
    learner, last_br = _last_best_response_made_slow(loop)
    minutes = {}
    for name, pool in (("held", ["random", last_br]), ("not_held", ["random"])):
        stage_base = _pool_config(tmp_path, name, learner, pool)
        second = tmp_path / f"loop_{name}"
        psro.run_psro(psro.Args(config=stage_base, generations=1, steps_per_generation=64, br_steps=64, br_weight=1.0,
                                deals=4, seed=9, output=str(second), progress=False, plot=False))
        stages = [f"{base}:{loop}:1", f"{stage_base}:{second}:0"]
        entry = install_chain.main(install_chain.Args(configs=chain, psro=stages, name=name))
        assert entry["steps"] == 128 + 128 + 64 + 64 + 64 and entry["config"] == stage_base
        minutes[name] = entry["train_minutes_2_core_cpu"]
    slow = _minutes(loop / "gen_1" / "exploit" / "training" / "clock.json")
    assert slow > 3.0
    assert minutes["held"] - minutes["not_held"] == pytest.approx(slow, abs=0.2), "the second loops differ by seconds"
