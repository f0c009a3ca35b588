"""The solver's card model: tie-break coins, concrete suits, and chance weights against brute force."""

from collections import Counter
from itertools import permutations

import pytest

from razz_env.engine.cards import RANKS, parse_cards
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import VARIANTS, Street, Variant, minirazz
from razz_env.solve.cards import CardModel, DealWeights, card_model, coin_outcome, coin_ranks, concrete_boards

MINI = card_model(VARIANTS["minirazz"], False)


def tokens(text: str) -> tuple[int, ...]:
    """Rank tokens of MiniRazz from rank letters ("A3" -> (0, 2))."""
    return tuple("A23456".index(r) for r in text)


@pytest.mark.parametrize(("doors", "coin"), [
    (("3", "A"), "3"),   # the higher door can decide a later tie (both boards 3-A): its suit is dealt now
    (("A", "3"), "3"),
    (("4", "4"), "4"),   # a door tie: the bring-in reads the suits now
    (("A", "2"), "2"),
])
def test_first_street_deals_the_coin_of_the_highest_door(doors, coin):
    boards = [(), ()]
    assert coin_ranks(MINI, boards, [tokens(doors[0]), tokens(doors[1])], True) == tokens(coin)


def test_no_coin_where_no_tie_can_read_it():
    # the lower door, a rank already showing, the last street, a pair on one board
    assert coin_ranks(MINI, [tokens("3"), tokens("A")], [tokens("2"), tokens("4")], False) == ()
    assert coin_ranks(MINI, [tokens("3"), tokens("A")], [tokens("A"), tokens("3")], False) == ()
    assert coin_ranks(MINI, [tokens("3"), tokens("A")], [tokens("5"), tokens("2")], False) == ()
    pair = card_model(minirazz("pairs", "t", "A23456", (Street(0, 2, "small"), Street(0, 1, "big")), 3), False)
    assert coin_ranks(pair, [(), ()], [tokens("66"), tokens("A2")], True) == ()


def test_a_new_top_rank_on_both_boards_is_a_coin_on_the_last_street():
    assert coin_ranks(MINI, [tokens("3"), tokens("A")], [tokens("5"), tokens("5")], False) == tokens("5")


def test_no_coins_in_the_suited_game_or_with_one_suit():
    suited = card_model(VARIANTS["minirazz"], True)
    assert coin_ranks(suited, [(), ()], [(0,), (1,)], True) == ()
    one_suit = card_model(Variant("one", "t", True, ("razz",), False, ranks="A2345", suits="c",
                                  streets=(Street(1, 1, "small"), Street(0, 1, "big")), hand_size=3), False)
    assert coin_ranks(one_suit, [(), ()], [(3,), (0,)], True) == ()


def test_more_than_two_suits_need_the_suited_game():
    with pytest.raises(ConfigError, match=r"razz has 4 \(cdhs\); solve it with suited=True"):
        CardModel(VARIANTS["razz"], suited=False)


def test_concrete_suits_agree_with_the_coins_and_never_repeat_a_card():
    boards = [tokens("3A"), tokens("A3")]
    for holder in (0, 1):
        cards = concrete_boards(MINI, boards, {tokens("3")[0]: holder})
        assert len({c for b in cards for c in b}) == 4
        assert coin_outcome(MINI, tokens("3")[0], cards) == holder
    pair_after_coin = concrete_boards(MINI, [tokens("33"), tokens("A")], {tokens("3")[0]: 1})
    assert sorted(pair_after_coin[0]) == parse_cards("3c 3d")


def test_coin_read_off_one_copy():
    assert coin_outcome(MINI, tokens("3")[0], [parse_cards("3d"), []]) == 1
    assert coin_outcome(MINI, tokens("3")[0], [parse_cards("2c"), parse_cards("3c")]) == 1


def test_chance_weights_equal_counting_every_ordered_deal():
    """W of the rank game, summed from the 720 ordered deals of the six-card tiny deck."""
    variant = VARIANTS["minirazz_tiny"]
    model = card_model(variant, False)
    weights = DealWeights(model)
    deck = variant.deck
    counted: Counter = Counter()
    for deal in permutations(deck, 4):  # seat 0 down, up; seat 1 down, up
        down0, up0, down1, up1 = (model.token(c) for c in deal)
        counted[(down0, up0, down1, up1)] += 1 / (6 * 5 * 4 * 3)
    for (down0, up0, down1, up1), p in counted.items():
        x, y = model.private_index[(down0,)], model.private_index[(down1,)]
        assert weights.matrix([(up0,), (up1,)], 0)[x, y] == pytest.approx(p, abs=1e-15)
    total = sum(weights.matrix([(a,), (b,)], 0).sum() for a in range(3) for b in range(3))
    assert total == pytest.approx(1.0, abs=1e-12)


def test_private_holdings_respect_copies():
    two_down = card_model(minirazz("two", "t", "A23", (Street(2, 1, "small"),), 3), False)
    assert two_down.private == ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))
    assert [RANKS[two_down.rank(t)] for t in range(3)] == ["A", "2", "3"]
    weights = DealWeights(two_down)
    total = sum(weights.matrix([(a,), (b,)], 0).sum() for a in range(3) for b in range(3))
    assert total == pytest.approx(1.0, abs=1e-12)
    assert weights.matrix([(0,), (0,)], 0)[0].sum() == 0.0  # no third ace
