"""The OpenSpiel games: OpenSpiel's own simulation tests, the engine's hands replayed exactly, bounds, algorithms.

``RAZZ_FUZZ_EXAMPLES=2000 pytest tests/openspiel/test_game.py -n 0 -s`` runs bigger property and fuzz batches and
prints the fuzz figures per category (valid results, clean errors).
"""

from __future__ import annotations

import atexit
import os
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pyspiel", reason="the OpenSpiel games need the openspiel extra")

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import exploitability, external_sampling_mccfr, get_all_states
from open_spiel.python.tests import games_sim_test

from razz_env.encoding.actions import ENGINE_TO_ID, FOLD, mask_for, to_engine
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS
from razz_env.openspiel import GAME_NAMES
from razz_env.openspiel.params import parameters_for, round_decisions_bound

EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "40"))
PROPERTY = settings(max_examples=max(EXAMPLES, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIGURES: Counter = Counter()

if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nfuzz figures:", dict(sorted(FIGURES.items()))))


def params_for(config: HandConfig, allow_open_fold: bool = False) -> dict:
    """The game parameters of ``config``."""
    params = {
        "num_seats": config.num_seats, "stacks": " ".join(map(str, config.stacks)), "ante": config.stakes.ante,
        "bring_in": config.stakes.bring_in, "small_bet": config.stakes.small_bet, "big_bet": config.stakes.big_bet,
        "street_bets": " ".join(map(str, config.stakes.street_bets or ())), "raise_cap": config.rules.raise_cap or 0,
        "heads_up_uncapped": config.rules.heads_up_uncapped, "allow_open_fold": allow_open_fold,
    }
    if config.variant.open_pair_big_bet:
        params["open_pair_big_bet"] = config.rules.open_pair_big_bet is not False
    return params


@st.composite
def configs(draw) -> HandConfig:
    """Any variant, 2 to the seats its deck deals, random stakes, caps and stacks (tiny ones for all-ins), at least
    two able seats."""
    variant = draw(st.sampled_from(list(VARIANTS)))
    seats = draw(st.integers(2, max_seats(VARIANTS[variant])))
    small_bet = draw(st.integers(2, 12))
    bring_in = draw(st.integers(1, small_bet - 1))
    ante = draw(st.integers(0, 3))
    stacks = draw(st.lists(st.integers(ante + 1, 60) | st.integers(61, 300), min_size=seats, max_size=seats))
    return HandConfig.create(
        variant, stacks=stacks, ante=ante, bring_in=bring_in, small_bet=small_bet,
        big_bet=draw(st.integers(1, 24)), raise_cap=draw(st.none() | st.integers(1, 5)),
        heads_up_uncapped=draw(st.booleans()), open_pair_big_bet=draw(st.sampled_from([None, False])))


def engine_hand(config: HandConfig, seed: int, aggression: float) -> tuple[HandState, list[list[int]]]:
    """A seeded engine hand of random legal ids (a bet or raise whenever allowed with probability ``aggression``),
    and the legal ids at each decision."""
    rng = random.Random(seed)
    hand = HandState(config, seed=seed)
    legal_ids = []
    while not hand.is_over:
        legal = hand.legal_actions()
        ids = [i for i, allowed in enumerate(mask_for(legal)) if allowed]
        legal_ids.append(ids)
        raising = [i for i in ids if i >= 2]
        choice = rng.choice(raising) if raising and rng.random() < aggression else rng.choice(ids)
        hand.act(to_engine(choice, legal))
    return hand, legal_ids


def replay_in_openspiel(hand: HandState, legal_ids: list[list[int]], game: pyspiel.Game) -> pyspiel.State:
    """The engine hand played through ``game``: chance deals the engine's cards, seats choose the engine's ids."""
    state = game.new_initial_state()
    deck = hand.config.variant.deck
    decisions = iter(zip(hand.history, legal_ids))
    while not state.is_terminal():
        if state.is_chance_node():
            seat, position = state.dealing
            card = hand.community if seat is None else hand.cards[seat][position]
            outcomes = dict(state.chance_outcomes())
            assert outcomes[deck.index(card)] == pytest.approx(1 / len(outcomes))
            state.apply_action(deck.index(card))
        else:
            entry, ids = next(decisions)
            assert state.current_player() == entry.seat
            assert state.legal_actions() == ids
            state.apply_action(ENGINE_TO_ID[entry.action])
    return state


def test_import_razz_env_leaves_openspiel_unloaded():
    code = "import sys, razz_env, razz_env.engine; print('pyspiel' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_is_registered(variant):
    assert GAME_NAMES[variant] in pyspiel.registered_names()
    game = pyspiel.load_game(GAME_NAMES[variant])
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game_type.min_num_players, game_type.max_num_players) == (2, max_seats(VARIANTS[variant]))
    assert game_type.provides_information_state_tensor and game_type.provides_observation_tensor
    assert set(game_type.parameter_specification) == set(parameters_for(variant))
    assert game.max_chance_outcomes() == len(VARIANTS[variant].deck)


def test_minirazz_games_have_the_variants_deck_stakes_and_cap():
    assert GAME_NAMES["minirazz"] == "razz_env_minirazz" and GAME_NAMES["minirazz_tiny"] == "razz_env_minirazz_tiny"
    game = pyspiel.load_game("razz_env_minirazz")
    config = game.config
    assert (config.stakes.ante, config.stakes.bring_in, config.stakes.small_bet, config.stakes.big_bet) == (1, 1, 2, 4)
    assert config.rules.raise_cap == 2 and game.max_chance_nodes_in_history() == 6
    state = game.new_initial_state()
    assert [outcome for outcome, _ in state.chance_outcomes()] == list(range(12))
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, o) for o in (0, 1, 11)] == [
        "deal Ac", "deal Ad", "deal 6d"]
    for outcome in range(4):  # Ac and Ad down, 2c and 2d up: seat 1's door 2d is the high card, it brings in
        state.apply_action(outcome)
    assert state.hand.cards == [[0, 4], [1, 5]] and state.current_player() == 1
    with pytest.raises(ValueError, match="chance outcome 12 cannot be dealt: outcomes are 0 to 11"):
        pyspiel.load_game("razz_env_minirazz").new_initial_state().apply_action(12)
    with pytest.raises(ConfigError, match=r"num_seats: minirazz_tiny seats 2 to 2 \(its 6-card deck deals 3"):
        pyspiel.load_game("razz_env_minirazz_tiny", {"num_seats": 3})


SIM_TABLES = [(variant, players) for variant in VARIANTS
              for players in sorted({2, min(5, max_seats(VARIANTS[variant])), max_seats(VARIANTS[variant])})]


@pytest.mark.parametrize(("variant", "players"), SIM_TABLES)
def test_openspiel_random_simulation_tests_pass(variant, players):
    game = pyspiel.load_game(GAME_NAMES[variant], {"num_seats": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    games_sim_test.GamesSimTest("sim_game").sim_game(game)


@pytest.mark.parametrize("params", [
    {"num_seats": 3, "stacks": "8 30 200"},
    {"num_seats": 2, "stacks": "40", "heads_up_uncapped": True},
    {"num_seats": 4, "raise_cap": 0, "stacks": "25", "allow_open_fold": True},
    {"num_seats": 6, "street_bets": "2 4 6 8 10", "ante": 0, "bring_in": 1, "stacks": "12"},
])
def test_openspiel_random_simulation_tests_pass_at_unusual_tables(params):
    game = pyspiel.load_game("razz_env_stud8", params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@PROPERTY
@given(config=configs(), seed=st.integers(0, 2**32 - 1), aggression=st.floats(0, 1))
def test_the_game_plays_the_engines_hands(config, seed, aggression):
    hand, legal_ids = engine_hand(config, seed, aggression)
    game = pyspiel.load_game(GAME_NAMES[config.variant.name], params_for(config))
    state = replay_in_openspiel(hand, legal_ids, game)
    assert state.hand.cards == hand.cards and state.hand.community == hand.community
    assert state.hand.history == hand.history
    assert state.returns() == [float(p) for p in hand.payoffs]


@PROPERTY
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_no_hand_outgrows_the_bounds_the_information_state_is_sized_by(config, seed):
    hand, legal_ids = engine_hand(config, seed, aggression=0.7)
    game = pyspiel.load_game(GAME_NAMES[config.variant.name], params_for(config))
    assert len(hand.history) <= game.max_game_length()
    live = len(config.stacks)
    for street in config.variant.street_numbers:
        decisions = [entry for entry in hand.history if entry.street == street]
        assert len(decisions) <= round_decisions_bound(config, live)
        live -= sum(1 for entry in decisions if entry.action == 0)
    state = replay_in_openspiel(hand, legal_ids, game)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    for seat in range(config.num_seats):
        observer.set_from(state, seat)
        assert not observer.dict["history_overflow"].any()
        assert int(observer.dict["history"].any(axis=2).sum()) == len(hand.history)


def test_open_folds_are_masked_unless_the_table_allows_them():
    for allow, expected in ((False, [1, 2]), (True, [0, 1, 2])):
        game = pyspiel.load_game("razz_env_razz", {"allow_open_fold": allow})
        state = game.new_initial_state()
        for card in range(6):
            state.apply_action(card)
        state.apply_action(3)  # bring-in
        state.apply_action(1)  # call: 4th street comes next
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        assert state.legal_actions() == expected


def test_an_illegal_id_is_refused_by_name_and_changes_nothing():
    game = pyspiel.load_game("razz_env_razz")
    state = game.new_initial_state()
    for card in range(6):
        state.apply_action(card)
    before, history = str(state), state.history()
    for bad in (FOLD, 1, 4, 5, -2):
        with pytest.raises(ValueError, match=r"seat 1: action .* is not legal now; legal ids: 2 \(bet_raise\), "
                                             r"3 \(bring_in\)"):
            state.apply_action(bad)
        assert str(state) == before and state.history() == history
    with pytest.raises(ValueError, match="card As cannot be dealt: it is already out of the deck"):
        chance = game.new_initial_state()
        chance.apply_action(3)
        chance.apply_action(3)


def test_returns_are_chips_at_the_end_only_and_sum_to_zero():
    game = pyspiel.load_game("razz_env_razz", {"num_seats": 3})
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0, 0.0]
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(max(state.legal_actions()))
    assert state.returns() == [float(p) for p in state.hand.payoffs]
    assert sum(state.returns()) == 0 and any(state.returns())


def test_chance_nodes_offer_every_card_still_in_the_deck():
    game = pyspiel.load_game("razz_env_razz")
    state = game.new_initial_state()
    for dealt in range(6):
        outcomes = state.chance_outcomes()
        assert [card for card, _ in outcomes] == [c for c in range(52) if c >= dealt]
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.legal_actions() == [card for card, _ in outcomes]
        state.apply_action(dealt)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal Ks"
    assert [state.action_to_string(state.current_player(), a) for a in state.legal_actions()] == [
        "bet_raise", "bring_in"]


def test_a_clone_is_independent_of_its_original():
    game = pyspiel.load_game("razz_env_stud")
    state = game.new_initial_state()
    for card in range(6):
        state.apply_action(card)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.hand.history) == 0 and len(clone.hand.history) == 1
    assert str(state) != str(clone) and state.history() == clone.history()[:-1]


def test_external_sampling_mccfr_runs_on_heads_up_razz():
    game = pyspiel.load_game("razz_env_razz", {"raise_cap": 1})
    np.random.seed(0)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(2):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert sorted(probabilities) == state.legal_actions() and sum(probabilities.values()) == pytest.approx(1.0)


@pytest.mark.slow
def test_openspiels_exact_algorithms_run_on_the_smallest_minirazz():
    """OpenSpiel walks the whole tree of heads-up minirazz_tiny (6 cards: 63,517 states, 22,320 information
    states; 11 s) and computes the uniform policy's exploitability with its exact best responses (27 s on a
    loaded 2-core machine): slow. The figure, in chips per hand, is OpenSpiel's own."""
    game = pyspiel.load_game("razz_env_minirazz_tiny")
    states = get_all_states.get_all_states(game, include_terminals=True, include_chance_states=True)
    kinds = Counter("chance" if s.is_chance_node() else "terminal" if s.is_terminal() else "decision"
                    for s in states.values())
    assert kinds == {"chance": 5557, "decision": 23760, "terminal": 34200}
    infosets = {s.information_state_string() for s in states.values() if not (s.is_chance_node() or s.is_terminal())}
    assert len(infosets) == 22320
    assert all(sum(s.returns()) == 0 for s in states.values() if s.is_terminal())
    uniform = policy.UniformRandomPolicy(game)
    assert exploitability.exploitability(game, uniform) == pytest.approx(2.5875385802, abs=1e-9)


def test_openspiels_cpp_mccfr_solver_runs_on_the_python_game():
    game = pyspiel.load_game("razz_env_razz", {"raise_cap": 1})
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, 7)
    for _ in range(2):
        solver.run_iteration()
    assert solver.average_policy() is not None


parameter_values = st.one_of(st.integers(-5, 400), st.booleans(), st.text(max_size=12),
                             st.sampled_from(["100 200", "5 5 10 10 10", "1,2", "", "0", "x y"]))
chip_strings = st.lists(st.integers(-3, 300), max_size=9).map(lambda values: " ".join(map(str, values)))
typed_values = {int: st.integers(-3, 40) | st.integers(-(2**40), 2**40), bool: st.booleans(),
                str: chip_strings | st.text(max_size=12)}


@st.composite
def game_parameters(draw) -> dict:
    """Mostly well-typed values (to reach the game's own checks), sometimes any type, sometimes unknown names."""
    spec = parameters_for(draw(st.sampled_from(["razz", "stud"])))
    names = draw(st.lists(st.sampled_from([*spec, "open_pair_big_bet", "colour"]), max_size=5, unique=True))
    return {name: draw(typed_values[type(spec[name])] if name in spec and draw(st.integers(0, 9)) else
                       parameter_values) for name in names}


@FUZZ
@given(variant=st.sampled_from(list(VARIANTS)), params=game_parameters(), seed=st.integers(0, 2**31 - 1))
def test_fuzz_parameters_give_a_game_or_one_clean_error(variant, params, seed):
    try:
        game = pyspiel.load_game(GAME_NAMES[variant], params)
    except pyspiel.SpielError as err:  # OpenSpiel's own check of names and types (it echoes the value as given)
        FIGURES["parameters: clean error (OpenSpiel)"] += 1
        assert str(err).startswith(("Unknown parameter", "Wrong type for parameter"))
        return
    except RuntimeError as err:  # pybind11 cannot pass an int beyond 32 bits to OpenSpiel: refused before the game
        FIGURES["parameters: clean error (OpenSpiel, int beyond 32 bits)"] += 1
        assert str(err).startswith("Unable to cast Python instance of type <class 'int'>")
        assert any(isinstance(v, int) and not -(2**31) <= v < 2**31 for v in params.values())
        return
    except ConfigError as err:
        FIGURES["parameters: clean error (razz_env)"] += 1
        assert str(err) and "\n" not in str(err)
        return
    FIGURES["parameters: valid game"] += 1
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == 0


@FUZZ
@given(seed=st.integers(0, 2**31 - 1), actions=st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 60),
                                                         min_size=1, max_size=40),
       name=st.sampled_from(["razz_env_stud8", "razz_env_minirazz", "razz_env_minirazz_large"]))
def test_fuzz_action_ids_are_applied_or_refused_without_change(seed, actions, name):
    game = pyspiel.load_game(name, {"num_seats": 3, "stacks": "30"})
    state = game.new_initial_state()
    rng = random.Random(seed)
    for action in actions:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        before, history = str(state), state.history()
        if action in legal:
            state.apply_action(action)
            FIGURES["action ids: applied"] += 1
        else:
            with pytest.raises((ValueError, pyspiel.SpielError), match="cannot be dealt|is not legal now|kInvalid"):
                state.apply_action(action)
            assert str(state) == before and state.history() == history
            FIGURES["action ids: clean error"] += 1
            state.apply_action(rng.choice(legal))
