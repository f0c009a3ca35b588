"""The hand-crafted player's settings (its bluff rate is a probability, refused by name otherwise), and its
batched decisions, draws and policy, equal to deciding one observation at a time.

``RAZZ_FUZZ_EXAMPLES=2000 pytest tests/agents/test_razz_heuristic.py -n 0 -s`` fuzzes more and prints the figures.
"""

from __future__ import annotations

import atexit
import os
import random
import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.agents.razz_heuristic import RazzHeuristic, starting_quality, starting_quality_batch
from razz_env.agents.registry import make_agent
from razz_env.encoding.interface import ObservationBatch
from razz_env.engine.variants import SEVEN_CARD_GAMES

FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nbluff fuzz figures:", dict(sorted(FIGURES.items()))))


@pytest.mark.parametrize("bluff", [-0.1, 1.5, float("nan"), True, "0.1", None])
def test_bluff_must_be_a_probability(bluff) -> None:
    with pytest.raises(ValueError, match=r"^bluff: (expected a probability|must be at (least 0|most 1)), got "):
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
        assert re.match(r"bluff: (expected a probability|must be at (least 0|most 1)), got ", str(err))
    else:
        FIGURES["bluff: valid"] += 1
        assert 0.0 <= agent.bluff <= 1.0


# ---------------------------------------------------------------- in batch

TABLES = [(variant, seats) for variant in SEVEN_CARD_GAMES for seats in (2, 3, 6, 8)]


@pytest.mark.parametrize(("variant", "seats"), TABLES)
def test_the_batch_decides_and_draws_as_one_at_a_time(variant: str, seats: int, decisions) -> None:
    """Every decision of random hands (every street, raises to the cap, all-ins, folded seats, a community card
    at 8 seats): the batched ids, the generator's state after them and the stated policy equal ``act`` in order."""
    observations = decisions(variant, seats)
    batched, single = RazzHeuristic(seed=11, bluff=0.4), RazzHeuristic(seed=11, bluff=0.4)
    ids = batched.act_batch(ObservationBatch.of(observations))
    assert ids == [single.act(o) for o in observations] and all(type(i) is int for i in ids)
    assert batched.rng.getstate() == single.rng.getstate()
    expected = np.array([single.action_probabilities(o) for o in observations])
    assert np.array_equal(batched.action_probabilities_batch(ObservationBatch.of(observations)), expected)
    FIGURES[f"batch: {variant} decisions"] += len(observations)
    FIGURES[f"batch: {variant} bluff spots"] += int(((expected > 0) & (expected < 1)).any(axis=1).sum())


def test_chunks_of_a_batch_draw_as_the_whole(decisions) -> None:
    """Deciding the rows in uneven chunks (an empty one included) draws as deciding them in order; so does a plain
    list (decided one at a time); bluffing always or never needs no draw at all."""
    observations = decisions("razz", 6)
    chunked, single = RazzHeuristic(seed=3, bluff=0.5), RazzHeuristic(seed=3, bluff=0.5)
    ids, start = [], 0
    for size in (1, 0, 7, 100, 13, len(observations)):
        ids += chunked.act_batch(ObservationBatch.of(list(observations[start:start + size])))
        start += size
    assert ids == [single.act(o) for o in observations]
    assert chunked.rng.getstate() == single.rng.getstate()
    listed, single = RazzHeuristic(seed=3, bluff=0.5), RazzHeuristic(seed=3, bluff=0.5)
    assert listed.act_batch(list(observations)) == [single.act(o) for o in observations]
    assert listed.rng.getstate() == single.rng.getstate()
    expected = np.array([single.action_probabilities(o) for o in observations])
    assert np.array_equal(listed.action_probabilities_batch(list(observations)), expected)
    assert listed.action_probabilities_batch([]).shape == (0, 5) and listed.act_batch([]) == []
    for bluff in (0.0, 1.0):
        batched, single = RazzHeuristic(seed=3, bluff=bluff), RazzHeuristic(seed=3, bluff=bluff)
        assert batched.act_batch(ObservationBatch.of(observations)) == [single.act(o) for o in observations]
        assert batched.rng.getstate() == single.rng.getstate()


def test_the_batched_rating_equals_the_scalar_one_to_the_bit() -> None:
    """3rd-street ratings add 0.2 and take 0.25 per up card: the batch adds them in the same order."""
    rng = random.Random(5)
    for action in (False, True):
        hands = [[rng.randint(1, 13) for _ in range(3)] for _ in range(300)]
        others = [[rng.randint(1, 13) for _ in range(rng.randint(0, 7))] for _ in range(300)]
        ranks = np.array(hands)
        up = np.zeros((300, 7), dtype=np.int64)
        for row, cards in enumerate(others):
            up[row, :len(cards)] = cards
        got = starting_quality_batch(ranks, up, action)
        assert got.tolist() == [starting_quality(h, o, action) for h, o in zip(hands, others)]


@pytest.mark.parametrize("variant", ["razz", "action_razz"])
def test_the_batch_reads_the_community_card(variant: str, decisions) -> None:
    """Eight seats at 7th street share a community card (three hole cards become two): the batch reads it so."""
    observations = [o for o in decisions(variant, 8, hands=200) if o.view.community is not None]
    assert len(observations) > 200
    batched, single = RazzHeuristic(seed=2), RazzHeuristic(seed=2)
    assert batched.act_batch(ObservationBatch.of(observations)) == [single.act(o) for o in observations]
