"""Agents in PettingZoo and Gymnasium loops through :class:`razz_env.envs.adapters.AgentAdapter`."""

from __future__ import annotations

import os

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import razz_env
from razz_env.agents.registry import make_agent
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, NUM_ACTIONS
from razz_env.encoding.interface import Declaration
from razz_env.engine import HandConfig
from razz_env.envs.adapters import AgentAdapter

FUZZ = settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class Recorder:
    """Plays the first legal of check/call, bring-in, bet; records its resets and observations."""

    def __init__(self, observes: tuple[str, ...] = ("view", "vector"), encoding: str = "flat") -> None:
        self.name = "recorder"
        self.declaration = Declaration(observes=observes, encoding=encoding if "vector" in observes else None)
        self.resets: list[tuple[int, int, str]] = []
        self.seen: list = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.resets.append((seat, num_seats, variant))

    def act(self, observation) -> int:
        self.seen.append(observation)
        return next(i for i in (CHECK_CALL, BRING_IN, BET_RAISE) if observation.action_mask[i])


def pettingzoo_hands(env, players: dict[str, AgentAdapter], hands: int, seed: int = 0) -> dict[str, float]:
    """Play ``hands`` hands of the AEC env, each agent through its adapter; the total reward per agent."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for number in range(hands):
        env.reset(seed=seed + number)
        for name in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                totals[name] += reward
                env.step(None)
            else:
                env.step(players[name].act(observation, name))
    return totals


def test_every_kind_of_zoo_agent_plays_a_plain_pettingzoo_loop() -> None:
    """Mask-only, view-reading and vector-reading agents alike, given the env they play in."""
    env = razz_env.env(num_seats=2, stacks=1000)
    for pair in (("ppo_razz", "razz_heuristic"), ("random", {"type": "monte_carlo", "samples": 16, "seed": 1}),
                 ("calling_station", "ppo_razz")):
        players = {name: AgentAdapter(make_agent(spec, seed=3), env) for name, spec in zip(env.possible_agents, pair)}
        totals = pettingzoo_hands(env, players, hands=6)
        assert abs(sum(totals.values())) < 1e-9 and any(totals.values())


def test_given_the_env_the_agent_gets_its_own_observation_and_a_reset_per_hand() -> None:
    env = razz_env.env(num_seats=3, encoding="flat")
    recorder = Recorder(encoding="ranks")  # the agent's own encoding, not the env's
    adapter = AgentAdapter(recorder, env)
    players = dict.fromkeys(env.possible_agents, adapter)
    pettingzoo_hands(env, players, hands=4)
    ranks_size = make_encoder("ranks", HandConfig.create("razz", num_seats=3)).size
    assert recorder.seen and all(o.vector.shape == (ranks_size,) for o in recorder.seen)
    for observation in recorder.seen:
        assert observation.view.seat == observation.seat and observation.action_mask.any()
    acted = {(o.seat, id(o)) for o in recorder.seen}
    assert acted and len(recorder.resets) <= 4 * 3
    assert {seat for seat, _, _ in recorder.resets} == {seat for seat, _ in acted}
    assert all(reset[1:] == (3, "razz") for reset in recorder.resets)


def test_given_the_env_a_stale_observation_or_the_wrong_seat_is_refused() -> None:
    env = razz_env.env(num_seats=3)
    adapter = AgentAdapter(Recorder(), env)
    with pytest.raises(RuntimeError, match="before the environment's reset"):
        AgentAdapter(Recorder(), razz_env.raw_env()).act(None, "player_0")
    env.reset(seed=2)
    to_act = env.agent_selection
    observation = env.observe(to_act)
    other = next(name for name in env.possible_agents if name != to_act)
    with pytest.raises(ValueError, match="is not to act now"):
        adapter.act(env.observe(other), other)
    env.step(adapter.act(observation, to_act))
    with pytest.raises(ValueError, match=r"action mask .* is not seat"):
        adapter.act(observation, env.agent_selection)  # the previous decision's observation
    assert adapter.act(None, None) in range(NUM_ACTIONS)  # the seat to act, read from the env


def test_a_zoo_agent_plays_the_learner_of_a_gymnasium_env() -> None:
    env = gymnasium.make("razz_env/Razz-v0", stacks=1000)
    adapter = AgentAdapter(make_agent("ppo_razz"), env)
    rewards = []
    for seed in range(5):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            observation, reward, terminated, _, info = env.step(adapter.act(observation, info=info))
        rewards.append(reward)
    assert any(rewards)


def test_bare_observations_give_the_same_actions_as_the_env() -> None:
    """ppo_razz reads only the vector: on PettingZoo dicts, Gymnasium vectors with info, or with the env, it
    picks the same action (the zoo's vectors are the env's default encoding)."""
    env = razz_env.env(num_seats=2, stacks=1000)
    agent = make_agent("ppo_razz")
    in_env = AgentAdapter(agent, env)
    bare = AgentAdapter(agent, variant="razz", num_seats=2)
    decisions = 0
    for seed in range(4):
        env.reset(seed=seed)
        for name in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = in_env.act(observation, name)
            info = {"action_mask": observation["action_mask"], "seat": int(name[-1])}
            assert bare.act(observation, name) == action == bare.act(observation["observation"], info=info)
            tianshou_style = {"observation": observation["observation"], "action_mask": observation["action_mask"] == 1}
            assert bare.act_batch([tianshou_style, observation], [name, int(name[-1])]) == [action, action]
            decisions += 1
            env.step(action)
    assert decisions > 8


def test_bare_observations_reset_the_agent_once_per_seat_until_new_hand() -> None:
    recorder = Recorder(observes=("vector",))
    adapter = AgentAdapter(recorder, variant="razz", num_seats=2)
    env = razz_env.env()
    env.reset(seed=0)
    name = env.agent_selection
    for _ in range(2):
        adapter.act(env.observe(name), name)
    assert recorder.resets == [(int(name[-1]), 2, "razz")]
    adapter.new_hand()
    adapter.act(env.observe(name), name)
    assert len(recorder.resets) == 2


@pytest.mark.parametrize(("agent", "options", "error", "match"), [
    ("razz_heuristic", {"variant": "razz", "num_seats": 2}, ValueError,
     r"agent 'razz_heuristic' reads the table view .* pass the environment it plays in"),
    ("ppo_razz", {}, ValueError, "without the environment, name the table"),
    ("ppo_razz", {"variant": "razz"}, ValueError, "without the environment, name the table"),
    ("ppo_razz", {"variant": "stud", "num_seats": 2}, ValueError, "plays razz at 2 seats; it cannot be seated"),
    ("ppo_razz", {"variant": "razz", "num_seats": 3}, ValueError, "cannot be seated at razz with 3 seats"),
    ("random", {"variant": "holdem", "num_seats": 2}, ValueError, "variant"),
    ("random", {"variant": "razz", "num_seats": 9}, ValueError, "num_seats"),
])
def test_bad_adapters_are_refused_with_the_reason(agent: str, options: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        AgentAdapter(make_agent(agent), **options)


def test_the_env_and_a_table_together_or_a_foreign_env_or_agent_are_refused() -> None:
    with pytest.raises(ValueError, match="the environment sets the table"):
        AgentAdapter(make_agent("random"), razz_env.env(), variant="razz", num_seats=2)
    with pytest.raises(TypeError, match="expected a razz-env environment"):
        AgentAdapter(make_agent("random"), gymnasium.make("CartPole-v1"))
    with pytest.raises(TypeError, match="is not an Agent"):
        AgentAdapter(object(), variant="razz", num_seats=2)
    with pytest.raises(ValueError, match="act_batch: an adapter given the environment"):
        AgentAdapter(make_agent("random"), razz_env.env()).act_batch([], [])


def test_an_agent_answering_an_illegal_id_is_named() -> None:
    class Stubborn:
        name, declaration = "stubborn", Declaration(observes=())

        def reset(self, seat, num_seats, variant):
            """Stateless."""

        def act(self, observation):
            return 4

    env = razz_env.env()
    env.reset(seed=0)
    name = env.agent_selection
    for adapter in (AgentAdapter(Stubborn(), env), AgentAdapter(Stubborn(), variant="razz", num_seats=2)):
        with pytest.raises(ValueError, match=r"agent 'stubborn' in seat 0 chose 4, which the mask forbids; "
                                             r"legal ids: 2 \(bet_raise\), 3 \(bring_in\)"):
            adapter.act(env.observe(name), name)


@pytest.mark.parametrize(("observation", "seat", "info", "match"), [
    ({"obs": np.zeros(676)}, 0, None, "a dict needs 'observation' and 'action_mask'"),
    ({"observation": np.zeros(676)}, 0, None, "no action mask"),
    (np.zeros(676), 0, None, "no action mask"),
    (np.zeros(676), 0, {"action_mask": [1, 1]}, "action_mask: expected 5 zeros and ones"),
    (np.zeros(676), 0, {"action_mask": [0, 2, 0, 0, 0]}, "action_mask: expected 5 zeros and ones"),
    (np.zeros(676), 0, {"action_mask": [0, 0, 0, 0, 0]}, "no id is legal"),
    (np.zeros(676), 0, {"action_mask": "10000"}, "action_mask: expected an array of numbers, got str"),
    (np.full(676, 1e300), 0, {"action_mask": [0, 1, 0, 0, 0]}, "not finite float32"),
    (["a"] * 676, 0, {"action_mask": [0, 1, 0, 0, 0]}, "observation: expected an array of numbers"),
    (np.zeros(100), 0, {"action_mask": [0, 1, 0, 0, 0]}, "reads 'flat' vectors of 676 numbers .* got shape"),
    (np.zeros(676), None, {"action_mask": [0, 1, 0, 0, 0]}, "seat: give the seat"),
    (np.zeros(676), "dealer", {"action_mask": [0, 1, 0, 0, 0]}, "expected an agent name 'player_<seat>'"),
    (np.zeros(676), "player_2", {"action_mask": [0, 1, 0, 0, 0]}, "seat: must be at most 1, got 2"),
    (np.zeros(676), True, {"action_mask": [0, 1, 0, 0, 0]}, "seat: expected a seat number, got True"),
])
def test_bad_bare_observations_are_named(observation, seat, info, match: str) -> None:
    adapter = AgentAdapter(make_agent("calling_station"), variant="razz", num_seats=2)
    with pytest.raises(ValueError, match=match):
        adapter.act(observation, seat, info)


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.floats(allow_nan=True), st.text(max_size=8),
                 st.binary(max_size=4))
MASKS = st.one_of(st.lists(st.integers(-1, 2), min_size=0, max_size=7), st.lists(st.booleans(), min_size=5, max_size=5),
                  JUNK)
LEGAL_MASKS = st.lists(st.integers(0, 1), min_size=5, max_size=5).map(lambda m: m if any(m) else [0, 1, 0, 0, 0])
VECTORS = st.one_of(st.integers(0, 700).map(np.zeros), st.just(np.zeros(676)), st.lists(JUNK, max_size=3), JUNK)
SEATS = st.one_of(st.integers(-2, 4), st.sampled_from(["player_0", "player_1", "player_7", "player_x", ""]), JUNK)
WELL_FORMED = st.one_of(  # what PettingZoo, Gymnasium and Tianshou hand out
    st.tuples(st.fixed_dictionaries({"observation": st.just(np.zeros(676)), "action_mask": LEGAL_MASKS}),
              st.sampled_from([0, 1, "player_0", "player_1"]), st.none()),
    st.tuples(st.just(np.zeros(676)), st.none(),
              st.fixed_dictionaries({"action_mask": LEGAL_MASKS, "seat": st.sampled_from([0, 1])})),
)
MALFORMED = st.tuples(
    st.one_of(st.fixed_dictionaries({"observation": VECTORS, "action_mask": MASKS}),
              st.dictionaries(st.text(max_size=12), JUNK, max_size=3), VECTORS),
    SEATS,
    st.one_of(st.none(), st.fixed_dictionaries({"action_mask": MASKS}), st.fixed_dictionaries({"seat": SEATS})),
)


@FUZZ
@given(case=st.one_of(WELL_FORMED, MALFORMED))
def test_fuzzed_bare_inputs_give_a_legal_id_or_a_one_line_error(case) -> None:
    observation, seat, info = case
    adapter = AgentAdapter(make_agent("random", seed=0), variant="razz", num_seats=2)
    try:
        action = adapter.act(observation, seat, info)
    except (ValueError, TypeError) as err:
        assert str(err) and "\n" not in str(err)
        event("clean error")
    else:
        mask = np.asarray(observation["action_mask"] if isinstance(observation, dict) else info["action_mask"])
        assert isinstance(action, int) and mask[action]
        event("valid action")
