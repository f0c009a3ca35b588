"""The OpenSpiel observations: the environments' flat vector, and a perfect-recall information state."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="the OpenSpiel games need the openspiel extra")

import pyspiel

from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL
from razz_env.encoding.encoders import FlatEncoder
from razz_env.engine.cards import parse_cards
from razz_env.engine.text import render_hand
from razz_env.openspiel.params import recall_history_slots

LOW = parse_cards("Ac 2c 3c 4c 5c 6c 7c")
HIGH = parse_cards("Kd Kh Qd Jd Td 9d 8d")
CHECK_DOWN = [BRING_IN] + [CHECK_CALL] * 9  # seat 1 brings in, seat 0 calls, then both check 4th-7th


def drive(game: pyspiel.Game, cards: list[list[int]], ids: list[int]) -> pyspiel.State:
    """A state of ``game`` after dealing ``cards[seat][position]`` at each chance node and playing ``ids``."""
    state = game.new_initial_state()
    todo = list(ids)
    while not state.is_terminal():
        if state.is_chance_node():
            seat, position = state.dealing
            state.apply_action(cards[seat][position])
        elif todo:
            state.apply_action(todo.pop(0))
        else:
            break
    return state


def random_states(game: pyspiel.Game, hands: int, seed: int = 0):
    """Every decision and terminal state of ``hands`` random hands."""
    rng = random.Random(seed)
    for _ in range(hands):
        state = game.new_initial_state()
        while True:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            yield state
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "players"), [("razz_env_razz", 2), ("razz_env_stud8", 5), ("razz_env_stud", 8),
                                              ("razz_env_minirazz", 2), ("razz_env_minirazz_large", 3)])
def test_the_observation_is_the_environments_flat_vector_and_text(name, players):
    game = pyspiel.load_game(name, {"num_seats": players})
    encoder = FlatEncoder(game.config)
    assert game.observation_tensor_size() == encoder.size
    for state in random_states(game, 3):
        for seat in range(players):
            np.testing.assert_array_equal(state.observation_tensor(seat), encoder.encode(state.hand, seat))
            assert state.observation_string(seat) == render_hand(state.hand, viewer=seat)


def test_the_information_state_is_seat_flat_vector_with_room_for_every_decision_and_dealing_streets():
    game = pyspiel.load_game("razz_env_razz", {"num_seats": 3})
    config = game.config
    flat = FlatEncoder(config, history_slots=recall_history_slots(config))
    assert game.information_state_tensor_size() == 3 + flat.size + 52 * 5
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert list(observer.dict)[:3] == ["player", "own_down", "own_up"]
    assert observer.dict["history"].shape == (5, recall_history_slots(config), 3 + 8 + 1)
    assert observer.dict["dealt_street"].shape == (52, 5)
    for state in random_states(game, 3, seed=1):
        for seat in range(3):
            tensor = np.asarray(state.information_state_tensor(seat))
            assert tensor[:3].tolist() == [float(s == seat) for s in range(3)]
            np.testing.assert_array_equal(tensor[3:3 + flat.size], flat.encode(state.hand, seat))
            dealt = tensor[3 + flat.size:].reshape(52, 5)
            seen = [card for other, held in enumerate(state.hand.cards) for position, card in enumerate(held)
                    if other == seat or 2 <= position <= 5]
            assert sorted(np.flatnonzero(dealt.sum(axis=1)).tolist()) == sorted(seen)


def test_minirazz_information_state_is_sized_by_its_deck_and_streets():
    game = pyspiel.load_game("razz_env_minirazz")
    config = game.config
    flat = FlatEncoder(config, history_slots=recall_history_slots(config))
    assert flat.card_width == 12 and game.information_state_tensor_size() == 2 + flat.size + 12 * 2
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert observer.dict["dealt_street"].shape == (12, 2) and observer.dict["history"].shape[0] == 2
    cards = [parse_cards("Ac 2c 3c"), parse_cards("Ad 6d 4d")]  # outcomes: Ac 0, Ad 1, 2c 2, 3c 4, 4d 7, 6d 11
    state = game.new_initial_state()
    for outcome in (0, 1, 2, 11):
        state.apply_action(outcome)
    assert state.hand.cards == [card[:2] for card in cards] and state.current_player() == 1  # 6d brings in
    state.apply_action(BRING_IN)
    state.apply_action(CHECK_CALL)
    for outcome in (4, 7):
        state.apply_action(outcome)
    assert state.hand.street == 3 and state.hand.cards == cards
    tensor = np.asarray(state.information_state_tensor(0))
    dealt = tensor[2 + flat.size:].reshape(12, 2)
    assert {(card, street) for card, street in zip(*np.nonzero(dealt))} == {(0, 0), (2, 0), (11, 0), (4, 1), (7, 1)}
    assert state.information_state_string(0) == "seat 0 | 2nd: s0 [Ac] 2c, s1 6d; s1 bring_in 1, s0 call 1 | " \
                                                "3rd: s0 3c, s1 4d;"
    assert game.new_initial_state().information_state_string(1) == "seat 1: the 2nd-street cards are being dealt"


def test_the_information_state_knows_which_up_card_came_on_which_street():
    game = pyspiel.load_game("razz_env_razz")
    swapped = HIGH[:4] + [HIGH[5], HIGH[4]] + HIGH[6:]  # seat 1's 5th- and 6th-street cards trade places
    one, two = drive(game, [LOW, HIGH], CHECK_DOWN[:8]), drive(game, [LOW, swapped], CHECK_DOWN[:8])
    assert one.hand.street == two.hand.street == 7 and one.current_player() == two.current_player() == 0
    assert one.observation_tensor(0) == two.observation_tensor(0)  # the flat vector holds up cards as a set
    assert one.information_state_tensor(0) != two.information_state_tensor(0)
    assert one.information_state_string(0) != two.information_state_string(0)


def test_the_information_state_knows_which_down_card_came_on_seventh_street():
    game = pyspiel.load_game("razz_env_razz")
    late_ace = [LOW[6]] + LOW[1:6] + [LOW[0]]  # the ace comes on 7th street, the seven as the first card
    one, two = drive(game, [LOW, HIGH], CHECK_DOWN[:8]), drive(game, [late_ace, HIGH], CHECK_DOWN[:8])
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert one.information_state_tensor(0) != two.information_state_tensor(0)
    assert one.information_state_string(0).endswith("| 7th: s0 [7c];")
    assert two.information_state_string(0).endswith("| 7th: s0 [Ac];")


@pytest.mark.parametrize("name", ["razz_env_razz", "razz_env_stud8"])
def test_the_order_of_two_down_cards_dealt_together_is_in_neither_the_tensor_nor_the_string(name):
    """Histories that differ only in the order of the 3rd-street down cards share one information state."""
    game = pyspiel.load_game(name)
    swapped = [LOW[1], LOW[0]] + LOW[2:]
    for steps in (0, 1, 8):
        one, two = drive(game, [LOW, HIGH], CHECK_DOWN[:steps]), drive(game, [swapped, HIGH], CHECK_DOWN[:steps])
        assert one.information_state_tensor(0) == two.information_state_tensor(0)
        assert one.information_state_string(0) == two.information_state_string(0)
        assert one.information_state_string(1) == two.information_state_string(1)


def test_other_seats_down_cards_never_reach_a_seat():
    game = pyspiel.load_game("razz_env_razz")
    other = parse_cards("Ks Kc") + HIGH[2:6] + parse_cards("8s")  # seat 1's three down cards differ
    one, two = drive(game, [LOW, HIGH], CHECK_DOWN[:8]), drive(game, [LOW, other], CHECK_DOWN[:8])
    assert one.information_state_tensor(0) == two.information_state_tensor(0)
    assert one.information_state_string(0) == two.information_state_string(0)
    assert one.observation_string(0) == two.observation_string(0)
    assert one.information_state_tensor(1) != two.information_state_tensor(1)


def test_a_raise_war_longer_than_the_flat_default_keeps_every_decision():
    game = pyspiel.load_game("razz_env_razz", {"heads_up_uncapped": True})
    state = drive(game, [LOW, HIGH], [BRING_IN] + [BET_RAISE] * 24)
    decisions = len(state.hand.history)
    assert state.hand.street == 3 and decisions == 25
    default = FlatEncoder(game.config)
    assert default.layout.view(default.encode(state.hand, 0), "history_overflow")[0] == 1.0
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, 0)
    assert observer.dict["history_overflow"].sum() == 0
    assert int(observer.dict["history"][0].sum(axis=1).astype(bool).sum()) == decisions


def test_before_the_deal_a_seat_sees_only_itself():
    game = pyspiel.load_game("razz_env_razz")
    state = game.new_initial_state()
    state.apply_action(7)
    info = np.asarray(state.information_state_tensor(1))
    assert info[:2].tolist() == [0.0, 1.0] and not info[2:].any()
    assert not any(state.observation_tensor(0))
    assert state.information_state_string(0) == "seat 0: the 3rd-street cards are being dealt"


@pytest.mark.parametrize("kind", [
    pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
    pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                               private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
    pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                               private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER),
])
def test_other_observation_types_are_refused_by_name(kind):
    game = pyspiel.load_game("razz_env_razz")
    with pytest.raises(ValueError, match="only one seat's view"):
        game.make_py_observer(kind)


def test_observer_parameters_are_refused():
    with pytest.raises(ValueError, match=r"observer parameters: none are supported, got \['x'\]"):
        pyspiel.load_game("razz_env_razz").make_py_observer(params={"x": 1})
