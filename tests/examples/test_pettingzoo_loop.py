"""``examples/pettingzoo_loop.py``: zoo agents (one reading the view, one the vector) in a plain PettingZoo loop."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pettingzoo_loop.py"


def load_example():
    spec = importlib.util.spec_from_file_location("pettingzoo_loop", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_zoo_agents_play_each_other_with_seats_alternating() -> None:
    won = load_example().play(hands=4, opponent="razz_heuristic", seed=1)
    assert set(won) == {"ppo_razz", "razz_heuristic"} and abs(sum(won.values())) < 1e-9 and any(won.values())
