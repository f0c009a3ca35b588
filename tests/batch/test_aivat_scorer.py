"""AIVAT on the batched engine (razz_env.batch.aivat): the scalar estimator's corrected payoffs, hand for hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

pytest.importorskip("numba", reason="the batched engine needs the batch extra (numba)")

from razz_env.agents.registry import make_agent
from razz_env.batch.aivat import VALUE_NAME, VALUE_VERSION, AivatScorer
from razz_env.batch.engine import BatchEngine
from razz_env.engine import showdown_core
from razz_env.engine.config import HandConfig
from razz_env.engine.table import Table
from razz_env.evaluate.aivat import SHOWDOWN_SHARE, aivat, hand_value
from razz_env.evaluate.blocks import play_deals, play_deals_batched

KINDS = ("razz", "action_razz", "high", "eight")


@njit
def _compiled_value(hand, kind, size):
    """The showdown core's value as the scorer's kernels compile it."""
    return showdown_core.hand_value(hand, kind, size)[0]


def test_the_kernels_compute_the_declared_value_function() -> None:
    assert (VALUE_NAME, VALUE_VERSION) == (SHOWDOWN_SHARE.name, SHOWDOWN_SHARE.version)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KINDS), st.integers(1, 5), st.data())
def test_hand_values_order_hands_as_the_scalar_value_function(kind: str, size: int, data: st.DataObject) -> None:
    """Only the order of values decides a split: every pair of hands compares alike (and eight qualifies alike)."""
    cards = st.lists(st.integers(0, 51), min_size=size, max_size=7, unique=True)
    first, second = data.draw(cards), data.draw(cards)
    code = showdown_core.KIND_CODES[kind]
    scalar = [hand_value(kind, size, hand) for hand in (first, second)]
    kernel = [int(_compiled_value(np.array(hand, dtype=np.int64), code, size)) for hand in (first, second)]
    assert np.sign(scalar[0] - scalar[1]) == np.sign(kernel[0] - kernel[1])
    if kind == "eight":
        assert [v > 0 for v in scalar] == [v > 0 for v in kernel]


CASES = [  # variant, seats, stacks: deep and short stacks (all-in run-outs), multi-way, a community card
    ("razz", 2, 1000), ("razz", 2, 30), ("razz", 6, 40), ("action_razz", 3, 1000), ("stud", 3, 60),
    ("stud", 8, 1000), ("stud8", 4, 1000), ("stud8", 3, 25), ("minirazz", 2, None),
]


@pytest.mark.parametrize(("variant", "seats", "stacks"), CASES)
def test_the_scorer_gives_the_scalar_estimators_payoffs(variant: str, seats: int, stacks: int | None) -> None:
    """Stochastic agents (their decisions corrected), a deterministic one (not asked) and every card, on both
    engines: the same hands, the same AIVAT payoffs to 1e-9."""
    table = Table(variant, num_seats=seats, **({} if stacks is None else {"stacks": stacks}))
    config = table.hand_config()
    rule_agents = ["razz_heuristic", "random", "calling_station"]
    names = ["random", "random"] if variant.startswith("minirazz") else list(itertools.islice(
        itertools.cycle(rule_agents), seats))
    if seats == 8:  # enough seats to 7th street that the deck runs short: a community card
        names = ["razz_heuristic", "random"] + ["calling_station"] * 6

    def players() -> list:
        return [make_agent(name, seed=index) for index, name in enumerate(names)]

    scalar = play_deals(players(), config, 40, "aivat", stated=True)
    batched = play_deals_batched(players(), config, 40, "aivat", stated=True)
    assert [t.payoffs for t in scalar] == [t.payoffs for t in batched]
    corrected = np.array([t.corrected for t in scalar])
    np.testing.assert_allclose(np.array([t.corrected for t in batched]), corrected, rtol=0, atol=1e-9)
    assert np.abs(corrected.sum(axis=1)).max() < 1e-9  # zero-sum, like the payoffs
    assert not np.allclose(corrected, np.array([t.payoffs for t in scalar]))  # it corrected something
    if variant == "stud" and seats == 8:
        assert any(t.hand.community is not None for t in scalar)


def test_the_scorer_scores_a_tables_next_hand_from_its_deal() -> None:
    """After a hand ends the table's next hand is scored afresh: the second hand of every table matches the scalar
    estimator too (policy-free: chance corrections only)."""
    config = HandConfig.create("razz", num_seats=2)
    engine = BatchEngine(config, 8, seed=5)
    scorer = AivatScorer(engine)
    rng = np.random.default_rng(0)
    hands: dict[int, list[int]] = {t: [] for t in range(8)}
    decks = {t: engine.decks[t].copy() for t in range(8)}
    second: dict[int, tuple[list[int], np.ndarray, list[int], np.ndarray]] = {}
    ended = np.zeros(8, dtype=int)
    no_policy = np.full((8, 5), np.nan)
    while ended.min() < 2:
        masks = engine.masks
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)
        for t in range(8):
            hands[t].append(int(actions[t]))
        result = scorer.step(actions, no_policy)
        for t in np.flatnonzero(result.finished):
            ended[t] += 1
            if ended[t] == 2:
                second[t] = (hands[t], decks[t], result.payoffs[t].tolist(), scorer.corrected[t].copy())
            hands[t] = []
            decks[t] = engine.decks[t].copy()
    from razz_env.encoding.actions import to_engine
    from razz_env.engine.state import HandState

    for ids, deck, payoffs, corrected in second.values():
        hand = HandState(config, deck=deck.tolist())
        for action_id in ids:
            hand.act(to_engine(action_id, hand.legal_actions()))
        assert hand.payoffs == payoffs
        np.testing.assert_allclose(corrected, aivat(hand).corrected, rtol=0, atol=1e-9)
