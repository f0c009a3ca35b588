"""``examples/rllib_pettingzoo.py``: RLlib's PettingZoo wrapper (runs where ``ray[rllib]`` is: a venv of its own)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# Ray core (the ray extra) ships ray.rllib's code but not its dependencies: importing it then raises ImportError.
pytest.importorskip("ray.rllib", reason="the RLlib example needs ray[rllib] (the rllib extra, in a venv of its own)",
                    exc_type=ImportError)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rllib_pettingzoo.py"


def load_example():
    spec = importlib.util.spec_from_file_location("rllib_pettingzoo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rllib_pettingzoo_wrapper_plays_zoo_agents() -> None:
    won = load_example().play(hands=4, seed=1)
    assert set(won) == {"player_0", "player_1"} and abs(sum(won.values())) < 1e-9


@pytest.mark.slow
def test_rllib_trains_ppo_with_masking_on_the_registered_env() -> None:
    lengths = load_example().train(iterations=1)
    assert len(lengths) == 1 and lengths[0] > 1
