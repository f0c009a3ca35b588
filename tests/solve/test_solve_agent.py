"""Agents and tabular policies both ways: reading an agent's policy into the tree, seating a tabular policy."""

import warnings

import numpy as np
import pytest

from razz_env.agents.simple import RandomAgent
from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.encoding.interface import Declaration, Observation, ObservationBatch, declaration_of, seating_problem
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.evaluate.blocks import play_deals
from razz_env.solve.agent import TabularPolicyAgent, hands_at, policy_from_agent
from razz_env.solve.best_response import exploitability
from razz_env.solve.game import build_game
from razz_env.solve.keys import infoset_key
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper


class Counting(RandomAgent):
    """Uniform over the mask, counting how many observations it was asked about and in how many calls."""

    name = "counting"
    declaration = Declaration(observes=("view",), states_policy=True, acts_in_batch=True)

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.asked, self.calls = 0, 0

    def action_probabilities_batch(self, observations):
        self.asked += len(observations)
        self.calls += 1
        return super().action_probabilities_batch(observations)


def test_random_agent_is_the_uniform_policy(tiny):
    policy = policy_from_agent(tiny, RandomAgent(seed=1))
    assert np.array_equal(policy.table(), TabularPolicy.uniform(tiny).table())
    assert exploitability(tiny, policy).mbb == pytest.approx(exploitability(tiny, TabularPolicy.uniform(tiny)).mbb)


def test_each_information_set_is_asked_once_in_batches(tiny):
    agent = Counting()
    policy_from_agent(tiny, agent, batch_size=1000, check_suits=0)
    assert agent.asked == tiny.num_infosets
    assert agent.calls <= tiny.num_infosets // 1000 + 2


def test_a_tabular_agent_reads_back_as_its_policy(tiny, solved):
    read = policy_from_agent(tiny, TabularPolicyAgent(solved))
    np.testing.assert_allclose(read.table(), solved.table(), rtol=0, atol=1e-12)


def test_representative_hands_are_at_their_information_sets(tiny):
    for decision in range(0, len(tiny.decision_nodes), 97):
        seat = int(tiny.decision_player[decision])
        for private, hand in hands_at(tiny, decision):
            assert hand.actor == seat
            assert infoset_key(hand, seat) == tiny.infoset_key(decision, private)
            assert len({c for held in hand.cards for c in held}) == sum(len(held) for held in hand.cards)
        for private, hand in hands_at(tiny, decision, swap_suits=True):
            assert infoset_key(hand, seat) == tiny.infoset_key(decision, private)


def test_an_agent_for_another_table_is_refused(tiny):
    class RazzOnly(Counting):
        declaration = Declaration(observes=("view",), variants=("razz",), seat_counts=(2,), states_policy=True,
                                  acts_in_batch=True)

    with pytest.raises(ValueError, match="agent 'counting' plays razz at 2 seats; it cannot be seated at "
                                         "minirazz_tiny with 2 seats"):
        policy_from_agent(tiny, RazzOnly())


class Illegal:
    name = "illegal"
    declaration = Declaration(observes=(), states_policy=True)

    def action_probabilities(self, observation):
        return np.full(NUM_ACTIONS, 1.0 / NUM_ACTIONS)


class Unnormalised(Illegal):
    name = "unnormalised"
    declaration = Declaration(states_policy=True)

    def action_probabilities(self, observation):
        return observation.action_mask.astype(float)


@pytest.mark.parametrize(("agent", "what"), [(Illegal(), "put weight on an illegal id"),
                                             (Unnormalised(), "sum to 2, not 1")])
def test_a_policy_that_is_not_a_distribution_is_refused(tiny, agent, what):
    with pytest.raises(ValueError, match=rf"agent '{agent.name}' at 's1 \[.*: probabilities .* {what}; a policy is a "
                                         r"distribution over the legal ids \[2, 3\]"):
        policy_from_agent(tiny, agent)


class ClubLover:
    """Completes whenever its down card is a club: a policy the rank game cannot hold exactly."""

    name = "club_lover"
    declaration = Declaration(observes=("view",), states_policy=True)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        mask = observation.action_mask.astype(float)
        if mask[2] and observation.view.own_down[0] % 4 == 0:
            out = np.zeros(NUM_ACTIONS)
            out[2] = 1.0
            return out
        return mask / mask.sum()


def test_suit_dependent_agents_are_warned_about(tiny):
    with pytest.warns(UserWarning, match="'club_lover' plays differently when its down cards change suit"):
        policy_from_agent(tiny, ClubLover())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        policy_from_agent(tiny, RandomAgent(seed=2))
        policy_from_agent(build_game("minirazz_tiny", suited=True), ClubLover())


def test_tabular_agent_declares_its_table(solved):
    agent = TabularPolicyAgent(solved, seed=3)
    assert seating_problem(agent, "minirazz_tiny", 2) is None
    assert "cannot be seated at minirazz with 2 seats" in seating_problem(agent, "minirazz", 2)
    with pytest.raises(ValueError, match="plays minirazz_tiny heads-up; it cannot play razz with 3 seats"):
        agent.reset(0, 3, "razz")


def test_tabular_agent_refuses_other_stakes(solved):
    agent = TabularPolicyAgent(solved)
    hand = HandState(HandConfig.create("minirazz_tiny", ante=2), seed=4)
    observation = Observation(hand.actor, np.ones(5, dtype=np.int8), hand.view(hand.actor))
    with pytest.raises(ValueError, match="the pot is 4 at .* has 2 there: the table plays other stakes"):
        agent.action_probabilities(observation)
    fine = Observation(hand.actor, np.ones(5, dtype=np.int8), HandState(solved.game.config, seed=4).view(hand.actor))
    with pytest.raises(ValueError, match="the pot is 4 at .* has 2 there: the table plays other stakes"):
        agent.act_batch([observation])
    with pytest.raises(ValueError, match=r"every view must be of one game; got minirazz_tiny with 2 seats \(ante 1, "
                                         r".*\) and minirazz_tiny with 2 seats \(ante 2"):
        agent.act_batch([fine, observation])  # views of two stakes are refused as they are stacked, named


def test_tabular_agent_acts_in_batch_as_it_acts_one_by_one(solved, random_decisions):
    """Rows of 300 hands, mixed across hands, streets and seats: the same ids, probabilities and draws."""
    observations = random_decisions(solved.game.config, 300, 1)
    assert {o.seat for o in observations} == {0, 1}
    one, many = TabularPolicyAgent(solved, seed=9), TabularPolicyAgent(solved, seed=9)
    assert "act_batch" in declaration_of(many).methods
    probabilities = np.array([one.action_probabilities(o) for o in observations])
    assert ((probabilities > 0).sum(axis=1) > 1).mean() > 0.5  # mostly mixed: every draw counts
    expected = [one.act(o) for o in observations]
    half = len(observations) // 2
    assert many.act_batch(observations[:half]) + many.act_batch(ObservationBatch.of(observations[half:])) == expected
    assert many.rng.getstate() == one.rng.getstate()
    assert np.array_equal(many.action_probabilities_batch(observations), probabilities)
    assert many.act_batch([]) == [] and many.action_probabilities_batch([]).shape == (0, NUM_ACTIONS)
    assert many.rng.getstate() == one.rng.getstate()


def test_tabular_agent_in_batch_needs_the_views(solved):
    hand = HandState(solved.game.config, seed=4)
    with pytest.raises(AttributeError, match="reads views, and these observations carry none"):
        TabularPolicyAgent(solved).act_batch([Observation(hand.actor, np.ones(5, dtype=np.int8))])


def test_tabular_agent_plays_its_policy_in_the_tournament(tiny, solved):
    """Its winnings against the random agent over duplicate deals match the tree's exact value."""
    sweeper, mine, uniform = Sweeper(tiny), solved.array, TabularPolicy.uniform(tiny).array
    expected = (sweeper.root_value(0, mine, uniform) + sweeper.root_value(1, mine, uniform)) / 2
    deals = 3000
    tables = play_deals([TabularPolicyAgent(solved, seed=5), RandomAgent(seed=6)], tiny.config, deals, "solve")
    won = np.array([t.hand.payoffs[t.positions.index(0)] for t in tables], dtype=float)
    assert won.mean() == pytest.approx(expected, abs=4 * won.std() / np.sqrt(len(won)))
    assert won.mean() > 0.5
