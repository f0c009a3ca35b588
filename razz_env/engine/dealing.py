"""Where a hand's cards come from: a shuffled deck (seeded) or explicit per-seat cards (replay).

Both dealers answer the same questions for a variant's streets: each seat's first-street cards,
the card at ``position`` (0-based, dealing order: seven-card stud's are down, down, door, 4th,
5th, 6th, 7th) of ``seat``, and a last street of one card once the engine knows who is live
(a short deck makes it one community card). A deck deals by fixed slots,
``deck[position * seats + seat]``, so a seat's cards do not depend on who folded: that is what
lets duplicate matches replay the same deal with the agents swapped.

Every card is an id of the 52-card universe (:mod:`razz_env.engine.cards`); a variant's deck is
``variant.deck``, and a card outside it is refused with a message naming the card and the deck.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from razz_env.engine.cards import DECK_SIZE, CardError, card_str, check_distinct, parse_cards
from razz_env.engine.checks import as_card, as_list
from razz_env.engine.config import STREET_NAMES, HandConfig, max_seats
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import Variant, get_variant


def position_names(variant: Variant) -> tuple[str, ...]:
    """A name for each card position of a seat, for messages: stud's are ``1st down``, ``2nd down``,
    ``door``, ``4th-street`` ... ``7th-street``."""
    names: list[str] = []
    first = variant.streets[0]
    names += [f"{STREET_NAMES[i + 1]} down" for i in range(first.down)]
    names += ["door"] if first.up == 1 else [f"{STREET_NAMES[i + 1]} up" for i in range(first.up)]
    for number, street in zip(variant.street_numbers[1:], variant.streets[1:]):
        count = street.down + street.up
        names += [f"{STREET_NAMES[number]}-street" + (f" {STREET_NAMES[i + 1]}" if count > 1 else "")
                  for i in range(count)]
    return tuple(names)


def deck_text(variant: Variant) -> str:
    """The variant's deck in words, e.g. ``"the minirazz deck (ranks A23456 in suits cd, 12 cards)"``."""
    return f"the {variant.name} deck (ranks {variant.ranks} in suits {variant.suits}, {len(variant.deck)} cards)"


def check_in_deck(where: str, cards: Sequence[int], variant: Variant) -> None:
    """``ConfigError`` naming the first of ``cards`` (card ids) that is not in the variant's deck."""
    if len(variant.deck) == DECK_SIZE:
        return
    deck = set(variant.deck)
    for index, card in enumerate(cards):
        if card not in deck:
            raise ConfigError(f"{where}[{index}]: {card_str(card)} is not in {deck_text(variant)}")


def shuffled_deck(rng: random.Random, prefix: int = DECK_SIZE, cards: Sequence[int] = range(DECK_SIZE)) -> list[int]:
    """``cards`` (a variant's deck; all 52 by default) in an order whose first ``prefix`` cards are a
    uniformly random draw (partial Fisher-Yates).

    Only the slots a table can use need shuffling, which keeps dealing cheap for small tables;
    ``random.Random`` with an int seed repeats in any process.
    """
    deck = list(cards)
    size = len(deck)
    draw = rng.random
    for i in range(min(prefix, size - 1)):
        j = i + int(draw() * (size - i))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_for(seat_cards: Sequence[str | Sequence[int]], num_seats: int | None = None,
             variant: Variant | str = "razz") -> list[int]:
    """A full deck of ``variant`` that deals ``seat_cards[seat]`` (in dealing order) to each seat; other
    slots get the rest.

    Lets a test or a study set chosen cards on a seeded-deck hand (``HandState(config, deck=...)``).

    >>> from razz_env.engine.cards import cards_str
    >>> cards_str(deck_for(["As 2s 3s", "Kd Qd Jd"])[:6])
    'As Kd 2s Qd 3s Jd'
    """
    variant = variant if isinstance(variant, Variant) else get_variant(variant)
    n = num_seats or len(seat_cards)
    size = len(variant.deck)
    names = position_names(variant)
    slots: dict[int, int] = {}
    for seat, listed in enumerate(seat_cards):
        try:
            cards = parse_cards(listed) if isinstance(listed, str) else [
                as_card(f"seat_cards[{seat}][{i}]", c) for i, c in enumerate(as_list(f"seat_cards[{seat}]", listed))]
        except CardError as err:
            raise ConfigError(f"seat_cards[{seat}]: {err}") from None
        check_in_deck(f"seat_cards[{seat}]", cards, variant)
        if len(cards) > len(names):
            raise ConfigError(f"seat_cards[{seat}]: a seat holds at most {len(names)} cards in {variant.name}, "
                              f"got {len(cards)}")
        for position, card in enumerate(cards):
            if position * n + seat >= size:
                raise ConfigError(f"seat_cards[{seat}]: at {n} seats a {names[position]} card has no "
                                  "fixed deck slot (it comes from the cards nobody used); list fewer cards")
            slots[position * n + seat] = card
    check_distinct(slots.values(), "seat_cards", error=ConfigError)
    taken = set(slots.values())
    rest = iter(c for c in variant.deck if c not in taken)
    return [slots[i] if i in slots else next(rest) for i in range(size)]


class DeckDealer:
    """Deals a deck of the variant by fixed slots; a last street of one card comes from the slots
    after the others, or from the spare cards.

    A seeded dealer shuffles lazily: slot ``i`` is drawn (the next step of a Fisher-Yates
    shuffle) only when first dealt, so a hand that ends early draws few cards, and the
    deck a seed gives is the same however far it is dealt.
    """

    __slots__ = ("deck", "num_seats", "_layout", "_size", "_used", "_drawn", "_random")

    def __init__(self, deck: Sequence[int], config: HandConfig, validate: bool = True) -> None:
        deck = self._validate(deck, config.variant) if validate else list(deck)
        layout = config.layout
        self.deck = deck
        self.num_seats = len(config.stacks)
        self._layout = layout
        self._size = size = layout.deck_size
        self._used = bytearray(size)
        self._drawn = size
        self._random = None

    @classmethod
    def shuffled(cls, rng: random.Random, config: HandConfig) -> DeckDealer:
        """A dealer whose deck (the variant's) is shuffled by ``rng`` slot by slot as it is dealt."""
        dealer = cls(config.variant.deck, config, validate=False)
        dealer._drawn = 0
        dealer._random = rng.random
        return dealer

    def _draw_through(self, index: int) -> None:
        deck, draw, size = self.deck, self._random, self._size
        for i in range(self._drawn, min(index + 1, size - 1)):
            j = i + int(draw() * (size - i))
            deck[i], deck[j] = deck[j], deck[i]
        self._drawn = index + 1

    @staticmethod
    def _validate(deck: object, variant: Variant) -> list[int]:
        """The deck as the variant's cards, each once, or ``ConfigError`` naming the first bad entry."""
        size = len(variant.deck)
        what = f"all {size} cards" if size == DECK_SIZE else f"all {size} cards of the {variant.name} deck"
        listed = as_list("deck", deck, f"a list of {what}")
        if len(listed) != size:
            raise ConfigError(f"deck: expected {what}, got {len(listed)}")
        cards = [as_card(f"deck[{i}]", c) for i, c in enumerate(listed)]
        check_in_deck("deck", cards, variant)
        check_distinct(cards, "deck", error=ConfigError)
        return cards

    def deal(self, seat: int, position: int) -> int:
        """The card at ``position`` for ``seat``."""
        index = position * self.num_seats + seat
        if index >= self._drawn:
            self._draw_through((position + 1) * self.num_seats - 1)
        self._used[index] = 1
        return self.deck[index]

    def first_street(self) -> list[list[int]]:
        """Every seat's first-street cards (seven-card stud: down, down, door)."""
        n = self.num_seats
        dealt = self._layout.first * n
        if self._drawn < dealt:
            self._draw_through(dealt - 1)
        self._used[:dealt] = b"\x01" * dealt
        deck = self.deck
        return [deck[seat:dealt:n] for seat in range(n)]

    def last_card(self, live: Sequence[int], community: bool) -> dict[int, int] | int:
        """The last street's card: ``{seat: card}`` for the live seats, or the community card."""
        size = self._size
        if self._drawn < size:
            self._draw_through(size - 1)
        used = self._used
        free = [i for i in range(size) if not used[i]]
        if community:
            used[free[0]] = 1
            return self.deck[free[0]]
        base = (self._layout.last - 1) * self.num_seats
        preferred = {seat: base + seat for seat in live if base + seat < size}
        spare = iter(i for i in free if i not in preferred.values())
        out = {}
        for seat in live:
            index = preferred.get(seat)
            if index is None:
                index = next(spare)
            used[index] = 1
            out[seat] = self.deck[index]
        return out


class ExplicitDealer:
    """Deals the cards listed for each seat, in dealing order, plus a community card where the deck runs short.

    Checked on construction: one list per seat of the first street's cards up to a full hand,
    each in the variant's deck, none twice. A seat may list fewer cards than a full hand (a
    partial deal): asking for a card that is not listed raises ``ConfigError``, and
    :meth:`HandState.act` then refuses the action that needed it. ``complete`` says whether the
    cards cover every way the hand can be played.
    """

    __slots__ = ("cards", "community_card", "complete", "_first", "_last_position", "_last_name", "_names")

    def __init__(self, cards: Sequence[Sequence[int]], community: int | None, config: HandConfig) -> None:
        variant, num_seats = config.variant, config.num_seats
        per_seat = variant.cards_per_seat
        listed = as_list("cards", cards, f"one list of cards per seat ({num_seats})")
        if len(listed) != num_seats:
            raise ConfigError(f"cards: expected one list per seat ({num_seats}), got {len(listed)}")
        self.cards: list[list[int]] = []
        for seat, seat_cards in enumerate(listed):
            held = as_list(f"cards[{seat}]", seat_cards, "a list of cards in dealing order")
            if len(held) > per_seat:
                raise ConfigError(f"cards[{seat}]: a seat holds at most {per_seat} cards, got {len(held)}")
            ids = [as_card(f"cards[{seat}][{i}]", c) for i, c in enumerate(held)]
            check_in_deck(f"cards[{seat}]", ids, variant)
            self.cards.append(ids)
        short = num_seats * per_seat > len(variant.deck)
        if community is not None:
            community = as_card("community", community)
            check_in_deck("community", [community], variant)
            if not short:
                last = STREET_NAMES[variant.street_numbers[-1]]
                shorts = [seats for seats in range(num_seats + 1, max_seats(variant) + 1)
                          if seats * per_seat > len(variant.deck)]
                when = f"only {shorts[0]} or more seats can run it short" if shorts else "it never runs short"
                raise ConfigError(f"community: with {num_seats} seats every live seat gets its own {last} card, "
                                  f"so a community card is never dealt ({when}: {deck_text(variant)})")
        flat = [c for held in self.cards for c in held] + ([] if community is None else [community])
        check_distinct(flat, "cards", error=ConfigError)
        self._names = position_names(variant)
        self._first = variant.streets[0].down + variant.streets[0].up
        self._last_position = per_seat - 1
        self._last_name = STREET_NAMES[variant.street_numbers[-1]]
        for seat in range(num_seats):
            for position in range(self._first):
                self._take(seat, position)
        self.community_card = community
        self.complete = not short and all(len(held) == per_seat for held in self.cards)

    def _take(self, seat: int, position: int) -> int:
        seat_cards = self.cards[seat]
        if position >= len(seat_cards):
            raise ConfigError(
                f"cards[{seat}]: seat {seat} must be dealt a {self._names[position]} card "
                f"(card {position + 1}) but only {len(seat_cards)} are listed"
            )
        return seat_cards[position]

    def deal(self, seat: int, position: int) -> int:
        """The listed card at ``position`` for ``seat``."""
        return self._take(seat, position)

    def first_street(self) -> list[list[int]]:
        """Every seat's listed first-street cards."""
        return [held[: self._first] for held in self.cards]

    def last_card(self, live: Sequence[int], community: bool) -> dict[int, int] | int:
        """The listed last-street cards, or the listed community card when the deck ran out."""
        if community:
            if self.community_card is None:
                raise ConfigError(f"community: the deck cannot give every live seat a {self._last_name} card, "
                                  "so a community card is needed, but none is listed")
            return self.community_card
        return {seat: self._take(seat, self._last_position) for seat in live}
