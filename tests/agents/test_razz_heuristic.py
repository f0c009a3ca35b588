"""The hand-crafted player's settings: its bluff rate is a probability, refused by name otherwise.

``RAZZ_FUZZ_EXAMPLES=2000 pytest tests/agents/test_razz_heuristic.py -s`` fuzzes more and prints the figures.
"""

from __future__ import annotations

import atexit
import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.agents.razz_heuristic import RazzHeuristic
from razz_env.agents.registry import make_agent

FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nbluff fuzz figures:", dict(sorted(FIGURES.items()))))


@pytest.mark.parametrize("bluff", [-0.1, 1.5, float("nan"), True, "0.1", None])
def test_bluff_must_be_a_probability(bluff) -> None:
    with pytest.raises(ValueError, match=r"^bluff: a probability from 0 to 1, got "):
        RazzHeuristic(bluff=bluff)


@pytest.mark.parametrize("bluff", [0, 1, 0.25, np.float32(0.5)])
def test_any_probability_is_a_bluff_rate(bluff) -> None:
    assert make_agent({"type": "razz_heuristic", "bluff": bluff}).bluff == pytest.approx(float(bluff))


@settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "50")), deadline=None)
@given(bluff=st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=4),
                       st.lists(st.floats(0, 1), max_size=2)))
def test_any_bluff_setting_builds_or_is_refused_by_name(bluff) -> None:
    try:
        agent = RazzHeuristic(bluff=bluff)
    except ValueError as err:
        FIGURES["bluff: clean error"] += 1
        assert str(err).startswith("bluff: a probability from 0 to 1, got ")
    else:
        FIGURES["bluff: valid"] += 1
        assert 0.0 <= agent.bluff <= 1.0
