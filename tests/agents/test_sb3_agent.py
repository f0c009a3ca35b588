"""``razz_env.agents.sb3_agent``: batches read the observations' arrays as they are, and a zoo model stays usable
in forked children."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch

from razz_env.agents.registry import make_agent
from razz_env.agents.sb3_agent import masked_actions, masked_probabilities
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Observation, ObservationBatch, Observer, declaration_of
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState

torch.set_num_threads(1)

FORKED_VECTOR_ENV = '''
import gymnasium
import numpy as np
import torch

import razz_env.envs.registration  # noqa: F401
from razz_env.agents.registry import make_agent

torch.set_num_threads(2)
torch.randn(800, 800) @ torch.randn(800, 800)
opponent = make_agent("ppo_razz")
env = gymnasium.make("razz_env/Razz-v0", opponents=opponent)
for seed in range(10):  # the parent plays the model first: torch's thread pool is running at the fork
    observation, info = env.reset(seed=seed)
    done = False
    while not done:
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        done = terminated or truncated
vec = gymnasium.make_vec("razz_env/Razz-v0", num_envs=2, vectorization_mode="async",
                         vector_kwargs={"context": "fork"}, opponents=opponent)
for seed in range(5):
    observation, info = vec.reset(seed=seed)
    actions = [int(np.flatnonzero(mask)[-1]) if mask.any() else 0 for mask in info["action_mask"]]
    vec.step(np.array(actions))
vec.close()
print("played")
'''


def test_a_fork_vector_env_with_a_zoo_opponent_does_not_hang_after_the_parent_used_torch_threads() -> None:
    """Forked workers used to deadlock in the model's forward pass (torch's thread pool does not survive fork)."""
    child = subprocess.Popen([sys.executable, "-c", FORKED_VECTOR_ENV], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = child.communicate(timeout=120)
    finally:  # a hung run leaves deadlocked workers: end the whole session it started
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == 0 and out.split() == ["played"], err[-2000:]


@pytest.fixture(scope="module")
def razz_decisions() -> list[Observation]:
    """Every decision of 200 random razz hands as ``ppo_razz`` observes them (vectors), mixed across hands and
    seats."""
    rng = random.Random(2)
    config = HandConfig.create("razz")
    observer = Observer(make_agent("ppo_razz"), config)
    observations = []
    for number in range(200):
        hand = HandState(config, seed=number)
        while not hand.is_over:
            observations.append(observer(hand, hand.actor))
            legal = np.flatnonzero(observations[-1].action_mask).tolist()
            hand.act(to_engine(rng.choice(legal), hand.legal_actions()))
    rng.shuffle(observations)
    return observations


def test_ppo_razz_acts_in_batch_as_it_acts_one_by_one(razz_decisions) -> None:
    """The zoo's greedy agent: the same ids and (one-hot) probabilities, one decision at a time or all at once."""
    one, many = make_agent("ppo_razz"), make_agent("ppo_razz")
    assert {o.seat for o in razz_decisions} == {0, 1} and declaration_of(many).acts_in_batch
    expected = [one.act(o) for o in razz_decisions]
    assert len(set(expected)) >= 3
    assert many.act_batch(ObservationBatch.of(razz_decisions)) == expected
    assert many.act_batch(razz_decisions) == expected
    probabilities = np.array([one.action_probabilities(o) for o in razz_decisions])
    assert np.array_equal(many.action_probabilities_batch(ObservationBatch.of(razz_decisions)), probabilities)


def test_a_sampling_agent_reads_the_batch_arrays_as_the_stacked_rows(razz_decisions) -> None:
    """``deterministic=False``: one draw over the whole batch, from the vectors and masks as stacked row by row
    (the ids and the generator after are the same); a row's softmax equals the batch's to float32 rounding."""
    agent = make_agent({"type": "ppo_razz", "deterministic": False, "seed": 5})
    vectors = np.stack([o.vector for o in razz_decisions])
    masks = np.stack([o.action_mask for o in razz_decisions])
    generator = torch.Generator().manual_seed(5)
    expected = masked_actions(agent.model, vectors, masks, False, generator).tolist()
    assert agent.act_batch(ObservationBatch.of(razz_decisions)) == expected
    assert torch.equal(agent._generator.get_state(), generator.get_state())
    batch = agent.action_probabilities_batch(razz_decisions)
    assert np.array_equal(batch, masked_probabilities(agent.model, vectors, masks, False))
    rows = np.array([agent.action_probabilities(o) for o in razz_decisions[:200]])
    np.testing.assert_allclose(rows, batch[:200], rtol=0, atol=1e-6)
    assert (batch.max(axis=1) < 0.9).any()


def test_a_batch_without_vectors_is_refused(razz_decisions) -> None:
    bare = [Observation(o.seat, o.action_mask) for o in razz_decisions[:3]]
    with pytest.raises(AttributeError, match="'ppo_razz' reads vectors, and these observations carry none"):
        make_agent("ppo_razz").act_batch(bare)
    assert make_agent("ppo_razz").act_batch([]) == []


@pytest.mark.parametrize("name", ["ppo_razz", "qrdqn_razz"])
def test_a_trained_agent_declares_the_width_its_model_reads(name) -> None:
    """What lets every harness refuse a table of another width before any hand (issue 37 item 5)."""
    agent = make_agent(name)
    assert declaration_of(agent).vector_size == agent.model.observation_space.shape[0] == 676
