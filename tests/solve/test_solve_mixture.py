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


@pytest.mark.parametrize("game_name", ["minirazz_tiny", "minirazz"])
def test_the_mixture_agent_plays_the_tabular_mixture_at_every_decision(game_name, tiny) -> None:
    """Two independent computations of one behaviour strategy: the mixture agent (replaying each hand from its view
    and asking its members about the seat's earlier decisions) and the solver's sweep over the whole tree (each
    policy's own reach). Equal at every decision of random hands, including where one member never goes."""
    import random

    from razz_env.agents.mixture import MixtureAgent
    from razz_env.encoding.actions import to_engine
    from razz_env.encoding.interface import Observer
    from razz_env.engine.state import HandState
    from razz_env.solve.agent import TabularPolicyAgent
    from razz_env.solve.game import build_game

    game = tiny if game_name == "minirazz_tiny" else build_game(game_name)
    parts = [random_policy(game, seed, sharpness=6.0) for seed in (11, 12)]
    agent = MixtureAgent([TabularPolicyAgent(p) for p in parts], [0.25, 0.75], table=game.config)
    exact = TabularPolicyAgent(mixture(game, parts, [0.25, 0.75]))
    observer, rng, checked = Observer(agent, game.config), random.Random(0), 0
    for deal in range(60):
        hand = HandState(game.config, seed=deal)
        while not hand.is_over:
            observation = observer(hand, hand.actor)
            np.testing.assert_allclose(agent.action_probabilities(observation),
                                       exact.action_probabilities(observation), atol=1e-12)
            checked += 1
            legal = np.flatnonzero(observation.action_mask).tolist()
            hand.act(to_engine(rng.choice(legal), hand.legal_actions()))
    assert checked > 200
