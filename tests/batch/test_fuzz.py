"""Fuzz: random configs (variant, seats, stakes, rules, stacks) played against the scalar engine, and random
bad input to ``BatchEngine`` and ``step``: every input is a valid game or a named error, never a crash."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the 'batch' extra)")

from differential import play  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from razz_env.batch import BatchEngine  # noqa: E402
from razz_env.engine.config import HandConfig, max_seats  # noqa: E402
from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.engine.variants import VARIANTS  # noqa: E402

FUZZ = settings(max_examples=int(os.environ.get("RAZZ_BATCH_FUZZ_EXAMPLES", 40)), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
OUTCOMES: Counter = Counter()
"""(test, "error" or "valid") counts, printed at the end of the module (pytest -s) for the report."""


@pytest.fixture(scope="module", autouse=True)
def _print_outcomes():
    yield
    print(dict(OUTCOMES))


@st.composite
def configs(draw):
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    seats = draw(st.integers(2, max_seats(variant)))
    ante = draw(st.integers(0, 3))
    bring_in = draw(st.integers(1, 3))
    small = draw(st.integers(bring_in + 1, 8))
    options = {"ante": ante, "bring_in": bring_in, "small_bet": small, "big_bet": draw(st.integers(1, 16)),
               "raise_cap": draw(st.sampled_from([None, 1, 2, 3, 4])),
               "heads_up_uncapped": draw(st.booleans()), "open_pair_big_bet": draw(st.sampled_from([None, False]))}
    stacks = draw(st.lists(st.integers(ante + 1, 120), min_size=seats, max_size=seats))
    return HandConfig.create(variant, stacks=stacks, **options)


@FUZZ
@given(configs(), st.integers(0, 2**32 - 1), st.sampled_from([0.05, 1.0]))
def test_random_configs_match_scalar_engine(config, seed, fold_weight):
    played = play(config, tables=8, hands=16, seed=seed, short_stacks=seed % 2 == 1, fold_weight=fold_weight)
    assert played.hands >= 16
    OUTCOMES["configs", "valid"] += 1


_ENGINE = None


def engine() -> BatchEngine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = BatchEngine(HandConfig.create("stud", num_seats=3), 4, seed=0)
    return _ENGINE


arrays = st.one_of(
    st.lists(st.integers(-3, 7), min_size=0, max_size=6),
    st.lists(st.floats(allow_nan=True), min_size=4, max_size=4),
    st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=2), min_size=4, max_size=4),
    st.text(max_size=4), st.none(), st.booleans(),
)


@FUZZ
@given(arrays)
def test_bad_actions_are_named_or_played(actions):
    eng = engine()
    before = eng.stacks.copy(), eng.actor.copy()
    try:
        eng.step(actions)
    except ValueError as err:
        assert str(err).startswith("actions")
        assert np.array_equal(eng.stacks, before[0]) and np.array_equal(eng.actor, before[1])
        OUTCOMES["actions", "error"] += 1
    else:
        OUTCOMES["actions", "valid"] += 1


@FUZZ
@given(st.one_of(arrays, st.lists(st.lists(st.integers(-2, 300), min_size=3, max_size=3), min_size=4, max_size=4)),
       st.one_of(st.none(), st.lists(st.permutations(range(52)), min_size=4, max_size=4), arrays))
def test_bad_stacks_and_decks_are_named_or_dealt(stacks, decks):
    try:
        eng = BatchEngine(HandConfig.create("stud", num_seats=3), 4, seed=1, stacks=stacks, decks=decks)
    except ConfigError as err:
        assert str(err).startswith(("stacks", "decks"))
        OUTCOMES["stacks/decks", "error"] += 1
    else:
        assert eng.masks.any(axis=1).all()
        OUTCOMES["stacks/decks", "valid"] += 1
