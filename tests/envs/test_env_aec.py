"""The PettingZoo AEC environment: API and seed tests, exact masks, rewards, illegal actions, render, docs."""

from __future__ import annotations

import atexit
import copy
import os
import pickle
import random
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper, TerminateIllegalWrapper

import razz_env
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, ENGINE_TO_ID, FOLD, NUM_ACTIONS
from razz_env.engine import Action, ConfigError, parse_cards
from razz_env.engine.variants import VARIANTS as ALL_VARIANTS
from razz_env.envs.aec import env, raw_env

VARIANTS = ("razz", "action_razz", "stud", "stud8")
PLAYERS = (2, 3, 6, 8)
# PettingZoo warns about every Dict observation space of an env outside its own list; nothing to fix.
# Its API test also resets with options={"options": 1}, a key this environment ignores with a warning.
DICT_OBS_WARNINGS = ("Observation space for each agent probably", "Observation is not a NumPy array",
                     r"options: ignoring unknown key\(s\) \['options'\]")


def expected_mask(legal: tuple[Action, ...], allow_open_fold: bool = False) -> list[int]:
    """The mask, derived independently from the engine's legal actions."""
    ids = {ENGINE_TO_ID[a] for a in legal}
    if Action.CHECK in legal and not allow_open_fold:
        ids.discard(FOLD)
    return [int(i in ids) for i in range(NUM_ACTIONS)]


def random_action(observation: dict, rng: random.Random) -> int:
    return rng.choice(observation["action_mask"].nonzero()[0].tolist())


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed(variant: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        api_test(env(variant=variant, num_seats=players), num_cycles=20)
        seed_test(lambda: env(variant=variant, num_seats=players), num_cycles=20)


MINIRAZZ_TABLES = [("minirazz", 2), ("minirazz", 5), ("minirazz_tiny", 2), ("minirazz_small", 3),
                   ("minirazz_large", 2), ("minirazz_large", 3)]


@pytest.mark.parametrize(("variant", "players"), MINIRAZZ_TABLES)
def test_pettingzoo_api_and_seed_on_minirazz(variant: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        api_test(env(variant=variant, num_seats=players), num_cycles=20)
        seed_test(lambda: env(variant=variant, num_seats=players), num_cycles=20)


def play_out(e: raw_env, seed: int) -> list[tuple]:
    """Every observation, mask, reward and action of one seeded hand played by a seeded random policy."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    trace = []
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        action = None if termination or truncation else random_action(observation, rng)
        trace.append((agent, observation["observation"].tobytes(), observation["action_mask"].tolist(), reward, action))
        e.step(action)
    return trace


def test_a_seeded_minirazz_episode_is_deterministic_and_plays_minirazz() -> None:
    first, again = raw_env(variant="minirazz"), raw_env(variant="minirazz")
    assert play_out(first, 11) == play_out(again, 11) != play_out(raw_env(variant="minirazz"), 12)
    config = first.config
    assert (config.stakes.ante, config.stakes.bring_in, config.stakes.small_bet, config.stakes.big_bet,
            config.rules.raise_cap) == (1, 1, 2, 4, 2)
    hand = first.hand
    assert all(len(held) <= 3 for held in hand.cards) and {e.street for e in hand.history} <= {2, 3}
    assert {card for held in hand.cards for card in held} <= set(config.variant.deck)
    assert first.observation_space("player_0")["observation"].shape == (188,)


def test_minirazz_rewards_are_in_its_big_bets_and_a_chosen_deal_plays() -> None:
    e = raw_env(variant="minirazz")
    e.reset(options={"cards": [parse_cards("Ac 2c 3c"), parse_cards("6d 5d 4d")]})
    assert e.agent_selection == "player_1"  # the 5d door is the higher card: it brings in
    for action in (BRING_IN, CHECK_CALL, BET_RAISE, CHECK_CALL):  # bring in 1, call; bet 4, call
        e.step(action)
    assert e.hand.is_over and e.hand.payoffs == [6, -6]
    assert e.rewards == {"player_0": 1.5, "player_1": -1.5}  # 6 chips in big bets of 4
    deck = [c for c in range(52) if c in e.config.variant.deck][::-1]
    e.reset(options={"deck": deck})
    assert e.hand.cards == [[deck[0], deck[2]], [deck[1], deck[3]]]
    with pytest.raises(ConfigError, match=r"deck"):
        e.reset(options={"deck": list(range(52))})
    with pytest.raises(ConfigError, match=r"cards\[1\]: the agents may play any line, so every seat must list all 3"):
        e.reset(options={"cards": [parse_cards("Ac 2c 3c"), parse_cards("6d 5d")]})
    with pytest.raises(ConfigError, match="num_seats: minirazz_tiny seats 2 to 2"):
        raw_env(variant="minirazz_tiny", num_seats=3)
    with pytest.raises(ValueError, match="suits, which matter in stud; use it for razz, action_razz, minirazz, "):
        raw_env(variant="stud", encoding="ranks")
    ranks = raw_env(variant="minirazz", encoding="ranks")
    assert ranks.encoder.layout.slices["own_down"] == slice(0, 6)


FUZZ_EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "40"))
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\ntable option fuzz figures:", dict(sorted(FIGURES.items()))))
chips = st.none() | st.integers(-1, 12) | st.sampled_from([True, 2.5, "4"])
table_options = st.fixed_dictionaries({"variant": st.sampled_from([*ALL_VARIANTS, "minirazzz", ""])}, optional={
    "num_seats": st.none() | st.integers(0, 9) | st.sampled_from([2.0, "3"]),
    "ante": chips, "bring_in": chips, "small_bet": chips, "big_bet": chips,
    "street_bets": st.none() | st.lists(st.integers(-1, 12), max_size=6),
    "stacks": st.integers(-1, 60) | st.lists(st.integers(-1, 60), max_size=9),
    "raise_cap": st.none() | st.integers(-1, 4),
    "heads_up_uncapped": st.booleans(),
    "encoding": st.sampled_from(["flat", "ranks", "flat8", "ranks8", "pixels"]),
})


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=table_options, seed=st.integers(0, 2**16))
def test_fuzz_table_options_give_an_environment_that_plays_or_one_clean_error(options: dict, seed: int) -> None:
    """Any variant (MiniRazz included) and any stakes, seats, stacks and cap: a valid table plays a whole hand
    with observations in the space and zero-sum rewards; anything else is one ValueError line naming it."""
    try:
        e = raw_env(**options)
    except ValueError as err:
        FIGURES[f"{options['variant'] or 'no variant'}: clean error"] += 1
        assert str(err) and "\n" not in str(err) and "Traceback" not in str(err)
        return
    FIGURES[f"{options['variant']}: valid table"] += 1
    rng = random.Random(seed)
    e.reset(seed=seed)
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        assert observation["observation"] in e.observation_space(agent)["observation"]
        e.step(None if termination or truncation else random_action(observation, rng))
    assert abs(sum(e._cumulative_rewards.values())) < 1e-9
    assert all(len(held) <= e.config.variant.cards_per_seat for held in e.hand.cards)


@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("razz", 3, {"encoding": "ranks", "max_players": 6}), ("action_razz", 3, {"encoding": "ranks", "max_players": 6}),
    ("stud", 8, {"encoding": "flat8"}), ("razz", 2, {"encoding": "ranks8"}),
])
def test_pettingzoo_api_with_the_other_encodings(variant: str, seats: int, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        api_test(env(variant=variant, num_seats=seats, **options), num_cycles=20)


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(num_seats=3, render_mode=render_mode))
    assert "razz_v0" in capsys.readouterr().out


def test_metadata_spaces_are_cached() -> None:
    e = raw_env(num_seats=3)
    assert e.metadata == {"render_modes": ["human", "ansi", "rgb_array"], "name": "razz_v0", "is_parallelizable": False,
                          "render_fps": 1}
    for agent in e.possible_agents:
        assert e.observation_space(agent) is e.observation_space(agent)
        assert e.action_space(agent) is e.action_space(agent)
        assert e.action_space(agent).n == NUM_ACTIONS
        mask_space = e.observation_space(agent)["action_mask"]
        assert mask_space.dtype == np.int8 and mask_space.shape == (NUM_ACTIONS,)
        assert e.observation_space(agent)["observation"].dtype == np.float32
    assert e.possible_agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("allow_open_fold", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_are_exact_in_every_state(variant: str, allow_open_fold: bool) -> None:
    """Every agent's mask matches the engine; each masked-on id steps, each masked-off id raises."""
    rng = random.Random(7)
    e = raw_env(variant=variant, num_seats=3, allow_open_fold=allow_open_fold)
    for hand_number in range(12):
        e.reset(seed=hand_number)
        while not e.hand.is_over:
            hand = e.hand
            for agent in e.agents:
                mask = e.observe(agent)["action_mask"]
                assert mask.dtype == np.int8
                seat = e._seats[agent]
                want = expected_mask(hand.legal_actions(), allow_open_fold) if seat == hand.actor else [0] * 5
                assert mask.tolist() == want
            mask = e.observe(e.agent_selection)["action_mask"]
            if hand_number < 3:
                for action in range(NUM_ACTIONS):
                    trial = copy.deepcopy(e)
                    if mask[action]:
                        trial.step(action)
                    else:
                        with pytest.raises(ValueError, match="not legal"):
                            trial.step(action)
            e.step(random_action(e.observe(e.agent_selection), rng))
        for agent in e.agents:
            assert not e.observe(agent)["action_mask"].any()


def test_rewards_are_payoffs_over_the_big_bet_and_last_accumulates() -> None:
    rng = random.Random(3)
    for players in (2, 3, 6):
        e = env(num_seats=players, big_bet=10, small_bet=5)
        for hand_number in range(20):
            e.reset(seed=hand_number)
            seen: dict[str, float] = {}
            for agent in e.agent_iter():
                observation, reward, termination, truncation, _ = e.last()
                if termination or truncation:
                    seen[agent] = reward
                    e.step(None)
                    continue
                assert reward == 0.0
                e.step(random_action(observation, rng))
            payoffs = e.unwrapped.hand.payoffs
            assert seen == {f"player_{s}": p / 10 for s, p in enumerate(payoffs)}
            assert abs(sum(seen.values())) < 1e-9
            assert list(seen) == e.possible_agents  # dead agents step in seat order


def test_reward_reaches_the_agent_whose_opponent_folded() -> None:
    e = raw_env(num_seats=2)
    e.reset(seed=1)
    first = e.agent_selection
    e.step(BRING_IN if e.observe(first)["action_mask"][BRING_IN] else CHECK_CALL)
    second = e.agent_selection
    e.step(FOLD)
    assert all(e.terminations.values())
    assert e.rewards[first] == e.hand.payoffs[e._seats[first]] / 10 > 0
    assert e._cumulative_rewards[second] < 0
    _, reward, termination, _, _ = e.last()
    assert termination and reward == e._cumulative_rewards[e.agent_selection]


def test_illegal_action_raises_names_agent_and_changes_nothing() -> None:
    e = raw_env(num_seats=3)
    e.reset(seed=5)
    agent = e.agent_selection
    before = (copy.deepcopy(e.hand.history), e.hand.actor, e.observe(agent)["observation"].copy())
    for bad in (FOLD, CHECK_CALL, 9, -1, None, 1.5, "fold"):
        with pytest.raises(ValueError, match=rf"{agent}: action .* not legal now; legal ids: 2 \(bet_raise\), "
                                             r"3 \(bring_in\)"):
            e.step(bad)
    assert (e.hand.history, e.hand.actor) == before[:2] and e.agent_selection == agent
    np.testing.assert_array_equal(e.observe(agent)["observation"], before[2])
    e.step(np.int64(BRING_IN))  # numpy ints are fine
    assert e.agent_selection != agent


def test_open_fold_is_masked_by_default_and_allowed_as_an_option() -> None:
    for allow in (False, True):
        e = raw_env(num_seats=2, allow_open_fold=allow)
        e.reset(seed=2)
        e.step(BRING_IN)
        e.step(CHECK_CALL)  # 4th street: nothing to call
        assert bool(e.observe(e.agent_selection)["action_mask"][FOLD]) is allow
        if not allow:
            with pytest.raises(ValueError, match="not legal"):
                e.step(FOLD)


def test_terminate_illegal_wrapper_route() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns on the illegal move, by design
        e = TerminateIllegalWrapper(raw_env(num_seats=3), illegal_reward=-1)
        e.reset(seed=5)
        offender = e.agent_selection
        e.last()
        e.step(FOLD)  # the bring-in seat may not fold
        assert all(e.terminations.values())
        rewards = {}
        for agent in e.agent_iter():
            _, reward, termination, _, _ = e.last()
            assert termination
            rewards[agent] = reward
            e.step(None)
    assert rewards[offender] == -1 and all(r == 0 for a, r in rewards.items() if a != offender)


def test_wrapped_env_enforces_order_and_refuses_out_of_space_actions() -> None:
    e = env(num_seats=2)
    assert isinstance(e, OrderEnforcingWrapper)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    e.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        e.step(7)


@pytest.mark.parametrize("call", ["observe", "last", "step", "render"])
def test_the_raw_env_before_reset_names_the_call_and_the_fix(call) -> None:
    e = raw_env(num_seats=2, render_mode="ansi")
    legal = lambda: int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0])  # noqa: E731
    calls = {"observe": lambda: e.observe("player_0"), "last": e.last, "step": lambda: e.step(legal() if e.hand else 0),
             "render": e.render}
    with pytest.raises(RuntimeError, match=rf"^{call}\(\) before reset\(\): call env.reset\(\) first"):
        calls[call]()
    e.reset(seed=0)
    calls[call]()


def test_lean_wrapper_last_matches_the_plain_wrapper() -> None:
    lean, plain = env(num_seats=3), OrderEnforcingWrapper(raw_env(num_seats=3))
    rng = random.Random(4)
    for seed in range(5):
        lean.reset(seed=seed)
        plain.reset(seed=seed)
        for agent in lean.agent_iter():
            got, want = lean.last(), plain.last()
            np.testing.assert_array_equal(got[0]["observation"], want[0]["observation"])
            np.testing.assert_array_equal(got[0]["action_mask"], want[0]["action_mask"])
            assert got[1:] == want[1:] and lean.last(observe=False)[0] is None
            assert agent == plain.agent_selection
            action = None if got[2] else random_action(got[0], rng)
            lean.step(action)
            plain.step(action)


def test_seeded_resets_repeat_the_deal_and_the_sequence() -> None:
    a, b = raw_env(num_seats=4), raw_env(num_seats=4)
    a.reset(seed=99)
    b.reset(seed=99)
    assert a.hand.cards == b.hand.cards
    a.reset()
    b.reset()
    assert a.hand.cards == b.hand.cards
    a.reset(seed=100)
    assert a.hand.cards != b.hand.cards


def test_reset_options_deal_chosen_cards() -> None:
    cards = [parse_cards("As 2s Kh 3h 4h 5h 6h"), parse_cards("Ad 2d 7c 3c 4c 5c 6c")]
    e = raw_env(num_seats=2)
    with pytest.warns(UserWarning, match=r"options: ignoring unknown key\(s\) \['ignored'\]; reset options: deck"):
        e.reset(options={"cards": cards, "ignored": 1})
    assert e.hand.cards == [held[:3] for held in cards] and e.agent_selection == "player_0"  # K♥ brings in
    deck = list(range(52))
    e.reset(options={"deck": np.array(deck)})
    assert e.hand.cards[0][:2] == [0, 2]


@pytest.mark.parametrize(
    ("players", "options", "match"),
    [
        (2, {"cards": [parse_cards("As 2s Kh"), parse_cards("Ad 2d 7c")]},
         r"cards\[0\]: the agents may play any line, so every seat must list all 7 of its cards .* seat 0 lists 3"),
        (2, {"cards": [parse_cards("As 2s Kh 3h 4h 5h 6h 7h"), parse_cards("Ad 2d 7c 3c 4c 5c 6c")]},
         r"cards\[0\]: a seat holds at most 7 cards, got 8"),
        (2, {"cards": [parse_cards("As 2s Kh 3h 4h 5h 6h"), parse_cards("As 2d 7c 3c 4c 5c 6c")]}, "dealt twice"),
        (2, {"cards": [parse_cards("As 2s Kh 3h 4h 5h 6h")]}, r"cards: expected one list per seat \(2\), got 1"),
        (2, {"cards": [["As", "2s", "Kh", "3h", "4h", "5h", "6h"], list(range(7))]}, r"cards\[0\]\[0\]: 'As' is not"),
        (8, {"cards": [list(range(6 * s, 6 * s + 6)) for s in range(8)]}, "at 8 seats .* give options=\\{'deck'"),
        (2, {"deck": list(range(51))}, "deck: expected all 52 cards, got 51"),
        (2, {"deck": list(range(52)), "cards": [list(range(7)), list(range(7, 14))]}, "either a deck or cards"),
        (2, "deck", "options: expected a dict, got 'deck'"),
    ],
)
def test_bad_reset_options_are_named_and_leave_the_environment_as_it_was(players, options, match) -> None:
    e = raw_env(num_seats=players)
    e.reset(seed=4)
    e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
    before = (e.hand, e.agent_selection, list(e.agents), e._rng.getstate())
    with pytest.raises(ConfigError, match=match):
        e.reset(options=options)
    assert (e.hand, e.agent_selection, list(e.agents), e._rng.getstate()) == before


def test_a_full_seven_card_deal_plays_to_the_end_whatever_the_agents_do() -> None:
    cards = [parse_cards("As 2s Kh 3h 4h 5h 6h"), parse_cards("Ad 2d 7c 3c 4c 5c 6c"),
             parse_cards("Ac 2c Qh 3d 4d 5d 6d")]
    for seed in range(30):
        e = raw_env(num_seats=3)
        e.reset(options={"cards": cards})
        chooser = random.Random(seed)
        for _ in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            e.step(None if termination or truncation else random_action(observation, chooser))
        assert e.hand.is_over and sum(e.hand.payoffs) == 0


@pytest.mark.parametrize("seed", [np.int64(5), np.uint16(5)])
def test_numpy_seeds_deal_like_python_ints(seed) -> None:
    a, b = raw_env(num_seats=3), raw_env(num_seats=3)
    a.reset(seed=seed)
    b.reset(seed=5)
    assert a.hand.cards == b.hand.cards


@pytest.mark.parametrize(("seed", "match"), [(True, "seed: expected an integer, got True"),
                                             (1.5, "seed: expected an integer, got 1.5"),
                                             ("1", "seed: expected an integer, got '1'")])
def test_a_bad_seed_is_named(seed, match) -> None:
    e = raw_env()
    with pytest.raises(ConfigError, match=match):
        e.reset(seed=seed)


def test_observation_matches_the_encoder_and_nothing_hidden() -> None:
    e = raw_env(num_seats=3)
    e.reset(seed=8)
    for agent in e.agents:
        observation = e.observe(agent)["observation"]
        np.testing.assert_array_equal(observation, e.encoder.encode(e.hand, e._seats[agent]))
        assert observation in e.observation_space(agent)["observation"]
    first, second = e.observe("player_0")["observation"], e.observe("player_0")["observation"]
    assert first is not second  # fresh arrays: safe to keep in a buffer


def test_options_reach_the_engine_and_the_encoder() -> None:
    e = raw_env(variant="stud8", stacks=[50, 60, 70], ante=2, bring_in=3, small_bet=6, big_bet=12,
                raise_cap=3, heads_up_uncapped=True, open_pair_big_bet=False, encoding="flat", max_players=8)
    rules = e.config.rules
    assert e.config.stacks == (50, 60, 70) and e.config.stakes.big_bet == 12
    assert (rules.raise_cap, rules.heads_up_uncapped, rules.open_pair_big_bet) == (3, True, False)
    assert e.encoder.seats == 8 and e.possible_agents == ["player_0", "player_1", "player_2"]
    e.reset(seed=0)
    assert e.hand.stacks == [48, 58, 68]
    ranks = raw_env(encoding="ranks")
    assert ranks.observation_space("player_0")["observation"].shape[0] < e.observation_space("player_0")[
        "observation"].shape[0]


def test_bad_options_are_named() -> None:
    with pytest.raises(ConfigError, match="variant"):
        raw_env(variant="holdem")
    with pytest.raises(ConfigError, match="stacks"):
        raw_env(num_seats=3, stacks=[100, 100])
    with pytest.raises(ConfigError, match="ante"):
        raw_env(stacks=[1, 100], ante=1)
    with pytest.raises(ValueError, match="encoding"):
        raw_env(encoding="pixels")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="pixels")
    with pytest.raises(ConfigError, match="allow_open_fold"):
        raw_env(allow_open_fold="yes")
    with pytest.raises(ConfigError, match="num_seats"):
        raw_env(num_seats=9)
    with pytest.raises(ValueError, match="max_players"):
        raw_env(num_seats=3, max_players=9)
    with pytest.raises(ValueError, match="viewer"):
        raw_env(viewer="player_5")


def test_ansi_render_shows_only_the_viewers_down_cards() -> None:
    cards = [parse_cards("As 2s Kh 3h 4h 5h 6h"), parse_cards("Ad 2d 7c 3c 4c 5c 6c")]
    e = raw_env(num_seats=2, render_mode="ansi")
    e.reset(options={"cards": cards})
    text = e.render()
    assert "As 2s" in text and "Ad" not in text and "player_0" in text and "pot 2" in text
    e.viewer = "player_1"
    text = e.render()
    assert "Ad 2d" in text and "As" not in text
    e.viewer = None
    e.step(BRING_IN)
    e.step(BET_RAISE)
    assert "complete" in e.render()  # the last actions
    while e.agents and not e.terminations[e.agent_selection]:
        e.step(CHECK_CALL)
    final = e.render()
    assert "As 2s" in final and "Ad 2d" in final  # both hands shown at showdown
    assert "main pot" in final and "payoffs" in final


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env(render_mode="human")
    e.reset(seed=0)
    e.step(BRING_IN)
    assert e.render() is None
    assert capsys.readouterr().out.count("razz_v0") == 3  # reset, step, render


def test_package_exports() -> None:
    assert isinstance(razz_env.env(num_seats=2), type(env()))
    assert isinstance(razz_env.raw_env(), raw_env)
    assert razz_env.SingleAgentEnv.__name__ == "SingleAgentEnv"


def test_unknown_table_option_names_the_known_ones():
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['varaint'\]; table options: table, variant, num_seats"):
        raw_env(varaint="stud")
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['stack'\]"):
        razz_env.SingleAgentEnv(opponents=None, stack=3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_action_spaces_sample_legal_ids_for_the_agent_to_act(variant: str) -> None:
    """RLlib's multi-agent env check (reset, ``action_space(agent).sample()`` for the agent to act, step) plays
    real hands; off turn, or given a mask, a space samples as a plain ``Discrete``."""
    e = env(variant=variant, num_seats=3)
    for seed in range(6):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            space = e.action_space(agent)
            drawn = space.sample()
            assert observation["action_mask"][drawn] == 1 and drawn.decision == len(e.unwrapped.hand.history)
            idle = next(other for other in e.agents if other != agent)
            assert e.action_space(idle).sample().decision is None
            assert space.sample(mask=np.array([1, 0, 0, 0, 0], dtype=np.int8)) == 0
            e.step(drawn)


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))])
def test_a_copied_env_samples_for_its_own_decisions(duplicate) -> None:
    original = raw_env(num_seats=3)
    original.reset(seed=4)
    twin = duplicate(original)
    original.step(CHECK_CALL if original.observe(original.agent_selection)["action_mask"][CHECK_CALL] else BRING_IN)
    agent = twin.agent_selection
    assert twin.action_space(agent) is not original.action_space(agent)
    for _ in range(30):
        assert twin.observe(agent)["action_mask"][twin.action_space(agent).sample()] == 1
