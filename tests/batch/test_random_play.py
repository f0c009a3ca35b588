"""``random_legal_actions``: legal, uniform over each row's legal ids, seeded, and its input checked."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the 'batch' extra)")

from razz_env.batch import BatchEngine, policy_state, random_legal_actions
from razz_env.engine.config import HandConfig


def test_draws_are_legal_uniform_and_seeded():
    masks = np.array([[1, 1, 0, 0, 0], [0, 1, 1, 1, 1], [0, 0, 0, 1, 0], [1, 0, 1, 0, 1]], dtype=np.int8)
    masks = np.repeat(masks, 5000, axis=0)
    drawn = random_legal_actions(masks, policy_state(3))
    assert masks[np.arange(len(masks)), drawn].all()
    for row in range(4):
        ids = drawn[row * 5000:(row + 1) * 5000]
        legal = np.flatnonzero(masks[row * 5000])
        counts = np.bincount(ids, minlength=5)[legal]
        assert abs(counts / 5000 - 1 / len(legal)).max() < 0.03, (row, counts)
    assert np.array_equal(random_legal_actions(masks, policy_state(3)), drawn)
    assert not np.array_equal(random_legal_actions(masks, policy_state(4)), drawn)


def test_plays_an_engine_into_a_reused_array():
    engine = BatchEngine(HandConfig.create("razz", num_seats=6), 64, seed=0)
    state, out = policy_state(0), np.empty(64, dtype=np.int64)
    finished = 0
    for _ in range(300):
        assert random_legal_actions(engine.masks, state, out) is out
        finished += int(engine.step(out).finished.sum())
    assert finished > 100


def test_one_stream_per_row_draws_each_row_from_its_own():
    masks = np.array([[1, 1, 0, 0, 0], [0, 1, 1, 1, 1], [0, 0, 0, 1, 0], [1, 0, 1, 0, 1]] * 3, dtype=np.int8)
    state = policy_state(5, rows=len(masks))
    alone = [random_legal_actions(masks[t:t + 1], state[t:t + 1].copy())[0] for t in range(len(masks))]
    drawn = random_legal_actions(masks, state)
    assert drawn.tolist() == alone
    assert not np.array_equal(state, policy_state(5, rows=len(masks)))  # advanced in place
    assert np.array_equal(policy_state(5, rows=3), policy_state(5, rows=3))


ONES = np.ones((2, 5), dtype=np.int8)


@pytest.mark.parametrize(("masks", "state", "out", "message"), [
    (ONES[:, :4], policy_state(0), None, r"masks: expected int8 legal-id masks of shape \(tables, 5\)"),
    (np.ones((2, 5), dtype=np.int64), policy_state(0), None, "masks: .* got int64"),
    ([[1, 1, 1, 1, 1]], policy_state(0), None, "masks: .* got list"),
    (np.array([[1, 0, 0, 0, 0], [0] * 5], dtype=np.int8), policy_state(0), None, r"masks\[1\]: no legal id"),
    (ONES, np.zeros(3, dtype=np.uint64), None, r"state: expected .* got uint64 of shape \(3,\)"),
    (ONES, 7, None, "state: .* got int"),
    (ONES, policy_state(0), np.empty(3, dtype=np.int64), r"out: .* shape \(2,\)"),
    (ONES, policy_state(0), np.empty(2, dtype=np.int32), "out: .* got int32"),
])
def test_bad_input_is_named_and_draws_nothing(masks, state, out, message):
    before = state.copy() if isinstance(state, np.ndarray) else state
    with pytest.raises(ValueError, match=message):
        random_legal_actions(masks, state, out)
    if isinstance(state, np.ndarray):
        assert np.array_equal(state, before)


def test_read_only_state_is_named():
    state = policy_state(0)
    state.flags.writeable = False
    with pytest.raises(ValueError, match=r"state: .* \(read-only\)"):
        random_legal_actions(np.ones((2, 5), dtype=np.int8), state)
