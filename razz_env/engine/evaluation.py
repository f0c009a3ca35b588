"""Table-driven hand evaluators for the stud games: razz, eight-or-better low, Action Razz, stud high.

Every evaluator takes 5 to 7 card ints (:mod:`razz_env.engine.cards`) and returns a plain int where
higher is better, comparable between hands of the same evaluator. Lows depend only on the multiset of
ranks, so each is one dict lookup on the additive rank key ``sum(RANK_KEY[c] for c in cards)`` (3 bits a
rank). Stud high adds a flush path keyed by suit counts. Tables are built on first use, so importing
this module stays cheap.

Value ranges: razz 1..RAZZ_LOW_MAX (wheel), eight 0 (no low) ..EIGHT_LOW_MAX, Action Razz 1..
ACTION_RAZZ_MAX (butts below faces), stud high 1..STUD_HIGH_MAX (royal flush).

>>> from razz_env.engine.cards import parse_cards
>>> razz_low(parse_cards("As 2c 3d 4h 5s Kc Kd")) == RAZZ_LOW_MAX
True
>>> describe(parse_cards("8c 6d 5h 4s 3c Kd Qh"), "razz")
'8-6-5-4-3 low'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

import numpy as np

from razz_env.engine.cards import DECK_SIZE, RANKS, rank_of, suit_of

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
"""A-2-3-4-5 in ace-high strength bits; it ranks as the five-high straight ``0b1111``."""
_GROUP_BITS = 13
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


def _rank_groups(ranks: Sequence[int], strength: Sequence[int]) -> list[tuple[int, int]]:
    """``(count, rank)`` groups in the order a comparison reads them: bigger groups, then stronger ranks."""
    return sorted(
        ((ranks.count(rank), rank) for rank in set(ranks)),
        key=lambda group: (group[0], strength[group[1]]),
        reverse=True,
    )


def _low_badness(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Sort key of a five-card ace-to-five low, smaller is better: group shape, then ranks high to low."""
    groups = _rank_groups(ranks, _LOW_STRENGTH)
    return _LOW_SHAPES.index(tuple(count for count, _ in groups)), tuple(rank for _, rank in groups)


def _high_strength(ranks: Sequence[int], flush: bool) -> tuple[int, tuple[int, ...]]:
    """Sort key of a five-card high hand, larger is better: category, then the deciding ranks."""
    groups = _rank_groups(ranks, _HIGH_STRENGTH)
    strengths = tuple(_HIGH_STRENGTH[rank] for _, rank in groups)
    if len(groups) < 5:
        return _HIGH_CATEGORY_OF_SHAPE[tuple(count for count, _ in groups)], strengths
    if strengths[0] - strengths[4] == 4:
        return (_STRAIGHT_FLUSH if flush else _STRAIGHT), strengths[:1]
    if strengths == _WHEEL_STRENGTHS:
        return (_STRAIGHT_FLUSH if flush else _STRAIGHT), strengths[1:2]
    return (_FLUSH if flush else 0), strengths


def _ranks_of_key(key: int) -> list[int]:
    """The rank indices counted by an additive rank key, lowest first."""
    return [rank for rank in range(NUM_RANKS) for _ in range((key >> 3 * rank) & 7)]


def _rank_counts(keys: np.ndarray) -> np.ndarray:
    """Per-rank counts, shape (N, 13), of an array of additive rank keys."""
    return (keys[:, None] >> (3 * np.arange(NUM_RANKS))) & 7


@functools.cache
def _rank_multisets() -> tuple[np.ndarray, np.ndarray]:
    """Rank keys and sizes of every multiset of 5 to 7 ranks with at most four of a rank (73,775)."""
    keys = np.zeros(1, dtype=np.int64)
    sizes = np.zeros(1, dtype=np.int64)
    for rank in range(NUM_RANKS):
        keys = np.concatenate([keys + copies * 8**rank for copies in range(5)])
        sizes = np.concatenate([sizes + copies for copies in range(5)])
        fits = sizes <= MAX_CARDS
        keys, sizes = keys[fits], sizes[fits]
    hands = sizes >= MIN_CARDS
    return keys[hands], sizes[hands]


def _best_low_five_keys(counts: np.ndarray) -> np.ndarray:
    """Rank key of the best ace-to-five five-card hand in each row of per-rank counts.

    Read the cards layer by layer -- one of every rank held, lowest first; then the second copies,
    lowest first; then the thirds and fourths -- and keep the first five. That uses as many distinct
    ranks as possible (fewest pairs) and doubles up the lowest ranks that can be doubled, which is
    the best low: e.g. it pairs the lowest pairable rank, and makes the lowest trips full.
    """
    copy_exists = counts[:, None, :] > np.arange(4)[:, None]
    layered = copy_exists.reshape(len(counts), -1)
    kept = layered & (np.cumsum(layered, axis=1) <= 5)
    return kept.reshape(copy_exists.shape).sum(axis=1) @ _RANK_POWERS


@functools.cache
def _low_values() -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Rank keys and sizes of all 5-7 card rank multisets, with their razz, eight and Action Razz values."""
    keys, sizes = _rank_multisets()
    five_keys = keys[sizes == 5]
    worst_first = sorted(five_keys.tolist(), key=lambda key: _low_badness(_ranks_of_key(key)), reverse=True)
    five_keys_sorted = np.sort(five_keys)
    value_of_five = np.empty(len(five_keys), dtype=np.int64)
    value_of_five[np.searchsorted(five_keys_sorted, worst_first)] = np.arange(1, len(five_keys) + 1)
    razz = value_of_five[np.searchsorted(five_keys_sorted, _best_low_five_keys(_rank_counts(keys)))]
    values = {
        "razz": razz,
        # The eight-or-better lows (no pair, eight or lower) are exactly the best EIGHT_LOW_MAX razz lows.
        "eight": np.maximum(razz - (RAZZ_LOW_MAX - EIGHT_LOW_MAX), 0),
        "action_razz": razz + RAZZ_LOW_MAX * (keys >= _FACE_KEY),
    }
    return keys, sizes, values


def _low_table(kind: str) -> dict[int, int]:
    keys, _, values = _low_values()
    return dict(zip(keys.tolist(), values[kind].tolist()))


def _best_by_dropping_one(
    small_keys: np.ndarray, small_values: np.ndarray, keys: np.ndarray, digits: np.ndarray, unit: np.ndarray
) -> np.ndarray:
    """Values of hands one card bigger than ``small_keys``: the best value after dropping any one card.

    ``digits[i, r]`` counts rank ``r`` in ``keys[i]`` and ``unit[r]`` is its key, so ``key - unit[r]``
    drops one card of rank ``r``.
    """
    order = np.argsort(small_keys)
    sorted_keys, sorted_values = small_keys[order], small_values[order]
    best = np.zeros(len(keys), dtype=np.int64)
    for rank in range(NUM_RANKS):
        held = digits[:, rank] > 0
        dropped = sorted_values[np.searchsorted(sorted_keys, keys[held] - unit[rank])]
        best[held] = np.maximum(best[held], dropped)
    return best


@functools.cache
def _high_tables() -> tuple[dict[int, int], dict[int, int]]:
    """Stud high values by rank key (no flush; straights count) and by rank bitmask of a flush suit."""
    keys, sizes = _rank_multisets()
    five_keys = keys[sizes == 5].tolist()
    flush_masks = [sum(1 << rank for rank in ranks) for ranks in combinations(range(NUM_RANKS), 5)]
    classes = [(_high_strength(_ranks_of_key(key), False), False, key) for key in five_keys]
    classes += [
        (_high_strength([r for r in range(NUM_RANKS) if mask >> r & 1], True), True, mask) for mask in flush_masks
    ]
    classes.sort()
    value_of = {(is_flush, key): value for value, (_, is_flush, key) in enumerate(classes, start=1)}

    rank_keys = np.array(five_keys, dtype=np.int64)
    rank_values = np.array([value_of[False, key] for key in five_keys], dtype=np.int64)
    masks = np.array(flush_masks, dtype=np.int64)
    mask_values = np.array([value_of[True, mask] for mask in flush_masks], dtype=np.int64)
    by_rank_key = dict(zip(rank_keys.tolist(), rank_values.tolist()))
    by_mask = dict(zip(masks.tolist(), mask_values.tolist()))
    bits = 1 << np.arange(NUM_RANKS, dtype=np.int64)
    for size in range(MIN_CARDS + 1, MAX_CARDS + 1):
        bigger_keys = keys[sizes == size]
        rank_values = _best_by_dropping_one(rank_keys, rank_values, bigger_keys, _rank_counts(bigger_keys), _RANK_POWERS)
        rank_keys = bigger_keys
        bigger_masks = np.array(
            [sum(1 << rank for rank in ranks) for ranks in combinations(range(NUM_RANKS), size)], dtype=np.int64
        )
        mask_values = _best_by_dropping_one(masks, mask_values, bigger_masks, (bigger_masks[:, None] & bits) > 0, bits)
        masks = bigger_masks
        by_rank_key.update(zip(rank_keys.tolist(), rank_values.tolist()))
        by_mask.update(zip(masks.tolist(), mask_values.tolist()))
    return by_rank_key, by_mask


def _flush_suit_table() -> dict[int, int]:
    """The suit holding five or more cards (-1 for none) by additive suit key, for 5 to 7 cards."""
    table = {}
    for counts in np.ndindex(MAX_CARDS + 1, MAX_CARDS + 1, MAX_CARDS + 1, MAX_CARDS + 1):
        if MIN_CARDS <= sum(counts) <= MAX_CARDS:
            flushed = [suit for suit, count in enumerate(counts) if count >= 5]
            table[sum(count * 8**suit for suit, count in enumerate(counts))] = flushed[0] if flushed else -1
    return table


_RAZZ_LOW = _LazyTable(functools.partial(_low_table, "razz"))
_EIGHT_LOW = _LazyTable(functools.partial(_low_table, "eight"))
_ACTION_RAZZ = _LazyTable(functools.partial(_low_table, "action_razz"))
_HIGH_BY_RANK_KEY = _LazyTable(lambda: _high_tables()[0])
_HIGH_BY_FLUSH_MASK = _LazyTable(lambda: _high_tables()[1])
_FLUSH_SUIT = _LazyTable(_flush_suit_table)
_rank_key_of = RANK_KEY.__getitem__
_card_key_of = _CARD_KEY.__getitem__


def razz_low(cards: Iterable[int]) -> int:
    """Best five-card ace-to-five low (razz), 1..RAZZ_LOW_MAX: aces low, straights and flushes ignored.

    >>> from razz_env.engine.cards import parse_cards
    >>> razz_low(parse_cards("8c 6d 5h 4s 3c")) > razz_low(parse_cards("9c 4d 3h 2s Ac"))
    True
    """
    return _RAZZ_LOW[sum(map(_rank_key_of, cards))]


def eight_low(cards: Iterable[int]) -> int:
    """Best eight-or-better low for stud8, 0 without one, else 1..EIGHT_LOW_MAX ordered like razz_low.

    >>> from razz_env.engine.cards import parse_cards
    >>> eight_low(parse_cards("9c 7d 6h 5s 4c Kd Kh")), eight_low(parse_cards("As 2s 3s 4s 5s"))
    (0, 56)
    """
    return _EIGHT_LOW[sum(map(_rank_key_of, cards))]


def action_razz_value(cards: Iterable[int]) -> int:
    """Action Razz value: any hand holding a J, Q or K (face) beats any without (butt); then razz_low.

    >>> from razz_env.engine.cards import parse_cards
    >>> action_razz_value(parse_cards("Kh Kd Ks Kc Qd Qs Qc")) > action_razz_value(parse_cards("Ah 2h 3s 4c 5d"))
    True
    """
    return _ACTION_RAZZ[sum(map(_rank_key_of, cards))]


def stud_high(cards: Sequence[int]) -> int:
    """Best five-card high hand, 1..STUD_HIGH_MAX (aces high, A-2-3-4-5 the lowest straight).

    Five or more cards of a suit rule out quads and full houses among seven cards, so a flush
    suit's ranks decide the hand; otherwise the rank multiset does.

    >>> from razz_env.engine.cards import parse_cards
    >>> stud_high(parse_cards("Ah Kh Qh Jh Th 2c 2d")) == STUD_HIGH_MAX
    True
    """
    key = sum(map(_card_key_of, cards))
    flush_suit = _FLUSH_SUIT[key >> _SUIT_SHIFT]
    if flush_suit < 0:
        return _HIGH_BY_RANK_KEY[key & _RANK_KEY_BITS]
    return _HIGH_BY_FLUSH_MASK[sum(1 << (card >> 2) for card in cards if card & 3 == flush_suit)]


_FIVE_CARD_RULES: dict[str, tuple[Callable[[Sequence[int]], int], Callable[[int], int]]] = {
    "razz": (razz_low, int),
    "eight": (razz_low, int),
    "action_razz": (razz_low, int),
    "high": (stud_high, lambda card: _HIGH_STRENGTH[rank_of(card)] * 4 + suit_of(card)),
}
"""Per kind: the evaluator that picks the five cards, and the card order (rank, then suit) for display
and ties. Action Razz plays its razz five; the face class does not depend on the five."""


def best_five(cards: Sequence[int], kind: str) -> list[int]:
    """The five cards of the best ``kind`` hand, highest first, for display and the odd-chip rule.

    ``kind`` is "razz", "eight", "action_razz" or "high"; "eight" gives [] without a qualifying low.
    Among equal five-card choices (suits), the one whose cards are highest by (rank, suit) is taken.

    >>> from razz_env.engine.cards import cards_str, parse_cards
    >>> cards_str(best_five(parse_cards("7c 7s 2d 3h 4c Ks 5d"), "razz"))
    '7s 5d 4c 3h 2d'
    """
    if kind not in _FIVE_CARD_RULES:
        raise ValueError(f"unknown hand kind {kind!r}: expected one of {sorted(_FIVE_CARD_RULES)}")
    if kind == "eight" and not eight_low(cards):
        return []
    evaluate, card_order = _FIVE_CARD_RULES[kind]
    five = max(
        combinations(cards, 5),
        key=lambda five: (evaluate(five), sorted(map(card_order, five), reverse=True)),
    )
    return sorted(five, key=card_order, reverse=True)


def _plural(rank: int) -> str:
    word = _RANK_WORDS[rank]
    return word + ("es" if word.endswith("x") else "s")


def _grouped_text(groups: list[tuple[int, int]]) -> str:
    """Text of a hand with a pair or better, from its (count, rank) groups in comparison order."""
    first, second = _plural(groups[0][1]), _plural(groups[1][1])
    shape = tuple(count for count, _ in groups)
    return {
        (2, 1, 1, 1): f"pair of {first}",
        (2, 2, 1): f"two pair, {first} and {second}",
        (3, 1, 1): f"three of a kind, {first}",
        (3, 2): f"full house, {first} full of {second}",
        (4, 1): f"four of a kind, {first}",
    }[shape]


def _low_text(five: Sequence[int]) -> str:
    groups = _rank_groups([rank_of(card) for card in five], _LOW_STRENGTH)
    if len(groups) < 5:
        return _grouped_text(groups)
    return "-".join(RANKS[rank] for _, rank in groups)


def _high_text(five: Sequence[int]) -> str:
    ranks = [rank_of(card) for card in five]
    category, strengths = _high_strength(ranks, len({suit_of(card) for card in five}) == 1)
    name = _HIGH_CATEGORIES[category]
    if category in (_STRAIGHT, _STRAIGHT_FLUSH):
        top = (strengths[0] + 1) % NUM_RANKS
        return "royal flush" if category == _STRAIGHT_FLUSH and top == 0 else f"{name}, {_RANK_WORDS[top]} high"
    if category in (0, _FLUSH):
        return f"{name}, " + "-".join(RANKS[(strength + 1) % NUM_RANKS] for strength in strengths)
    return _grouped_text(_rank_groups(ranks, _HIGH_STRENGTH))


def describe(cards: Sequence[int], kind: str) -> str:
    """Human text of the best ``kind`` hand ("razz", "eight", "action_razz" or "high").

    >>> from razz_env.engine.cards import parse_cards
    >>> describe(parse_cards("Kh Kd Ks Kc Qd Qs Qc"), "action_razz")
    'face full house, queens full of kings'
    >>> describe(parse_cards("Kh Kd 5s Kc 5d 2s 3c"), "high")
    'full house, kings full of fives'
    """
    five = best_five(cards, kind)
    if kind == "high":
        return _high_text(five)
    if kind == "eight" and not five:
        return "no low"
    if kind == "action_razz":
        return ("face " if sum(map(_rank_key_of, cards)) >= _FACE_KEY else "butt ") + _low_text(five)
    text = _low_text(five)
    return text + " low" if len(set(map(rank_of, five))) == 5 else text


@functools.cache
def _dense_table(kind: str, size: int) -> np.ndarray:
    """``kind`` values of ``size``-card hands indexed by their compact batch key."""
    keys, sizes, values = _low_values()
    of_size = sizes == size
    compact_keys = _rank_counts(keys[of_size]) @ _BATCH_RANK_WEIGHTS
    table = np.zeros(compact_keys.max() + 1, dtype=np.int16)
    table[compact_keys] = values[kind][of_size]
    return table


def _batch(cards: np.ndarray, kind: str) -> np.ndarray:
    cards = np.asarray(cards)
    if cards.ndim != 2 or not MIN_CARDS <= cards.shape[1] <= MAX_CARDS:
        raise ValueError(f"expected card ints of shape (N, 5..7), got shape {cards.shape}")
    compact_keys = np.einsum("ij->i", np.take(_BATCH_CARD_WEIGHT, cards))
    return _dense_table(kind, cards.shape[1])[compact_keys]


def razz_low_batch(cards: np.ndarray) -> np.ndarray:
    """``razz_low`` of each row of an (N, 5..7) card array, vectorised for rollouts and training."""
    return _batch(cards, "razz")


def eight_low_batch(cards: np.ndarray) -> np.ndarray:
    """``eight_low`` of each row of an (N, 5..7) card array."""
    return _batch(cards, "eight")


def action_razz_batch(cards: np.ndarray) -> np.ndarray:
    """``action_razz_value`` of each row of an (N, 5..7) card array."""
    return _batch(cards, "action_razz")
