"""Numba kernels of the batched engine: one table's hand, written as :mod:`razz_env.engine.state` plays it.

Every function works on table ``t`` of the batch arrays (see :mod:`razz_env.batch.engine` for their
layout) and follows the scalar engine line by line — ``_start_round``, ``_compute_legal``, ``act``,
``_advance``, ``_end_round``, the deck's fixed slots and the showdown's pot layers and odd chips —
so the differential tests can require identical play. Hand values are recomputed here by brute force
over the ``hand_size`` subsets (at most 21, of seven cards), ordered as the table-driven evaluators
order them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---------------------------------------------------------------- layout of the batch arrays

# params (int64 vector): the config, read by every kernel
P_N, P_FIRST, P_SECOND, P_LAST, P_FIRST_UP, P_UP_START, P_UP_STOP, P_SINGLE_LAST = range(8)
P_DECK, P_LOW, P_BRING, P_BIG, P_OPEN_PAIR, P_CAP, P_HU_UNCAPPED, P_ANTE = range(8, 16)
P_HAND_SIZE, P_HALF0, P_HALF1 = range(16, 19)
NUM_PARAMS = 19

# tab (int64, (T, NUM_TAB)): per-table scalars
C_STREET, C_ACTOR, C_LEVEL, C_BET_COUNT, C_INCREMENT, C_CAP, C_BRING_PENDING, C_BIG_OPEN = range(8)
C_COMMUNITY, C_LEGAL, C_BRING_SEAT, C_OVER = range(8, 12)
NUM_TAB = 12

# seat (int64, (T, S, NUM_SEAT)): per-seat values
S_STACK, S_BET, S_CONTRIB, S_FOLDED, S_ACTED, S_NCARDS = range(6)
NUM_SEAT = 6

# showdown kinds (params P_HALF0/P_HALF1; -1 for no second half)
K_RAZZ, K_ACTION_RAZZ, K_HIGH, K_EIGHT = range(4)
KIND_CODES = {"razz": K_RAZZ, "action_razz": K_ACTION_RAZZ, "high": K_HIGH, "eight": K_EIGHT}

# legal-set codes: the engine's legal tuples in state.py, in this order
L_BRING_IN_ONLY, L_BRING_IN_OR_COMPLETE, L_FOLD_CALL, L_FOLD_CALL_RAISE, L_FOLD_CALL_COMPLETE = range(5)
L_CHECK, L_FOLD_CHECK, L_FOLD_CHECK_RAISE, L_FOLD_CHECK_COMPLETE, L_FOLD_CHECK_BET = range(5, 10)
L_FOLD_CHECK_BET_BIG, L_NONE = 10, 11
NUM_LEGAL = 12

# engine action values (razz_env.engine.actions.Action)
A_FOLD, A_CHECK, A_CALL, A_BRING_IN, A_COMPLETE, A_BET, A_BET_BIG, A_RAISE = range(8)

_TOP = np.int64(1) << np.int64(56)
_FACE = np.int64(1) << np.int64(57)
_WHEEL = 0b1_0000_0000_1111
_HIGH_CAT_OF_SHAPE = np.array([0, 1, 2, 3, 6, 7], dtype=np.int64)
_SHAPE_STEP = np.array([0, 0, 1, 3, 5], dtype=np.int64)


# ---------------------------------------------------------------- random decks


@njit(cache=True)
def _next_u64(rng: np.ndarray, t: int) -> np.uint64:
    """splitmix64: the table's own stream."""
    z = rng[t] + np.uint64(0x9E3779B97F4A7C15)
    rng[t] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def shuffle_deck(t, deck, cards, rng):
    """A Fisher-Yates shuffle of the variant's ``cards`` into ``deck[t]``, from table ``t``'s stream."""
    size = cards.shape[0]
    for i in range(size):
        deck[t, i] = cards[i]
    for i in range(size - 1):
        u = np.float64(_next_u64(rng, t) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        j = i + np.int64(u * (size - i))
        tmp = deck[t, i]
        deck[t, i] = deck[t, j]
        deck[t, j] = tmp


# ---------------------------------------------------------------- boards (order.py)


@njit(cache=True)
def _high_order(card):
    return (((card >> 2) + 12) % 13) * 4 + (card & 3)


@njit(cache=True)
def _board_strength(cards, t, seat, start, stop, low):
    """``order.board_strength`` of ``cards[t, seat, start:stop]``."""
    size = stop - start
    keyed = np.empty(size, dtype=np.int64)
    for i in range(size):
        c = cards[t, seat, start + i]
        keyed[i] = c if low else _high_order(c)
    keyed.sort()
    keyed = keyed[::-1]
    suit_code = 0
    counts = np.zeros(13, dtype=np.int64)
    distinct = 0
    for k in keyed:
        suit_code = suit_code * 4 + (k & 3)
        if counts[k >> 2] == 0:
            distinct += 1
        counts[k >> 2] += 1
    rank_code = 0
    pattern_code = 0
    if distinct == size:
        for i in range(size):
            pattern_code += 5 ** i
            rank_code = rank_code * 16 + (keyed[i] >> 2)
    else:
        for count in range(4, 0, -1):
            for rank in range(12, -1, -1):
                if counts[rank] == count:
                    pattern_code = pattern_code * 5 + count
                    rank_code = rank_code * 16 + rank
        padding = size - distinct
        pattern_code *= 5 ** padding
        rank_code *= 16 ** padding
    key = (pattern_code * 16 ** size + rank_code) * 4 ** size + suit_code
    return -key if low else key


@njit(cache=True)
def _has_pair(cards, t, seat, start, stop):
    for i in range(start, stop):
        for j in range(i + 1, stop):
            if cards[t, seat, i] >> 2 == cards[t, seat, j] >> 2:
                return True
    return False


# ---------------------------------------------------------------- hand values (evaluation.py, showdown.py)


@njit(cache=True)
def _subset_key(hand, mask, high):
    """Sort key of the hand's cards picked by ``mask``: for lows smaller is better, for high larger."""
    counts = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for i in range(hand.shape[0]):
        if mask >> i & 1:
            counts[hand[i] >> 2] += 1
            suits[hand[i] & 3] += 1
    shape = 0
    groups = np.zeros(5, dtype=np.int64)
    size = 0
    for rank in range(13):
        c = counts[rank]
        if c:
            size += c
            shape += _SHAPE_STEP[c]
            bit = (rank + 12) % 13 if high else rank
            groups[c] |= np.int64(1) << bit
    if not high:
        return (shape << 52) | (groups[4] << 39) | (groups[3] << 26) | (groups[2] << 13) | groups[1]
    singles = groups[1]
    straight = False
    if singles == _WHEEL:
        straight = True
    else:
        for low in range(9):
            if singles == 0b11111 << low:
                straight = True
    flush = False
    for s in range(4):
        if suits[s] == size:
            flush = True
    category = 4 if straight else _HIGH_CAT_OF_SHAPE[shape]
    if flush:
        category = 8 if straight else 5
    key = (category << 52) | (groups[4] << 39) | (groups[3] << 26) | (groups[2] << 13) | singles
    if singles == _WHEEL:
        key -= _WHEEL - 0b1111
    return key


@njit(cache=True)
def hand_value(hand, kind, size):
    """``(value, top)``: the ``kind`` value of the best ``size`` cards of ``hand`` (higher better, ordered as
    ``evaluation.evaluator``) and the top card (rank, suit order of the kind) of the best hand, for odd chips."""
    m = hand.shape[0]
    high = kind == K_HIGH
    best = np.int64(0)
    top = np.int64(-1)
    found = False
    for mask in range(1 << m):
        bits = 0
        for i in range(m):
            bits += mask >> i & 1
        if bits != size:
            continue
        key = _subset_key(hand, mask, high)
        if not high:
            key = -key
        card_top = np.int64(-1)
        for i in range(m):
            if mask >> i & 1:
                order = _high_order(hand[i]) if high else hand[i]
                if order > card_top:
                    card_top = order
        if not found or key > best:
            best, top, found = key, card_top, True
        elif key == best and card_top > top:
            top = card_top
    if high:
        return best, top
    value = _TOP + best  # best is minus the low's key
    if kind == K_EIGHT:
        low_key = -best
        if low_key >> 13 != 0 or (low_key & 0x1FFF) >= 256:  # a pair or a card above the eight
            value = 0
    elif kind == K_ACTION_RAZZ:
        for i in range(m):
            if hand[i] >> 2 >= 10:
                value += _FACE
                break
    return value, top


# ---------------------------------------------------------------- the hand (state.py)


@njit(cache=True)
def _compute_legal(t, p, tab, seat_arr):
    seat = tab[t, C_ACTOR]
    stack = seat_arr[t, seat, S_STACK]
    if tab[t, C_BRING_PENDING]:
        return L_BRING_IN_OR_COMPLETE if stack > p[P_BRING] else L_BRING_IN_ONLY
    level = tab[t, C_LEVEL]
    to_call = level - seat_arr[t, seat, S_BET]
    others_have_chips = False
    others_can_call_more = False
    for other in range(p[P_N]):
        if other != seat and not seat_arr[t, other, S_FOLDED] and seat_arr[t, other, S_STACK]:
            others_have_chips = True
            if seat_arr[t, other, S_BET] + seat_arr[t, other, S_STACK] > level:
                others_can_call_more = True
                break
    cap = tab[t, C_CAP]
    bet_count = tab[t, C_BET_COUNT]
    can_raise = (others_can_call_more and stack > to_call and not seat_arr[t, seat, S_ACTED]
                 and (cap < 0 or bet_count < cap))
    if to_call:
        if not can_raise:
            return L_FOLD_CALL
        return L_FOLD_CALL_RAISE if bet_count else L_FOLD_CALL_COMPLETE
    if not can_raise:
        return L_FOLD_CHECK if others_have_chips else L_CHECK
    if bet_count:
        return L_FOLD_CHECK_RAISE
    if level or tab[t, C_STREET] == p[P_FIRST]:
        return L_FOLD_CHECK_COMPLETE
    return L_FOLD_CHECK_BET_BIG if tab[t, C_BIG_OPEN] else L_FOLD_CHECK_BET


@njit(cache=True)
def _start_round(t, street, p, bets_by_street, tab, seat_arr, cards):
    """Open the betting on ``street``; True when fewer than two seats can bet (the caller deals on)."""
    n = p[P_N]
    tab[t, C_STREET] = street
    able = 0
    live = 0
    for s in range(n):
        seat_arr[t, s, S_BET] = 0
        seat_arr[t, s, S_ACTED] = 0
        if not seat_arr[t, s, S_FOLDED]:
            live += 1
            if seat_arr[t, s, S_STACK]:
                able += 1
    tab[t, C_LEVEL] = 0
    tab[t, C_BET_COUNT] = 0
    tab[t, C_INCREMENT] = bets_by_street[street]
    tab[t, C_BRING_PENDING] = 0
    tab[t, C_BIG_OPEN] = 0
    if able < 2:
        tab[t, C_ACTOR] = -1
        tab[t, C_LEGAL] = L_NONE
        return True
    tab[t, C_CAP] = -1 if p[P_HU_UNCAPPED] and live == 2 else p[P_CAP]
    low = p[P_LOW] != 0
    start, stop = p[P_UP_START], p[P_UP_STOP]
    opening = street == p[P_FIRST]
    first = -1
    if opening:
        if p[P_FIRST_UP] == 1:
            best = np.int64(0)
            for s in range(n):
                door = cards[t, s, start]
                key = door if low else -_high_order(door)
                if first < 0 or key > best:
                    first, best = s, key
        else:
            best = np.int64(0)
            for s in range(n):
                key = _board_strength(cards, t, s, start, seat_arr[t, s, S_NCARDS], low)
                if first < 0 or key < best:
                    first, best = s, key
        tab[t, C_BRING_PENDING] = 1
    else:
        best = np.int64(0)
        big_open = False
        check_pair = p[P_OPEN_PAIR] != 0 and street == p[P_SECOND]
        for s in range(n):
            if seat_arr[t, s, S_FOLDED]:
                continue
            end = min(stop, seat_arr[t, s, S_NCARDS])
            key = _board_strength(cards, t, s, start, end, low)
            if first < 0 or key > best:
                first, best = s, key
            if check_pair and _has_pair(cards, t, s, start, end):
                big_open = True
        tab[t, C_BIG_OPEN] = 1 if big_open else 0
    while not seat_arr[t, first, S_STACK] or seat_arr[t, first, S_FOLDED]:
        first = first + 1 if first + 1 < n else 0
    if opening:
        tab[t, C_BRING_SEAT] = first
    tab[t, C_ACTOR] = first
    tab[t, C_LEGAL] = _compute_legal(t, p, tab, seat_arr)
    return False


@njit(cache=True)
def _give(t, seat, card, seat_arr, cards):
    cards[t, seat, seat_arr[t, seat, S_NCARDS]] = card
    seat_arr[t, seat, S_NCARDS] += 1


@njit(cache=True)
def _deal_street(t, street, following, p, tab, seat_arr, cards, deck, used):
    """Deal what ``following`` deals to the live seats (the dealer's fixed slots; community card when short)."""
    n = p[P_N]
    size = p[P_DECK]
    if following == p[P_SINGLE_LAST]:
        dealt = 0
        live = 0
        for s in range(n):
            dealt += seat_arr[t, s, S_NCARDS]
            if not seat_arr[t, s, S_FOLDED]:
                live += 1
        if size - dealt < live:
            for i in range(size):
                if not used[t, i]:
                    used[t, i] = 1
                    tab[t, C_COMMUNITY] = deck[t, i]
                    return
        base = (p[P_LAST] - 1) * n
        spare = 0
        for s in range(n):
            if seat_arr[t, s, S_FOLDED]:
                continue
            index = base + s
            if index >= size:
                while True:
                    preferred = spare >= base and spare - base < n and not seat_arr[t, spare - base, S_FOLDED]
                    if not used[t, spare] and not preferred:
                        break
                    spare += 1
                index = spare
                spare += 1
            used[t, index] = 1
            _give(t, s, deck[t, index], seat_arr, cards)
        return
    for s in range(n):
        if seat_arr[t, s, S_FOLDED]:
            continue
        for position in range(street, following):
            index = position * n + s
            used[t, index] = 1
            _give(t, s, deck[t, index], seat_arr, cards)


@njit(cache=True)
def _finish(t, p, tab, seat_arr, cards, payoffs):
    """Settle every pot (showdown.settle) and add the payoffs to ``payoffs[t]``; the hand is over."""
    n = p[P_N]
    tab[t, C_ACTOR] = -1
    tab[t, C_LEGAL] = L_NONE
    tab[t, C_OVER] = 1
    winnings = np.zeros(n, dtype=np.int64)
    live = 0
    last_live = -1
    total = 0
    for s in range(n):
        total += seat_arr[t, s, S_CONTRIB]
        if not seat_arr[t, s, S_FOLDED]:
            live += 1
            last_live = s
    if live == 1:
        winnings[last_live] = total
    else:
        _showdown(t, p, tab, seat_arr, cards, winnings)
    for s in range(n):
        payoffs[t, s] += winnings[s] - seat_arr[t, s, S_CONTRIB]
        seat_arr[t, s, S_STACK] += winnings[s]


@njit(cache=True)
def _split(amount, winners, count, tops, winnings):
    each = amount // count
    odd = amount - each * count
    for i in range(count):
        winnings[winners[i]] += each
    taken = np.zeros(count, dtype=np.bool_)
    for _ in range(odd):  # the highest top cards first; ties (a shared community card) by seat order
        pick = -1
        for i in range(count):
            if not taken[i] and (pick < 0 or tops[winners[i]] > tops[winners[pick]]):
                pick = i
        taken[pick] = True
        winnings[winners[pick]] += 1


@njit(cache=True)
def _showdown(t, p, tab, seat_arr, cards, winnings):
    n = p[P_N]
    size = p[P_HAND_SIZE]
    halves = 1 if p[P_HALF1] < 0 else 2
    values = np.zeros((2, n), dtype=np.int64)
    tops = np.zeros((2, n), dtype=np.int64)
    community = tab[t, C_COMMUNITY]
    for s in range(n):
        if seat_arr[t, s, S_FOLDED]:
            continue
        held = seat_arr[t, s, S_NCARDS]
        hand = np.empty(held + (1 if community >= 0 else 0), dtype=np.int64)
        for i in range(held):
            hand[i] = cards[t, s, i]
        if community >= 0:
            hand[held] = community
        for h in range(halves):
            values[h, s], tops[h, s] = hand_value(hand, p[P_HALF0 + h], size)
    contrib = seat_arr[t, :n, S_CONTRIB]
    eligible = np.zeros(n, dtype=np.int64)
    previous = 0
    pot_amount = 0
    pot_eligible = np.zeros(n, dtype=np.int64)
    pot_count = -1
    while True:  # layers by contribution level, merged while the eligible seats are the same
        level = -1
        for s in range(n):
            c = contrib[s]
            if c > previous and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        amount = 0
        count = 0
        for s in range(n):
            amount += min(contrib[s], level) - min(contrib[s], previous)
            if contrib[s] >= level and not seat_arr[t, s, S_FOLDED]:
                eligible[count] = s
                count += 1
        same = count == pot_count
        if same:
            for i in range(count):
                if eligible[i] != pot_eligible[i]:
                    same = False
        if same:
            pot_amount += amount
        else:
            if pot_count >= 0:
                _award(pot_amount, pot_eligible, pot_count, values, tops, halves, p, winnings)
            pot_amount = amount
            pot_count = count
            pot_eligible[:count] = eligible[:count]
        previous = level
    if pot_count >= 0:
        _award(pot_amount, pot_eligible, pot_count, values, tops, halves, p, winnings)


@njit(cache=True)
def _award(amount, eligible, count, values, tops, halves, p, winnings):
    if count == 1:
        winnings[eligible[0]] += amount
        return
    winners = np.zeros((2, count), dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    contested = np.zeros(2, dtype=np.int64)
    n_contested = 0
    for h in range(halves):
        best = values[h, eligible[0]]
        for i in range(1, count):
            best = max(best, values[h, eligible[i]])
        if p[P_HALF0 + h] == K_EIGHT and best <= 0:
            continue
        k = 0
        for i in range(count):
            if values[h, eligible[i]] == best:
                winners[n_contested, k] = eligible[i]
                k += 1
        won[n_contested] = k
        contested[n_contested] = h
        n_contested += 1
    if n_contested == 2:
        low_amount = amount // 2
        _split(amount - low_amount, winners[0], won[0], tops[contested[0]], winnings)
        _split(low_amount, winners[1], won[1], tops[contested[1]], winnings)
    else:
        _split(amount, winners[0], won[0], tops[contested[0]], winnings)


@njit(cache=True)
def _end_round(t, p, bets_by_street, next_street, tab, seat_arr, cards, deck, used, payoffs):
    """Close the betting and deal on (repeatedly while fewer than two seats can bet), or settle."""
    while True:
        street = tab[t, C_STREET]
        following = next_street[street]
        if following == 0:
            _finish(t, p, tab, seat_arr, cards, payoffs)
            return
        _deal_street(t, street, following, p, tab, seat_arr, cards, deck, used)
        if not _start_round(t, following, p, bets_by_street, tab, seat_arr, cards):
            return


@njit(cache=True)
def _street_index(street, p, next_street):
    """Index of street number ``street`` among the variant's streets (0 for the first)."""
    index = 0
    number = p[P_FIRST]
    while number != street:
        number = next_street[number]
        index += 1
    return index


@njit(cache=True)
def _act(t, action, p, bets_by_street, next_street, tab, seat_arr, cards, deck, used, payoffs, history, counts):
    """``HandState.act`` for table ``t`` and the engine action value ``action`` (legal: checked before); the
    decision joins the street's history (the last ``history.shape[2]`` kept, ``counts`` counts them all)."""
    n = p[P_N]
    seat = tab[t, C_ACTOR]
    bet = seat_arr[t, seat, S_BET]
    stack = seat_arr[t, seat, S_STACK]
    amount = 0
    if action == A_FOLD:
        seat_arr[t, seat, S_FOLDED] = 1
    elif action == A_CALL:
        amount = min(tab[t, C_LEVEL] - bet, stack)
    elif action == A_BRING_IN:
        amount = min(p[P_BRING], stack)
        tab[t, C_BRING_PENDING] = 0
        if amount > tab[t, C_LEVEL]:
            tab[t, C_LEVEL] = amount
    elif action != A_CHECK:
        level = tab[t, C_LEVEL]
        if action == A_BET_BIG:
            tab[t, C_INCREMENT] = p[P_BIG]
        target = tab[t, C_INCREMENT] if tab[t, C_BET_COUNT] == 0 else level + tab[t, C_INCREMENT]
        amount_to = min(target, bet + stack)
        amount = amount_to - bet
        tab[t, C_BRING_PENDING] = 0
        if (amount_to - level) * 2 >= target - level:
            tab[t, C_BET_COUNT] += 1
            for other in range(n):
                seat_arr[t, other, S_ACTED] = 0
        if amount_to > level:
            tab[t, C_LEVEL] = amount_to
    if amount:
        seat_arr[t, seat, S_BET] += amount
        seat_arr[t, seat, S_STACK] -= amount
        seat_arr[t, seat, S_CONTRIB] += amount
    seat_arr[t, seat, S_ACTED] = 1
    street = _street_index(tab[t, C_STREET], p, next_street)
    slot = counts[t, street] % history.shape[2]
    history[t, street, slot, 0] = seat
    history[t, street, slot, 1] = action
    history[t, street, slot, 2] = amount
    counts[t, street] += 1
    # _advance
    live = 0
    for s in range(n):
        if not seat_arr[t, s, S_FOLDED]:
            live += 1
    if live == 1:
        _finish(t, p, tab, seat_arr, cards, payoffs)
        return
    level = tab[t, C_LEVEL]
    nxt = seat
    for _ in range(n - 1):
        nxt = nxt + 1 if nxt + 1 < n else 0
        if (not seat_arr[t, nxt, S_FOLDED] and seat_arr[t, nxt, S_STACK]
                and (not seat_arr[t, nxt, S_ACTED] or seat_arr[t, nxt, S_BET] < level)):
            tab[t, C_ACTOR] = nxt
            tab[t, C_LEGAL] = _compute_legal(t, p, tab, seat_arr)
            return
    _end_round(t, p, bets_by_street, next_street, tab, seat_arr, cards, deck, used, payoffs)


@njit(cache=True)
def new_hand(t, p, bets_by_street, next_street, starting, tab, seat_arr, cards, deck, used, payoffs, counts):
    """Ante and deal the first street of ``deck[t]`` (``HandState(config, deck=...)``) and open the betting
    (the starting stacks leave two seats chips after the antes, so there is a decision)."""
    n = p[P_N]
    first = p[P_FIRST]
    for i in range(p[P_DECK]):
        used[t, i] = 1 if i < first * n else 0
    tab[t, C_COMMUNITY] = -1
    tab[t, C_OVER] = 0
    tab[t, C_BRING_SEAT] = -1
    counts[t, :] = 0
    for s in range(n):
        stack = starting[t, s]
        ante = min(p[P_ANTE], stack)
        seat_arr[t, s, S_STACK] = stack - ante
        seat_arr[t, s, S_CONTRIB] = ante
        seat_arr[t, s, S_FOLDED] = 0
        seat_arr[t, s, S_NCARDS] = 0
        for position in range(first):
            _give(t, s, deck[t, position * n + s], seat_arr, cards)
    _start_round(t, first, p, bets_by_street, tab, seat_arr, cards)


@njit(cache=True)
def first_illegal(actions, tab, id_to_engine):
    """Index of the first table whose action id is not legal now, or -1."""
    for t in range(actions.shape[0]):
        a = actions[t]
        if a < 0 or a >= id_to_engine.shape[1] or id_to_engine[tab[t, C_LEGAL], a] < 0:
            return t
    return -1


@njit(cache=True)
def step_tables(actions, p, bets_by_street, next_street, starting, tab, seat_arr, cards, deck, used, rng,
                variant_cards, id_to_engine, masks, mask_table, payoffs, finished, history, counts):
    """Apply one legal action id per table; a finished table reports its payoffs and deals its next hand."""
    for t in range(actions.shape[0]):
        for s in range(payoffs.shape[1]):
            payoffs[t, s] = 0
        finished[t] = 0
        _act(t, id_to_engine[tab[t, C_LEGAL], actions[t]], p, bets_by_street, next_street, tab, seat_arr, cards,
             deck, used, payoffs, history, counts)
        if tab[t, C_OVER]:
            finished[t] = 1
            shuffle_deck(t, deck, variant_cards, rng)
            new_hand(t, p, bets_by_street, next_street, starting, tab, seat_arr, cards, deck, used, payoffs, counts)
        for a in range(masks.shape[1]):
            masks[t, a] = mask_table[tab[t, C_LEGAL], a]


@njit(cache=True)
def deal_tables(tables, given, p, bets_by_street, next_street, starting, tab, seat_arr, cards, deck, used, rng,
                variant_cards, masks, mask_table, payoffs, counts):
    """Start a new hand at each of ``tables`` (from ``deck`` when ``given``, else a shuffle of its stream)."""
    for t in tables:
        if not given:
            shuffle_deck(t, deck, variant_cards, rng)
        new_hand(t, p, bets_by_street, next_street, starting, tab, seat_arr, cards, deck, used, payoffs, counts)
        for a in range(masks.shape[1]):
            masks[t, a] = mask_table[tab[t, C_LEGAL], a]


# ---------------------------------------------------------------- observations (encoding/table.py)

# offsets (int64 vector): where each piece of the encoder's layout starts, and its shape parameters
O_OWN_DOWN, O_OWN_UP, O_UP, O_DEAD, O_COMMUNITY, O_STACKS, O_BETS, O_CONTRIB, O_POT, O_CALL = range(10)
O_BET_SIZE, O_STREET, O_BET_COUNT, O_LIVE, O_ALL_IN, O_BRING_IN, O_TO_ACT, O_BIG_OPEN, O_HISTORY = range(10, 19)
O_OVERFLOW, O_CARD_WIDTH, O_SEATS, O_SLOTS = range(19, 23)
NUM_OFFSETS = 23
BET_COUNT_BINS = 6
NUM_KINDS = 8


@njit(cache=True)
def encode_tables(p, next_street, offsets, card_index, inv_big_bet, tab, seat_arr, cards, history, counts, out):
    """The acting seat's vector at every table, as ``TableEncoder.encode(hand, actor)`` writes it."""
    n = p[P_N]
    w = offsets[O_CARD_WIDTH]
    seats = offsets[O_SEATS]
    slots = offsets[O_SLOTS]
    width = seats + NUM_KINDS + 1
    street_count = history.shape[1]
    up_start, up_stop = p[P_UP_START], p[P_UP_STOP]
    for t in range(out.shape[0]):
        buf = out[t]
        buf[:] = 0.0
        seat = tab[t, C_ACTOR]
        for r in range(n):
            s = (seat + r) % n
            held = seat_arr[t, s, S_NCARDS]
            for position in range(held):
                c = card_index[cards[t, s, position]]
                if up_start <= position < up_stop:
                    buf[offsets[O_UP] + r * w + c] += 1.0
                    if r == 0:
                        buf[offsets[O_OWN_UP] + c] += 1.0
                elif r == 0:
                    buf[offsets[O_OWN_DOWN] + c] += 1.0
            stack = seat_arr[t, s, S_STACK]
            folded = seat_arr[t, s, S_FOLDED]
            if folded:
                for position in range(up_start, min(up_stop, held)):
                    buf[offsets[O_DEAD] + card_index[cards[t, s, position]]] += 1.0
            else:
                buf[offsets[O_LIVE] + r] = 1.0
            buf[offsets[O_STACKS] + r] = stack * inv_big_bet
            buf[offsets[O_BETS] + r] = seat_arr[t, s, S_BET] * inv_big_bet
            buf[offsets[O_CONTRIB] + r] = seat_arr[t, s, S_CONTRIB] * inv_big_bet
            buf[offsets[O_ALL_IN] + r] = 0.0 if stack or folded else 1.0
        if tab[t, C_COMMUNITY] >= 0:
            buf[offsets[O_COMMUNITY] + card_index[tab[t, C_COMMUNITY]]] += 1.0
        buf[offsets[O_STREET] + _street_index(tab[t, C_STREET], p, next_street)] = 1.0
        if tab[t, C_BRING_SEAT] >= 0:
            buf[offsets[O_BRING_IN] + (tab[t, C_BRING_SEAT] - seat) % n] = 1.0
        pot = 0
        for s in range(n):
            pot += seat_arr[t, s, S_CONTRIB]
        buf[offsets[O_POT]] = pot * inv_big_bet
        call = tab[t, C_LEVEL] - seat_arr[t, seat, S_BET]
        buf[offsets[O_CALL]] = min(call, seat_arr[t, seat, S_STACK]) * inv_big_bet
        buf[offsets[O_TO_ACT]] = 1.0
        buf[offsets[O_BET_SIZE]] = tab[t, C_INCREMENT] * inv_big_bet
        buf[offsets[O_BET_COUNT] + min(tab[t, C_BET_COUNT], BET_COUNT_BINS - 1)] = 1.0
        buf[offsets[O_BIG_OPEN]] = 1.0 if tab[t, C_BIG_OPEN] else 0.0
        for index in range(street_count):
            count = counts[t, index]
            shown = min(count, slots)
            if count > slots:
                buf[offsets[O_OVERFLOW] + index] = 1.0
            for k in range(shown):
                slot = (count - shown + k) % history.shape[2]
                base = offsets[O_HISTORY] + (index * slots + k) * width
                buf[base + (history[t, index, slot, 0] - seat) % n] = 1.0
                buf[base + seats + history[t, index, slot, 1]] = 1.0
                amount = history[t, index, slot, 2]
                if amount:
                    buf[base + seats + NUM_KINDS] = amount * inv_big_bet
