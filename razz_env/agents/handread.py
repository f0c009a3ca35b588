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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FACE_RANKS = frozenset({11, 12, 13})
LOW_LIMIT = 8
GOOD_HOLES = (1, 3, 5)
WEAK_HOLES = (3, 5, 7)
BRICK = 10


def low_rank(card: int) -> int:
    """The card's rank counted low: ace 1 ... king 13."""
    return (card >> 2) + 1


def low_ranks(cards: Iterable[int]) -> list[int]:
    """Low ranks of ``cards``."""
    return [(c >> 2) + 1 for c in cards]


def best_low(ranks: Iterable[int], size: int = 5) -> tuple[int, ...]:
    """The lowest ``size`` distinct ranks, highest first (pairs add nothing to a low)."""
    return tuple(sorted(sorted(set(ranks))[:size], reverse=True))


def has_face(ranks: Iterable[int]) -> bool:
    """Whether a J, Q or K is among ``ranks`` (the Action Razz qualifier)."""
    return any(r in FACE_RANKS for r in ranks)


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
    mine = set(my_ranks)
    seen_count = [0] * 14
    for card in seen:
        seen_count[low_rank(card)] += 1
    return sum(4 - seen_count[r] for r in range(1, below) if r not in mine)


def high_strength(cards: Sequence[int]) -> tuple[int, int]:
    """Stud-high strength of any number of cards: ``(category, rank)``, greater is better.

    Categories: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
    7 quads; ``rank`` is the rank (2 low, ace 14) of the most important group. Straights and
    flushes need five cards, so for up cards this reads a board the way players do.
    """
    ranks = [((c >> 2) - 1) % 13 + 2 for c in cards]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
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
