"""A sampled solver's policy file and the agent that plays it: keyed on what its seat sees, seeded, refusing
damaged files and other tables by name, uniform (and counted) where the solver never went."""

import random

import numpy as np
import pytest

from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import ObservationBatch, Observer
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate.api import match
from razz_env.solve.abstraction import infoset_keys
from razz_env.solve.sampled_cfr import SampledCFR
from razz_env.solve.sampled_policy import SampledCFRAgent, SampledPolicy

TINY = HandConfig.create("minirazz_tiny")


@pytest.fixture(scope="module")
def policy():
    solver = SampledCFR(TINY, seed=0)
    solver.run(3_000)
    return solver.average_policy()


def test_the_file_round_trips_and_refuses_damage(policy, tmp_path):
    path = policy.save(tmp_path / "policy")
    assert path.name == "policy.npz"
    loaded = SampledPolicy.load(path)
    assert np.array_equal(loaded.keys, policy.keys)
    assert np.array_equal(loaded.probabilities, policy.probabilities)
    assert (loaded.abstraction, loaded.iterations, loaded.config) == ("exact", 3_000, TINY)
    with np.load(path) as data:
        arrays = dict(data)
    arrays["probabilities"] = arrays["probabilities"][::-1].copy()
    np.savez(tmp_path / "damaged.npz", **arrays)
    with pytest.raises(ConfigError, match="do not match their SHA-256"):
        SampledPolicy.load(tmp_path / "damaged.npz")
    (tmp_path / "text.npz").write_text("not an archive")
    with pytest.raises(ConfigError, match="not a sampled policy file"):
        SampledPolicy.load(tmp_path / "text.npz")


def test_the_agent_plays_through_the_harness_and_in_batch_as_one_at_a_time(policy):
    result = match(SampledCFRAgent(policy, seed=1), "random", deals=200, table={"variant": "minirazz_tiny"})
    assert result.hands == 400
    assert result.bb_per_100 > 0  # an approximate equilibrium beats uniform random play
    agent = SampledCFRAgent(policy, seed=4)
    observer, rng, observations = Observer(agent, TINY), random.Random(0), []
    for number in range(100):
        hand = HandState(TINY, seed=number)
        while not hand.is_over:
            observations.append(observer(hand, hand.actor))
            choice = rng.choice(np.flatnonzero(observations[-1].action_mask).tolist())
            hand.act(to_engine(choice, hand.legal_actions()))
    batch = ObservationBatch.of(observations)
    _, met = policy.lookup(batch.vectors, batch.masks)
    assert met.mean() > 0.95  # the solver's keys are the agent's: the same function of the same vectors
    twin = SampledCFRAgent(policy, seed=4)
    assert [agent.act(observation) for observation in observations] == twin.act_batch(batch)

def test_a_key_the_solver_never_met_is_played_uniformly_and_counted(policy):
    agent = SampledCFRAgent(policy, seed=0)
    vectors = np.full((2, 7), 9.0, dtype=np.float32)  # no table's vector
    masks = np.array([[1, 1, 0, 1, 0], [0, 1, 1, 0, 0]], dtype=np.int8)
    assert not np.isin(infoset_keys("exact", vectors, masks), policy.keys).any()
    batch = ObservationBatch(np.zeros(2), masks, vectors=vectors)
    np.testing.assert_allclose(agent.action_probabilities_batch(batch), masks / masks.sum(axis=1, keepdims=True))
    agent.act_batch(batch)
    assert (agent.unseen, agent.decisions) == (2, 2)


def test_it_refuses_another_table_by_name(policy):
    agent = SampledCFRAgent(policy)
    with pytest.raises(ValueError, match="plays minirazz_tiny heads-up; it cannot play razz with 2 seats"):
        agent.reset(0, 2, "razz")


def random_play(agent, hands, seed):
    """The observations ``agent``'s seat is shown at every decision of ``hands`` hands of uniformly random play."""
    observer, rng, observations = Observer(agent, TINY), random.Random(seed), []
    for number in range(hands):
        hand = HandState(TINY, seed=number)
        while not hand.is_over:
            observations.append(observer(hand, hand.actor))
            hand.act(to_engine(rng.choice(np.flatnonzero(observations[-1].action_mask).tolist()),
                               hand.legal_actions()))
    return ObservationBatch.of(observations)


def test_deterministic_play_is_the_argmax_stated_as_its_one_hot(policy):
    agent = SampledCFRAgent(policy, seed=0, deterministic=True)
    assert agent.declaration.deterministic
    batch = random_play(agent, 30, 1)
    sampled, _ = policy.lookup(batch.vectors, batch.masks)
    stated = agent.action_probabilities_batch(batch)
    assert (stated.argmax(axis=1) == sampled.argmax(axis=1)).all() and (stated.max(axis=1) == 1.0).all()
    assert agent.act_batch(batch) == sampled.argmax(axis=1).tolist()


def test_thresholded_play_drops_the_small_probabilities_and_draws_from_the_rest(policy):
    agent = SampledCFRAgent(policy, seed=3, threshold=0.3)
    batch = random_play(agent, 40, 2)
    sampled, _ = policy.lookup(batch.vectors, batch.masks)
    stated = agent.action_probabilities_batch(batch)
    mixed = (sampled > 0.05).sum(axis=1) > 1
    assert ((sampled > 0) & (sampled < 0.3)).any()  # the tiny game's average keeps small weights somewhere
    assert (stated[(sampled < 0.3) & (sampled < sampled.max(axis=1, keepdims=True))] == 0).all()
    np.testing.assert_allclose(stated.sum(axis=1), 1.0)
    kept = sampled >= 0.3
    np.testing.assert_allclose(stated[kept], (sampled / (sampled * kept).sum(axis=1, keepdims=True))[kept])
    drawn = np.array(agent.act_batch(batch))
    assert (stated[np.arange(len(drawn)), drawn] > 0).all() and mixed.any()
    assert SampledCFRAgent(policy, seed=3, threshold=0.0).act_batch(batch) == SampledCFRAgent(policy, seed=3).act_batch(
        batch)  # no threshold: the policy as it is, draw for draw


@pytest.mark.parametrize("options, message", [({"threshold": 1.0}, "threshold: expected a probability from 0"),
                                              ({"threshold": -0.1}, "threshold: expected a probability from 0"),
                                              ({"threshold": "0.2"}, "threshold: expected a probability from 0"),
                                              ({"threshold": 0.2, "deterministic": True}, "give one of them")])
def test_a_threshold_out_of_range_or_beside_the_argmax_is_refused_by_name(policy, options, message):
    with pytest.raises(ValueError, match=message):
        SampledCFRAgent(policy, **options)
