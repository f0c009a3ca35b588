"""The Gymnasium single-seat view: checkers, reward crediting on the opponents' moves, seeding, opponents."""

from __future__ import annotations

import copy
import operator
import os
import pickle
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import event, given, settings
from hypothesis import strategies as st
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from razz_env.encoding.actions import BET_BIG, BET_RAISE, BRING_IN, CHECK_CALL, ENGINE_TO_ID, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import Declaration
from razz_env.engine import Action
from razz_env.envs.single_agent import SeededRandomOpponent, SingleAgentEnv
from razz_env.envs.spaces import SampledAction

SMALL_STACKS = 60


def passive(mask: np.ndarray) -> int:
    return next(i for i in (CHECK_CALL, BRING_IN) if mask[i])


@pytest.mark.parametrize(("variant", "players"), [("razz", 2), ("action_razz", 3), ("stud", 8), ("stud8", 2),
                                                 ("minirazz", 5), ("minirazz_tiny", 2), ("minirazz_small", 3),
                                                 ("minirazz_large", 3)])
def test_gymnasium_checker_with_default_options(variant: str, players: int) -> None:
    """Gymnasium's own checker, every option at its default (illegal ids raise, the default opponents).

    Its determinism check samples an id, resets, then steps that id: a sample drawn for another decision,
    which may be illegal in the new hand. Its reset checks need opponents that ``reset(seed=...)`` reaches.
    """
    env = SingleAgentEnv(variant=variant, num_seats=players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)  # no spec to remake it from; test_registration renders


@pytest.mark.parametrize("players", [2, 3, 8])
def test_gymnasium_checker_with_a_deterministic_opponent_and_the_default_raise(players: int, calling_station) -> None:
    env = SingleAgentEnv(calling_station, num_seats=players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("variant", ["razz", "stud8"])
def test_sb3_checker_with_the_default_raise(variant: str, random_stub) -> None:
    env = SingleAgentEnv(random_stub(2), variant=variant, num_seats=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_check_env(env)


@pytest.mark.parametrize("variant", ["razz", "action_razz", "stud", "stud8"])
def test_sb3_checker_with_default_options(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_check_env(SingleAgentEnv(variant=variant))


def test_reward_credited_when_the_opponent_folds(folder) -> None:
    env = SingleAgentEnv(folder, seat=0)
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        obs, reward, terminated, truncated, info = env.step(BET_RAISE)  # complete: the folder folds
        hand = env.hand
        assert terminated and not truncated
        assert hand.history[-1].seat == 1 and hand.history[-1].action is Action.FOLD
        assert reward == hand.payoffs[0] / 10 > 0
        assert info["payoffs"] == hand.payoffs and not env.action_masks().any()


def test_reward_credited_at_showdown_after_the_opponents_call(calling_station) -> None:
    env = SingleAgentEnv(calling_station, num_seats=2, seat=1)
    won = set()
    for seed in range(6):
        env.reset(seed=seed)
        terminated = False
        while not terminated:
            mask = env.action_masks()
            action = BET_RAISE if env.hand.street == 7 and mask[BET_RAISE] else passive(mask)
            _, reward, terminated, _, _ = env.step(action)
        last = env.hand.history[-1]
        assert last.seat == 0 and last.action is Action.CALL and last.street == 7
        assert env.hand.pots and reward == env.hand.payoffs[1] / 10
        won.add(reward > 0)
    assert won == {True, False}


def test_rewards_sum_to_the_learners_payoffs_over_many_hands(random_stub) -> None:
    env = SingleAgentEnv(random_stub(3), num_seats=3, seat="random")
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(40):
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert env.hand.actor == env.seat == info["seat"]
        total = 0.0
        terminated = False
        while not terminated:
            mask = env.action_masks()
            assert mask.tolist() == info["action_mask"].tolist()
            _, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            if not terminated:
                assert env.hand.actor == env.seat
        assert total == env.hand.payoffs[env.seat] / 10
    assert seats == {0, 1, 2}


def test_seeded_reset_repeats_the_hand_and_seat(random_stub) -> None:
    a = SingleAgentEnv(random_stub(0), num_seats=4)
    b = SingleAgentEnv(random_stub(0), num_seats=4)
    obs_a, info_a = a.reset(seed=21)
    obs_b, info_b = b.reset(seed=21)
    np.testing.assert_array_equal(obs_a, obs_b)
    assert info_a["seat"] == info_b["seat"] and a.hand.cards == b.hand.cards
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])


def test_illegal_learner_action_raises_with_the_legal_ids(folder) -> None:
    env = SingleAgentEnv(folder, seat=0)
    env.reset(seed=4)
    mask = env.action_masks()
    bad = next(i for i in range(NUM_ACTIONS) if not mask[i])
    history = list(env.hand.history)
    with pytest.raises(ValueError, match=r"learner in seat 0: action .* legal ids: "):
        env.step(bad)
    assert env.hand.history == history


def test_check_fold_option_plays_passively(folder) -> None:
    env = SingleAgentEnv(folder, seat=0, illegal_action="check_fold")
    for seed in range(4):
        env.reset(seed=seed)
        legal = env.hand.legal_actions()
        mask = env.action_masks()
        expected = next(a for a in (Action.CHECK, Action.FOLD, Action.BRING_IN) if a in legal)
        before = len(env.hand.history)
        env.step(next(i for i in range(NUM_ACTIONS) if not mask[i]))
        assert env.hand.history[before][1:3] == (0, expected)
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv(folder, illegal_action="ignore")


def test_opponents_list_seats_and_swaps(random_stub) -> None:
    first, second = random_stub(1), random_stub(2)
    env = SingleAgentEnv([first, second], num_seats=3, seat=1)
    env.reset(seed=0)
    assert first.seats == [2] and second.seats == [0]  # clockwise from the learner
    third = random_stub(3)
    env.set_opponents(third)
    env.reset(seed=1)
    assert third.seats == [2, 0]  # one agent for every other seat
    with pytest.raises(ValueError, match="list of 2"):
        env.set_opponents([first])
    with pytest.raises(ValueError, match="is not an agent .* an agent's name"):
        env.set_opponents(object())


def test_opponents_by_name_spec_or_list_as_make_agent_takes_them() -> None:
    """A name is one agent for every other seat (not a list of 14 characters); a list holds one spec per seat."""
    env = SingleAgentEnv(opponents="razz_heuristic", seat=0)
    env.reset(seed=0)
    assert [agent.name for agent in env._opponents] == ["razz_heuristic"]
    env = SingleAgentEnv(opponents=["calling_station", {"type": "random"}], num_seats=3, seat=0)
    env.reset(seed=0)
    assert [agent.name for agent in env._opponents] == ["calling_station", "random"]
    one = SingleAgentEnv(opponents={"type": "monte_carlo", "samples": 8}, num_seats=4, seat=0)
    assert len({id(agent) for agent in one._opponents}) == 1 and len(one._opponents) == 3
    for _ in range(3):
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        if done:
            break


def test_seeded_resets_repeat_hands_against_random_agents_given_by_name() -> None:
    def actions(env: SingleAgentEnv) -> list:
        env.reset(seed=5)
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        return list(env.hand.history)

    assert actions(SingleAgentEnv(opponents="random", seat=0)) == actions(SingleAgentEnv(opponents="random", seat=0))


@pytest.mark.parametrize(("opponents", "message"), [
    ("razz_heurstic", "opponents: unknown agent 'razz_heurstic'; known agents: "),
    ({"type": "monte_carlo", "sample": 8}, "opponents: agent 'monte_carlo': bad arguments ['sample', 'seed']"),
    ({"samples": 8}, "opponents: agent spec {'samples': 8} has no 'type' key naming the agent"),
    (["random", "random", "random"], "opponents: expected one agent or a list of 1 (one per other seat), got a "
                                     "list of 3"),
])
def test_a_wrong_opponent_spec_is_named(opponents, message) -> None:
    with pytest.raises(ValueError) as raised:
        SingleAgentEnv(opponents=opponents)
    assert str(raised.value).startswith(message), raised.value


def test_opponent_sampler_is_asked_before_every_hand(random_stub) -> None:
    calls = []

    def sampler():
        calls.append(1)
        return random_stub(len(calls))

    env = SingleAgentEnv(opponent_sampler=sampler, num_seats=2)
    for seed in range(3):
        env.reset(seed=seed)
    assert len(calls) == 3


def test_a_hand_that_ends_before_the_learner_acts_is_skipped(random_stub, monkeypatch) -> None:
    env = SingleAgentEnv(random_stub(0), num_seats=2, seat=0)
    original = SingleAgentEnv._play_opponents
    rng = np.random.default_rng(1)
    state = {"first": True}

    def play_out_first_hand(self: SingleAgentEnv) -> None:
        if state["first"]:
            state["first"] = False
            while not self.hand.is_over:
                legal = self.hand.legal_actions()
                self.hand.act(legal[int(rng.integers(len(legal)))])
            return
        original(self)

    monkeypatch.setattr(SingleAgentEnv, "_play_opponents", play_out_first_hand)
    _, info = env.reset(seed=0)
    assert info["skipped_hands"] == 1 and env.hand.actor == 0


def test_seat_and_stack_validation(random_stub) -> None:
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(random_stub(0), seat=2)
    with pytest.raises(ValueError, match="can never act"):
        SingleAgentEnv(random_stub(0), seat=0, stacks=[1, SMALL_STACKS, SMALL_STACKS])
    env = SingleAgentEnv(random_stub(0), stacks=[1, SMALL_STACKS, SMALL_STACKS])
    for seed in range(10):
        assert env.reset(seed=seed)[1]["seat"] in (1, 2)


def test_observation_space_and_a_detached_action_space(random_stub) -> None:
    env = SingleAgentEnv(random_stub(0), num_seats=2, encoding="ranks")
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space and obs.dtype == np.float32
    assert env.action_space.contains(env.action_space.sample())
    assert env.action_masks()[env.action_space.sample()] == 1  # sample() without a mask is legal
    for restored in (pickle.loads(pickle.dumps(env.action_space)), copy.deepcopy(env.action_space)):
        assert restored == env.action_space  # alone, without the environment: samples every id
        assert {int(restored.sample()) for _ in range(200)} == set(range(NUM_ACTIONS))


def test_render_from_the_learners_seat(random_stub) -> None:
    env = SingleAgentEnv(random_stub(0), num_seats=2, seat=0, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    down = env.hand.down_cards(0)
    assert isinstance(text, str) and "##" in text
    from razz_env.engine import card_str

    assert all(card_str(c) in text for c in down)


def test_maskable_ppo_smoke(random_stub) -> None:
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch.set_num_threads(1)
    env = SingleAgentEnv(random_stub(0), num_seats=2)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                                    policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)] == 1


def test_an_illegal_opponent_action_names_the_opponent() -> None:
    class BigBettor:
        name = "bigbettor"
        declaration = Declaration()

        def reset(self, seat: int, num_seats: int, variant: str) -> None:
            """Stateless."""

        def act(self, observation) -> int:
            return BET_BIG  # never legal in razz

    env = SingleAgentEnv(BigBettor(), num_seats=2, seat=0)
    with pytest.raises(ValueError, match=r"opponent bigbettor in seat 1: action 4 is not legal now; legal ids"):
        env.reset(seed=0)
        env.step(passive(env.action_masks()))


class FailingAgent:
    """Answers ``answers`` in turn, then raises (or returns an illegal id) at the given decision."""
    declaration = Declaration()

    def __init__(self, fail_at: int, failure: str, name: str = "flaky") -> None:
        self.name = name
        self.fail_at = fail_at
        self.failure = failure
        self.decisions = 0

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless."""

    def act(self, observation) -> int:
        self.decisions += 1
        if self.decisions == self.fail_at:
            if self.failure == "raise":
                raise ZeroDivisionError("model exploded")
            return BET_BIG  # never legal in razz
        return passive(observation.action_mask)


@pytest.mark.parametrize(
    ("failure", "error", "match"),
    [
        ("raise", RuntimeError, r"opponent flaky in seat 1 raised ZeroDivisionError: model exploded; the hand is "
                                r"aborted: call reset\(\)"),
        ("illegal", ValueError, r"opponent flaky in seat 1: action 4 is not legal now; legal ids: .*; the hand is "
                                r"aborted: call reset\(\)"),
    ],
)
def test_a_failing_opponent_aborts_the_hand_and_step_refuses_until_reset(failure, error, match) -> None:
    opponent = FailingAgent(fail_at=0, failure=failure)
    env = SingleAgentEnv(opponent, num_seats=2, seat=0)
    env.reset(seed=0)
    opponent.fail_at = opponent.decisions + 1  # its next decision fails
    hand = env.hand
    with pytest.raises(error, match=match):
        env.step(passive(env.action_masks()))
    history = list(hand.history)
    assert env.hand is hand and hand.actor == 1 and not hand.is_over
    assert not env.action_masks().any()  # nothing is the learner's to do
    for action in (CHECK_CALL, BET_RAISE):
        with pytest.raises(RuntimeError, match=r"step\(\) after the hand was aborted \(opponent flaky in seat 1 "
                                               r"failed\): call reset\(\) first"):
            env.step(action)
    assert hand.history == history  # the learner never acted in the opponent's seat
    opponent.fail_at = 0
    _, info = env.reset(seed=1)
    assert env.hand.actor == 0 and info["action_mask"].any()
    env.step(passive(env.action_masks()))


def test_an_opponent_failing_during_reset_is_named_and_step_refuses() -> None:
    env = SingleAgentEnv(FailingAgent(fail_at=1, failure="raise", name="early"), num_seats=2, seat=1)
    with pytest.raises(RuntimeError, match="opponent early in seat 0 raised ZeroDivisionError"):
        env.reset(seed=3)  # seat 0 (the opponent) brings in or acts first on some deal
    with pytest.raises(RuntimeError, match="step\\(\\) after the hand was aborted"):
        env.step(CHECK_CALL)


def test_an_opponent_whose_reset_raises_is_named() -> None:
    class BadReset(FailingAgent):
        def reset(self, seat: int, num_seats: int, variant: str) -> None:
            raise KeyError(variant)

    env = SingleAgentEnv(BadReset(0, "raise", name="badreset"), num_seats=2, seat=0)
    with pytest.raises(RuntimeError, match=r"opponent badreset in seat 1 raised KeyError in reset\(\): 'razz'"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match="aborted"):
        env.step(CHECK_CALL)


def test_a_failed_opponent_sampler_leaves_no_hand_to_step(calling_station) -> None:
    calls = []

    def sampler():
        calls.append(1)
        if len(calls) == 2:
            raise OSError("checkpoint missing")
        return calling_station

    env = SingleAgentEnv(opponent_sampler=sampler, num_seats=2, seat=0)
    env.reset(seed=0)
    with pytest.raises(OSError, match="checkpoint missing"):
        env.reset()
    with pytest.raises(RuntimeError, match=r"step\(\) after the hand was aborted \(reset\(\) did not finish\)"):
        env.step(CHECK_CALL)
    env.reset()
    env.step(passive(env.action_masks()))


def test_an_opponent_that_cannot_play_the_table_is_refused() -> None:
    class HeadsUpOnly(FailingAgent):
        declaration = Declaration(seat_counts=(2,))

    with pytest.raises(ValueError, match="opponents: .*"):
        SingleAgentEnv(HeadsUpOnly(0, "raise"), num_seats=3)


def test_numpy_seat_and_seed_are_accepted(calling_station) -> None:
    env = SingleAgentEnv(calling_station, num_seats=3, seat=np.int64(2))
    assert env.seat_option == 2 and type(env.seat_option) is int
    first = env.reset(seed=np.int64(9))[0]
    np.testing.assert_array_equal(first, env.reset(seed=9)[0])
    with pytest.raises(ValueError, match=r"seat: expected .random. or a seat from 0 to 2, got np.int64\(3\)"):
        SingleAgentEnv(calling_station, num_seats=3, seat=np.int64(3))
    for bad, match in ((True, "seed: expected an integer, got True"), (-1, "seed: must be at least 0, got -1")):
        with pytest.raises(ValueError, match=match):
            env.reset(seed=bad)


def test_reset_options_deal_chosen_cards_and_bad_ones_change_nothing(calling_station) -> None:
    from razz_env.engine import ConfigError, parse_cards

    env = SingleAgentEnv(calling_station, num_seats=2, seat=0)
    cards = [parse_cards("As 2s Kh 3h 4h 5h 6h"), parse_cards("Ad 2d 7c 3c 4c 5c 6c")]
    env.reset(options={"cards": cards})
    assert env.hand.cards == [held[:3] for held in cards]
    hand = env.hand
    with pytest.raises(ConfigError, match=r"cards\[1\]: the agents may play any line"):
        env.reset(options={"cards": [cards[0], cards[1][:3]]})
    assert env.hand is hand
    while not env.hand.is_over:
        env.step(passive(env.action_masks()))


def test_a_chosen_deal_is_never_skipped(random_stub, monkeypatch) -> None:
    """A hand that ends before the learner acts is re-dealt, except a chosen deal: that is an error, not a loop."""
    env = SingleAgentEnv(random_stub(0), num_seats=2, seat=0)

    def play_out(self: SingleAgentEnv) -> None:
        while not self.hand.is_over:
            self.hand.act(self.hand.legal_actions()[0])

    monkeypatch.setattr(SingleAgentEnv, "_play_opponents", play_out)
    with pytest.raises(RuntimeError, match="the chosen deal ended before seat 0 could act"):
        env.reset(options={"deck": list(range(52))})


# ---------------------------------------------------------------- sampled actions, default opponents, pickling

def finished_hand_env(**options) -> SingleAgentEnv:
    """An environment whose hand is over (the learner folded): no decision is pending."""
    env = SingleAgentEnv(seat=0, **options)
    env.reset(seed=0)
    while True:
        mask = env.action_masks()
        _, _, terminated, _, _ = env.step(FOLD if mask[FOLD] else passive(mask))
        if terminated:
            return env


def test_a_sample_drawn_with_no_decision_pending_is_played_passively_if_illegal_later() -> None:
    """Gymnasium's determinism check: sample, reset, step. The id was drawn for no decision of the new hand."""
    env = finished_hand_env()
    env.action_space.seed(0)
    stale = [env.action_space.sample() for _ in range(40)]
    assert all(isinstance(a, SampledAction) and a.decision is None for a in stale)
    assert {int(a) for a in stale} == set(range(NUM_ACTIONS))  # no decision pending: any id
    replaced = 0
    for seed, action in enumerate(stale):
        _, info = env.reset(seed=seed)
        legal, engine_legal = info["action_mask"], env.hand.legal_actions()
        before = len(env.hand.history)
        _, _, _, _, step_info = env.step(action)
        learner = env.hand.history[before]
        assert learner.seat == 0
        if legal[action]:
            assert "illegal_action" not in step_info and ENGINE_TO_ID[learner.action] == int(action)
        else:
            replaced += 1
            assert step_info["illegal_action"] is action
            assert learner.action is next(a for a in (Action.CHECK, Action.FOLD, Action.BRING_IN) if a in engine_legal)
    assert replaced


def test_a_sample_from_an_earlier_decision_is_played_as_itself_when_still_legal() -> None:
    env = SingleAgentEnv(seat=0)
    env.reset(seed=4)
    action = env.action_space.sample()
    assert action.decision is not None and env.action_masks()[action]
    env.reset(seed=4)  # the same deal: the id is legal again
    before = len(env.hand.history)
    _, _, _, _, info = env.step(action)
    assert "illegal_action" not in info
    assert ENGINE_TO_ID[env.hand.history[before].action] == int(action)


@pytest.mark.parametrize("explicit", [int, np.int64, np.int32])
def test_an_illegal_id_the_caller_chose_still_raises_whatever_was_sampled(explicit) -> None:
    """Only the tagged object ``sample()`` returned is recognised: the same value typed in raises as before."""
    env = finished_hand_env()
    stale = next(a for a in iter(env.action_space.sample, None) if a == BET_BIG)  # never legal on 3rd street
    obs, info = env.reset(seed=0)
    assert not info["action_mask"][stale]
    with pytest.raises(ValueError, match="not legal now"):
        env.step(explicit(stale))
    assert np.array_equal(env.encoder.encode(env.hand, env.seat), obs)  # nothing changed
    drawn_now = env.action_space.sample()
    assert drawn_now.decision is not None and info["action_mask"][drawn_now]


def test_check_fold_reports_the_id_it_replaced(folder) -> None:
    env = SingleAgentEnv(folder, seat=0, illegal_action="check_fold")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, step_info = env.step(illegal)
    assert step_info["illegal_action"] == illegal and step_info["seat"] == 0


def test_every_info_names_the_learners_seat() -> None:
    env = SingleAgentEnv()
    for seed in range(5):
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            assert info["seat"] == env.seat and np.array_equal(info["action_mask"], env.action_masks())
            _, _, terminated, _, info = env.step(passive(info["action_mask"]))
        assert info["seat"] == env.seat and not info["action_mask"].any()


def test_default_opponents_play_at_random_and_the_seed_repeats_whole_hands() -> None:
    def run(seed: int) -> tuple[list, list]:
        env = SingleAgentEnv(num_seats=4)
        env.reset(seed=seed)
        hands, rewards = [], []
        for _ in range(8):
            terminated = False
            while not terminated:
                mask = env.action_masks()
                _, reward, terminated, _, _ = env.step(passive(mask))
            hands.append([(e.seat, e.action) for e in env.hand.history])
            rewards.append(reward)
            env.reset()
        return hands, rewards

    first = run(3)
    assert run(3) == first and run(4) != first
    chosen = {action for hand in first[0] for seat, action in hand}
    assert {Action.FOLD, Action.CALL, Action.RAISE} <= chosen  # not a fixed policy
    assert isinstance(SingleAgentEnv()._opponents[0], SeededRandomOpponent)


@pytest.mark.parametrize("decisions", [0, 1, 3])
@pytest.mark.parametrize("opponents", ["default", "zoo random"])
def test_a_pickled_env_continues_exactly_and_still_samples_legal_ids(decisions: int, opponents: str) -> None:
    """The opponents travel with the environment, random state included (a zoo agent: importable, so picklable)."""
    from razz_env.agents.simple import RandomAgent

    env = SingleAgentEnv(None if opponents == "default" else RandomAgent(seed=7), num_seats=3)
    env.reset(seed=21)
    for _ in range(decisions):
        if not env.action_masks().any():
            env.reset()
        env.step(passive(env.action_masks()))
    copy_ = pickle.loads(pickle.dumps(env))
    runs = []
    for trial in (env, copy_):
        trial.action_space.seed(5)
        seen = []
        for _ in range(30):
            if not trial.action_masks().any():
                obs, info = trial.reset()
                seen.append(obs.tolist())
            action = trial.action_space.sample()
            assert trial.action_masks()[action]  # the copy's space samples its own decisions
            obs, reward, terminated, _, info = trial.step(action)
            seen.append((int(action), obs.tolist(), reward, terminated))
        runs.append(seen)
    assert runs[0] == runs[1]


STEP_INPUTS = st.one_of(st.integers(-2, 7), st.sampled_from(["sample now", "sample before"]),
                        st.sampled_from([None, "1", 1.0, 2.5, True, np.int8(2), np.uint64(3)]))


@settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "40")), deadline=None)
@given(seed=st.integers(0, 2**16), players=st.sampled_from([2, 3, 6]), moves=st.lists(STEP_INPUTS, max_size=40))
def test_fuzzed_steps_play_legal_ids_and_refuse_the_rest_unchanged(seed: int, players: int, moves: list) -> None:
    """Whatever the learner sends: a legal id is played as itself; an illegal one raises and changes nothing,
    except a sample drawn for another decision, played passively and reported; the mask stays exact."""
    env = SingleAgentEnv(num_seats=players)
    env.reset(seed=seed)
    earlier = env.action_space.sample()
    for move in moves:
        if not env.action_masks().any():
            earlier = env.action_space.sample()  # drawn with no decision pending
            env.reset()
        mask = env.action_masks()
        assert np.array_equal(mask, env.actions.mask(env.hand.legal_actions()))
        action = {"sample now": env.action_space.sample(), "sample before": earlier}.get(move, move) \
            if isinstance(move, str) else move
        try:
            index = operator.index(action)
        except TypeError:
            index = -1
        legal = 0 <= index < NUM_ACTIONS and bool(mask[index])
        stale = isinstance(action, SampledAction) and not legal
        engine_legal, before, observation = env.hand.legal_actions(), len(env.hand.history), env.encoder.encode(
            env.hand, env.seat)
        try:
            _, _, _, _, info = env.step(action)
        except ValueError as err:
            assert not legal and not stale and "not legal now" in str(err)
            assert len(env.hand.history) == before and np.array_equal(env.encoder.encode(env.hand, env.seat),
                                                                      observation)
            event("illegal id refused")
            continue
        played = env.hand.history[before]
        assert played.seat == env.seat and (legal or stale)
        if legal:
            assert ENGINE_TO_ID[played.action] == index and "illegal_action" not in info
            event("legal id played")
        else:
            assert played.action is next(a for a in (Action.CHECK, Action.FOLD, Action.BRING_IN) if a in engine_legal)
            assert info["illegal_action"] is action
            event("stale sample played passively")


def episode(env: SingleAgentEnv, seed: int) -> list[tuple]:
    """One seeded hand: the learner plays the first legal id; every observation, reward and info recorded."""
    obs, info = env.reset(seed=seed)
    trace = [(obs.tobytes(), info["seat"], info["action_mask"].tolist())]
    done = False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        trace.append((obs.tobytes(), reward, info["action_mask"].tolist()))
    return trace


def test_a_seeded_minirazz_episode_repeats_and_pays_in_its_big_bets() -> None:
    env = SingleAgentEnv(variant="minirazz")
    assert env.observation_space.shape == (188,) and env.config.big_bet == 4
    first = episode(env, 5)
    assert episode(SingleAgentEnv(variant="minirazz"), 5) == first == episode(env, 5)
    assert first[-1][1] == env.hand.payoffs[env.seat] / 4 and len(env.hand.cards[0]) <= 3


def test_an_opponent_that_plays_only_seven_card_games_is_refused_at_minirazz() -> None:
    class SevenCardOnly(SeededRandomOpponent):
        name = "seven"
        declaration = Declaration(variants=("razz", "stud"))

    with pytest.raises(ValueError, match="opponents: agent 'seven' plays razz or stud at any number of seats; it "
                                         "cannot be seated at minirazz with 2 seats"):
        SingleAgentEnv(SevenCardOnly(None), variant="minirazz")
