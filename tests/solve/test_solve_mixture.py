"""``razz_env.solve.mixture``: a mixture of policies plays, against anyone, what its components win on average."""

from __future__ import annotations

import numpy as np
import pytest

from razz_env.solve.mixture import RunningMixture, mixture
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper


def random_policy(game, seed: int, sharpness: float = 3.0) -> TabularPolicy:
    """A policy with random, sharply uneven probabilities over the legal ids (so reaches differ a lot)."""
    rng = np.random.default_rng(seed)
    raw = rng.random((game.num_infosets, 5)) ** sharpness * game.legal[game.infoset_decision]
    return TabularPolicy.from_table(game, raw / raw.sum(axis=1, keepdims=True))


def test_the_mixture_wins_the_weighted_average_of_its_components_in_both_seats(tiny):
    sweeper = Sweeper(tiny)
    parts = [random_policy(tiny, seed) for seed in range(3)]
    weights = [0.5, 0.2, 0.3]
    mixed = mixture(tiny, parts, weights, sweeper)
    mixed.validate()
    for opponent in (random_policy(tiny, 10), TabularPolicy.uniform(tiny)):
        for seat in (0, 1):
            expected = sum(w * sweeper.root_value(seat, p.array, opponent.array) for p, w in zip(parts, weights))
            assert sweeper.root_value(seat, mixed.array, opponent.array) == pytest.approx(expected, abs=1e-12)


def test_the_mixture_is_not_the_plain_average_of_the_rows(tiny):
    sweeper = Sweeper(tiny)
    parts = [random_policy(tiny, seed) for seed in (4, 5)]
    plain = TabularPolicy(tiny, (parts[0].array + parts[1].array) / 2)
    opponent = random_policy(tiny, 6)
    expected = sum(sweeper.root_value(0, p.array, opponent.array) for p in parts) / 2
    assert abs(sweeper.root_value(0, plain.array, opponent.array) - expected) > 1e-4


def test_a_running_mixture_saves_and_loads_its_sums(tiny, tmp_path):
    running = RunningMixture(tiny)
    for seed in (7, 8):
        running.add(random_policy(tiny, seed), 1.0)
    running.save(tmp_path / "m.npz")
    again = RunningMixture(tiny)
    again.load(tmp_path / "m.npz")
    assert again.count == 2
    np.testing.assert_array_equal(again.policy().array, running.policy().array)
    np.testing.assert_allclose(running.policy().array,
                               mixture(tiny, [random_policy(tiny, 7), random_policy(tiny, 8)], [1, 1]).array)


def test_bad_weights_and_an_empty_mixture_are_refused(tiny):
    uniform = TabularPolicy.uniform(tiny)
    with pytest.raises(ValueError, match="one weight each"):
        mixture(tiny, [uniform], [0.5, 0.5])
    with pytest.raises(ValueError, match="non-negative with a positive sum"):
        mixture(tiny, [uniform], [float("nan")])
    with pytest.raises(ValueError, match="no policy has joined"):
        RunningMixture(tiny).policy()
