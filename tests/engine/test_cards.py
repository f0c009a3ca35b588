"""Cards as ints: ``rank_index * 4 + suit_index``, ranks ``A23456789TJQK``, suits ``cdhs``."""

from __future__ import annotations

import pytest

from razz_env.engine.cards import (
    CARD_NAMES,
    DECK_SIZE,
    CardError,
    card_str,
    cards_str,
    check_distinct,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_every_card_name_round_trips_through_its_int():
    assert DECK_SIZE == 52
    assert len(set(CARD_NAMES)) == 52
    for card in range(52):
        assert parse_card(card_str(card)) == card


def test_card_int_is_rank_times_four_plus_suit_ace_low_clubs_low():
    assert parse_card("Ac") == 0
    assert parse_card("As") == 3
    assert parse_card("2c") == 4
    assert parse_card("Kc") == 48
    assert parse_card("Ks") == 51
    assert rank_of(parse_card("Ah")) == 0
    assert rank_of(parse_card("Kd")) == 12
    assert rank_of(parse_card("Td")) == 9


def test_suit_order_is_clubs_diamonds_hearts_spades():
    assert [suit_of(parse_card(f"7{s}")) for s in "cdhs"] == [0, 1, 2, 3]


def test_parse_cards_takes_a_string_or_a_list():
    assert parse_cards("As 2d Th") == [3, 5, 38]
    assert parse_cards(["As", "2d", "Th"]) == [3, 5, 38]
    assert parse_cards("") == []


def test_parse_card_accepts_lower_case_rank_and_upper_case_suit():
    assert parse_card("as") == parse_card("As")
    assert parse_card("tD") == parse_card("Td")


@pytest.mark.parametrize("text", ["1s", "Ax", "10h", "", "A", "Asd", "ZZ", "s2"])
def test_unknown_card_text_raises_card_error_naming_it(text):
    with pytest.raises(CardError, match="unknown card"):
        parse_card(text)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_cards_str_joins_names_with_spaces():
    assert cards_str(parse_cards("Kd 2c As")) == "Kd 2c As"
    assert cards_str([]) == ""


def test_check_distinct_names_the_card_dealt_twice():
    check_distinct(parse_cards("As Ks Qs"))
    with pytest.raises(CardError, match="card Ks is dealt twice"):
        check_distinct(parse_cards("As Ks Qs Ks"), "cards")
