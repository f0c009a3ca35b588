"""``examples/tianshou_zoo_agent.py``: ``ppo_razz`` as a Tianshou policy, collected against ``RandomPolicy``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tianshou_zoo_agent.py"


def load_example():
    spec = importlib.util.spec_from_file_location("tianshou_zoo_agent", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tianshou_collects_hands_with_ppo_razz_as_a_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    if "numba" not in sys.modules:  # numba would spend ~10 s compiling Tianshou's buffer code for four hands
        monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    pytest.importorskip("tianshou", reason="the Tianshou example needs tianshou (the dev and tianshou extras)")
    per_hand = load_example().play(hands=4, seed=1)
    assert len(per_hand) == 2 and abs(sum(per_hand.values())) < 1e-9 and any(per_hand.values())
