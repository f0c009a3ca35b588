"""The solver's tree is the engine's game: random paths walked through both agree at every node.

Each path deals a seeded engine hand, follows the tree to the public node of the hand's up cards
(and their tie-break coins), and at every decision compares the acting seat, the legal ids (the
environments' mask), the information-set key of the engine state and that the actor's holding is
possible there; at the end it compares seat 0's payoff. Actions are drawn uniformly from the legal ids.
"""

import random

import numpy as np
import pytest

from razz_env.encoding.actions import mask_for, to_engine
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.solve.game import CHANCE, TERMINAL, Game, build_game
from razz_env.solve.keys import coins_of, infoset_key

PATHS = 2000


def children(game: Game) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for node, parent in enumerate(game.parent.tolist()):
        if parent >= 0:
            out.setdefault(parent, []).append(node)
    return out


def holding(game: Game, hand: HandState, seat: int) -> int:
    return game.model.private_index[tuple(sorted(game.model.token(c) for c in hand.down_cards(seat)))]


def walk(game: Game, paths: int, seed: int) -> int:
    """Walk ``paths`` random hands through ``game`` and the engine; the number of decisions compared."""
    rng = random.Random(seed)
    model, kids = game.model, children(game)
    compared = 0
    for _ in range(paths):
        hand = HandState(game.config, seed=rng.randrange(2**31))
        node = 0
        while game.kind[node] != TERMINAL:
            if game.kind[node] == CHANCE:
                boards = [hand.up_cards(seat) for seat in (0, 1)]
                public = (tuple(tuple(model.token(c) for c in b) for b in boards), coins_of(model, boards))
                match = [c for c in kids[node]
                         if (game.public[game.dindex[c]].boards, game.public[game.dindex[c]].coins) == public]
                assert len(match) == 1, f"no single public node for {public}"
                node = match[0]
                continue
            decision, seat = game.dindex[node], hand.actor
            assert seat == game.player[node]
            assert mask_for(hand.legal_actions()).astype(bool).tolist() == game.legal[decision].tolist()
            private = holding(game, hand, seat)
            assert game.possible[decision, private]
            assert infoset_key(hand, seat, suited=game.suited) == game.infoset_key(decision, private)
            action = rng.choice(np.flatnonzero(game.legal[decision]).tolist())
            hand.act(to_engine(action, hand.legal_actions()))
            node = next(c for c in kids[node] if game.action[c] == action)
            compared += 1
        assert hand.is_over
        x, y = holding(game, hand, 0), holding(game, hand, 1)
        weight = game.deal_weights[game.deal[node]][x, y]
        payoff = game.terminal_matrix[np.searchsorted(game.terminal_nodes, node)][x, y] / weight
        assert payoff == pytest.approx(hand.payoffs[0], abs=1e-9)
    return compared


@pytest.mark.parametrize(("variant", "suited"), [
    ("minirazz_tiny", False), ("minirazz_tiny", True), ("minirazz_small", False), ("minirazz", False),
])
def test_random_paths_agree_with_the_engine(variant, suited):
    game = build_game(variant, suited=suited)
    assert walk(game, PATHS, seed=len(variant)) > 2 * PATHS


def test_paths_agree_when_the_stacks_are_exactly_enough():
    game = build_game(HandConfig.create("minirazz_small", stacks=[13, 13]))
    walk(game, 500, seed=13)
