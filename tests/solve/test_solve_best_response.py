"""The vectorised best response against an independent one: plain recursion over the suited tiny game.

The reference deals each of the 720 orders of the six-card deck into an engine hand, walks every
betting line with :class:`HandState` (the engine decides who acts, what is legal, who wins), keys
information sets by what the seat sees (its cards, the other board, the betting), and computes a
best response by memoised recursion. It shares no code with :mod:`razz_env.solve` beyond the engine;
the policy it responds to is looked up by :func:`razz_env.solve.keys.infoset_key`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import permutations

import numpy as np
import pytest

from razz_env.encoding.actions import mask_for, to_engine
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.solve.best_response import best_response_value, exploitability
from razz_env.solve.cfr import CFRPlus
from razz_env.solve.game import build_game
from razz_env.solve.keys import infoset_key
from razz_env.solve.policy import TabularPolicy, translate


class Node:
    __slots__ = ("seat", "key", "solver_key", "children", "payoff")

    def __init__(self) -> None:
        self.seat = -1
        self.key: tuple = ()
        self.solver_key = ""
        self.children: dict[int, Node] = {}
        self.payoff = 0.0


def what_seat_sees(hand: HandState, seat: int) -> tuple:
    view = hand.view(seat)
    return (seat, view.own_down, view.own_up, view.up_cards[1 - seat],
            tuple((e.street, e.seat, int(e.action)) for e in view.history))


def explore(config: HandConfig, cards: list[list[int]], actions: tuple[int, ...]) -> Node:
    hand = HandState(config, cards=cards)
    for action in actions:
        hand.act(to_engine(action, hand.legal_actions()))
    node = Node()
    if hand.is_over:
        node.payoff = float(hand.payoffs[0])
        return node
    node.seat = hand.actor
    node.key = what_seat_sees(hand, hand.actor)
    node.solver_key = infoset_key(hand, hand.actor)
    for action in np.flatnonzero(mask_for(hand.legal_actions())).tolist():
        node.children[action] = explore(config, cards, actions + (action,))
    return node


def reference_best_response(roots: list[Node], seat: int, policy: Callable[[Node], np.ndarray]) -> float:
    """Chips per hand a best response in ``seat`` wins against ``policy`` (node -> probabilities) in the other."""
    chance = 1.0 / len(roots)
    members: dict[tuple, list[tuple[Node, float]]] = {}

    def collect(node: Node, reach: float) -> None:
        if not node.children:
            return
        if node.seat == seat:
            members.setdefault(node.key, []).append((node, reach))
            for child in node.children.values():
                collect(child, reach)
        else:
            probabilities = policy(node)
            for action, child in node.children.items():
                collect(child, reach * probabilities[action])

    for root in roots:
        collect(root, chance)

    def value(node: Node) -> float:
        if not node.children:
            return node.payoff if seat == 0 else -node.payoff
        if node.seat == seat:
            return value(node.children[best(node.key)])
        probabilities = policy(node)
        return sum(probabilities[a] * value(child) for a, child in node.children.items())

    @cache
    def best(key: tuple) -> int:
        histories = members[key]
        actions = list(histories[0][0].children)
        totals = [sum(reach * value(node.children[a]) for node, reach in histories) for a in actions]
        return actions[int(np.argmax(totals))]

    return chance * sum(value(root) for root in roots)


def uniform(node: Node) -> np.ndarray:
    out = np.zeros(5)
    out[list(node.children)] = 1.0 / len(node.children)
    return out


@pytest.fixture(scope="module")
def games():
    return build_game("minirazz_tiny"), build_game("minirazz_tiny", suited=True)


@pytest.fixture(scope="module")
def roots(games):
    """Every deal of the tiny deck (all six cards are dealt, so 720 equally likely orders), as betting trees."""
    config = games[0].config
    return [explore(config, [list(order[:3]), list(order[3:])], ()) for order in permutations(config.variant.deck)]


def test_uniform_policy_best_responses_match_the_reference(games, roots):
    rank, suited = games
    for seat in (0, 1):
        expected = reference_best_response(roots, seat, uniform)
        assert best_response_value(suited, TabularPolicy.uniform(suited), seat) == pytest.approx(expected, abs=1e-9)
        assert best_response_value(rank, TabularPolicy.uniform(rank), seat) == pytest.approx(expected, abs=1e-9)


def test_cfr_policy_best_responses_match_the_reference(games, roots):
    rank, suited = games
    solver = CFRPlus(rank)
    solver.run(iterations=30)
    policy = solver.average_policy()
    measured = exploitability(rank, policy)
    lifted = exploitability(suited, translate(policy, suited))
    for seat in (0, 1):
        expected = reference_best_response(roots, seat, lambda node: policy.probabilities(node.solver_key))
        assert measured.best_response[seat] == pytest.approx(expected, abs=1e-9)
        assert lifted.best_response[seat] == pytest.approx(expected, abs=1e-9)
    assert measured.chips > 1e-4  # far enough from equilibrium for the best responses to be non-trivial
