"""Where a hand's cards come from: a shuffled deck (seeded) or explicit per-seat cards (replay).

Both dealers answer the same two questions: the card at ``position`` (0-5: down,
down, door, 4th, 5th, 6th) of ``seat``, and the 7th-street cards once the engine
knows who is live. A deck deals by fixed slots, ``deck[position * seats + seat]``,
so a seat's cards do not depend on who folded: that is what lets duplicate
matches replay the same deal with the agents swapped.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from razz_env.engine.cards import DECK_SIZE, CardError, check_distinct, parse_cards
from razz_env.engine.checks import as_card, as_list
from razz_env.engine.config import MAX_SEATS
from razz_env.engine.errors import ConfigError

_POSITION_NAMES = ("1st down", "2nd down", "door", "4th-street", "5th-street", "6th-street", "7th-street")


_ORDERED_DECK = tuple(range(DECK_SIZE))


def shuffled_deck(rng: random.Random, prefix: int = DECK_SIZE) -> list[int]:
    """A deck whose first ``prefix`` cards are a uniformly random draw (partial Fisher-Yates).

    Only the slots a table can use need shuffling (7 per seat), which keeps dealing cheap
    for small tables; ``random.Random`` with an int seed repeats in any process.
    """
    deck = list(range(DECK_SIZE))
    draw = rng.random
    for i in range(min(prefix, DECK_SIZE - 1)):
        j = i + int(draw() * (DECK_SIZE - i))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_for(seat_cards: Sequence[str | Sequence[int]], num_seats: int | None = None) -> list[int]:
    """A full deck that deals ``seat_cards[seat]`` (in dealing order) to each seat; other slots get the rest.

    Lets a test or a study set chosen cards on a seeded-deck hand (``HandState(config, deck=...)``).

    >>> from razz_env.engine.cards import cards_str
    >>> cards_str(deck_for(["As 2s 3s", "Kd Qd Jd"])[:6])
    'As Kd 2s Qd 3s Jd'
    """
    n = num_seats or len(seat_cards)
    slots: dict[int, int] = {}
    for seat, listed in enumerate(seat_cards):
        try:
            cards = parse_cards(listed) if isinstance(listed, str) else [
                as_card(f"seat_cards[{seat}][{i}]", c) for i, c in enumerate(as_list(f"seat_cards[{seat}]", listed))]
        except CardError as err:
            raise ConfigError(f"seat_cards[{seat}]: {err}") from None
        for position, card in enumerate(cards):
            if position * n + seat >= DECK_SIZE:
                raise ConfigError(f"seat_cards[{seat}]: at {n} seats a {_POSITION_NAMES[position]} card has no "
                                  "fixed deck slot (it comes from the cards nobody used); list fewer cards")
            slots[position * n + seat] = card
    try:
        check_distinct(slots.values(), "seat_cards")
    except CardError as err:
        raise ConfigError(str(err)) from None
    taken = set(slots.values())
    rest = iter(c for c in range(DECK_SIZE) if c not in taken)
    return [slots[i] if i in slots else next(rest) for i in range(DECK_SIZE)]


class DeckDealer:
    """Deals a deck by fixed slots; 7th-street cards come from the slots after 6th street.

    A seeded dealer shuffles lazily: slot ``i`` is drawn (the next step of a Fisher-Yates
    shuffle) only when first dealt, so a hand that ends early draws few cards, and the
    deck a seed gives is the same however far it is dealt.
    """

    __slots__ = ("deck", "num_seats", "_used", "_drawn", "_random")

    def __init__(self, deck: Sequence[int], num_seats: int, validate: bool = True) -> None:
        deck = self._validate(deck) if validate else list(deck)
        self.deck = deck
        self.num_seats = num_seats
        self._used = bytearray(DECK_SIZE)
        self._drawn = DECK_SIZE
        self._random = None

    @classmethod
    def shuffled(cls, rng: random.Random, num_seats: int) -> DeckDealer:
        """A dealer whose deck is shuffled by ``rng`` slot by slot as it is dealt."""
        dealer = cls(_ORDERED_DECK, num_seats, validate=False)
        dealer._drawn = 0
        dealer._random = rng.random
        return dealer

    def _draw_through(self, index: int) -> None:
        deck, draw = self.deck, self._random
        for i in range(self._drawn, min(index + 1, DECK_SIZE - 1)):
            j = i + int(draw() * (DECK_SIZE - i))
            deck[i], deck[j] = deck[j], deck[i]
        self._drawn = index + 1

    @staticmethod
    def _validate(deck: object) -> list[int]:
        """The deck as 52 distinct card ids, or ``ConfigError`` naming the first bad entry."""
        listed = as_list("deck", deck, f"a list of all {DECK_SIZE} cards")
        if len(listed) != DECK_SIZE:
            raise ConfigError(f"deck: expected all {DECK_SIZE} cards, got {len(listed)}")
        cards = [as_card(f"deck[{i}]", c) for i, c in enumerate(listed)]
        try:
            check_distinct(cards, "deck")
        except CardError as err:
            raise ConfigError(str(err)) from None
        return cards

    def deal(self, seat: int, position: int) -> int:
        """The card at ``position`` (0-5) for ``seat``."""
        index = position * self.num_seats + seat
        if index >= self._drawn:
            self._draw_through((position + 1) * self.num_seats - 1)
        self._used[index] = 1
        return self.deck[index]

    def third_street(self) -> list[list[int]]:
        """Every seat's down, down and door card."""
        n = self.num_seats
        if self._drawn < 3 * n:
            self._draw_through(3 * n - 1)
        self._used[: 3 * n] = b"\x01" * (3 * n)
        deck = self.deck
        return [[deck[seat], deck[n + seat], deck[2 * n + seat]] for seat in range(n)]

    def seventh(self, live: Sequence[int], community: bool) -> dict[int, int] | int:
        """7th-street cards: ``{seat: card}`` for the live seats, or the community card."""
        if self._drawn < DECK_SIZE:
            self._draw_through(DECK_SIZE - 1)
        used = self._used
        free = [i for i in range(DECK_SIZE) if not used[i]]
        if community:
            used[free[0]] = 1
            return self.deck[free[0]]
        base = 6 * self.num_seats
        preferred = {seat: base + seat for seat in live if base + seat < DECK_SIZE}
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
    """Deals the cards listed for each seat, in dealing order, plus a community card (8 seats only).

    Checked on construction: one list per seat of 3 to 7 cards, each an id 0-51, none twice.
    A seat may list fewer than 7 cards (a partial deal): asking for a card that is not listed
    raises ``ConfigError``, and :meth:`HandState.act` then refuses the action that needed it.
    ``complete`` says whether the cards cover every way the hand can be played.
    """

    __slots__ = ("cards", "community_card", "complete")

    def __init__(self, cards: Sequence[Sequence[int]], community: int | None, num_seats: int) -> None:
        listed = as_list("cards", cards, f"one list of cards per seat ({num_seats})")
        if len(listed) != num_seats:
            raise ConfigError(f"cards: expected one list per seat ({num_seats}), got {len(listed)}")
        self.cards: list[list[int]] = []
        for seat, seat_cards in enumerate(listed):
            held = as_list(f"cards[{seat}]", seat_cards, "a list of cards in dealing order")
            if len(held) > 7:
                raise ConfigError(f"cards[{seat}]: a seat holds at most 7 cards, got {len(held)}")
            self.cards.append([as_card(f"cards[{seat}][{i}]", c) for i, c in enumerate(held)])
        if community is not None:
            community = as_card("community", community)
            if num_seats < MAX_SEATS:
                raise ConfigError(f"community: with {num_seats} seats every live seat gets its own 7th card, "
                                  f"so a community card is never dealt (only {MAX_SEATS} seats can run short)")
        flat = [c for held in self.cards for c in held]
        if community is not None:
            flat.append(community)
        try:
            check_distinct(flat, "cards")
        except CardError as err:
            raise ConfigError(str(err)) from None
        for seat in range(num_seats):
            for position in range(3):
                self._take(seat, position)
        self.community_card = community
        self.complete = num_seats < MAX_SEATS and all(len(held) == 7 for held in self.cards)

    def _take(self, seat: int, position: int) -> int:
        seat_cards = self.cards[seat]
        if position >= len(seat_cards):
            raise ConfigError(
                f"cards[{seat}]: seat {seat} must be dealt a {_POSITION_NAMES[position]} card "
                f"(card {position + 1}) but only {len(seat_cards)} are listed"
            )
        return seat_cards[position]

    def deal(self, seat: int, position: int) -> int:
        """The listed card at ``position`` for ``seat``."""
        return self._take(seat, position)

    def third_street(self) -> list[list[int]]:
        """Every seat's listed down, down and door card."""
        return [held[:3] for held in self.cards]

    def seventh(self, live: Sequence[int], community: bool) -> dict[int, int] | int:
        """The listed 7th-street cards, or the listed community card when the deck ran out."""
        if community:
            if self.community_card is None:
                raise ConfigError("community: the deck cannot give every live seat a 7th card, "
                                  "so a community card is needed, but none is listed")
            return self.community_card
        return {seat: self._take(seat, 6) for seat in live}
