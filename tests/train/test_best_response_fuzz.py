"""Fuzzing the learned best response's inputs: every one is a valid result or one clean error line.

Categories: the arguments of :func:`train_best_response` (target, steps, seed, variant, output,
settings; nothing is trained and no folder is touched), ``sb3_model`` agent specs (one-field
mutations of a valid spec for the shipped ``ppo_razz`` file: a clean error, or an agent that plays
a hand legally) and damaged run folders (one file of a finished run replaced by junk: the call
reuses it, continues it, or refuses it in one line). ``RAZZ_BR_FUZZ_SCALE`` multiplies the example
counts for a longer run by hand; ``--hypothesis-show-statistics`` shows the outcome counts.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from razz_env.agents import sb3_zoo
from razz_env.agents.registry import make_agent
from razz_env.agents.sb3_agent import UntrustedModelError
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Observer
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.train import best_response
from razz_env.train.best_response import best_response_config, run_best_response, train_best_response
from razz_env.train.config import TrainConfig

torch.set_num_threads(1)

SCALE = int(os.environ.get("RAZZ_BR_FUZZ_SCALE", "1"))
TINY = {"n_envs": 2, "net_arch": [16], "eval_every": 1024, "eval_deals": 4, "checkpoint_every": 1024,
        "algo_kwargs": {"n_steps": 64, "batch_size": 64, "n_epochs": 1}}


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _clean(err: BaseException) -> None:
    message = str(err)
    assert message and "\n" not in message, repr(message)
    event(f"clean error: {type(err).__name__}")


AGENTS = ["random", "calling_station", "razz_heuristic", "monte_carlo", "ppo_razz", "qrdqn_razz", "nobody", "",
          "sb3_model"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(), st.text(max_size=10),
                    st.sampled_from(AGENTS + ["razz", "stud", "stud8", "action_razz", "holdem", "flat", "ranks"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8) | st.sampled_from(["type", "seed", "samples"]), inner,
                                        max_size=3), max_leaves=6)
targets = st.one_of(st.sampled_from(AGENTS), values,
                    st.fixed_dictionaries({"type": st.sampled_from(AGENTS)},
                                          optional={"seed": scalars, "samples": scalars, "label": scalars,
                                                    "margin": scalars}))
SETTING_KEYS = list(TrainConfig.__dataclass_fields__) + ["nonsense"]
settings_maps = st.none() | st.dictionaries(st.sampled_from(SETTING_KEYS), values, max_size=3)


VALID_CALL = {"target": "calling_station", "steps": 1000, "output": "OUT", "seed": 0, "variant": "razz",
              "settings": None}
call_values = {
    "target": targets,
    "steps": st.one_of(st.integers(-5, 10**7), scalars),
    "output": st.one_of(st.just("OUT"), scalars),
    "seed": st.one_of(st.integers(-3, 2**33), scalars),
    "variant": st.one_of(st.sampled_from(["razz", "stud", "stud8", "action_razz"]), scalars),
    "settings": settings_maps,
}


@fuzz(60)
@given(changes=st.lists(st.sampled_from(list(call_values)), min_size=1, max_size=2, unique=True).flatmap(
    lambda keys: st.fixed_dictionaries({key: call_values[key] for key in keys})))
def test_arguments_give_a_config_or_one_clean_error(monkeypatch, changes):
    """One or two arguments of a valid call changed: the call trains (never here) or refuses in one line."""
    call = {**VALID_CALL, **changes}
    with tempfile.TemporaryDirectory() as tmp:
        output = Path(tmp) / "br" if call.pop("output") == "OUT" else changes["output"]
        extra = call.pop("settings")
        calls = []
        monkeypatch.setattr(best_response, "run_best_response", lambda config, **kwargs: calls.append(config))
        try:
            if extra is None:
                train_best_response(call.pop("target"), output=output, progress=False, **call)
            else:
                best_response_config(call.pop("target"), output=output, settings=extra, **call)
        except ConfigError as err:
            _clean(err)
        else:
            event("valid")
        assert list(Path(tmp).iterdir()) == [], "nothing is written before training starts"
        for config in calls:
            assert config.num_seats == 2 and config.opponents.self_play_end == 0


SHIPPED = sb3_zoo.manifest()["ppo_razz"]
VALID_SPEC = {"type": "sb3_model", "path": str(sb3_zoo.ZOO_DIR / SHIPPED["file"]), "sha256": SHIPPED["sha256"],
              "algorithm": "maskable_ppo", "encoding": "flat", "variant": "razz", "num_seats": 2}
SPEC_KEYS = list(VALID_SPEC) + ["name", "deterministic", "seed", "unknown"]
near_spec_values = st.one_of(
    scalars, st.sampled_from([SHIPPED["sha256"].upper(), SHIPPED["sha256"][:-1] + "0", "/", ".", "ppo_razz.zip",
                              str(sb3_zoo.ZOO_DIR / "qrdqn_razz.zip"), str(sb3_zoo.MANIFEST), "qrdqn", "dqn"]),
    st.integers(0, 9))


@fuzz(60)
@given(changes=st.dictionaries(st.sampled_from(SPEC_KEYS), near_spec_values, min_size=1, max_size=2),
       drop=st.lists(st.sampled_from(SPEC_KEYS[1:]), max_size=1))
def test_model_specs_build_a_legal_agent_or_one_clean_error(changes, drop):
    spec = {k: v for k, v in {**VALID_SPEC, **changes}.items() if k not in drop}
    try:
        agent = make_agent(spec)
    except (ValueError, TypeError, LookupError, UntrustedModelError, ConfigError) as err:
        _clean(err)
        return
    event("valid")
    config = HandConfig.create(spec["variant"], num_seats=spec["num_seats"], stacks=1000)
    hand = HandState(config, seed=2)
    observer = Observer(agent, config)
    agent.reset(hand.actor, hand.num_seats, spec["variant"])
    while not hand.is_over:
        hand.act(to_engine(agent.act(observer(hand, hand.actor)), hand.legal_actions()))


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    output = tmp_path_factory.mktemp("fuzz") / "run"
    config = best_response_config("calling_station", steps=128, output=output, settings=TINY)
    run_best_response(config, progress=False, notify=lambda message: None)
    return config


RUN_FILES = ["config.json", "hashes.json", "clock.json", "summary.json", "checkpoints/step_128.zip", "final.zip"]
junk = st.one_of(st.binary(max_size=64), values.map(lambda value: json.dumps(value).encode()),
                 st.dictionaries(st.sampled_from(["checkpoints/step_128.zip", "128", "minutes", "x"]), values,
                                 max_size=2).map(lambda value: json.dumps(value).encode()))


@fuzz(40)
@given(name=st.sampled_from(RUN_FILES), data=junk)
def test_a_damaged_run_folder_is_reused_continued_or_refused(finished_run, monkeypatch, name, data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"
        shutil.copytree(finished_run.output, folder)
        (folder / name).write_bytes(data)
        config = best_response_config("calling_station", steps=128, output=folder, settings=TINY)
        monkeypatch.setattr(best_response, "train", lambda *args, **kwargs: event("continued"))
        try:
            result = run_best_response(config, progress=False, notify=lambda message: None)
        except ConfigError as err:
            _clean(err)
            return
        event("reused or continued")
        assert result["steps"] == 128 and make_agent(result["spec"]).declaration.seat_counts == (2,)
