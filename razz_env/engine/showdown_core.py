"""The showdown written once for every fast path: hand values and the split of a pot among the halves' winners.

Plain functions over integers and integer arrays, in the subset of Python that numba compiles for the CPU and
for CUDA (no allocation, no ``min``/``max`` of two scalars, no exceptions): the batched engine registers
:data:`FUNCTIONS` with numba (:mod:`razz_env.batch.kernels`) for its CPU and CUDA kernels and the batched AIVAT
scorer, while the scalar AIVAT (:mod:`razz_env.evaluate.aivat`) calls them as Python on lists, so nothing here
needs numba. :mod:`razz_env.engine.hand_value` and :mod:`razz_env.engine.showdown` stay the reference these are
tested against, value by value and pot by pot.

A hand is an array of card ids (``rank * 4 + suit``, aces low); a showdown kind is one of the codes
:data:`KIND_CODES`. Values are higher-better integers ordered as the reference evaluators order hands; only
their order and equality mean anything.

>>> from razz_env.engine.cards import parse_cards
>>> wheel, sixes = parse_cards("5c 4d 3h 2s Ac Kd Kh"), parse_cards("6c 4d 3h 2s Ac Ad Kh")
>>> bool(hand_value(wheel, K_RAZZ, 5)[0] > hand_value(sixes, K_RAZZ, 5)[0])
True
>>> shares = [0.0, 0.0, 0.0]
>>> pot_shares([[9, 4, 9]], [K_HIGH], [0, 1, 2], 3, shares, [[0, 0, 0]])
>>> shares
[0.5, 0.0, 0.5]
"""

from __future__ import annotations

from math import comb

import numpy as np

K_RAZZ, K_ACTION_RAZZ, K_HIGH, K_EIGHT = range(4)
KIND_CODES = {"razz": K_RAZZ, "action_razz": K_ACTION_RAZZ, "high": K_HIGH, "eight": K_EIGHT}
"""Showdown kind codes (a variant's ``showdown`` halves)."""
MAX_HAND = 8
"""Cards a showdown hand may hold: seven, or six and the community card."""

_TOP = np.int64(1) << np.int64(56)
_FACE = np.int64(1) << np.int64(57)
_WHEEL = 0b1_0000_0000_1111
_HIGH_CAT_OF_SHAPE = np.array([0, 1, 2, 3, 6, 7], dtype=np.int64)


def _subsets() -> np.ndarray:
    """``_SUBSETS[m, size]``: the bit masks of the ``size``-card subsets of ``m`` cards (-1 after the last)."""
    table = np.full((MAX_HAND + 1, MAX_HAND + 1, comb(MAX_HAND, MAX_HAND // 2)), -1, dtype=np.int64)
    for m in range(MAX_HAND + 1):
        found = np.zeros(MAX_HAND + 1, dtype=np.int64)
        for mask in range(1 << m):
            bits = bin(mask).count("1")
            table[m, bits, found[bits]] = mask
            found[bits] += 1
    return table


_SUBSETS = _subsets()


def lesser(a, b):
    """``min(a, b)``: numba compiles its own ``min`` for the CPU only."""
    return a if a < b else b


def greater(a, b):
    """``max(a, b)`` for both targets (see :func:`lesser`)."""
    return a if a > b else b


def high_order(card):
    """A card's place in the high order (aces high; rank, then suit): 0 for the deuce of clubs, 51 the top ace."""
    return (((card >> 2) + 12) % 13) * 4 + (card & 3)


def rank_groups(counts):
    """``(shape, singles, groups)`` of rank counts packed 3 bits a rank: ``shape`` sums 1 a pair, 3 a trips, 5 a
    quads; ``singles`` the bits of the ranks held once; ``groups`` the quads, trips, pairs and singles bit sets
    packed 13 bits each (quads highest), the tie-break part of a hand key."""
    shape = 0
    g1 = g2 = g3 = g4 = np.int64(0)
    for rank in range(13):
        c = counts >> (3 * rank) & 7
        if c == 1:
            g1 |= np.int64(1) << rank
        elif c == 2:
            shape += 1
            g2 |= np.int64(1) << rank
        elif c == 3:
            shape += 3
            g3 |= np.int64(1) << rank
        elif c == 4:
            shape += 5
            g4 |= np.int64(1) << rank
    return shape, g1, (g4 << 39) | (g3 << 26) | (g2 << 13) | g1


def _high_key(hand, mask):
    """The high key (larger is better) of the hand's cards picked by ``mask``: straights and flushes in five cards
    only, pairs, trips and quads in any number. Counts packed 3 bits a rank (aces high) and 4 bits a suit, so
    nothing is allocated."""
    counts = np.int64(0)
    suits = np.int64(0)
    size = 0
    for i in range(len(hand)):
        if mask >> i & 1:
            counts += np.int64(1) << (3 * (((hand[i] >> 2) + 12) % 13))
            suits += np.int64(1) << (4 * (hand[i] & 3))
            size += 1
    shape, g1, groups = rank_groups(counts)
    straight = g1 == _WHEEL
    if not straight:
        for low in range(9):
            if g1 == 0b11111 << low:
                straight = True
    flush = False
    for s in range(4):
        if size == 5 and suits >> (4 * s) & 15 == 5:
            flush = True
    category = 4 if straight else _HIGH_CAT_OF_SHAPE[shape]
    if flush:
        category = 8 if straight else 5
    key = (category << 52) | groups
    if g1 == _WHEEL:
        key -= _WHEEL - 0b1111
    return key


def _best_high(hand, size):
    """``(key, top)`` of the best ``size`` cards of ``hand`` for high (every subset tried; ``top`` the highest card,
    aces high, of the best subsets)."""
    m = len(hand)
    best = np.int64(0)
    top = np.int64(-1)
    found = False
    for index in range(_SUBSETS.shape[2]):
        mask = _SUBSETS[m, size, index]
        if mask < 0:
            break
        key = _high_key(hand, mask)
        card_top = np.int64(-1)
        for i in range(m):
            if mask >> i & 1:
                order = high_order(hand[i])
                if order > card_top:
                    card_top = order
        if not found or key > best:
            best, top, found = key, card_top, True
        elif key == best and card_top > top:
            top = card_top
    return best, top


def _best_low(hand, size):
    """``(key, top)`` of the best ``size``-card low of ``hand`` (aces low, smaller key better; 0 and -1 when it
    holds fewer cards). The best subset takes one card of every rank, lowest ranks first, then a second of
    every rank that has one, lowest first, and so on (the key ranks pairing before trips before quads, and
    lower groups first); ``top`` is the highest card of its highest rank."""
    m = len(hand)
    if m < size:
        return np.int64(0), np.int64(-1)
    counts = np.int64(0)
    for i in range(m):
        counts += np.int64(1) << (3 * (hand[i] >> 2))
    chosen = np.int64(0)
    left = size
    level = 1
    while left:
        for rank in range(13):
            if left and counts >> (3 * rank) & 7 >= level:
                chosen += np.int64(1) << (3 * rank)
                left -= 1
        level += 1
    shape, _, groups = rank_groups(chosen)
    highest = 12
    while not chosen >> (3 * highest) & 7:
        highest -= 1
    top = np.int64(-1)
    for i in range(m):
        if hand[i] >> 2 == highest and hand[i] > top:
            top = hand[i]
    return (np.int64(shape) << 52) | groups, top


def hand_value(hand, kind, size):
    """``(value, top)``: the ``kind`` value of the best ``size`` cards of ``hand`` (higher better, ordered as
    :func:`razz_env.engine.hand_value.evaluator`; an eight without a qualifying low 0; stud high under five
    cards by pairs, trips and quads alone) and the top card of the best hand (rank, then suit, in the kind's
    order), which the odd-chip rule reads."""
    if kind == K_HIGH:
        return _best_high(hand, size)
    low_key, top = _best_low(hand, size)
    value = _TOP - low_key
    if kind == K_EIGHT:
        if low_key >> 13 != 0 or (low_key & 0x1FFF) >= 256:  # a pair or a card above the eight
            value = np.int64(0)
    elif kind == K_ACTION_RAZZ:
        for i in range(len(hand)):
            if hand[i] >> 2 >= 10:
                value += _FACE
                break
    return value, top


def half_winners(values, seats, count, kind, winners):
    """How many of ``seats[:count]`` hold the best of ``values`` (indexed by seat) in a half of ``kind``, written
    into ``winners``; 0 when the half goes to nobody (an eight-or-better low nobody qualifies for)."""
    best = values[seats[0]]
    for i in range(1, count):
        best = greater(best, values[seats[i]])
    if kind == K_EIGHT and best <= 0:
        return 0
    k = 0
    for i in range(count):
        if values[seats[i]] == best:
            winners[k] = seats[i]
            k += 1
    return k


def split_chips(amount, winners, count, tops, chip, winnings, taken):
    """Share ``amount`` in whole ``chip``s among ``winners[:count]`` (added to ``winnings``, by seat): the odd
    chips one each, the highest top card first (``tops`` by seat; ties by seat order). ``taken``: scratch."""
    each = amount // (chip * count) * chip
    odd = amount - each * count
    for i in range(count):
        winnings[winners[i]] += each
        taken[i] = 0
    while odd > 0:
        pick = -1
        for i in range(count):
            if not taken[i] and (pick < 0 or tops[winners[i]] > tops[winners[pick]]):
                pick = i
        taken[pick] = 1
        given = lesser(chip, odd)
        winnings[winners[pick]] += given
        odd -= given


def award_pot(amount, eligible, count, kinds, values, tops, chip, winnings, winners, taken):
    """Award a pot of ``amount`` chips to the best of ``eligible[:count]`` in each half (``kinds``; ``values`` and
    ``tops`` a row a half, by seat): a half nobody wins goes to the other, an odd chip between the halves goes
    high, ties split by :func:`split_chips`. ``winners`` (a row a half) and ``taken``: scratch."""
    if count == 1:
        winnings[eligible[0]] += amount
        return
    won0 = won1 = 0
    half0 = half1 = 0
    for h in range(len(kinds)):
        k = half_winners(values[h], eligible, count, kinds[h], winners[1 if won0 else 0])
        if k and not won0:
            won0, half0 = k, h
        elif k:
            won1, half1 = k, h
    if won1:
        low_amount = amount // (2 * chip) * chip
        split_chips(amount - low_amount, winners[0], won0, tops[half0], chip, winnings, taken)
        split_chips(low_amount, winners[1], won1, tops[half1], chip, winnings, taken)
    else:
        split_chips(amount, winners[0], won0, tops[half0], chip, winnings, taken)


def pot_shares(values, kinds, live, count, out, winners):
    """Each seat's share of the pot (``out``, by seat) when ``live[:count]`` show down hands of ``values`` (a row
    a half, by seat): :func:`award_pot` in fractions, without chips (ties split exactly, a half nobody wins to
    the other). ``winners``: scratch, a row a half."""
    for s in range(len(out)):
        out[s] = 0.0
    won0 = half_winners(values[0], live, count, kinds[0], winners[0])
    won1 = half_winners(values[1], live, count, kinds[1], winners[1]) if len(kinds) > 1 else 0
    halves = (won0 > 0) + (won1 > 0)
    for i in range(won0):
        out[winners[0][i]] += 1.0 / won0 / halves
    for i in range(won1):
        out[winners[1][i]] += 1.0 / won1 / halves


FUNCTIONS = (lesser, greater, high_order, rank_groups, _high_key, _best_high, _best_low, hand_value,
             half_winners, split_chips, award_pot, pot_shares)
"""Every function here, for the batched engine to register with numba (they call one another)."""
