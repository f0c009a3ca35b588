"""Numba kernels of the batched engine: one table's hand, written as :mod:`razz_env.engine.state` plays it.

Every function works on table ``t`` of the batch's state, :class:`Tables` (each table's hand, a row each, as
Pgx's ``State``), by :class:`Rules` (what every table plays by), and follows the scalar engine line by line —
``_start_round``, ``_compute_legal``, ``act``, ``_advance``, ``_end_round``, the deck's fixed slots and the
showdown's pot layers — so the differential tests can require identical play. Hand values and the split of each
pot are :mod:`razz_env.engine.showdown_core`'s, registered with numba here and compiled into these kernels.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import config as numba_config
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic, register_jitable
from numba.misc.appdirs import AppDirs

from razz_env.engine import showdown_core
from razz_env.engine.showdown_core import (
    MAX_HAND,
    award_pot,
    hand_value,
    high_order,
    lesser,
)

for _function in showdown_core.FUNCTIONS:  # compiled inside the kernels that call them, for the CPU and CUDA
    register_jitable(_function)

COMPILE_SECONDS = 35
"""About how long the first compile of the kernels takes (measured: 35 s wall, 17 s CPU on a loaded 2-core box)."""


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and takes a file (numba's own test before it caches there)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def cache_folders() -> list[Path]:
    """Where numba may cache the kernels, in its order: ``NUMBA_CACHE_DIR``, beside this file, the user's cache."""
    folders = [Path(numba_config.CACHE_DIR)] if numba_config.CACHE_DIR else []
    return [*folders, Path(__file__).resolve().parent / "__pycache__",
            Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)]


CACHE = any(_writable(folder) for folder in cache_folders())
"""Cache the compiled kernels (never into a read-only install: numba then uses the user's cache folder); False
when no folder is writable, so the kernels compile in each process instead of failing to import."""


KERNEL_SOURCES = (Path(showdown_core.__file__), Path(__file__))
"""The sources compiled into every kernel: the showdown core and this module."""


def drop_stale_cache(folder: Path, sources: tuple[Path, ...] = KERNEL_SOURCES) -> bool:
    """Remove the kernels numba cached in ``folder`` (a package's ``__pycache__``) when one of ``sources`` has
    changed since they were cached; whether any went. numba re-checks only a cached function's own file, and a
    kernel that compiles these modules' functions (this package's, the sampled CFR's walk) depends on theirs."""
    stamp = folder / "kernel_sources.sha256"
    digest = hashlib.sha256(b"".join(source.read_bytes() for source in sources)).hexdigest()
    try:
        if not folder.is_dir() or (stamp.exists() and stamp.read_text() == digest):
            return False
        for cached in folder.glob("*.nb[ic]"):
            cached.unlink()
        stamp.write_text(digest)
    except OSError:  # a read-only install: its files do not change
        return False
    return True


drop_stale_cache(Path(__file__).resolve().parent / "__pycache__")

# ---------------------------------------------------------------- layout of the batch arrays

# params (int64 vector): the config, read by every kernel
P_N, P_FIRST, P_SECOND, P_LAST, P_FIRST_UP, P_UP_START, P_UP_STOP, P_SINGLE_LAST = range(8)
P_DECK, P_LOW, P_BRING, P_BIG, P_OPEN_PAIR, P_CAP, P_HU_UNCAPPED, P_ANTE = range(8, 16)
P_HAND_SIZE, P_HALF0, P_HALF1, P_BOARD_SUITS, P_CHIP, P_DOOR_SUITS = range(16, 22)
NUM_PARAMS = 22

# tab (int64, (T, NUM_TAB)): per-table scalars
C_STREET, C_ACTOR, C_LEVEL, C_BET_COUNT, C_INCREMENT, C_CAP, C_BRING_PENDING, C_BIG_OPEN = range(8)
C_COMMUNITY, C_LEGAL, C_BRING_SEAT, C_OVER = range(8, 12)
NUM_TAB = 12

# seat (int64, (T, S, NUM_SEAT)): per-seat values
S_STACK, S_BET, S_CONTRIB, S_FOLDED, S_ACTED, S_NCARDS = range(6)
NUM_SEAT = 6

# legal-set codes: the engine's legal tuples in state.py, in this order
L_BRING_IN_ONLY, L_BRING_IN_OR_COMPLETE, L_FOLD_CALL, L_FOLD_CALL_RAISE, L_FOLD_CALL_COMPLETE = range(5)
L_CHECK, L_FOLD_CHECK, L_FOLD_CHECK_RAISE, L_FOLD_CHECK_COMPLETE, L_FOLD_CHECK_BET = range(5, 10)
L_FOLD_CHECK_BET_BIG, L_NONE = 10, 11
NUM_LEGAL = 12

# work (int64, (NUM_WORK, MAX_SEATS)): one step's scratch rows for settling a hand, so nothing is allocated
MAX_SEATS = 8
W_WINNINGS, W_VALUES, W_TOPS, W_ELIGIBLE, W_POT_ELIGIBLE, W_WINNERS, W_TAKEN, W_HAND = 0, 1, 3, 5, 6, 7, 9, 10
NUM_WORK = 11
WORK_WIDTH = max(MAX_SEATS, MAX_HAND)


@njit(cache=CACHE)
def new_work():
    """A scratch array for the kernels that settle hands (one per engine, reused by every step)."""
    return np.zeros((NUM_WORK, WORK_WIDTH), dtype=np.int64)


class Rules(NamedTuple):
    """What every table plays by (read only): a config as ``razz_env.batch.engine.compile_rules`` compiles it."""

    params: Any  # int64 (NUM_PARAMS,): the P_* values
    bets_by_street: Any  # int64: the bet size by street number
    next_street: Any  # int64: the street number after each (0: the showdown)
    variant_cards: Any  # int64: the variant's deck
    mask_table: Any  # int8 (NUM_LEGAL, 5): the ids each legal-set code (L_*) allows
    id_to_engine: Any  # int64 (NUM_LEGAL, 5): the engine action each id is under each code (-1: not legal)


class Tables(NamedTuple):
    """Every table's hand, a row a table: what the kernels read and write (host arrays on the CPU, device arrays
    on the GPU)."""

    tab: Any  # int64 (T, NUM_TAB): the C_* values
    seats: Any  # int64 (T, S, NUM_SEAT): the S_* values of each seat
    cards: Any  # int64 (T, S, cards a seat): each seat's cards in dealing order (-1: not dealt)
    deck: Any  # int64 (T, deck size): the deck the hand deals from
    used: Any  # int8 (T, deck size): 1 for a slot dealt from
    rng: Any  # uint64 (T,): each table's splitmix64 stream
    starting: Any  # int64 (T, S): the stacks every hand starts with
    history: Any  # int32 or int64 (T, streets, slots, 3): each street's last decisions (seat, action, amount)
    counts: Any  # int32 (T, streets): the decisions made on each street
    masks: Any  # int8 (T, 5): the acting seat's legal ids
    payoffs: Any  # int64 (T, S): chips won or lost in the hand a step ended (zero elsewhere)
    finished: Any  # int64 (T,): 1 where a step ended the hand
    ended_tab: Any  # int64 (T, NUM_TAB): ``tab`` as the hand a step ended left it (before the next deal)
    ended_seats: Any  # int64 (T, S, NUM_SEAT): ``seats`` as it left them
    ended_cards: Any  # int64 (T, S, cards a seat): ``cards`` as it left them


class Encoding(NamedTuple):
    """Where an observation vector's pieces go: the encoder's offsets (O_*), its card columns, 1 / big bet."""

    offsets: Any  # int64 (NUM_OFFSETS,)
    card_index: Any  # int64: the column of each card id
    inv_big_bet: float


# engine action values (razz_env.engine.actions.Action)
A_FOLD, A_CHECK, A_CALL, A_BRING_IN, A_COMPLETE, A_BET, A_BET_BIG, A_RAISE = range(8)

# ---------------------------------------------------------------- borrowed arrays


@intrinsic
def borrowed(typingctx, array):
    """``array`` without its memory owner: numba then skips the atomic reference counting it does for every
    array passed to a function or viewed (a third of a step's time). The kernels call it on the arrays the
    engine passes in, which outlive the call."""

    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        borrowed = context.make_array(array)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(borrowed, field, getattr(source, field))
        borrowed.meminfo = ir.Constant(borrowed.meminfo.type, None)
        borrowed.parent = ir.Constant(borrowed.parent.type, None)
        return borrowed._getvalue()

    return array(array), codegen


@njit(cache=CACHE, inline="always")
def lent(rules, tables):
    """``rules`` and ``tables`` with :func:`borrowed` arrays."""
    lent_rules = Rules(borrowed(rules.params), borrowed(rules.bets_by_street), borrowed(rules.next_street),
                       borrowed(rules.variant_cards), borrowed(rules.mask_table), borrowed(rules.id_to_engine))
    lent_tables = Tables(borrowed(tables.tab), borrowed(tables.seats), borrowed(tables.cards),
                         borrowed(tables.deck), borrowed(tables.used), borrowed(tables.rng),
                         borrowed(tables.starting), borrowed(tables.history), borrowed(tables.counts),
                         borrowed(tables.masks), borrowed(tables.payoffs), borrowed(tables.finished),
                         borrowed(tables.ended_tab), borrowed(tables.ended_seats), borrowed(tables.ended_cards))
    return lent_rules, lent_tables


@njit(cache=CACHE, inline="always")
def lent_encoding(encoding):
    """``encoding`` with :func:`borrowed` arrays."""
    return Encoding(borrowed(encoding.offsets), borrowed(encoding.card_index), encoding.inv_big_bet)


# ---------------------------------------------------------------- random decks


@njit(cache=CACHE)
def next_u64(rng: np.ndarray, t: int) -> np.uint64:
    """splitmix64: the table's own stream."""
    z = rng[t] + np.uint64(0x9E3779B97F4A7C15)
    rng[t] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=CACHE)
def shuffle_deck(t, deck, cards, rng):
    """A Fisher-Yates shuffle of the variant's ``cards`` into ``deck[t]``, from table ``t``'s stream."""
    size = cards.shape[0]
    for i in range(size):
        deck[t, i] = cards[i]
    for i in range(size - 1):
        u = np.float64(next_u64(rng, t) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        j = i + np.int64(u * (size - i))
        tmp = deck[t, i]
        deck[t, i] = deck[t, j]
        deck[t, j] = tmp


# ---------------------------------------------------------------- boards (order.py)


@njit(cache=CACHE)
def _board_strength(cards, t, seat, start, stop, low, suits):
    """``order.board_strength`` of ``cards[t, seat, start:stop]``, without allocating: a card's place in the
    descending order is the number of cards keyed above it, and the rank counts are packed 3 bits a rank
    (``suits`` False: the suits left out, as a tie-break option ``"position"``)."""
    size = stop - start
    counts = np.int64(0)
    suit_code = np.int64(0)
    rank_code = np.int64(0)
    for i in range(start, stop):
        c = cards[t, seat, i]
        k = c if low else high_order(c)
        above = 0
        for j in range(start, stop):
            o = cards[t, seat, j]
            if (o if low else high_order(o)) > k:
                above += 1
        shift = np.int64(size - 1 - above)
        if suits:
            suit_code += (k & 3) << (2 * shift)
        rank_code += (k >> 2) << (4 * shift)
        counts += np.int64(1) << (3 * (k >> 2))
    distinct = 0
    for rank in range(13):
        if counts >> (3 * rank) & 7:
            distinct += 1
    pattern_code = np.int64(0)
    if distinct == size:
        for i in range(size):
            pattern_code += 5 ** i
    else:
        rank_code = 0
        for count in range(4, 0, -1):
            for rank in range(12, -1, -1):
                if counts >> (3 * rank) & 7 == count:
                    pattern_code = pattern_code * 5 + count
                    rank_code = rank_code * 16 + rank
        padding = size - distinct
        pattern_code *= 5 ** padding
        rank_code *= 16 ** padding
    key = (pattern_code * 16 ** size + rank_code) * 4 ** size + suit_code
    return -key if low else key


@njit(cache=CACHE)
def _has_pair(cards, t, seat, start, stop):
    for i in range(start, stop):
        for j in range(i + 1, stop):
            if cards[t, seat, i] >> 2 == cards[t, seat, j] >> 2:
                return True
    return False


# ---------------------------------------------------------------- the hand (state.py)


@njit(cache=CACHE)
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


@njit(cache=CACHE)
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
    door_suits = p[P_DOOR_SUITS] != 0
    shift = 0 if door_suits else 2
    start, stop = p[P_UP_START], p[P_UP_STOP]
    opening = street == p[P_FIRST]
    first = -1
    if opening:
        if p[P_FIRST_UP] == 1:
            best = np.int64(0)
            for s in range(n):
                door = cards[t, s, start]
                key = (door >> shift) if low else -(high_order(door) >> shift)
                if first < 0 or key > best:
                    first, best = s, key
        else:
            best = np.int64(0)
            for s in range(n):
                key = _board_strength(cards, t, s, start, seat_arr[t, s, S_NCARDS], low, door_suits)
                if first < 0 or key < best:
                    first, best = s, key
        tab[t, C_BRING_PENDING] = 1
    else:
        best = np.int64(0)
        big_open = False
        check_pair = p[P_OPEN_PAIR] != 0 and street == p[P_SECOND]
        board_suits = p[P_BOARD_SUITS] != 0
        for s in range(n):
            if seat_arr[t, s, S_FOLDED]:
                continue
            end = lesser(stop, seat_arr[t, s, S_NCARDS])
            key = _board_strength(cards, t, s, start, end, low, board_suits)
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


@njit(cache=CACHE)
def _give(t, seat, card, seat_arr, cards):
    cards[t, seat, seat_arr[t, seat, S_NCARDS]] = card
    seat_arr[t, seat, S_NCARDS] += 1


@njit(cache=CACHE)
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


@njit(cache=CACHE)
def _finish(t, p, tab, seat_arr, cards, payoffs, work):
    """Settle every pot (showdown.settle) and add the payoffs to ``payoffs[t]``; the hand is over."""
    n = p[P_N]
    tab[t, C_ACTOR] = -1
    tab[t, C_LEGAL] = L_NONE
    tab[t, C_OVER] = 1
    winnings = work[W_WINNINGS]
    live = 0
    last_live = -1
    total = 0
    for s in range(n):
        winnings[s] = 0
        total += seat_arr[t, s, S_CONTRIB]
        if not seat_arr[t, s, S_FOLDED]:
            live += 1
            last_live = s
    if live == 1:
        winnings[last_live] = total
    else:
        _showdown(t, p, tab, seat_arr, cards, work)
    for s in range(n):
        payoffs[t, s] += winnings[s] - seat_arr[t, s, S_CONTRIB]
        seat_arr[t, s, S_STACK] += winnings[s]


@njit(cache=CACHE)
def _showdown(t, p, tab, seat_arr, cards, work):
    n = p[P_N]
    size = p[P_HAND_SIZE]
    halves = 1 if p[P_HALF1] < 0 else 2
    community = tab[t, C_COMMUNITY]
    for s in range(n):
        if seat_arr[t, s, S_FOLDED]:
            continue
        held = seat_arr[t, s, S_NCARDS]
        hand = work[W_HAND, :held + (1 if community >= 0 else 0)]
        for i in range(held):
            hand[i] = cards[t, s, i]
        if community >= 0:
            hand[held] = community
        for h in range(halves):
            work[W_VALUES + h, s], work[W_TOPS + h, s] = hand_value(hand, p[P_HALF0 + h], size)
    eligible = work[W_ELIGIBLE]
    pot_eligible = work[W_POT_ELIGIBLE]
    previous = 0
    pot_amount = 0
    pot_count = -1
    while True:  # layers by contribution level, merged while the eligible seats are the same
        level = -1
        for s in range(n):
            c = seat_arr[t, s, S_CONTRIB]
            if c > previous and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        amount = 0
        count = 0
        for s in range(n):
            c = seat_arr[t, s, S_CONTRIB]
            amount += lesser(c, level) - lesser(c, previous)
            if c >= level and not seat_arr[t, s, S_FOLDED]:
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
                _award(pot_amount, pot_count, halves, p, work)
            pot_amount = amount
            pot_count = count
            for i in range(count):  # an element loop: a slice copy checks shapes, which CUDA cannot raise on
                pot_eligible[i] = eligible[i]
        previous = level
    if pot_count >= 0:
        _award(pot_amount, pot_count, halves, p, work)


@njit(cache=CACHE)
def _award(amount, count, halves, p, work):
    """:func:`~razz_env.engine.showdown_core.award_pot` of a pot contested by ``work[W_POT_ELIGIBLE][:count]``."""
    award_pot(amount, work[W_POT_ELIGIBLE], count, p[P_HALF0:P_HALF0 + halves], work[W_VALUES:W_VALUES + 2],
              work[W_TOPS:W_TOPS + 2], p[P_CHIP], work[W_WINNINGS], work[W_WINNERS:W_WINNERS + 2], work[W_TAKEN])


@njit(cache=CACHE)
def _end_round(t, p, bets_by_street, next_street, tab, seat_arr, cards, deck, used, payoffs, work):
    """Close the betting and deal on (repeatedly while fewer than two seats can bet), or settle."""
    while True:
        street = tab[t, C_STREET]
        following = next_street[street]
        if following == 0:
            _finish(t, p, tab, seat_arr, cards, payoffs, work)
            return
        _deal_street(t, street, following, p, tab, seat_arr, cards, deck, used)
        if not _start_round(t, following, p, bets_by_street, tab, seat_arr, cards):
            return


@njit(cache=CACHE)
def _street_index(street, p, next_street):
    """Index of street number ``street`` among the variant's streets (0 for the first)."""
    index = 0
    number = p[P_FIRST]
    while number != street:
        number = next_street[number]
        index += 1
    return index


@njit(cache=CACHE)
def action_amount(t, action, p, tab, seat_arr):
    """Chips table ``t``'s acting seat puts in with the engine action value ``action`` (legal), as ``act`` does."""
    seat = tab[t, C_ACTOR]
    bet = seat_arr[t, seat, S_BET]
    stack = seat_arr[t, seat, S_STACK]
    if action == A_FOLD or action == A_CHECK:
        return 0
    if action == A_CALL:
        return lesser(tab[t, C_LEVEL] - bet, stack)
    if action == A_BRING_IN:
        return lesser(p[P_BRING], stack)
    increment = p[P_BIG] if action == A_BET_BIG else tab[t, C_INCREMENT]
    target = increment if tab[t, C_BET_COUNT] == 0 else tab[t, C_LEVEL] + increment
    return lesser(target, bet + stack) - bet


@njit(cache=CACHE)
def _act(t, action, p, bets_by_street, next_street, tab, seat_arr, cards, deck, used, payoffs, history, counts, work):
    """``HandState.act`` for table ``t`` and the engine action value ``action`` (legal: checked before); the
    decision joins the street's history (the last ``history.shape[2]`` kept, ``counts`` counts them all)."""
    n = p[P_N]
    seat = tab[t, C_ACTOR]
    bet = seat_arr[t, seat, S_BET]
    amount = action_amount(t, action, p, tab, seat_arr)
    if action == A_FOLD:
        seat_arr[t, seat, S_FOLDED] = 1
    elif action == A_BRING_IN:
        tab[t, C_BRING_PENDING] = 0
        if amount > tab[t, C_LEVEL]:
            tab[t, C_LEVEL] = amount
    elif action != A_CHECK and action != A_CALL:
        level = tab[t, C_LEVEL]
        if action == A_BET_BIG:
            tab[t, C_INCREMENT] = p[P_BIG]
        target = tab[t, C_INCREMENT] if tab[t, C_BET_COUNT] == 0 else level + tab[t, C_INCREMENT]
        amount_to = bet + amount
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
    slot = counts[t, street]
    if slot >= history.shape[2]:
        slot %= history.shape[2]
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
        _finish(t, p, tab, seat_arr, cards, payoffs, work)
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
    _end_round(t, p, bets_by_street, next_street, tab, seat_arr, cards, deck, used, payoffs, work)


@njit(cache=CACHE)
def new_hand(t, p, bets_by_street, next_street, starting, tab, seat_arr, cards, deck, used, counts):
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
        ante = lesser(p[P_ANTE], stack)
        seat_arr[t, s, S_STACK] = stack - ante
        seat_arr[t, s, S_CONTRIB] = ante
        seat_arr[t, s, S_FOLDED] = 0
        seat_arr[t, s, S_NCARDS] = 0
        for position in range(first):
            _give(t, s, deck[t, position * n + s], seat_arr, cards)
    _start_round(t, first, p, bets_by_street, tab, seat_arr, cards)


@njit(cache=CACHE)
def step_tables(actions, rules, tables, work, observe, encoding, out):
    """Apply one action id per table; a finished table reports its payoffs, keeps the state its hand ended in
    (``tables.ended_*``) and deals its next hand. With ``observe``, also write each table's new acting seat's vector
    into ``out`` (``encode_tables`` fused into the same pass, while the table's state is in cache). Returns -1, or
    (changing nothing) the first table whose id is not legal now."""
    rules, tables = lent(rules, tables)
    for t in range(actions.shape[0]):
        if not is_legal_id(t, actions[t], rules, tables):
            return t
    encoding, work, out = lent_encoding(encoding), borrowed(work), borrowed(out)
    if observe:  # one loop for each case, so that each compiles without the test (the bare one a third faster)
        for t in range(actions.shape[0]):
            step_table(t, actions[t], rules, tables, work, True, encoding, out)
    else:
        for t in range(actions.shape[0]):
            step_table(t, actions[t], rules, tables, work, False, encoding, out)
    return -1


@njit(cache=CACHE, inline="always")
def is_legal_id(t, action_id, rules, tables):
    """Whether ``action_id`` is one of the five ids and legal for table ``t``'s acting seat now."""
    return (0 <= action_id < rules.id_to_engine.shape[1]
            and rules.id_to_engine[tables.tab[t, C_LEGAL], action_id] >= 0)


@njit(cache=CACHE, inline="always")
def step_table(t, action_id, rules, tables, work, observe, encoding, out):
    """One table's step (legal ``action_id``): the body both the CPU loop and the CUDA kernel run for table ``t``.
    The helpers it calls take the arrays they use: inlined here, the structures cost nothing, while a structure
    passed to a compiled call has each of its arrays reference-counted at each field it reads."""
    p, bets_by_street, next_street = rules.params, rules.bets_by_street, rules.next_street
    tab, seat_arr, cards, deck, used, payoffs = (tables.tab, tables.seats, tables.cards, tables.deck, tables.used,
                                                 tables.payoffs)
    for s in range(payoffs.shape[1]):
        payoffs[t, s] = 0
    tables.finished[t] = 0
    _act(t, rules.id_to_engine[tab[t, C_LEGAL], action_id], p, bets_by_street, next_street, tab, seat_arr, cards,
         deck, used, payoffs, tables.history, tables.counts, work)
    if tab[t, C_OVER]:
        tables.finished[t] = 1
        for c in range(tab.shape[1]):  # element copies: a row copy checks shapes, which CUDA cannot raise on
            tables.ended_tab[t, c] = tab[t, c]
        for s in range(seat_arr.shape[1]):
            for c in range(seat_arr.shape[2]):
                tables.ended_seats[t, s, c] = seat_arr[t, s, c]
            for c in range(cards.shape[2]):
                tables.ended_cards[t, s, c] = cards[t, s, c]
        shuffle_deck(t, deck, rules.variant_cards, tables.rng)
        new_hand(t, p, bets_by_street, next_street, tables.starting, tab, seat_arr, cards, deck, used, tables.counts)
    _set_masks(t, rules, tables)
    if observe:
        encode_table(t, rules, tables, encoding, out[t])


@njit(cache=CACHE, inline="always")
def _set_masks(t, rules, tables):
    """Table ``t``'s legal ids, from its legal-set code."""
    for a in range(tables.masks.shape[1]):
        tables.masks[t, a] = rules.mask_table[tables.tab[t, C_LEGAL], a]


@njit(cache=CACHE)
def deal_tables(index, given, rules, tables):
    """Start a new hand at each table of ``index`` (from ``tables.deck`` when ``given``, else a shuffle of its
    stream)."""
    rules, tables = lent(rules, tables)
    for t in index:
        deal_table(t, given, rules, tables)


@njit(cache=CACHE, inline="always")
def deal_table(t, given, rules, tables):
    """Start a new hand at table ``t`` (from ``tables.deck[t]`` when ``given``, else a shuffle of its stream)."""
    if not given:
        shuffle_deck(t, tables.deck, rules.variant_cards, tables.rng)
    new_hand(t, rules.params, rules.bets_by_street, rules.next_street, tables.starting, tables.tab, tables.seats,
             tables.cards, tables.deck, tables.used, tables.counts)
    _set_masks(t, rules, tables)


# ---------------------------------------------------------------- observations (encoding/encoders.py)

# offsets (int64 vector): where each piece of the encoder's layout starts (O_SEATED: -1 for a layout without
# the padded encodings' ``seated`` piece), and its shape parameters
O_OWN_DOWN, O_OWN_UP, O_UP, O_DEAD, O_COMMUNITY, O_STACKS, O_BETS, O_CONTRIB, O_POT, O_CALL = range(10)
O_BET_SIZE, O_STREET, O_BET_COUNT, O_LIVE, O_ALL_IN, O_BRING_IN, O_TO_ACT, O_BIG_OPEN, O_HISTORY = range(10, 19)
O_OVERFLOW, O_SEATED, O_CARD_WIDTH, O_SEATS, O_SLOTS = range(19, 24)
NUM_OFFSETS = 24
BET_COUNT_BINS = 6
NUM_KINDS = 8


@njit(cache=CACHE)
def encode_tables(rules, tables, encoding, out):
    """The acting seat's vector at every table, as ``TableEncoder.encode(hand, actor)`` writes it."""
    rules, tables = lent(rules, tables)
    encoding, out = lent_encoding(encoding), borrowed(out)
    for t in range(out.shape[0]):
        encode_table(t, rules, tables, encoding, out[t])


@njit(cache=CACHE, inline="always")
def encode_table(t, rules, tables, encoding, buf):
    """Table ``t``'s acting seat's vector into ``buf``."""
    p, next_street, tab, seat_arr, cards = rules.params, rules.next_street, tables.tab, tables.seats, tables.cards
    history, counts = tables.history, tables.counts
    offsets, card_index, inv_big_bet = encoding.offsets, encoding.card_index, encoding.inv_big_bet
    n = p[P_N]
    w = offsets[O_CARD_WIDTH]
    seats = offsets[O_SEATS]
    slots = offsets[O_SLOTS]
    width = seats + NUM_KINDS + 1
    street_count = history.shape[1]
    up_start, up_stop = p[P_UP_START], p[P_UP_STOP]
    buf[:] = 0.0
    if offsets[O_SEATED] >= 0:
        for r in range(n):
            buf[offsets[O_SEATED] + r] = 1.0
    seat = tab[t, C_ACTOR]
    for r in range(n):  # seats relative to the actor (no modulo: an integer division costs more than the rest)
        s = seat + r if seat + r < n else seat + r - n
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
            for position in range(up_start, lesser(up_stop, held)):
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
        relative = tab[t, C_BRING_SEAT] - seat
        buf[offsets[O_BRING_IN] + (relative if relative >= 0 else relative + n)] = 1.0
    pot = 0
    for s in range(n):
        pot += seat_arr[t, s, S_CONTRIB]
    buf[offsets[O_POT]] = pot * inv_big_bet
    call = tab[t, C_LEVEL] - seat_arr[t, seat, S_BET]
    buf[offsets[O_CALL]] = lesser(call, seat_arr[t, seat, S_STACK]) * inv_big_bet
    buf[offsets[O_TO_ACT]] = 1.0
    buf[offsets[O_BET_SIZE]] = tab[t, C_INCREMENT] * inv_big_bet
    buf[offsets[O_BET_COUNT] + lesser(tab[t, C_BET_COUNT], BET_COUNT_BINS - 1)] = 1.0
    buf[offsets[O_BIG_OPEN]] = 1.0 if tab[t, C_BIG_OPEN] else 0.0
    ring = history.shape[2]  # the slots kept per street: the encoder's, or more when full histories are kept
    for index in range(street_count):
        count = counts[t, index]
        shown = lesser(count, slots)
        if count > slots:
            buf[offsets[O_OVERFLOW] + index] = 1.0
        slot = count - shown  # the oldest decision shown (an integer division only once the ring has wrapped)
        if slot >= ring:
            slot %= ring
        for k in range(shown):
            base = offsets[O_HISTORY] + (index * slots + k) * width
            relative = history[t, index, slot, 0] - seat
            buf[base + (relative if relative >= 0 else relative + n)] = 1.0
            buf[base + seats + history[t, index, slot, 1]] = 1.0
            amount = history[t, index, slot, 2]
            if amount:
                buf[base + seats + NUM_KINDS] = amount * inv_big_bet
            slot = slot + 1 if slot + 1 < ring else 0


# ---------------------------------------------------------------- random play


@njit(cache=CACHE)
def random_legal(masks, state, out):
    """A uniformly random legal id per row of ``masks`` into ``out``: from the one splitmix64 stream ``state[0]``
    for every row, or with one state per row (``state.shape[0] == masks.shape[0]``) from row ``t``'s own
    ``state[t]``, as the CUDA engine draws. Returns -1, or (drawing nothing) the first row with no legal id."""
    masks, state, out = borrowed(masks), borrowed(state), borrowed(out)
    for t in range(masks.shape[0]):
        if not legal_count(t, masks):
            return t
    per_row = state.shape[0] == masks.shape[0] and state.shape[0] > 1
    for t in range(masks.shape[0]):
        out[t] = random_legal_row(t, masks, state, t if per_row else 0)
    return -1


@njit(cache=CACHE, inline="always")
def legal_count(t, masks):
    """How many ids row ``t`` of ``masks`` allows."""
    legal = 0
    for a in range(masks.shape[1]):
        if masks[t, a]:
            legal += 1
    return legal


@njit(cache=CACHE, inline="always")
def random_legal_row(t, masks, state, stream):
    """A uniformly random legal id of row ``t`` (which has one) from the splitmix64 stream ``state[stream]``."""
    pick = np.int64(((next_u64(state, stream) >> np.uint64(32)) * np.uint64(legal_count(t, masks)))
                    >> np.uint64(32))
    for a in range(masks.shape[1]):
        if masks[t, a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


def is_compiled() -> bool:
    """Whether numba's cache holds the kernels from an earlier run (some kernels are only ever compiled inside
    others, so any cached entry point counts), so the first batch plays at once."""
    if not CACHE:
        return False
    kernels = [value for value in globals().values() if isinstance(value, CPUDispatcher)]
    return any(os.path.exists(kernel._cache._cache_file._index_path) for kernel in kernels)


def compile_note() -> str | None:
    """The one line to print before the kernels compile in this process (None: they load from the cache)."""
    if is_compiled():
        return None
    if not CACHE:
        return (f"compiling the batched engine's kernels (about {COMPILE_SECONDS} s in every process: no cache "
                f"folder is writable; set NUMBA_CACHE_DIR to one)")
    return f"compiling the batched engine's kernels (first run only, about {COMPILE_SECONDS} s)"
