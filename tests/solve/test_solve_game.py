"""The flattened public tree: sizes, structure, chance, keys, and the tables the solver refuses."""

import time

import numpy as np
import pytest

from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import Street, Variant
from razz_env.solve.game import CHANCE, DECISION, TERMINAL, build_game

TINY_COUNTS = {
    "public_nodes": 9139, "public_decision_nodes": 3648, "histories": 16279, "decision_histories": 6468,
    "terminal_histories": 9270, "chance_histories": 541, "information_sets": 6108,
}


@pytest.fixture(scope="module")
def tiny():
    return build_game("minirazz_tiny")


def test_tiny_sizes(tiny):
    assert tiny.counts() == TINY_COUNTS
    assert tiny.describe() == "minirazz_tiny (rank game, ante 1, bring-in 1, bets 2/4, cap 2)"


def test_breadth_first_layout(tiny):
    parent, starts = tiny.parent, tiny.level_starts
    assert parent[0] == -1 and tiny.kind[0] == CHANCE
    assert (np.diff(starts) >= 0).all() and starts[-1] == tiny.num_nodes
    for level in range(1, len(starts) - 1):
        block = parent[starts[level]:starts[level + 1]]
        assert (np.diff(block) >= 0).all()  # grouped by parent, in parent order
        assert ((block >= starts[level - 1]) & (block < starts[level])).all()


def test_chance_outcomes_sum_to_one_and_weights_to_their_parent(tiny):
    below = tiny.parent >= 0
    sums = np.bincount(tiny.parent[below], weights=tiny.chance_prob[below], minlength=tiny.num_nodes)
    assert np.allclose(sums[tiny.kind == CHANCE], 1.0, atol=1e-12)
    first_street = np.flatnonzero(below & (tiny.kind[np.maximum(tiny.parent, 0)] == CHANCE) & (tiny.parent == 0))
    assert tiny.deal_weights[tiny.deal[first_street]].sum() == pytest.approx(1.0, abs=1e-12)


def test_betting_lines_of_the_first_street(tiny):
    first = tiny.decision_nodes[0]
    assert tiny.legal[0].tolist() == [False, False, True, True, False]  # complete or bring in
    kids = np.flatnonzero(tiny.parent == first)
    assert sorted(tiny.action[kids].tolist()) == [BET_RAISE, BRING_IN]
    after_bring_in = kids[tiny.action[kids] == BRING_IN][0]
    assert np.flatnonzero(tiny.legal[tiny.dindex[after_bring_in]]).tolist() == [FOLD, CHECK_CALL, BET_RAISE]
    lines = {tiny.public[d].actions for d in range(len(tiny.decision_nodes)) if "/" in tiny.public[d].actions}
    assert {line.split("/")[0] for line in lines} == {"bc", "brc", "brrc", "rc", "rrc"}  # cap 2: complete, raise


def stakes_at(game, terminals):
    """The chips each terminal moves (payoff over chance weight), as a set."""
    matrices = game.terminal_matrix[np.searchsorted(game.terminal_nodes, terminals)]
    weights = game.deal_weights[game.deal[terminals]]
    scale = np.divide(matrices, weights, out=np.zeros_like(matrices), where=weights > 0)
    return {round(abs(v)) for v in scale[(weights > 0) & (scale != 0)]}


def test_terminals_pay_what_was_put_in(tiny):
    ends = tiny.terminal_nodes
    folds, showdowns = ends[~tiny.terminal_showdown], ends[tiny.terminal_showdown]
    # ante 1, bring-in 1, complete 2, raise to 4; then bet 4, raise to 8
    assert stakes_at(tiny, folds) == {1, 2, 3, 5, 6, 7, 9}
    assert stakes_at(tiny, showdowns) == {2, 3, 5, 6, 7, 9, 10, 11, 13}
    assert set(np.abs(tiny.terminal_stake[~tiny.terminal_showdown])) == {1, 2, 3, 5, 6, 7, 9}
    assert set(tiny.terminal_stake[tiny.terminal_showdown]) == {2, 3, 5, 6, 7, 9, 10, 11, 13}


def test_keys_are_unique_and_found_again(tiny):
    keys = tiny.keys()
    assert len(set(keys)) == tiny.num_infosets
    for index in (0, 17, tiny.num_infosets - 1):
        assert tiny.infoset_index(keys[index]) == index
    with pytest.raises(KeyError, match="has no information set 's0 nonsense'"):
        tiny.infoset_index("s0 nonsense")


def test_only_possible_holdings_are_information_sets(tiny):
    # at the root decision both aces may show: nobody holds a third
    for d in range(len(tiny.decision_nodes)):
        public = tiny.public[d]
        shown = [t for board in public.boards for t in board]
        for x in np.flatnonzero(tiny.possible[d]).tolist():
            held = tiny.model.private[x]
            assert all(shown.count(t) + held.count(t) <= 2 for t in held)


def test_suited_tree_has_the_same_betting_and_no_coins():
    suited = build_game("minirazz_tiny", suited=True)
    assert suited.num_private == 6 and not any(p.coins for p in suited.public)
    assert suited.infoset_key(0, 0).startswith("s")
    assert "c" in suited.infoset_key(0, 0).split("]")[0] or "d" in suited.infoset_key(0, 0).split("]")[0]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: "stud", "stud is not a razz-family game"),
    (lambda: "razz", "razz deals down cards after the first street"),
    (lambda: HandConfig.create("minirazz", num_seats=3), r"heads-up \(2 seats\), got 3"),
    (lambda: HandConfig.create("minirazz", raise_cap=0), "needs a raise cap"),
    (lambda: HandConfig.create("minirazz", heads_up_uncapped=True), "needs a raise cap"),
    (lambda: HandConfig.create("minirazz", stacks=[12, 200]), r"at least 13 chips .* got \[12, 200\]"),
    (lambda: HandConfig.create("minirazz", bring_in_tie_break="position"), "by suit; got bring_in_tie_break="),
    (lambda: HandConfig.create("minirazz", later_street_tie_break="position"), "by suit; got later_street_tie_break="),
    (lambda: 42, "expected a variant name, a Variant or a HandConfig, got int"),
])
def test_refused_tables(make, message):
    with pytest.raises(ConfigError, match=message):
        build_game(make())


def test_refuses_a_deck_that_runs_short():
    short = Variant("short", "t", True, ("razz",), False, ranks="A2345", suits="c",
                    streets=(Street(1, 1, "small"), Street(0, 1, "big")), hand_size=3)
    with pytest.raises(ConfigError, match=r"deck \(5 cards\) cannot deal both seats 3 cards each"):
        build_game(short)


def test_refuses_a_tree_over_the_node_limit():
    with pytest.raises(ConfigError, match="minirazz tree .* more than 5,000 public nodes"):
        build_game("minirazz", max_nodes=5000)


def test_a_preset_known_to_be_too_large_is_refused_before_building_with_its_estimated_size():
    began = time.perf_counter()
    with pytest.raises(ConfigError, match=r"minirazz_large tree has about 33 million public nodes \(estimated.*"
                                          r"about 8 GB of arrays: beyond max_nodes 4,000,000"):
        build_game("minirazz_large")
    assert time.perf_counter() - began < 5


def test_stacks_exactly_the_most_a_seat_can_put_in_are_accepted():
    game = build_game(HandConfig.create("minirazz_tiny", stacks=[13, 13]))
    assert game.counts() == TINY_COUNTS
    assert {int(game.kind[n]) for n in range(game.num_nodes)} == {CHANCE, DECISION, TERMINAL}
