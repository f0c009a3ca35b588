"""Table-driven hand evaluators for the stud games: razz, eight-or-better low, Action Razz, stud high.

The five-card evaluators take 5 to 7 card ints (:mod:`razz_env.engine.cards`) and returns a plain int where
higher is better, comparable between hands of the same evaluator. Lows depend only on the multiset of
ranks, so each is one dict lookup on the additive rank key ``sum(RANK_KEY[c] for c in cards)`` (3 bits a
rank). Stud high looks up the rank key too, unless the suit key finds five cards of a suit: then the
flush suit's ranks. The ``*_batch`` functions sum compact rank weights instead and index dense numpy
tables. Tables are built on first use (well under a second), so importing this module stays cheap.

Value ranges: razz 1..RAZZ_LOW_MAX (wheel), eight 0 (no low) ..EIGHT_LOW_MAX, Action Razz 1..
ACTION_RAZZ_MAX (butts below faces), stud high 1..STUD_HIGH_MAX (royal flush).

A variant whose showdown hand has another size (MiniRazz: the best three cards) asks
:func:`evaluator` for its lows: the same ace-to-five order (pairs bad, straights and flushes
ignored) over ``size``-card hands, valued 1..``low_hand_count(size)``, from any number of cards.

>>> from razz_env.engine.cards import parse_cards
>>> razz_low(parse_cards("As 2c 3d 4h 5s Kc Kd")) == RAZZ_LOW_MAX
True
>>> describe(parse_cards("8c 6d 5h 4s 3c Kd Qh"), "razz")
'8-6-5-4-3 low'
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, combinations_with_replacement, product

import numpy as np

from razz_env.engine.cards import DECK_SIZE, RANKS, SUITS, rank_of, suit_of
from razz_env.engine.checks import as_int

MIN_CARDS = 5
MAX_CARDS = 7
NUM_RANKS = len(RANKS)

RAZZ_LOW_MAX = 6175
"""Distinct ace-to-five lows (five-card rank multisets); the wheel's razz value."""
EIGHT_LOW_MAX = 56
"""Qualifying eight-or-better lows (five distinct ranks of A..8); the wheel's eight value."""
ACTION_RAZZ_MAX = 2 * RAZZ_LOW_MAX
"""A face wheel's Action Razz value; butts score 1..RAZZ_LOW_MAX, faces RAZZ_LOW_MAX more."""
STUD_HIGH_MAX = 7462
"""Distinct five-card high hands; a royal flush's stud value."""

RANK_KEY: tuple[int, ...] = tuple(8 ** rank_of(card) for card in range(DECK_SIZE))
"""Additive rank key of each card: the sum over a hand counts each rank in its own 3 bits."""
SUIT_KEY: tuple[int, ...] = tuple(8 ** suit_of(card) for card in range(DECK_SIZE))
"""Additive suit key of each card: the sum over a hand counts each suit in its own 3 bits."""

_SUIT_SHIFT = 3 * NUM_RANKS
_CARD_KEY: tuple[int, ...] = tuple(RANK_KEY[c] | SUIT_KEY[c] << _SUIT_SHIFT for c in range(DECK_SIZE))
_RANK_KEY_BITS = (1 << _SUIT_SHIFT) - 1
_RANK_POWERS = 8 ** np.arange(NUM_RANKS, dtype=np.int64)
_FACE_KEY = 8 ** RANKS.index("J")
"""Rank keys at or above this hold a jack, queen or king: Action Razz's face cards."""

_SHAPE_STEP_BY_COUNT = np.array([0, 0, 1, 3, 5], dtype=np.int64)
"""Summed over a five-card hand's ranks (indexed by count) this gives its shape: 0 no pair, 1 pair,
2 two pair, 3 trips, 4 full house, 5 quads -- the ace-to-five order, best first."""
_HIGH_CATEGORY_OF_SHAPE = np.array([0, 1, 2, 3, 6, 7], dtype=np.int64)
"""High category (index into ``_HIGH_CATEGORIES``) of each shape, before straights and flushes."""
_HIGH_CATEGORIES = (
    "high card", "pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)
_HIGH_CARD, _STRAIGHT, _FLUSH, _STRAIGHT_FLUSH = 0, 4, 5, 8
_HIGH_STRENGTH: tuple[int, ...] = tuple((rank - 1) % NUM_RANKS for rank in range(NUM_RANKS))
"""Ace-high strength of each rank index: two 0 ... king 11, ace 12."""
_LOW_STRENGTH: tuple[int, ...] = tuple(range(NUM_RANKS))
_LOW_BITS = 1 << np.array(_LOW_STRENGTH, dtype=np.int64)
_HIGH_BITS = 1 << np.array(_HIGH_STRENGTH, dtype=np.int64)
_STRAIGHT_MASKS = np.array([0b11111 << low for low in range(9)], dtype=np.int64)
_WHEEL_MASK = 0b1_0000_0000_1111
"""A-2-3-4-5 in ace-high strength bits; it ranks as the five-high straight ``_FIVE_HIGH_MASK``."""
_FIVE_HIGH_MASK = 0b1111
_GROUP_BITS = 13
_GROUP_MASK = (1 << _GROUP_BITS) - 1
_CATEGORY_SHIFT = 4 * _GROUP_BITS
_RANK_WORDS = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)

_BATCH_RANK_WEIGHTS = np.array(
    [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.int32
)
"""Compact additive rank keys for the batch path (SKPokerEval's seven-card rank keys): hands of one
size with different rank multisets get different sums, all below 7.9M, so the sum indexes a dense
table directly: a perfect hash, where ``RANK_KEY`` sums reach 8**13."""
_BATCH_CARD_WEIGHT = np.repeat(_BATCH_RANK_WEIGHTS, 4)


class _LazyTable(dict):
    """A dict filled by ``build`` on its first lookup, so the hot path is a bare dict lookup."""

    def __init__(self, build: Callable[[], dict[int, int]]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: int) -> int:
        if self:
            raise ValueError(f"no hand has key {key}: an evaluator takes 5 to 7 cards of one deck")
        self.update(self._build())
        return self[key]

    @functools.cached_property
    def sorted_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Keys (sorted) and their values as int64 arrays, for vectorised lookups with ``searchsorted``."""
        if not self:
            self.update(self._build())
        keys = np.fromiter(self.keys(), dtype=np.int64, count=len(self))
        values = np.fromiter(self.values(), dtype=np.int64, count=len(self))
        order = np.argsort(keys)
        return keys[order], values[order]

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        """Values of many keys at once (every key must be in the table)."""
        table_keys, table_values = self.sorted_arrays
        return table_values[np.searchsorted(table_keys, keys)]


def _rank_groups(ranks: Sequence[int], strength: Sequence[int]) -> list[tuple[int, int]]:
    """``(count, rank)`` groups in the order a comparison reads them: bigger groups, then stronger ranks."""
    return sorted(
        ((ranks.count(rank), rank) for rank in set(ranks)),
        key=lambda group: (group[0], strength[group[1]]),
        reverse=True,
    )


def _rank_counts(keys: np.ndarray) -> np.ndarray:
    """Per-rank counts, shape (N, 13), of an array of additive rank keys."""
    return (keys[:, None] >> (3 * np.arange(NUM_RANKS))) & 7


def _order_keys(category: np.ndarray, counts: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Sort keys of five-card hands: category, then the quads, trips, pairs and singles rank sets.

    ``bits`` gives each rank its strength bit. Rank sets of one size compare highest card first
    exactly as their bitmasks compare as ints, so packing the masks after the category orders hands
    as poker reads them (straights aside: the caller ranks the wheel below the six-high straight).
    """
    key = category
    for copies in (4, 3, 2, 1):
        key = key << _GROUP_BITS | (counts == copies) @ bits
    return key


def _dense_values(order_keys: np.ndarray) -> np.ndarray:
    """Values 1..N ranking distinct sort keys, 1 for the smallest."""
    values = np.empty(len(order_keys), dtype=np.int64)
    values[np.argsort(order_keys)] = np.arange(1, len(order_keys) + 1)
    return values


def _high_order_keys(counts: np.ndarray, flush: np.ndarray) -> np.ndarray:
    """Sort keys, larger is better, of five-card high hands (per-rank counts, all one suit or not)."""
    singles = (counts == 1) @ _HIGH_BITS
    straight = np.isin(singles, _STRAIGHT_MASKS) | (singles == _WHEEL_MASK)
    by_shape = _HIGH_CATEGORY_OF_SHAPE[_SHAPE_STEP_BY_COUNT[counts].sum(axis=1)]
    plain = np.where(straight, _STRAIGHT, by_shape)
    category = np.where(flush, np.where(straight, _STRAIGHT_FLUSH, _FLUSH), plain)
    keys = _order_keys(category, counts, _HIGH_BITS)
    return np.where(singles == _WHEEL_MASK, keys - (_WHEEL_MASK - _FIVE_HIGH_MASK), keys)


@functools.cache
def _rank_multisets() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rank keys (ascending), sizes and per-rank counts of every multiset of 5 to 7 ranks, at most 4
    of a rank: the hands the lookup tables cover."""
    keys = np.zeros(1, dtype=np.int64)
    sizes = np.zeros(1, dtype=np.int64)
    for rank in range(NUM_RANKS):
        keys = np.concatenate([keys + copies * 8**rank for copies in range(5)])
        sizes = np.concatenate([sizes + copies for copies in range(5)])
        fits = sizes <= MAX_CARDS
        keys, sizes = keys[fits], sizes[fits]
    hands = np.argsort(keys[sizes >= MIN_CARDS])
    keys, sizes = keys[sizes >= MIN_CARDS][hands], sizes[sizes >= MIN_CARDS][hands]
    return keys, sizes, _rank_counts(keys)


def _best_low_five_keys(counts: np.ndarray) -> np.ndarray:
    """Rank key of the best ace-to-five five-card hand in each row of per-rank counts.

    Read the cards layer by layer -- one of every rank held, lowest first; then the second copies,
    lowest first; then the thirds and fourths -- and keep the first five. That uses as many distinct
    ranks as possible (fewest pairs) and doubles up the lowest ranks that can be doubled, which is
    the best low: it pairs the lowest pairable rank, and makes the lowest trips full.
    """
    copy_exists = counts[:, None, :] > np.arange(4)[:, None]
    layered = copy_exists.reshape(len(counts), -1)
    kept = layered & (np.cumsum(layered, axis=1, dtype=np.int8) <= 5)
    return kept.reshape(copy_exists.shape).sum(axis=1) @ _RANK_POWERS


@functools.cache
def _low_values() -> dict[str, np.ndarray]:
    """Razz, eight and Action Razz values of every 5-7 card rank multiset, in ``_rank_multisets`` order."""
    keys, sizes, counts = _rank_multisets()
    five = sizes == 5
    five_counts = counts[five]
    shape = _SHAPE_STEP_BY_COUNT[five_counts].sum(axis=1)
    value_of_five = _dense_values(-_order_keys(shape, five_counts, _LOW_BITS))
    razz = value_of_five[np.searchsorted(keys[five], _best_low_five_keys(counts))]
    return {
        "razz": razz,
        # The eight-or-better lows (no pair, eight or lower) are exactly the best EIGHT_LOW_MAX razz lows.
        "eight": np.maximum(razz - (RAZZ_LOW_MAX - EIGHT_LOW_MAX), 0),
        "action_razz": razz + RAZZ_LOW_MAX * (keys >= _FACE_KEY),
    }


def _low_table(kind: str) -> dict[int, int]:
    keys, _, _ = _rank_multisets()
    return dict(zip(keys.tolist(), _low_values()[kind].tolist()))


def _best_after_dropping_one(
    small_keys: np.ndarray, small_values: np.ndarray, keys: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """Values of hands one card bigger than the ``small_keys`` hands (ascending): the best value left
    after dropping any one card."""
    best = np.zeros(len(keys), dtype=np.int64)
    for rank in range(NUM_RANKS):
        held = counts[:, rank] > 0
        dropped = np.searchsorted(small_keys, keys[held] - _RANK_POWERS[rank])
        best[held] = np.maximum(best[held], small_values[dropped])
    return best


def _high_hands(flush: bool, size: int) -> np.ndarray:
    """Which ``_rank_multisets`` rows are ``size`` ranks of a stud high hand: without a flush, any;
    within a flush suit, distinct ranks."""
    _, sizes, counts = _rank_multisets()
    return (sizes == size) & ((counts <= 1).all(axis=1) if flush else True)


@functools.cache
def _five_card_high_values() -> tuple[np.ndarray, np.ndarray]:
    """Stud high values of the five-card hands without a flush and of the flushes, ranked together."""
    _, _, counts = _rank_multisets()
    plain, flush = counts[_high_hands(False, 5)], counts[_high_hands(True, 5)]
    is_flush = np.repeat([False, True], [len(plain), len(flush)])
    values = _dense_values(_high_order_keys(np.concatenate([plain, flush]), is_flush))
    return values[: len(plain)], values[len(plain) :]


def _high_table(flush: bool) -> dict[int, int]:
    """Stud high values by rank key: of 5-7 cards without a flush (straights count), or of a flush
    suit's 5-7 ranks (straight flushes count). A hand bigger than five is worth its best after
    dropping one card."""
    keys, _, counts = _rank_multisets()
    small_keys, small_values = keys[_high_hands(flush, 5)], _five_card_high_values()[flush]
    table = dict(zip(small_keys.tolist(), small_values.tolist()))
    for size in range(MIN_CARDS + 1, MAX_CARDS + 1):
        bigger = _high_hands(flush, size)
        small_values = _best_after_dropping_one(small_keys, small_values, keys[bigger], counts[bigger])
        small_keys = keys[bigger]
        table.update(zip(small_keys.tolist(), small_values.tolist()))
    return table


def _flush_suit_table() -> dict[int, int]:
    """The suit holding five or more cards (-1 for none) by additive suit key, for 5 to 7 cards."""
    table = {}
    for counts in product(range(MAX_CARDS + 1), repeat=len(SUITS)):
        if MIN_CARDS <= sum(counts) <= MAX_CARDS:
            flushed = [suit for suit, count in enumerate(counts) if count >= 5]
            table[sum(count * 8**suit for suit, count in enumerate(counts))] = flushed[0] if flushed else -1
    return table


_RAZZ_LOW = _LazyTable(functools.partial(_low_table, "razz"))
_EIGHT_LOW = _LazyTable(functools.partial(_low_table, "eight"))
_ACTION_RAZZ = _LazyTable(functools.partial(_low_table, "action_razz"))
_HIGH_PLAIN = _LazyTable(functools.partial(_high_table, False))
_HIGH_FLUSH = _LazyTable(functools.partial(_high_table, True))
_FLUSH_SUIT = _LazyTable(_flush_suit_table)


def razz_low(cards: Iterable[int]) -> int:
    """Best five-card ace-to-five low (razz), 1..RAZZ_LOW_MAX: aces low, straights and flushes ignored.

    >>> from razz_env.engine.cards import parse_cards
    >>> razz_low(parse_cards("8c 6d 5h 4s 3c")) > razz_low(parse_cards("9c 4d 3h 2s Ac"))
    True
    """
    key = 0
    for card in cards:  # a plain loop: faster here than sum() over a generator or map
        key += RANK_KEY[card]
    return _RAZZ_LOW[key]


def eight_low(cards: Iterable[int]) -> int:
    """Best eight-or-better low for stud8, 0 without one, else 1..EIGHT_LOW_MAX ordered like razz_low.

    >>> from razz_env.engine.cards import parse_cards
    >>> eight_low(parse_cards("9c 7d 6h 5s 4c Kd Kh")), eight_low(parse_cards("As 2s 3s 4s 5s"))
    (0, 56)
    """
    key = 0
    for card in cards:
        key += RANK_KEY[card]
    return _EIGHT_LOW[key]


def action_razz_value(cards: Iterable[int]) -> int:
    """Action Razz value: any hand holding a J, Q or K (face) beats any without (butt); then razz_low.

    >>> from razz_env.engine.cards import parse_cards
    >>> face_boat, butt_wheel = parse_cards("Kh Kd Ks Kc Qd Qs Qc"), parse_cards("Ah 2h 3s 4c 5d")
    >>> action_razz_value(face_boat) > action_razz_value(butt_wheel)
    True
    """
    key = 0
    for card in cards:
        key += RANK_KEY[card]
    return _ACTION_RAZZ[key]


def stud_high(cards: Sequence[int]) -> int:
    """Best five-card high hand, 1..STUD_HIGH_MAX (aces high, A-2-3-4-5 the lowest straight).

    Five or more cards of a suit rule out quads and full houses among seven cards, so then the
    flush suit's ranks decide the hand; otherwise all the ranks do.

    >>> from razz_env.engine.cards import parse_cards
    >>> stud_high(parse_cards("Ah Kh Qh Jh Th 2c 2d")) == STUD_HIGH_MAX
    True
    """
    key = 0
    for card in cards:
        key += _CARD_KEY[card]
    flush_suit = _FLUSH_SUIT[key >> _SUIT_SHIFT]
    if flush_suit < 0:
        return _HIGH_PLAIN[key & _RANK_KEY_BITS]
    return _HIGH_FLUSH[sum(RANK_KEY[card] for card in cards if card & 3 == flush_suit)]


_FIVE_CARD_VALUE: dict[str, Callable[[Sequence[int]], int]] = {
    "razz": razz_low, "eight": eight_low, "action_razz": action_razz_value, "high": stud_high,
}
LOW_KINDS = ("razz", "eight", "action_razz")
"""Kinds valued by ranks alone (ace-to-five lows): they have evaluators for any hand size."""


@functools.cache
def _low_values_of_size(size: int) -> tuple[dict[int, int], int]:
    """Ace-to-five values, 1 (worst) up, of every multiset of ``size`` ranks (at most 4 of a rank), by
    rank key; and how many there are.

    Hands compare by their count pattern (no pair, then one pair, two pair, trips... : the sorted
    counts, smallest first), then by the ranks grouped by count, highest group first, lower better;
    for five cards this is ``razz_low``'s order.
    """
    rows = [row for row in combinations_with_replacement(range(NUM_RANKS), size)
            if max(Counter(row).values(), default=0) <= 4]
    counts = np.zeros((len(rows), NUM_RANKS), dtype=np.int64)
    for i, row in enumerate(rows):
        for rank in row:
            counts[i, rank] += 1
    patterns = [tuple(sorted(row[row > 0].tolist(), reverse=True)) for row in counts]
    category_of = {pattern: index for index, pattern in enumerate(sorted(set(patterns)))}
    category = np.array([category_of[pattern] for pattern in patterns], dtype=np.int64)
    values = _dense_values(-_order_keys(category, counts, _LOW_BITS))
    return dict(zip((counts @ _RANK_POWERS).tolist(), values.tolist())), len(rows)


def low_hand_count(size: int) -> int:
    """How many distinct ``size``-card ace-to-five lows there are: the best one's value.

    >>> low_hand_count(5) == RAZZ_LOW_MAX, low_hand_count(3)
    (True, 455)
    """
    return _low_values_of_size(size)[1]


class _BestLowTable(dict):
    """``kind`` value of the best ``size``-card low a hand holds, by the hand's rank key (any number of
    cards, at least ``size``); each key is worked out on first use, so the table holds only hands seen."""

    def __init__(self, kind: str, size: int) -> None:
        super().__init__()
        self._kind, self._size = kind, size
        self._values, self._count = _low_values_of_size(size)

    def __missing__(self, key: int) -> int:
        counts = [(key >> 3 * rank) & 7 for rank in range(NUM_RANKS)]
        need, kept = self._size, 0
        for layer in range(4):  # as _best_low_five_keys: distinct ranks first, lowest first
            for rank in range(NUM_RANKS):
                if need and counts[rank] > layer:
                    kept += 8**rank
                    need -= 1
        if need or any(count > 4 for count in counts):
            raise ValueError(f"no hand has key {key}: a {self._size}-card low takes at least {self._size} cards "
                             "of one deck")
        value = self._values[kept]
        if self._kind == "eight":  # the qualifying lows (distinct ranks, eight or lower) are the best C(8, size)
            value = max(value - (self._count - math.comb(8, self._size)), 0)
        elif self._kind == "action_razz":
            value += self._count * (key >= _FACE_KEY)
        self[key] = value
        return value


@functools.cache
def _best_low_table(kind: str, size: int) -> _BestLowTable:
    return _BestLowTable(kind, size)


@functools.cache
def evaluator(kind: str, size: int = 5) -> Callable[[Sequence[int]], int]:
    """The value function (cards -> int, higher is better) of ``kind`` hands of ``size`` cards.

    Five cards: :func:`razz_low`, :func:`eight_low`, :func:`action_razz_value`, :func:`stud_high`
    themselves. Other sizes: the best ``size``-card low of the lows (razz and Action Razz
    1..``low_hand_count(size)``, Action Razz plus that for a hand holding a J, Q or K; eight 0 for no
    qualifying low); stud high is a five-card hand only.

    >>> from razz_env.engine.cards import parse_cards
    >>> three = evaluator("razz", 3)
    >>> three(parse_cards("3c Ad 2c")) == low_hand_count(3)
    True
    >>> three(parse_cards("6c 6d 2c 3d")) > three(parse_cards("6c 5d 4c")) > three(parse_cards("Ac Ad 2c"))
    True
    """
    if kind not in _FIVE_CARD_VALUE:
        raise ValueError(f"unknown hand kind {kind!r}: expected one of {sorted(_FIVE_CARD_VALUE)}")
    as_int("size", size, 1, what="a number of cards")
    if size == 5:
        return _FIVE_CARD_VALUE[kind]
    if kind not in LOW_KINDS:
        raise ValueError(f"{kind!r} hands have five cards (straights and flushes); got size {size}")
    table = _best_low_table(kind, size)

    def value(cards: Iterable[int]) -> int:
        key = 0
        for card in cards:
            key += RANK_KEY[card]
        return table[key]

    value.__doc__ = f"Best {size}-card {kind} low of the cards (see evaluator)."
    return value


_CARD_ORDER: dict[str, Callable[[int], int]] = {
    "razz": int, "eight": int, "action_razz": int,
    "high": lambda card: _HIGH_STRENGTH[rank_of(card)] * 4 + suit_of(card),
}
"""Per kind, the card order (rank, then suit) for display and ties. Lows pick their cards by the razz
value: Action Razz plays its razz hand (the face class does not depend on it), eight its razz hand when
that qualifies."""


def best_hand(cards: Sequence[int], kind: str, size: int = 5) -> list[int]:
    """The ``size`` cards of the best ``kind`` hand, highest first, for display and the odd-chip rule.

    ``kind`` is "razz", "eight", "action_razz" or "high"; "eight" gives [] without a qualifying low.
    Among equal choices (suits), the one whose cards are highest by (rank, suit) is taken.

    >>> from razz_env.engine.cards import cards_str, parse_cards
    >>> cards_str(best_hand(parse_cards("6c 6d 2c 4d"), "razz", 3))
    '6d 4d 2c'
    """
    evaluator(kind, size)
    if kind == "eight" and not evaluator("eight", size)(cards):
        return []
    evaluate = evaluator("high" if kind == "high" else "razz", size)
    card_order = _CARD_ORDER[kind]
    best = max(
        combinations(cards, size),
        key=lambda hand: (evaluate(hand), sorted(map(card_order, hand), reverse=True)),
    )
    return sorted(best, key=card_order, reverse=True)


def best_five(cards: Sequence[int], kind: str) -> list[int]:
    """The five cards of the best ``kind`` hand, highest first (:func:`best_hand` of five cards).

    >>> from razz_env.engine.cards import cards_str, parse_cards
    >>> cards_str(best_five(parse_cards("7c 7s 2d 3h 4c Ks 5d"), "razz"))
    '7s 5d 4c 3h 2d'
    """
    if kind not in _FIVE_CARD_VALUE:
        raise ValueError(f"unknown hand kind {kind!r}: expected one of {sorted(_FIVE_CARD_VALUE)}")
    return best_hand(cards, kind, 5)


def _plural(rank: int) -> str:
    word = _RANK_WORDS[rank]
    return word + ("es" if word.endswith("x") else "s")


def _grouped_text(groups: list[tuple[int, int]]) -> str:
    """Text of a hand with a pair or better, from its (count, rank) groups in comparison order."""
    (most, rank), second = groups[0], groups[1] if len(groups) > 1 else (0, 0)
    first = _plural(rank)
    if most == 4:
        return f"four of a kind, {first}"
    if most == 3:
        return f"full house, {first} full of {_plural(second[1])}" if second[0] == 2 else f"three of a kind, {first}"
    if second[0] == 2:
        return f"two pair, {first} and {_plural(second[1])}"
    return f"pair of {first}"


def _low_text(hand: Sequence[int]) -> str:
    groups = _rank_groups([rank_of(card) for card in hand], _LOW_STRENGTH)
    if len(groups) < len(hand):
        return _grouped_text(groups)
    return "-".join(RANKS[rank] for _, rank in groups)


def _high_text(five: Sequence[int]) -> str:
    ranks = [rank_of(card) for card in five]
    flush = len({suit_of(card) for card in five}) == 1
    order_key = int(_high_order_keys(np.bincount(ranks, minlength=NUM_RANKS)[None], np.array([flush]))[0])
    category = order_key >> _CATEGORY_SHIFT
    name = _HIGH_CATEGORIES[category]
    if category in (_STRAIGHT, _STRAIGHT_FLUSH):
        top = _HIGH_STRENGTH.index((order_key & _GROUP_MASK).bit_length() - 1)
        royal = category == _STRAIGHT_FLUSH and top == RANKS.index("A")
        return "royal flush" if royal else f"{name}, {_RANK_WORDS[top]} high"
    groups = _rank_groups(ranks, _HIGH_STRENGTH)
    if category in (_HIGH_CARD, _FLUSH):
        return f"{name}, " + "-".join(RANKS[rank] for _, rank in groups)
    return _grouped_text(groups)


def describe(cards: Sequence[int], kind: str, size: int = 5) -> str:
    """Human text of the best ``size``-card ``kind`` hand ("razz", "eight", "action_razz" or "high").

    >>> from razz_env.engine.cards import parse_cards
    >>> describe(parse_cards("Kh Kd Ks Kc Qd Qs Qc"), "action_razz")
    'face full house, queens full of kings'
    >>> describe(parse_cards("Kh Kd 5s Kc 5d 2s 3c"), "high")
    'full house, kings full of fives'
    >>> describe(parse_cards("6c 2d 6d"), "razz", 3), describe(parse_cards("6c 2d 4d 6d"), "razz", 3)
    ('pair of sixes', '6-4-2 low')
    """
    best = best_hand(cards, kind, size)
    if kind == "high":
        return _high_text(best)
    if kind == "eight" and not best:
        return "no low"
    if kind == "action_razz":
        face = any(rank_of(card) >= RANKS.index("J") for card in cards)
        return ("face " if face else "butt ") + _low_text(best)
    text = _low_text(best)
    return text + " low" if len(set(map(rank_of, best))) == size else text


@functools.cache
def _dense_table(kind: str, size: int) -> np.ndarray:
    """``kind`` values of ``size``-card hands indexed by their compact batch key (int16 keeps the
    seven-card table, 7.8M entries, at 16 MB)."""
    _, sizes, counts = _rank_multisets()
    of_size = sizes == size
    compact_keys = counts[of_size] @ _BATCH_RANK_WEIGHTS
    table = np.zeros(compact_keys.max() + 1, dtype=np.int16)
    table[compact_keys] = _low_values()[kind][of_size]
    return table


def _batch(cards: np.ndarray, kind: str) -> np.ndarray:
    cards = np.asarray(cards)
    if cards.ndim != 2 or not MIN_CARDS <= cards.shape[1] <= MAX_CARDS:
        raise ValueError(f"expected card ints of shape (N, 5..7), got shape {cards.shape}")
    compact_keys = np.einsum("ij->i", np.take(_BATCH_CARD_WEIGHT, cards))
    return _dense_table(kind, cards.shape[1])[compact_keys].astype(np.int32)


def razz_low_batch(cards: np.ndarray) -> np.ndarray:
    """``razz_low`` of each row of an (N, 5..7) card int array, as int32: vectorised for rollouts."""
    return _batch(cards, "razz")


def eight_low_batch(cards: np.ndarray) -> np.ndarray:
    """``eight_low`` of each row of an (N, 5..7) card int array, as int32."""
    return _batch(cards, "eight")


def action_razz_batch(cards: np.ndarray) -> np.ndarray:
    """``action_razz_value`` of each row of an (N, 5..7) card int array, as int32."""
    return _batch(cards, "action_razz")


def _best_low_batch(keys: np.ndarray, kind: str, size: int) -> np.ndarray:
    """``evaluator(kind, size)`` values of hands given by their additive rank keys, as int32."""
    evaluator(kind, size)
    table = _best_low_table(kind, size)
    distinct, inverse = np.unique(keys, return_inverse=True)
    values = np.array([table[key] for key in distinct.tolist()], dtype=np.int32)
    return values[inverse.reshape(-1)]


def evaluate_batch(cards: np.ndarray, kind: str, size: int = 5) -> np.ndarray:
    """``evaluator(kind, size)`` of each row of an (N, n) card int array, as int32: the five-card batch
    evaluators for ``size`` 5 (n 5 to 7), the best ``size``-card low of each row otherwise."""
    evaluator(kind, size)
    if size == 5:
        return _FIVE_CARD_BATCH[kind](cards)
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] < size:
        raise ValueError(f"expected card ints of shape (N, {size} or more), got shape {cards.shape}")
    return _best_low_batch(_BATCH_RANK_KEYS[cards].sum(axis=1), kind, size)


def rank_counts_batch(counts: np.ndarray, kind: str, size: int = 5) -> np.ndarray:
    """``kind`` values (``"razz"``, ``"eight"`` or ``"action_razz"``: suit-free) of hands given as per-rank
    counts, shape (N, 13), every row holding the same number (5 to 7) of cards; as int32. ``size``: the
    showdown hand size (5; any other takes the best ``size``-card low of rows of any size, as
    :func:`evaluator`).

    >>> wheel = np.array([[1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 0]])
    >>> int(rank_counts_batch(wheel, "razz")[0]) == RAZZ_LOW_MAX
    True
    """
    if size != 5:
        counts = np.asarray(counts)
        if counts.ndim != 2 or counts.shape[1] != NUM_RANKS:
            raise ValueError(f"expected per-rank counts of shape (N, {NUM_RANKS})")
        return _best_low_batch(counts.astype(np.int64) @ _RANK_POWERS, kind, size)
    counts = np.asarray(counts)
    sizes = counts.sum(axis=1) if counts.ndim == 2 else None
    if sizes is None or counts.shape[1] != NUM_RANKS or (len(sizes) and (sizes.min() != sizes.max()
                                                                          or not MIN_CARDS <= sizes[0] <= MAX_CARDS)):
        raise ValueError(f"expected per-rank counts of shape (N, {NUM_RANKS}) with 5 to 7 cards in every row")
    if not len(sizes):
        return np.zeros(0, dtype=np.int32)
    return _dense_table(kind, int(sizes[0]))[counts @ _BATCH_RANK_WEIGHTS].astype(np.int32)


_BATCH_RANK_KEYS = np.array(RANK_KEY, dtype=np.int64)


def stud_high_batch(cards: np.ndarray) -> np.ndarray:
    """``stud_high`` of each row of an (N, 5..7) card int array, as int32 (the flush rule as in ``stud_high``).

    >>> from razz_env.engine.cards import parse_cards
    >>> hands = np.array([parse_cards("Ah Kh Qh Jh Th 2c 2d"), parse_cards("2c 3d 4h 5s 7c 8d 9h")])
    >>> [int(v) for v in stud_high_batch(hands)] == [stud_high(h) for h in hands.tolist()]
    True
    """
    cards = np.asarray(cards)
    if cards.ndim != 2 or not MIN_CARDS <= cards.shape[1] <= MAX_CARDS:
        raise ValueError(f"expected card ints of shape (N, 5..7), got shape {cards.shape}")
    rank_keys = _BATCH_RANK_KEYS[cards]
    values = _HIGH_PLAIN.lookup(rank_keys.sum(axis=1))
    suits = cards & 3
    suit_counts = np.stack([(suits == suit).sum(axis=1) for suit in range(4)], axis=1)
    flush = suit_counts.max(axis=1) >= MIN_CARDS
    if flush.any():
        flush_suit = suit_counts[flush].argmax(axis=1)
        in_suit = suits[flush] == flush_suit[:, None]
        values[flush] = _HIGH_FLUSH.lookup((rank_keys[flush] * in_suit).sum(axis=1))
    return values.astype(np.int32)


_FIVE_CARD_BATCH: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "razz": razz_low_batch, "eight": eight_low_batch, "action_razz": action_razz_batch, "high": stud_high_batch,
}
