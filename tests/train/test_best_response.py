"""Learned best responses: training against a frozen target, the ``sb3_model`` agent type it returns
(verified, declared, picklable), bad input refused up front, and one best response per run folder."""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest

from razz_env.encoding.interface import Declaration

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch

from razz_env.agents import sb3_zoo
from razz_env.agents.base import BaseAgent
from razz_env.agents.registry import make_agent, register
from razz_env.agents.sb3_agent import UntrustedModelError
from razz_env.encoding.actions import BRING_IN, CHECK_CALL, FOLD
from razz_env.encoding.interface import Observer, seating_problem
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate.block_sums import summarise_tables
from razz_env.evaluate.blocks import play_deals
from razz_env.evaluate.stats import win_rate
from razz_env.train import best_response
from razz_env.train.best_response import (
    best_response_config,
    run_best_response,
    train_best_response,
)
from razz_env.train.config import TrainConfig
from razz_env.train.trainer import TrainingInterrupted

torch.set_num_threads(1)

ROOT = Path(__file__).resolve().parents[2]
TABLE = HandConfig.create("razz", num_seats=2, stacks=1000)
# A tiny learner: 2 environments, 256 steps per rollout, a 32-unit layer, a high learning rate.
TINY = {"n_envs": 2, "net_arch": [32], "eval_every": 1024, "eval_deals": 10, "checkpoint_every": 1024,
        "algo_kwargs": {"n_steps": 128, "batch_size": 128, "n_epochs": 4, "learning_rate": 0.003, "gamma": 1.0,
                        "ent_coef": 0.0}}


@register("test_folds_to_bets", replace=True)
class FoldsToBets(BaseAgent):
    """Checks, and folds to any bet (the bring-in included): betting every time beats it by 20 bb/100 exactly."""

    name = "folds_to_bets"
    declaration = Declaration(observes=())

    def act(self, observation):
        if observation.action_mask[FOLD]:
            return FOLD
        return self.first_legal(observation, (CHECK_CALL, BRING_IN))


@register("test_six_max_only", replace=True)
class SixMaxOnly(FoldsToBets):
    """Declares that it plays 6-handed only."""

    name = "six_max_only"
    declaration = Declaration(seat_counts=(6,))


INTERRUPT = {"after": None}


@register("test_interrupting", replace=True)
class Interrupting(FoldsToBets):
    """Presses Ctrl-C (raises KeyboardInterrupt) at its ``INTERRUPT["after"]``-th decision from now, once."""

    name = "interrupting"

    def act(self, observation):
        if INTERRUPT["after"] is not None:
            INTERRUPT["after"] -= 1
            if INTERRUPT["after"] <= 0:
                INTERRUPT["after"] = None
                raise KeyboardInterrupt
        return super().act(observation)


def _duplicate_bb100(agent, opponent, deals: int, seed: str):
    tables = play_deals([agent, opponent], TABLE, deals, seed)
    sums = summarise_tables(tables, 2, deals, TABLE.stakes.big_bet_size)
    return win_rate(sums["deals"], sums["deal_sum"][0], sums["deal_sumsq"][0])


def _tiny(target, output, steps: int = 256, seed: int = 0, fresh: bool = False, notify=None):
    config = best_response_config(target, steps=steps, output=output, seed=seed, settings=TINY)
    return run_best_response(config, fresh=fresh, progress=False, notify=notify or (lambda message: None))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A best response to the folder, 3,072 steps of the tiny learner (a few seconds)."""
    output = tmp_path_factory.mktemp("best_response") / "folds"
    return _tiny("test_folds_to_bets", output, steps=3000)


@pytest.fixture
def run_copy(trained, tmp_path):
    """A copy of the trained run folder, for tests that change it."""
    copy = tmp_path / "copy"
    shutil.copytree(trained["output"], copy)
    return copy


# ---------------------------------------------------------------- defaults and the call


def test_the_defaults_file_is_the_code_defaults():
    """configs/best_response.yaml is a config razz train runs, and equals what train_best_response builds."""
    from_file = TrainConfig.from_yaml(ROOT / "configs" / "best_response.yaml")
    from_code = best_response_config("calling_station", steps=200_000, output="runs/best_response", seed=0)
    assert from_file == from_code
    assert from_code.torch_threads == 1 and from_code.num_seats == 2
    assert from_code.opponents.baselines == ("calling_station",) and from_code.eval_opponents == ("calling_station",)
    assert from_code.opponents.self_play_end == 0.0 and from_code.algorithm == "maskable_ppo"


def test_train_best_response_returns_a_spec_of_the_trained_model(tmp_path, monkeypatch):
    """The call ``razz exploit --method rl`` makes (the tiny learner in place of the defaults: one rollout)."""
    monkeypatch.setattr(best_response, "DEFAULTS", {**best_response.DEFAULTS, **TINY})
    result = train_best_response("calling_station", steps=1, output=tmp_path / "br", progress=False)
    assert set(result) == {"spec", "steps", "train_seconds", "output"}
    assert result["steps"] == 2 * 128, "one whole rollout of the 2 environments"
    assert 0 < result["train_seconds"] < 600 and result["output"] == str(tmp_path / "br")
    spec = result["spec"]
    assert spec["type"] == "sb3_model" and spec["variant"] == "razz" and spec["num_seats"] == 2
    assert spec["path"] == str((tmp_path / "br" / "checkpoints" / "step_256.zip").resolve())
    assert spec["sha256"] == hashlib.sha256(Path(spec["path"]).read_bytes()).hexdigest()
    recorded = json.loads((tmp_path / "br" / "config.json").read_text())
    assert recorded["opponents"]["baselines"] == ["calling_station"] and recorded["torch_threads"] == 1
    assert json.dumps(result)  # plain data, as a results folder or a report records it


def test_a_tiny_best_response_builds_plays_legally_and_exploits_a_folder(trained):
    """Against an agent that folds to any bet, the best response bets: near the optimum of 20 bb/100.

    A uniformly random player makes about 13 bb/100 against it; an illegal action would raise.
    """
    agent = make_agent(trained["spec"])
    assert trained["steps"] == 3072 and agent.name == "best_response(test_folds_to_bets)"
    rate = _duplicate_bb100(agent, make_agent("test_folds_to_bets"), 200, "fresh-match")
    assert rate.mean_bb100 >= 18.0, rate
    assert _duplicate_bb100(make_agent("random", seed=5), make_agent("test_folds_to_bets"), 200,
                            "fresh-match").mean_bb100 < 16.0


def test_the_agent_declares_its_table(trained):
    agent = make_agent(trained["spec"])
    assert agent.declaration.variants == ("razz",) and agent.declaration.seat_counts == (2,)
    assert "cannot be seated at stud with 2 seats" in seating_problem(agent, "stud", 2)
    with pytest.raises(ValueError, match="cannot be seated at razz with 3 seats"):
        agent.reset(0, 3, "razz")


# ---------------------------------------------------------------- the sb3_model agent type


def test_a_wrong_hash_is_refused_before_anything_is_unpickled(trained, monkeypatch):
    loaded = []
    monkeypatch.setattr(sb3_zoo, "load_model", lambda *args, **kwargs: loaded.append(args))
    with pytest.raises(UntrustedModelError, match="SHA-256 .* differs from the recorded 0000"):
        make_agent({**trained["spec"], "sha256": "0" * 64})
    assert loaded == []


def test_a_changed_file_is_refused(run_copy, trained):
    spec = dict(trained["spec"], path=str(run_copy / Path(trained["spec"]["path"]).relative_to(trained["output"])))
    make_agent(spec)
    with open(spec["path"], "ab") as handle:
        handle.write(b"appended")
    sb3_zoo._verified_model.cache_clear()
    with pytest.raises(UntrustedModelError, match="differs from the recorded"):
        make_agent(spec)


@pytest.mark.parametrize(("change", "message"), [
    ({"sha256": "abc"}, "sha256: expected the file's SHA-256 as 64 hex digits, got 'abc'"),
    ({"sha256": None}, "sha256: expected the file's SHA-256 as 64 hex digits, got None"),
    ({"path": ""}, "path: expected the model file's path, got ''"),
    ({"path": "/no/such/model.zip"}, "/no/such/model.zip: cannot be read"),
    ({"algorithm": "sac"}, "algorithm: expected one of maskable_ppo, ppo, a2c, dqn, qrdqn, got 'sac'"),
    ({"algorithm": "qrdqn"}, r"the file does not hold a qrdqn model \(AttributeError: "),
    ({"encoding": "pixels"}, "encoding: expected one of flat, ranks, flat8, ranks8, got 'pixels'"),
    ({"variant": "holdem"}, "variant: expected the variant the model was trained for"),
    ({"num_seats": 9}, "num_seats: expected the seat count the model was trained for; razz seats 2 to 8, got 9"),
    ({"variant": "minirazz_tiny", "num_seats": 3}, r"minirazz_tiny seats 2 to 2 \(its 6-card deck deals 3 cards a "
                                                   r"seat\), got 3"),
    ({"num_seats": True}, "num_seats: expected the seat count"),
    ({"num_seats": 3}, r"observations of shape \(\d+,\) .* at 3 seats has shape"),
    ({"encoding": "ranks"}, "the ranks encoding of razz at 2 seats has shape"),
    ({"deterministic": "yes"}, "deterministic: expected true/false, got 'yes'"),
    ({"seed": False}, r"seed: expected an integer, or null, got False"),
    ({"seed": -1}, "seed: must be at least 0, got -1"),
    ({"name": 3}, "name: expected a non-empty name, got 3"),
])
def test_a_bad_spec_is_one_clear_error(trained, change, message):
    with pytest.raises((ValueError, UntrustedModelError), match=message):
        make_agent({**trained["spec"], **change})


@pytest.mark.parametrize("missing", ["path", "sha256", "variant", "num_seats"])
def test_a_spec_without_a_required_key_is_refused(trained, missing):
    spec = {k: v for k, v in trained["spec"].items() if k != missing}
    with pytest.raises(TypeError, match=f"missing 1 required positional argument: '{missing}'"):
        make_agent(spec)


def test_the_agent_pickles_as_its_spec_and_rebuilds_verified(trained, run_copy):
    spec = dict(trained["spec"], path=str(run_copy / Path(trained["spec"]["path"]).relative_to(trained["output"])))
    agent = make_agent(spec)
    data = pickle.dumps(agent)
    assert len(data) < 2000, "the spec travels, not the model"
    again = pickle.loads(data)
    hand = HandState(TABLE, seed=4)
    observer = Observer(agent, TABLE)
    observations = [observer(hand, hand.actor)]
    assert again.act_batch(observations) == agent.act_batch(observations) and again.spec == agent.spec
    Path(spec["path"]).write_bytes(b"swapped after pickling")
    sb3_zoo._verified_model.cache_clear()
    with pytest.raises(UntrustedModelError, match="differs from the recorded"):
        pickle.loads(data)


@pytest.mark.slow
def test_tournament_workers_build_it_from_the_spec(trained, tmp_path):
    """The harness builds agents in spawned worker processes from the spec."""
    from razz_env.evaluate.config import TournamentConfig
    from razz_env.evaluate.runner import run_tournament

    config = TournamentConfig.from_dict({
        "name": "br", "agents": [dict(trained["spec"], label="br"), "calling_station"], "deals": 40,
        "block_deals": 20, "workers": 2, "output": str(tmp_path / "t"), "seed": 3})
    result = run_tournament(config, progress=False)
    assert not result.failures and result.labels == ["br", "calling_station"] and result.blocks_done == 2


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("target", "options", "message"), [
    ("nope", {}, "target: unknown agent 'nope'; known agents: "),
    ({"type": "monte_carlo", "samples": 0}, {}, "target: samples: must be at least 1, got 0"),
    ({"samples": 3}, {}, "target: agent spec .* has no 'type' key"),
    (3, {}, "target: expected an agent name or a mapping with 'type', got 3"),
    ("", {}, "target: expected an agent name"),
    ("ppo_razz", {"variant": "stud"}, "target: agent 'ppo_razz' plays razz at 2 seats; it cannot be seated at "
                                      "stud with 2 seats"),
    ("test_six_max_only", {}, "target: agent 'six_max_only' plays any variant at 6 seats; it cannot be seated "
                              "at razz with 2 seats"),
    ("calling_station", {"variant": "holdem"}, "variant: unknown variant 'holdem'; known: "),
    ("calling_station", {"steps": 0}, "steps: must be at least 1, got 0"),
    ("calling_station", {"steps": -5}, "steps: must be at least 1, got -5"),
    ("calling_station", {"steps": True}, "steps: expected a number of training steps, got True"),
    ("calling_station", {"steps": 2.5}, "steps: expected a number of training steps, got 2.5"),
    ("calling_station", {"steps": "100"}, "steps: expected a number of training steps, got '100'"),
    ("calling_station", {"seed": -1}, "seed: must be at least 0, got -1"),
    ("calling_station", {"seed": 2**32}, "seed: must be at most 4294967295, got 4294967296"),
    ("calling_station", {"output": ""}, "output: expected a folder path"),
])
def test_bad_input_is_refused_before_anything_is_touched(tmp_path, target, options, message):
    call = {"steps": 100, "output": tmp_path / "br", **options}
    with pytest.raises(ConfigError, match=message):
        train_best_response(target, progress=False, **call)
    assert list(tmp_path.iterdir()) == []


def test_settings_may_not_set_what_the_call_gives(tmp_path):
    with pytest.raises(ConfigError, match="settings: seed is given by the call"):
        best_response_config("calling_station", steps=10, output=tmp_path, settings={"seed": 3})
    with pytest.raises(ConfigError, match="settings: expected a mapping of training settings, got 'n_envs'"):
        best_response_config("calling_station", steps=10, output=tmp_path, settings="n_envs")
    with pytest.raises(ConfigError, match="settings: opponents: expected a mapping of opponent-pool settings, "
                                          "got None"):
        best_response_config("calling_station", steps=10, output=tmp_path, settings={"opponents": None})
    with pytest.raises(ConfigError, match="a best response is maskable_ppo against the frozen target alone .* "
                                          "got algorithm 'ppo'"):
        best_response_config("calling_station", steps=10, output=tmp_path, settings={"algorithm": "ppo"})
    with pytest.raises(ConfigError, match=r"\(no self-play\), .* self-play shares 0.0 to 0.5"):
        best_response_config("calling_station", steps=10, output=tmp_path,
                             settings={"opponents": {"self_play_end": 0.5}})


# ---------------------------------------------------------------- one best response per folder


def test_the_same_call_reuses_the_finished_run(trained, run_copy, monkeypatch):
    monkeypatch.setattr(best_response, "train", lambda *args, **kwargs: pytest.fail("trained again"))
    messages = []
    again = _tiny("test_folds_to_bets", run_copy, steps=3000, notify=messages.append)
    assert messages == [f"{run_copy} already holds this best response; reusing it"]
    assert again["steps"] == trained["steps"] and again["train_seconds"] == trained["train_seconds"]
    assert again["spec"]["sha256"] == trained["spec"]["sha256"]


def test_more_steps_continue_the_run(run_copy):
    messages = []
    longer = _tiny("test_folds_to_bets", run_copy, steps=3500, notify=messages.append)
    assert longer["steps"] == 3584, "whole rollouts of 256 steps from 3,072 to at least 3,500"
    assert any(message.startswith(f"resuming {run_copy} from checkpoints/step_3072.zip") for message in messages)
    steps = [int(line.split(",")[0]) for line in (run_copy / "eval.csv").read_text().splitlines()[1:]]
    assert steps == sorted(steps) and steps[-1] == longer["steps"]


@pytest.mark.parametrize(("target", "seed", "steps", "message"), [
    ("test_folds_to_bets", 1, 3000, r"holds another run \(seed was 0, now 1\); pass fresh"),
    ("calling_station", 0, 3000, r"holds another run \(eval_opponents was \['test_folds_to_bets'\], now "
                                 r"\['calling_station'\]; opponents was"),
    ("test_folds_to_bets", 0, 1000, "holds this best response run toward 3000 steps, now at 3072, more than the "
                                    "1000 asked for"),
])
def test_another_run_in_the_folder_is_refused_and_left_alone(run_copy, target, seed, steps, message):
    before = _snapshot(run_copy)
    with pytest.raises(ConfigError, match=message):
        _tiny(target, run_copy, steps=steps, seed=seed)
    assert _snapshot(run_copy) == before


def test_a_damaged_clock_is_refused_in_one_line(run_copy):
    (run_copy / "clock.json").write_text("null")
    with pytest.raises(ConfigError, match=r"clock.json: no readable training time for step 3072 .*pass fresh"):
        _tiny("test_folds_to_bets", run_copy, steps=3000)


def test_fresh_deletes_the_earlier_run_first(run_copy):
    result = _tiny("test_folds_to_bets", run_copy, steps=256, seed=1, fresh=True)
    assert result["steps"] == 256
    assert json.loads((run_copy / "config.json").read_text())["seed"] == 1
    assert [p.name for p in (run_copy / "checkpoints").iterdir()] == ["step_256.zip"]


def test_a_folder_with_run_files_but_no_config_is_refused(tmp_path):
    folder = tmp_path / "br"
    folder.mkdir()
    (folder / "eval.csv").write_text("steps\n")
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match=r"has eval.csv but no config.json written by a training run"):
        _tiny("calling_station", folder)
    assert sorted(p.name for p in folder.iterdir()) == ["eval.csv", "notes.txt"]


def test_a_folder_of_other_files_is_used_and_they_are_kept(tmp_path):
    folder = tmp_path / "br"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    _tiny("calling_station", folder)
    assert (folder / "notes.txt").read_text() == "mine" and (folder / "config.json").exists()


def test_an_interrupted_run_saves_a_checkpoint_and_the_same_call_continues_it(tmp_path):
    folder = tmp_path / "br"
    INTERRUPT["after"] = 150
    try:
        with pytest.raises(TrainingInterrupted, match="the same call .* continues from it"):
            _tiny("test_interrupting", folder, steps=512)
    finally:
        INTERRUPT["after"] = None
    saved = [p.name for p in (folder / "checkpoints").iterdir()]
    assert len(saved) == 1 and not (folder / "final.zip").exists()
    messages = []
    result = _tiny("test_interrupting", folder, steps=512, notify=messages.append)
    assert result["steps"] >= 512
    assert any(message.startswith(f"resuming {folder} from checkpoints/{saved[0]}") for message in messages)


# ---------------------------------------------------------------- a real target


@pytest.mark.slow
def test_a_best_response_beats_the_calling_station(tmp_path):
    """30k steps of the default learner value-bet the station: a clearly positive fresh duplicate match."""
    result = train_best_response("calling_station", steps=30_000, output=tmp_path / "br", seed=3, progress=False)
    rate = _duplicate_bb100(make_agent(result["spec"]), make_agent("calling_station"), 1000, "measure")
    assert rate.low > 10.0, rate
    assert np.isfinite(result["train_seconds"])
