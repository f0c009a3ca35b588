"""The reference opponents in batch: the calling station's and the random agent's batched methods equal their
one-at-a-time ones on every decision of random hands (the random agent drawing in the same order)."""

from __future__ import annotations

import numpy as np
import pytest

from razz_env.agents.simple import CallingStation, RandomAgent
from razz_env.encoding.interface import ObservationBatch, declaration_of
from razz_env.engine.config import max_seats
from razz_env.engine.variants import VARIANTS

TABLES = [(variant, seats) for variant in ("razz", "stud8", "minirazz") for seats in (2, 3, 6, 8)
          if seats <= max_seats(VARIANTS[variant])]


@pytest.mark.parametrize(("variant", "seats"), TABLES)
def test_the_calling_station_decides_in_batch_as_one_at_a_time(variant: str, seats: int, decisions) -> None:
    observations = decisions(variant, seats)
    station = CallingStation()
    assert declaration_of(station).acts_in_batch
    batch = ObservationBatch.of(observations)
    ids = station.act_batch(batch)
    assert ids == [station.act(o) for o in observations] and all(type(i) is int for i in ids)
    assert station.act_batch(list(observations)) == ids
    expected = np.array([station.action_probabilities(o) for o in observations])
    assert np.array_equal(station.action_probabilities_batch(batch), expected)


@pytest.mark.parametrize(("variant", "seats"), [("razz", 2), ("stud", 8)])
def test_the_random_agent_draws_in_batch_as_one_at_a_time(variant: str, seats: int, decisions) -> None:
    observations = decisions(variant, seats)
    batched, single = RandomAgent(seed=5), RandomAgent(seed=5)
    assert batched.act_batch(ObservationBatch.of(observations)) == [single.act(o) for o in observations]
    assert batched.rng.getstate() == single.rng.getstate()
    expected = np.array([single.action_probabilities(o) for o in observations])
    assert np.array_equal(batched.action_probabilities_batch(observations), expected)


def test_an_empty_batch_and_a_turnless_row() -> None:
    station = CallingStation()
    assert station.act_batch([]) == []
    assert station.action_probabilities_batch([]).shape == (0, 5)
    with pytest.raises(ValueError, match="no legal action"):
        station.act_batch(ObservationBatch(np.array([0]), np.zeros((1, 5), dtype=np.int8)))
