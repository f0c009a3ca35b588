"""Every shipped agent states the policy it plays: a distribution over the legal ids, and what ``act`` draws from.

The fuzz test plays random hands (every variant, 2-8 seats, short stacks) and checks each baseline's
``action_probabilities`` at every decision, and that a seat not to act gets a clean ``ValueError``.
Stochastic agents are checked by drawing ``act`` many times on one observation: the counts must match
the stated probabilities within a generous binomial bound, and a deliberately wrong distribution must
fail the same bound. ``RAZZ_FUZZ_EXAMPLES=2000 pytest tests/agents/test_policies.py -n 0 -s`` fuzzes more
and prints the figures (observations checked, clean errors).
"""

from __future__ import annotations

import atexit
import os
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.agents.registry import make_agent
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import BET_RAISE, CHECK_CALL, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import Observation, action_probabilities, observe, seating_problem
from razz_env.engine.actions import Action
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS

BASELINES = {
    "random": "random",
    "calling_station": "calling_station",
    "razz_heuristic": "razz_heuristic",
    "monte_carlo": {"type": "monte_carlo", "samples": 24},
}
DETERMINISTIC = ("calling_station", "monte_carlo")
EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\npolicy fuzz figures:", dict(sorted(FIGURES.items()))))


def played_observations(variant: str, seats: int, seed: int, short: bool = False, encoder_name: str | None = None,
                        stack_size: int = 200) -> tuple[list[Observation], list[Observation]]:
    """Observations at every decision of a randomly played hand, and of a seat not to act at each (no legal id)."""
    rng = random.Random(seed)
    stacks = [rng.randint(1, 40) if short else stack_size for _ in range(seats)]
    config = HandConfig.create(variant, stacks=stacks)
    encoder = make_encoder(encoder_name, config) if encoder_name else None
    hand = HandState(config, seed=seed)
    to_act, waiting = [], []
    while not hand.is_over:
        seat = hand.actor
        to_act.append(observe(hand, seat, encoder=encoder))
        waiting.append(observe(hand, (seat + rng.randrange(1, seats)) % seats, encoder=encoder))
        legal = hand.legal_actions()
        keep_playing = [a for a in legal if a is not Action.FOLD]
        hand.act(rng.choice(keep_playing if keep_playing and rng.random() < 0.85 else legal))
    return to_act, waiting


def assert_distribution(probabilities: np.ndarray, mask: np.ndarray) -> None:
    """float64 over the five ids, non-negative, zero on illegal ids, summing to 1."""
    assert probabilities.dtype == np.float64 and probabilities.shape == (NUM_ACTIONS,)
    assert (probabilities >= 0).all(), probabilities
    assert (probabilities[mask == 0] == 0).all(), (probabilities, mask)
    assert abs(probabilities.sum() - 1.0) < 1e-9, probabilities


def frequencies_match(counts: np.ndarray, probabilities: np.ndarray) -> bool:
    """Whether draw counts agree with ``probabilities``: none where p is 0, each id within 5 binomial sd (+1)."""
    draws = counts.sum()
    spread = 5 * np.sqrt(draws * probabilities * (1 - probabilities)) + 1
    return bool((counts[probabilities == 0] == 0).all() and (np.abs(counts - draws * probabilities) <= spread).all())


def act_counts(agent, observation: Observation, draws: int) -> np.ndarray:
    return np.bincount([agent.act(observation) for _ in range(draws)], minlength=NUM_ACTIONS)


def test_the_frequency_check_passes_the_truth_and_fails_a_wrong_distribution() -> None:
    rng = np.random.default_rng(0)
    truth = np.array([0.0, 0.6, 0.3, 0.0, 0.1])
    counts = np.bincount(rng.choice(NUM_ACTIONS, size=3000, p=truth), minlength=NUM_ACTIONS)
    assert frequencies_match(counts, truth)
    assert not frequencies_match(counts, np.array([0.0, 0.55, 0.35, 0.0, 0.1]))
    assert not frequencies_match(counts, np.array([0.0, 0.6, 0.4, 0.0, 0.0]))


tables = st.sampled_from(sorted(VARIANTS)).flatmap(
    lambda variant: st.tuples(st.just(variant), st.integers(2, max_seats(VARIANTS[variant]))))


@FUZZ
@given(table=tables, short=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_every_baseline_states_a_legal_distribution_and_acts_within_it(table, short, seed) -> None:
    variant, seats = table
    to_act, waiting = played_observations(variant, seats, seed, short)
    for name, spec in BASELINES.items():
        agent = make_agent(spec, seed=seed)
        if seating_problem(agent, variant, seats):  # a seven-card agent at a MiniRazz table: refused, not asked
            FIGURES[f"{name}: variant refused"] += 1
            continue
        stated = []
        for observation in to_act:
            probabilities = agent.action_probabilities(observation)
            assert_distribution(probabilities, observation.action_mask)
            chosen = agent.act(observation)
            assert probabilities[chosen] > 0, (name, chosen, probabilities)
            if name in DETERMINISTIC:
                assert probabilities[chosen] == 1.0, (name, chosen, probabilities)
            stated.append(probabilities)
            FIGURES[f"{name}: policies checked"] += 1
        if to_act:  # antes can put every seat all-in: a hand with no decision
            np.testing.assert_array_equal(action_probabilities(agent, to_act), np.array(stated))
        for observation in waiting:
            with pytest.raises(ValueError, match="no legal action"):
                agent.action_probabilities(observation)
            FIGURES[f"{name}: seat not to act, clean error"] += 1


def test_random_is_uniform_over_the_legal_ids_and_batches_the_same() -> None:
    agent = make_agent("random", seed=3)
    observations = [o for seed in range(5) for o in played_observations("razz", 3, seed)[0]]
    batch = agent.action_probabilities_batch(observations)
    for observation, row in zip(observations, batch):
        np.testing.assert_array_equal(row, observation.action_mask / observation.action_mask.sum())
        np.testing.assert_array_equal(row, agent.action_probabilities(observation))
    assert agent.action_probabilities_batch([]).shape == (0, NUM_ACTIONS)


def test_random_act_frequencies_match_its_policy() -> None:
    agent = make_agent("random", seed=5)
    facing_bet = next(o for seed in range(50) for o in played_observations("stud", 2, seed)[0]
                      if o.action_mask[[FOLD, CHECK_CALL, BET_RAISE]].all())
    probabilities = agent.action_probabilities(facing_bet)
    counts = act_counts(agent, facing_bet, 3000)
    assert frequencies_match(counts, probabilities)
    wrong = probabilities.copy()
    wrong[FOLD] -= 0.06
    wrong[BET_RAISE] += 0.06
    assert not frequencies_match(counts, wrong)


def bluff_spot(variant: str) -> Observation:
    """A decision where the hand-crafted player mixes (two ids with positive probability)."""
    agent = make_agent("razz_heuristic")
    return next(o for seed in range(500) for o in played_observations(variant, 2 + seed % 3, seed)[0]
                if np.count_nonzero(agent.action_probabilities(o)) == 2)


@pytest.mark.parametrize("variant", ["razz", "action_razz"])
def test_heuristic_bluffs_with_its_stated_probability(variant: str) -> None:
    spot = bluff_spot(variant)
    agent = make_agent("razz_heuristic", seed=9)
    probabilities = agent.action_probabilities(spot)
    assert probabilities[BET_RAISE] == pytest.approx(agent.bluff) and probabilities[CHECK_CALL] == pytest.approx(0.9)
    counts = act_counts(agent, spot, 4000)
    assert frequencies_match(counts, probabilities)
    for wrong_bluff in (0.15, agent.bluff**2):  # a wrong rate; two draws where the code makes one
        assert not frequencies_match(counts, np.array([0, 1 - wrong_bluff, wrong_bluff, 0, 0]))


@pytest.mark.parametrize("bluff", [0.0, 0.35, 1.0])
def test_heuristic_policy_follows_its_bluff_setting(bluff: float) -> None:
    spot = bluff_spot("razz")
    agent = make_agent({"type": "razz_heuristic", "bluff": bluff}, seed=1)
    np.testing.assert_allclose(agent.action_probabilities(spot)[[CHECK_CALL, BET_RAISE]], [1 - bluff, bluff])
    assert frequencies_match(act_counts(agent, spot, 1000), agent.action_probabilities(spot))


def test_one_hot_refuses_an_illegal_id() -> None:
    observation = played_observations("razz", 2, 0)[0][0]
    agent = make_agent("calling_station")
    legal = int(np.flatnonzero(observation.action_mask)[0])
    np.testing.assert_array_equal(agent.one_hot(observation, legal), np.eye(NUM_ACTIONS)[legal])
    with pytest.raises(ValueError, match=f"action id {FOLD} is not legal"):
        agent.one_hot(observation, FOLD)


# --------------------------------------------------------------------------- trained agents


@pytest.fixture(scope="module")
def zoo():
    """The shipped agents with each ``deterministic`` setting (each model is loaded once per process)."""
    pytest.importorskip("torch").set_num_threads(1)
    pytest.importorskip("sb3_contrib")
    return {(name, flag): make_agent({"type": name, "deterministic": flag}, seed=0)
            for name in ("ppo_razz", "qrdqn_razz", "ppo_razz_pool") for flag in (True, False)}


def zoo_observations(hands: int) -> list[Observation]:
    """Heads-up razz decisions with the flat encoding the zoo reads, short stacks included."""
    return [o for seed in range(hands)
            for o in played_observations("razz", 2, seed, short=seed % 3 == 0, encoder_name="flat",
                                         stack_size=1000)[0]]


def test_trained_agents_state_their_policy_and_batch_it(zoo) -> None:
    observations = zoo_observations(20)
    for (name, deterministic), agent in zoo.items():
        batch = agent.action_probabilities_batch(observations)
        np.testing.assert_allclose(action_probabilities(agent, observations), batch, atol=1e-12)
        greedy = deterministic or name == "qrdqn_razz"
        for observation, row in zip(observations, batch):
            single = agent.action_probabilities(observation)
            assert_distribution(single, observation.action_mask)
            # float32 forward passes of one row and of many round differently (ppo_razz_pool: 1.2e-6)
            np.testing.assert_allclose(single, row, atol=1e-5)
            if greedy:
                assert single.max() == 1.0 and agent.act(observation) == int(single.argmax()), name
        if not greedy:
            assert (batch.max(axis=1) < 0.99).any(), "a sampling policy that never mixes tests nothing"
        assert agent.action_probabilities_batch([]).shape == (0, NUM_ACTIONS) and agent.act_batch([]) == []


def test_varied_probabilities_equal_the_policy_on_each_varied_vector(zoo) -> None:
    """``action_probabilities_varied`` (first layer computed once) equals the batch on the full vectors."""
    encoder = make_encoder("flat", HandConfig.create("razz", num_seats=2, stacks=1000))
    down = encoder.layout.slices["own_down"]
    columns = down.start + np.array([[c, c + 5, c + 9] for c in range(0, 40, 3)])
    for observation in zoo_observations(3)[:6]:
        base = observation.vector.copy()
        base[down] = 0.0
        vectors = np.repeat(base[None], len(columns), axis=0)
        np.put_along_axis(vectors, columns, 1.0, axis=1)
        full = [Observation(observation.seat, observation.action_mask, None, v) for v in vectors]
        for (name, _), agent in zoo.items():
            varied = agent.action_probabilities_varied(Observation(observation.seat, observation.action_mask,
                                                                   None, base), columns)
            np.testing.assert_allclose(varied, agent.action_probabilities_batch(full), atol=1e-6, err_msg=name)


def test_sampling_policy_act_frequencies_match_its_softmax(zoo) -> None:
    agent = zoo[("ppo_razz", False)]
    observations = zoo_observations(20)
    batch = agent.action_probabilities_batch(observations)
    spot = observations[int(batch.max(axis=1).argmin())]
    probabilities = agent.action_probabilities(spot)
    assert probabilities.max() < 0.8
    counts = act_counts(agent, spot, 1500)
    assert frequencies_match(counts, probabilities)
    assert frequencies_match(np.bincount(agent.act_batch([spot] * 3000), minlength=NUM_ACTIONS), probabilities)
    assert not frequencies_match(counts, zoo[("ppo_razz", True)].action_probabilities(spot))
    top, second = np.argsort(probabilities)[::-1][:2]
    wrong = probabilities.copy()
    wrong[top] -= 0.06
    wrong[second] += 0.06
    assert not frequencies_match(counts, wrong)


def test_value_based_agents_are_greedy_whatever_the_flag(zoo) -> None:
    """QR-DQN scores are action values, not a policy: deterministic=False must not sample their softmax."""
    greedy, flagged = zoo[("qrdqn_razz", True)], zoo[("qrdqn_razz", False)]
    observations = zoo_observations(10)
    np.testing.assert_array_equal(flagged.action_probabilities_batch(observations),
                                  greedy.action_probabilities_batch(observations))
    chosen = [greedy.act(o) for o in observations]
    for _ in range(5):
        assert [flagged.act(o) for o in observations] == chosen


def test_trained_agents_refuse_a_seat_not_to_act(zoo) -> None:
    waiting = played_observations("razz", 2, 1, encoder_name="flat", stack_size=1000)[1]
    for agent in zoo.values():
        with pytest.raises(ValueError, match=r"no legal action in row\(s\) \[0\]"):
            agent.action_probabilities(waiting[0])
        with pytest.raises(ValueError, match="no legal action"):
            agent.act(waiting[0])


@pytest.mark.parametrize("flag", ["no", 0, None])
def test_trained_agents_refuse_a_deterministic_flag_that_is_not_a_bool(zoo, flag) -> None:
    with pytest.raises(ValueError, match=f"^deterministic: expected true/false, got {flag!r}$"):
        make_agent({"type": "ppo_razz", "deterministic": flag})
