"""Hand reading for the rule agents: partial lows, assumed hole cards, live cards, stud strength.

Everything here works on what a seat can see (its own cards and the up cards) and on
ranks counted the lowball way: ace 1, deuce 2 ... king 13. A partial low hand is compared
with :func:`low_key` (smaller is better): first how many cards it still lacks for a
five-card low, then its cards from the highest down, which is how a razz player reads
"7-5-3-A against a board of 9-4".

>>> best_low([9, 3, 1, 7, 3, 5, 2])
(7, 5, 3, 2, 1)
>>> low_key([1, 3, 5, 7]) < low_key([2, 4, 9, 13])
True
>>> assumed_hole_ranks([9, 4], 2, GOOD_HOLES)
[2, 5]

Each reading also has a batched form (``*_batch``) over numpy arrays, one row per hand, for agents that
decide thousands of decisions at once: cards are (N, K) with ``-1`` for none, ranks (N, K) with
:data:`NO_RANK` for none, and each row's result equals the scalar function's on that row's cards.
:func:`low_key_batch` packs the key into one int64 that orders exactly as the tuple does.

>>> [hex(key) for key in low_key_batch(np.array([[1, 3, 5, 7], [2, 4, 9, 13]]))]  # 1 missing, 7-5-3-A(-none)
['0x175310', '0x1d9420']
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

FACE_RANKS = frozenset({11, 12, 13})
LOW_LIMIT = 8
GOOD_HOLES = (1, 3, 5)
WEAK_HOLES = (3, 5, 7)
BRICK = 10
NO_RANK = 0
"""No card, in a batched rank array (ranks count from the ace, 1)."""
_MISSING_SHIFT = 20  # low_key_batch: five 4-bit cards, then 'missing', then 'unqualified'


def low_rank(card: int) -> int:
    """The card's rank counted low: ace 1 ... king 13."""
    return (card >> 2) + 1


def low_ranks(cards: Iterable[int]) -> list[int]:
    """Low ranks of ``cards``."""
    return [(c >> 2) + 1 for c in cards]


def best_low(ranks: Iterable[int], size: int = 5) -> tuple[int, ...]:
    """The lowest ``size`` distinct ranks, highest first (pairs add nothing to a low)."""
    return tuple(sorted(sorted(set(ranks))[:size], reverse=True))


def low_key(ranks: Sequence[int], action: bool = False, final: bool = False) -> tuple:
    """Comparable strength of a (partial) low, smaller is better.

    ``(unqualified, missing, cards highest first)``: ``missing`` is how many cards short of
    a five-card low the hand is. In Action Razz (``action``) one face card is set aside as
    the qualifier; a hand without one still needs it (one more missing card) and, once the
    hand is ``final``, ranks behind every qualified hand.
    """
    pool = list(ranks)
    qualified = True
    if action:
        faces = [r for r in pool if r in FACE_RANKS]
        if faces:
            pool.remove(max(faces))
        else:
            qualified = False
    best = best_low(pool)
    missing = 5 - len(best)
    if action and not qualified and not final:
        missing += 1
    return (int(final and not qualified), missing, best)


def assumed_hole_ranks(board: Sequence[int], hidden: int, picks: Sequence[int]) -> list[int]:
    """Ranks to assume for ``hidden`` down cards behind ``board``: chosen low cards that do not pair it.

    ``picks`` index the low ranks (ace to eight) missing from the board: :data:`GOOD_HOLES`
    assumes good cards (the 2nd, 4th, 6th lowest available), :data:`WEAK_HOLES` mediocre ones;
    an index past the available ranks assumes a brick (a ten: high, and no face card).
    """
    available = [r for r in range(1, LOW_LIMIT + 1) if r not in board]
    return [available[i] if i < len(available) else BRICK for i in picks[:hidden]]


def live_low_cards(my_ranks: Iterable[int], seen: Iterable[int], below: int = LOW_LIMIT + 1) -> int:
    """Unseen cards of a rank under ``below`` that do not pair ``my_ranks``: my live improving cards.

    ``seen`` are the cards I can see (mine, every up card, dead cards); each rank has four cards.
    """
    mine, seen_count = set(my_ranks), Counter(low_rank(card) for card in seen)
    return sum(4 - seen_count[r] for r in range(1, below) if r not in mine)


def high_strength(cards: Sequence[int]) -> tuple[int, int]:
    """Stud-high strength of any number of cards: ``(category, rank)``, greater is better.

    Categories: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
    7 quads; ``rank`` is the rank (2 low, ace 14) of the most important group. Straights and
    flushes need five cards, so for up cards this reads a board the way players do.
    """
    ranks = [((c >> 2) - 1) % 13 + 2 for c in cards]
    counts = Counter(ranks)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    top_count, top_rank = groups[0] if groups else (0, 0)
    pairs = [r for r, n in counts.items() if n >= 2]
    if top_count == 4:
        return (7, top_rank)
    if top_count == 3 and len(pairs) >= 2:
        return (6, top_rank)
    suits = [c & 3 for c in cards]
    if len(cards) >= 5 and max(suits.count(s) for s in range(4)) >= 5:
        return (5, max(ranks))
    distinct = set(ranks) | ({1} if 14 in counts else set())
    for high in range(14, 4, -1):
        if all(r in distinct for r in range(high - 4, high + 1)):
            return (4, high)
    if top_count == 3:
        return (3, top_rank)
    if len(pairs) >= 2:
        return (2, max(pairs))
    if top_count == 2:
        return (1, top_rank)
    return (0, top_rank)


def flush_draw(cards: Sequence[int]) -> int:
    """Most cards of one suit among ``cards``."""
    suits = [c & 3 for c in cards]
    return max((suits.count(s) for s in range(4)), default=0)


# ---------------------------------------------------------------------- batched forms (one row per hand)


def low_ranks_batch(cards: np.ndarray) -> np.ndarray:
    """:func:`low_ranks` of every row: int64 ranks, :data:`NO_RANK` where the card is ``-1`` (none)."""
    cards = np.asarray(cards, dtype=np.int64)
    return np.where(cards >= 0, (cards >> 2) + 1, NO_RANK)


def rank_counts(ranks: np.ndarray) -> np.ndarray:
    """(N, 14) how many cards of each low rank (column ``r`` for rank ``r``) each row of ``ranks`` holds."""
    counts = _row_counts(np.asarray(ranks, dtype=np.int64), 14)
    counts[:, NO_RANK] = 0
    return counts


def low_key_batch(ranks: np.ndarray, action: bool = False, final: bool | np.ndarray = False) -> np.ndarray:
    """:func:`low_key` of every row of ``ranks`` (``final`` one flag or one per row), packed into int64.

    The tuple's cards take four bits each (highest first, zero past the last card, which orders a shorter
    tuple first as Python does), then ``missing``, then ``unqualified``: comparing keys compares tuples.
    """
    return _low_key_of_counts(rank_counts(ranks), action, final)


def low_key_missing(keys: np.ndarray) -> np.ndarray:
    """The ``missing`` field of packed :func:`low_key_batch` keys (cards short of a five-card low)."""
    return (np.asarray(keys) >> _MISSING_SHIFT) & 0xF


def _low_key_of_counts(counts: np.ndarray, action: bool, final: bool | np.ndarray) -> np.ndarray:
    """:func:`low_key_batch` from (N, 14) rank counts: the set's lowest five cards read off :data:`_LOWEST_FIVE`."""
    rows = len(counts)
    final = np.broadcast_to(np.asarray(final, dtype=bool), (rows,))
    qualified = np.ones(rows, dtype=bool)
    if action:
        faces = counts[:, min(FACE_RANKS):] > 0
        qualified = faces.any(axis=1)
        top_face = 13 - np.argmax(faces[:, ::-1], axis=1)
        counts = counts.copy()
        counts[np.flatnonzero(qualified), top_face[qualified]] -= 1
    size, cards = _LOWEST_FIVE[:, _rank_set(counts, 13)]
    missing = 5 - size + (action & ~qualified & ~final)
    unqualified = final & ~qualified
    return (unqualified.astype(np.int64) << (_MISSING_SHIFT + 4)) | (missing << _MISSING_SHIFT) | cards


def _rank_set(counts: np.ndarray, highest: int) -> np.ndarray:
    """Each row's ranks 1 to ``highest`` held, as bits (rank ``r`` is bit ``r - 1``)."""
    return (counts[:, 1:highest + 1] > 0).astype(np.int64) @ (1 << np.arange(highest))


def _lowest_five(present: np.ndarray) -> np.ndarray:
    """(2, N) for each row of (N, 13) held ranks: how many of the lowest five it has, and them packed (highest
    first, four bits each, zero past the last)."""
    order = np.cumsum(present, axis=1)
    kept = present & (order <= 5)
    size = np.minimum(order[:, -1], 5)
    shift = np.where(kept, 4 * (4 - (size[:, None] - order)), 0)
    return np.stack([size, np.where(kept, np.arange(1, 14) << shift, 0).sum(axis=1)])


def _all_sets(highest: int) -> np.ndarray:
    """(2 ** highest, highest) every set of ranks 1 to ``highest``, row ``m`` holding the ranks of bits of ``m``."""
    return (np.arange(2 ** highest)[:, None] >> np.arange(highest)) & 1 == 1


_LOWEST_FIVE = _lowest_five(_all_sets(13))
"""(2, 8192) :func:`_lowest_five` of every set of the 13 ranks, by its bits: what low keys are read off."""


def assumed_hole_ranks_batch(board: np.ndarray, hidden: int | np.ndarray, picks: Sequence[int]) -> np.ndarray:
    """:func:`assumed_hole_ranks` of every row of ``board`` ranks: (N, len(picks)), :data:`NO_RANK` past ``hidden``."""
    board = np.asarray(board, dtype=np.int64)
    assumed = _assumed_table(tuple(picks))[_rank_set(rank_counts(board), LOW_LIMIT)]
    hidden = np.broadcast_to(np.asarray(hidden, dtype=np.int64), (len(board),))
    return np.where(np.arange(len(picks)) < hidden[:, None], assumed, NO_RANK)


@functools.cache
def _assumed_table(picks: tuple[int, ...]) -> np.ndarray:
    """(256, len(picks)) the ranks :func:`assumed_hole_ranks` assumes behind each set of low ranks on the board."""
    available = ~_all_sets(LOW_LIMIT)
    order = np.cumsum(available, axis=1)
    assumed = np.full((len(available), len(picks)), BRICK, dtype=np.int64)
    for column, pick in enumerate(picks):
        hit = available & (order == pick + 1)
        assumed[:, column] = np.where(hit.any(axis=1), np.argmax(hit, axis=1) + 1, BRICK)
    return assumed


def live_low_cards_batch(my_ranks: np.ndarray, seen: np.ndarray, below: int = LOW_LIMIT + 1) -> np.ndarray:
    """:func:`live_low_cards` of every row: ``my_ranks`` (N, K) ranks, ``seen`` (N, M) cards (``-1`` none)."""
    mine = rank_counts(my_ranks)[:, 1:below] > 0
    seen_count = rank_counts(low_ranks_batch(seen))[:, 1:below]
    return np.where(mine, 0, 4 - seen_count).sum(axis=1)


def high_strength_batch(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`high_strength` of every row of ``cards`` (``-1`` none): the (category, rank) int64 arrays."""
    cards = np.asarray(cards, dtype=np.int64)
    valid = cards >= 0
    high = np.where(valid, ((cards >> 2) - 1) % 13 + 2, 0)
    counts = _row_counts(high, 15)
    counts[:, 0] = 0
    top_count = counts.max(axis=1)
    top_rank = np.where(top_count > 0, 14 - np.argmax((counts == top_count[:, None])[:, ::-1], axis=1), 0)
    pairs = counts >= 2
    two_pair = pairs.sum(axis=1) >= 2
    top_pair = 14 - np.argmax(pairs[:, ::-1], axis=1)
    flush = (valid.sum(axis=1) >= 5) & (flush_draw_batch(cards) >= 5)
    highest = 14 - np.argmax((counts > 0)[:, ::-1], axis=1)
    present = counts > 0
    present[:, 1] = present[:, 14]
    runs = np.ones((len(cards), 10), dtype=bool)
    for step in range(5):
        runs &= present[:, 1 + step:11 + step]
    straight = runs.any(axis=1)
    straight_high = 14 - np.argmax(runs[:, ::-1], axis=1)
    conditions = [top_count == 4, (top_count == 3) & two_pair, flush, straight, top_count == 3, two_pair,
                  top_count == 2]
    category = np.select(conditions, [7, 6, 5, 4, 3, 2, 1], 0)
    rank = np.select(conditions, [top_rank, top_rank, highest, straight_high, top_rank, top_pair, top_rank], top_rank)
    return category.astype(np.int64), rank.astype(np.int64)


def high_key(category: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """(category, rank) arrays of :func:`high_strength_batch` as one int64 that orders as the tuple does."""
    return np.asarray(category, dtype=np.int64) * 16 + rank


def flush_draw_batch(cards: np.ndarray) -> np.ndarray:
    """:func:`flush_draw` of every row of ``cards`` (``-1`` none)."""
    cards = np.asarray(cards, dtype=np.int64)
    return _row_counts(np.where(cards >= 0, cards & 3, 4), 5)[:, :4].max(axis=1)


def _row_counts(values: np.ndarray, size: int) -> np.ndarray:
    """(N, ``size``) how many times each value 0 to ``size - 1`` occurs in each row of ``values``."""
    slots = (np.arange(len(values))[:, None] * size + values).ravel()
    return np.bincount(slots, minlength=len(values) * size).reshape(len(values), size)
