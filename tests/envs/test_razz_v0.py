"""The versioned PettingZoo module: its factories and documentation, and everything pickling (env and factories)."""

from __future__ import annotations

import functools
import importlib
import pickle
import random
import subprocess
import sys

import cloudpickle
import pytest

import razz_env
from razz_env.envs import aec, razz_v0
from razz_env.envs.single_agent import SingleAgentEnv


def play_out(env, chooser: random.Random, limit: int | None = None) -> list:
    """Step random legal actions (``None`` for finished agents); the observations, rewards and flags seen."""
    seen = []
    while env.agents and (limit is None or len(seen) < limit):
        agent = env.agent_selection
        observation, reward, termination, truncation, _ = env.last()
        seen.append((agent, observation["observation"].tolist(), observation["action_mask"].tolist(), reward,
                     termination))
        legal = observation["action_mask"].nonzero()[0].tolist()
        env.step(None if termination or truncation else chooser.choice(legal))
    return seen


def test_versioned_module_is_the_pettingzoo_entry() -> None:
    assert razz_v0.env is aec.env and razz_v0.raw_env is aec.raw_env
    assert razz_env.razz_v0 is razz_v0 and razz_env.raw_env is aec.raw_env
    assert razz_v0.raw_env.metadata["name"] == "razz_v0"
    from razz_env import razz_v0 as imported

    assert imported is razz_v0


def test_razz_env_env_stays_a_function_after_the_package_is_imported() -> None:
    """``razz_env.env`` is the constructor; the environments' package is ``razz_env.envs``."""
    for module in ("razz_env.envs.aec", "razz_env.envs.single_agent", "razz_env.envs.registration"):
        importlib.import_module(module)  # loading a subpackage's module used to rebind the name

    assert callable(razz_env.env) and type(razz_env.env).__name__ == "function"
    assert isinstance(razz_env.env(num_seats=3), aec.LeanOrderEnforcingWrapper)
    assert "razz_env.env" not in sys.modules and type(sys.modules["razz_env.envs"]).__name__ == "module"


def test_cloudpickle_a_lambda_after_env_was_called_in_a_fresh_process() -> None:
    """The RLlib route: ``register_env(name, lambda c: PettingZooEnv(razz_env.env()))`` ships the lambda."""
    code = ("import cloudpickle, razz_env\n"
            "razz_env.env()\n"
            "make = cloudpickle.loads(cloudpickle.dumps(lambda: razz_env.env(num_seats=3)))\n"
            "print(type(make()).__name__, len(make().possible_agents))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["LeanOrderEnforcingWrapper", "3"]


@pytest.mark.parametrize("factory", [razz_env.env, razz_v0.env, razz_v0.raw_env, SingleAgentEnv,
                                     functools.partial(razz_env.env, variant="stud", num_seats=4)])
@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_factories_pickle(factory, dumps) -> None:
    razz_env.env()
    restored = pickle.loads(dumps(factory))
    assert type(restored()) is type(factory())


@pytest.mark.parametrize("make", [razz_env.env, razz_env.raw_env])
@pytest.mark.parametrize("decisions", [0, 1, 5])
def test_a_pickled_env_continues_the_hand_exactly(make, decisions: int) -> None:
    """Fresh, just reset and mid-hand: the copy plays on exactly as the original, and the next hands too."""
    original = make(variant="stud8", num_seats=3)
    original.reset(seed=11)
    play_out(original, random.Random(0), limit=decisions)
    copy = pickle.loads(pickle.dumps(original))
    runs = []
    for env in (original, copy):
        seen = play_out(env, random.Random(1))
        env.reset()  # unseeded: continues the seeded sequence, which travels with the copy
        runs.append(seen + play_out(env, random.Random(2)))
    assert runs[0] == runs[1] and len(runs[0]) > 4


def test_a_pickled_fresh_env_refuses_step_before_reset_like_the_original() -> None:
    copy = pickle.loads(pickle.dumps(razz_env.env()))
    with pytest.raises(AttributeError, match="before reset"):
        copy.last()
    copy.reset(seed=0)
    assert copy.observe(copy.agent_selection)["action_mask"].any()


def test_docstring_table_matches_the_layout() -> None:
    """The docs page's observation table is generated from the layout; regenerate it when this fails."""
    table = razz_v0.raw_env().encoder.layout.table()
    assert table in razz_v0.__doc__, "razz_env/envs/razz_v0.py's observation table is out of date:\n" + table
    for name in razz_v0.raw_env().describe_observation():
        assert f"``{name}``" in razz_v0.__doc__


def test_docstring_names_every_option() -> None:
    """Every keyword the environment takes is documented on the page."""
    import inspect

    from razz_env.engine.table import TABLE_KEYS

    documented = razz_v0.__doc__
    options = [*TABLE_KEYS, *inspect.signature(razz_v0.raw_env).parameters]
    missing = [name for name in options if name != "table_options" and f"``{name}``" not in documented]
    assert not missing, f"razz_v0's docs do not name {missing}"


def test_the_readme_environment_snippets_run() -> None:
    """The README's PettingZoo and Gymnasium snippets, as written."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    snippets = [code for code in re.findall(r"```python\n(.*?)```", readme, re.S)
                if "razz_v0" in code or "gymnasium.make" in code]
    assert len(snippets) == 2
    for code in snippets:
        exec(compile(code, "README.md", "exec"), {})
