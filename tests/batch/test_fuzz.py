"""Fuzz: random configs (variant, seats, stakes, rules, stacks) played against the scalar engine, and random
bad input to ``BatchEngine``, ``step`` (its actions and ``out``) and ``random_legal_actions``: every input is
a valid game or a named error, never a crash."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the 'batch' extra)")

from differential import play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from razz_env.batch import BatchEngine, policy_state, random_legal_actions
from razz_env.encoding.encoders import FlatEncoder
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import VARIANTS

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
    chip = draw(st.sampled_from([1, 1, 2, 25]))  # every amount in whole chips
    ante = draw(st.integers(0, 3))
    bring_in = draw(st.integers(1, 3))
    small = draw(st.integers(bring_in + 1, 8))
    options = {"ante": ante * chip, "bring_in": bring_in * chip, "small_bet": small * chip,
               "big_bet": draw(st.integers(1, 16)) * chip, "chip": chip,
               "raise_cap": draw(st.sampled_from([None, 1, 2, 3, 4, 5])),
               "heads_up_uncapped": draw(st.booleans()), "open_pair_big_bet": draw(st.sampled_from([None, False])),
               "rules": draw(st.sampled_from(["house", "wsop_2022", "wsop_2023", "wsop_2024"])),
               "bring_in_tie_break": draw(st.sampled_from([None, "suit", "position"])),
               "later_street_tie_break": draw(st.sampled_from([None, "suit", "position"])),
               "heads_up_tournament_uncapped": draw(st.sampled_from([None, False, True]))}
    stacks = draw(st.lists(st.integers(ante + 1, 120), min_size=seats, max_size=seats))
    return HandConfig.create(variant, stacks=[stack * chip for stack in stacks], **options)


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
        config = HandConfig.create("stud", num_seats=3)
        _ENGINE = BatchEngine(config, 4, seed=0, encoder=FlatEncoder(config))
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


def _masks_of(rows: list[int]) -> np.ndarray:
    """Legal-id masks from bit sets (1 to 31: at least one legal id a row)."""
    return np.array([[row >> a & 1 for a in range(5)] for row in rows], dtype=np.int8).reshape(-1, 5)


def _numeric_arrays(shapes):
    return hnp.arrays(st.sampled_from([np.float32, np.float64, np.int8, np.int64, np.uint64]), st.sampled_from(shapes))


@FUZZ
@given(st.one_of(arrays, _numeric_arrays([(4, 1), (4, 5), (3, 5), (5,), (4, 5, 1)]),
                 hnp.arrays(np.int8, st.tuples(st.integers(0, 6), st.just(5)), elements=st.integers(0, 1)),
                 st.lists(st.integers(1, 31), max_size=6).map(_masks_of)),
       st.one_of(arrays, _numeric_arrays([(1,), (2,), ()]), st.builds(policy_state, st.integers(0, 2**32 - 1))))
def test_bad_random_policy_input_is_named_or_drawn(masks, state):
    before = state.copy() if isinstance(state, np.ndarray) else None
    try:
        drawn = random_legal_actions(masks, state)
    except ValueError as err:
        assert str(err).startswith(("masks", "state", "out"))
        if before is not None:
            assert np.array_equal(state, before, equal_nan=state.dtype.kind == "f")
        OUTCOMES["random policy", "error"] += 1
    else:
        assert masks[np.arange(len(masks)), drawn].all()
        OUTCOMES["random policy", "valid"] += 1


@FUZZ
@given(st.one_of(arrays, _numeric_arrays([(4, 1065), (4, 1066), (3, 1065), (1065,)]), st.just("fresh")))
def test_bad_vector_out_is_named_or_written(out):
    eng = engine()
    assert eng.encoder.size == 1065
    if isinstance(out, str):
        out = np.empty((4, eng.encoder.size), dtype=np.float32)
    before = eng.stacks.copy(), eng.actor.copy()
    try:
        eng.step((eng.masks * np.arange(1, 6)).argmax(axis=1), out=out)
    except ValueError as err:
        assert str(err).startswith("out")
        assert np.array_equal(eng.stacks, before[0]) and np.array_equal(eng.actor, before[1])
        OUTCOMES["out", "error"] += 1
    else:
        assert out is None or np.array_equal(out, eng.observe())  # None: a step without vectors
        OUTCOMES["out", "valid"] += 1
