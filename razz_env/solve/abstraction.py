"""Information-set keys for the sampled solver, computed from what the acting seat sees: its vector and legal ids.

:mod:`razz_env.solve.sampled_cfr` keys its regrets, and :class:`~razz_env.solve.sampled_policy.SampledCFRAgent`
its policy, by :func:`infoset_keys` of the seat's observation vector (the abstraction's encoding, as the batched
engine and every :class:`~razz_env.encoding.interface.Observer` write it) and its legal-id mask, so the solver
and the agent read one function and the agent is given nothing its seat may not see. An abstraction:

- ``exact``: a 64-bit FNV-1a hash of the vector's float32 bits and the mask, lossless wherever the vector holds
  the seat's whole view (heads-up, the history slots the table's raise cap needs). Lowball variants are keyed on
  their ``ranks`` vectors (suits, which razz reads only to break bring-in ties, shown by the bring-in's seat), so
  the key is the rank game's information set, as :mod:`razz_env.solve.keys` reduces it; others on ``flat``.
- ``razz_buckets`` (heads-up razz): what a razz player weighs, in a few numbers. The street. The seat's own low:
  how many distinct ranks it holds toward five (1-5), and the two highest of its best five, A to 8 each its own
  level, 9-T one, J-K one. Its board as the other seat reads it: the up cards that are bricks (9 or higher, or
  pairing another up card). The other board: its bricks and its highest good up card (none, A-4, 5, 6, 7, 8).
  The betting: bets this round (0-4), whether a bet is to call, who brought in, the pot in big bets (below 1, 2,
  3.5, 6 or 10, or above) and who made the last bet or raise of the street before (the seat, the other, no one);
  and the legal ids. Card removal and the order of the round's actions are left out.
- ``action_razz_buckets`` (heads-up Action Razz, where any hand holding a J, Q or K beats any without, then the
  lower wins): ``razz_buckets``' fields and two more, whether the seat holds a J, Q or K (down or up) and whether
  the other board shows one.
- ``stud8_buckets`` (heads-up stud/8, split between the best high and the best eight-or-better low): the street;
  the seat's low (how many distinct ranks A-8 it holds toward five, the highest of them), its high (nothing, a pair
  of 2-8, of 9-K, of aces, two pair, trips, a straight or better), its longest suit and longest run of ranks (each
  capped at 5), and how many distinct low ranks its board shows; the other board's distinct low ranks, how many
  ranks it shows twice or more (capped at 2), its longest suit (capped at 4) and whether it shows an ace; the
  betting as ``razz_buckets`` reads it, and the legal ids.
- ``stud8_coarse`` (heads-up stud/8): ``stud8_buckets`` merged into fewer levels, for a table the solver can fill
  (``stud8_buckets`` met 12 million keys in 500,000 iterations). The street; the seat's low in six levels (two low
  ranks or fewer; three, the highest 6-8; three, the highest 5 or lower; four; five, an 8 or 7 low; five, a 6 low or
  better); its high as ``stud8_buckets`` reads it; its draw (none, three or four to a flush or a straight, read
  from its longest suit and run); the other board's low cards (one or none, two, three or more), whether it shows a
  pair, three of a suit and an ace; the betting as ``razz_buckets`` reads it, and the legal ids.
- ``razz_fine`` (heads-up razz): ``razz_buckets``' fields and the third-highest card of the seat's best five in
  three levels (none: fewer than three low ranks; A-4; five or higher), which tells an 8-6-5 from an 8-6-2.
- ``razz_third`` (heads-up razz): on 3rd street the seat's exact ranks (its two down cards' ranks, low then high,
  its up card's, the other seat's up card's) and the betting as ``razz_buckets`` reads it; from 4th street on
  ``razz_buckets``' fields. Heads-up, 3rd street is then keyed as the rank game itself keys it but for the order of
  the round's actions (a pair of down cards is its rank twice).

>>> import numpy as np
>>> vectors = np.zeros((2, 4), dtype=np.float32)
>>> vectors[1, 2] = 1.0
>>> masks = np.array([[0, 1, 1, 0, 0], [0, 1, 1, 0, 0]], dtype=np.int8)
>>> keys = infoset_keys("exact", vectors, masks)
>>> bool(keys[0] != keys[1]), bool((infoset_keys("exact", vectors, masks) == keys).all())
(True, True)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from razz_env.batch import kernels as _k
from razz_env.batch.engine import encoder_layout
from razz_env.batch.kernels import CACHE, KERNEL_SOURCES, drop_stale_cache
from razz_env.encoding import TableEncoder, make_encoder
from razz_env.engine.config import HandConfig

CACHE_SOURCES = (*KERNEL_SOURCES, Path(__file__))
"""What the kernels cached beside this module compile: the batched engine's sources and this one (the sampled
solver's walk, cached from ``sampled_cfr.py``, inlines :func:`infoset_key`, and numba re-checks only its own file)."""
drop_stale_cache(Path(__file__).resolve().parent / "__pycache__", CACHE_SOURCES)

ABSTRACTIONS = {"exact": 0, "razz_buckets": 1, "action_razz_buckets": 2, "stud8_buckets": 3, "stud8_coarse": 4,
                "razz_fine": 5, "razz_third": 6}
"""Each abstraction's name and the code the kernels read."""
EXACT, RAZZ_BUCKETS, ACTION_RAZZ_BUCKETS, STUD8_BUCKETS, STUD8_COARSE, RAZZ_FINE, RAZZ_THIRD = (
    ABSTRACTIONS[name] for name in ABSTRACTIONS)
THIRD_STREET = 7
"""The code of ``razz_third``'s 3rd-street keys (its later keys carry :data:`RAZZ_THIRD`)."""
SERVES = {"razz_buckets": ("razz",), "action_razz_buckets": ("action_razz",), "stud8_buckets": ("stud8",),
          "stud8_coarse": ("stud8",), "razz_fine": ("razz",), "razz_third": ("razz",)}
"""The variants an abstraction reads (absent: every variant)."""
_LEVEL = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 9], dtype=np.int64)
"""Each rank's level in ``razz_buckets`` (A to 8 their own, 9-T, J-K)."""
_GOOD_TOP = np.array([1, 1, 1, 1, 2, 3, 4, 5], dtype=np.int64)
"""The level of a board's highest good card (A-4, 5, 6, 7, 8; 0: none)."""
_POT_EDGES = np.array([1.0, 2.0, 3.5, 6.0, 10.0])
"""The pot's levels, in big bets."""

RAZZ_FIELDS = (("street", 3), ("distinct", 3), ("top", 4), ("second", 4), ("own_bricks", 3), ("other_bricks", 3),
               ("other_top", 3), ("bets", 3), ("facing", 1), ("brought_in_by", 1), ("pot", 3), ("aggressor", 2),
               ("legal", 5))
"""``razz_buckets``' fields in the order packed, and their bits (``legal``: the mask's bits, id 0 highest)."""
ACTION_RAZZ_FIELDS = (*RAZZ_FIELDS[:-1], ("own_face", 1), ("other_face", 1), RAZZ_FIELDS[-1])
"""``action_razz_buckets``' fields: ``razz_buckets``' and whether each side has a face card (J, Q or K)."""
RAZZ_FINE_FIELDS = (*RAZZ_FIELDS[:-1], ("third", 2), RAZZ_FIELDS[-1])
"""``razz_fine``'s fields: ``razz_buckets``' and the third-highest card of the seat's low (0 none, 1 A-4, 2 five or
higher)."""
THIRD_STREET_FIELDS = (("street", 3), ("down_low", 4), ("down_high", 4), ("up", 4), ("other_up", 4),
                       ("bets", 3), ("facing", 1), ("brought_in_by", 1), ("pot", 3), ("aggressor", 2), ("legal", 5))
"""``razz_third``'s 3rd-street fields (ranks 0-12, A to K)."""
_FACES = (10, 11, 12)
"""The rank indices of J, Q and K."""
BETTING_FIELDS = (("bets", 3), ("facing", 1), ("brought_in_by", 1), ("pot", 3), ("aggressor", 2))
"""The betting's fields, read alike by every bucket abstraction."""
STUD8_FIELDS = (("street", 3), ("low_distinct", 3), ("low_top", 4), ("high", 3), ("suited", 3), ("run", 3),
                ("own_up_low", 3), ("other_low", 3), ("other_pairs", 2), ("other_suited", 3), ("other_ace", 1),
                *BETTING_FIELDS, ("legal", 5))
"""``stud8_buckets``' fields in the order packed, and their bits (``high``: 0 nothing, 1 a pair of 2-8, 2 of 9-K,
3 of aces, 4 two pair, 5 trips, 6 a straight or better; ``low_top`` 0-7 for A-8, 8 for none)."""
_STUD8_BITS = tuple(bits for _, bits in STUD8_FIELDS[:-1])
STUD8_COARSE_FIELDS = (("street", 3), ("low", 3), ("high", 3), ("draw", 2), ("other_low", 2), ("other_pair", 1),
                       ("other_suited", 1), ("other_ace", 1), *BETTING_FIELDS, ("legal", 5))
"""``stud8_coarse``'s fields in the order packed, and their bits (``low`` 0-5 and ``draw`` 0-2 as the module
docstring lists them, ``high`` as ``stud8_buckets``', ``other_low`` 0 for one or none, 1 two, 2 three or more)."""
_STUD8_COARSE_BITS = tuple(bits for _, bits in STUD8_COARSE_FIELDS[:-1])


_RAZZ_BITS = tuple(bits for _, bits in RAZZ_FIELDS[:-1])
_THIRD_STREET_BITS = tuple(bits for _, bits in THIRD_STREET_FIELDS[:-1])
"""The packer's widths, read from :data:`RAZZ_FIELDS` (the legal ids go in a bit each)."""
_RAZZ_FINE_BITS = tuple(bits for _, bits in RAZZ_FINE_FIELDS[len(RAZZ_FIELDS) - 1:-1])
_FACE_BITS = tuple(bits for _, bits in ACTION_RAZZ_FIELDS[len(RAZZ_FIELDS) - 1:-1])

_LEGAL_BITS = (1, 1, 1, 1, 1)
"""The legal ids' widths: a bit each, id 0 highest."""

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


def abstraction_code(name: str, config: HandConfig | None = None) -> int:
    """The kernels' code of abstraction ``name`` (for ``config``'s table, refused where it does not serve);
    ``ValueError`` listing the known ones."""
    if name not in ABSTRACTIONS:
        raise ValueError(f"abstraction: unknown abstraction {name!r}; known: {', '.join(ABSTRACTIONS)}")
    serves = SERVES.get(name)
    if config is not None and serves is not None and (config.variant.name not in serves or config.num_seats != 2):
        raise ValueError(f"abstraction: {name!r} reads heads-up {', '.join(serves)}, not {config.variant.name} "
                         f"with {config.num_seats} seats; 'exact' reads every table")
    return ABSTRACTIONS[name]


def encoding_name(config: HandConfig) -> str:
    """The encoding an abstraction reads at ``config``'s table: ``ranks`` for lowball games, else ``flat``."""
    variant = config.variant
    return "ranks" if variant.low_board and "high" not in variant.showdown else "flat"


def abstraction_encoder(config: HandConfig) -> TableEncoder:
    """The encoder whose vectors the abstractions key at ``config``'s table."""
    return make_encoder(encoding_name(config), config)


def abstraction_layout(config: HandConfig) -> np.ndarray:
    """Where the pieces of :func:`abstraction_encoder`'s vectors start, as the kernels read them (``O_*``)."""
    return encoder_layout(config, abstraction_encoder(config)).offsets


@njit(cache=CACHE)
def infoset_key(kind, vector, mask, offsets):
    """The key of one decision: abstraction ``kind`` of ``vector`` (float32, laid out as ``offsets`` says) and
    ``mask`` (the five legal ids)."""
    if kind == RAZZ_BUCKETS or kind == ACTION_RAZZ_BUCKETS or kind == RAZZ_FINE or kind == RAZZ_THIRD:
        return _razz_key(vector, mask, offsets, kind)
    if kind == STUD8_BUCKETS or kind == STUD8_COARSE:
        return _stud8_key(vector, mask, offsets, kind)
    h = _FNV_OFFSET
    bits = vector.view(np.uint32)
    for i in range(bits.shape[0]):
        h = (h ^ np.uint64(bits[i])) * _FNV_PRIME
    for a in range(mask.shape[0]):
        h = (h ^ np.uint64(mask[a])) * _FNV_PRIME
    return np.int64(h)


@njit(cache=CACHE, inline="always")
def _first_set(vector, start, count):
    """The index of the first nonzero of ``vector[start:start + count]`` (0 when none)."""
    for i in range(count):
        if vector[start + i] != 0.0:
            return i
    return 0


@njit(cache=CACHE, inline="always")
def _board(vector, start):
    """A board's bricks (up cards of 9 or higher, or pairing another) and the level of its highest good card
    (branch-free: the ranks' counts are summed, not tested)."""
    bricks = 0.0
    top = 0
    for r in range(8):
        count = vector[start + r]
        bricks += max(count - 1.0, 0.0)
        top = max(top, _GOOD_TOP[r] * np.int64(count > 0.0))
    for r in range(8, 13):
        bricks += vector[start + r]
    return np.int64(bricks), top


@njit(cache=CACHE, inline="always")
def _razz_key(vector, mask, offsets, kind):
    """``razz_buckets``, ``action_razz_buckets``, ``razz_fine`` or ``razz_third`` (``kind``): see the module
    docstring; fields packed into bits of one int64, the kind's code first."""
    width = offsets[_k.O_CARD_WIDTH]
    street = _first_set(vector, offsets[_k.O_STREET], 5)
    if kind == RAZZ_THIRD and street == 0:
        return _third_street_key(vector, mask, offsets)
    distinct = 0
    top = 9
    second = 10
    third = 10
    for r in range(13):
        if distinct < 5 and vector[offsets[_k.O_OWN_DOWN] + r] + vector[offsets[_k.O_OWN_UP] + r] > 0.0:
            distinct += 1
            third = second if distinct > 2 else 10
            second = top if distinct > 1 else 10
            top = _LEVEL[r]
    own_bricks, _ = _board(vector, offsets[_k.O_OWN_UP])
    other_bricks, other_top = _board(vector, offsets[_k.O_UP] + width)
    bets, facing, brought, pot, aggressor = _betting(vector, offsets, street)
    key = _packed(np.int64(kind), (street, distinct, top, second, min(own_bricks, 4), min(other_bricks, 4),
                                   other_top, bets, facing, brought, pot, aggressor), _RAZZ_BITS)
    if kind == RAZZ_FINE:
        key = _packed(key, (0 if third == 10 else 1 if third <= _LEVEL[3] else 2,), _RAZZ_FINE_BITS)
    if kind == ACTION_RAZZ_BUCKETS:
        own_face = 0
        other_face = 0
        for r in _FACES:
            if vector[offsets[_k.O_OWN_DOWN] + r] + vector[offsets[_k.O_OWN_UP] + r] > 0.0:
                own_face = 1
            if vector[offsets[_k.O_UP] + width + r] > 0.0:
                other_face = 1
        key = _packed(key, (own_face, other_face), _FACE_BITS)
    return _with_legal(key, mask)


@njit(cache=CACHE, inline="always")
def _third_street_key(vector, mask, offsets):
    """``razz_third``'s key on 3rd street: the seat's down ranks (low, high), its up rank, the other up rank, the
    betting and the legal ids."""
    width = offsets[_k.O_CARD_WIDTH]
    down_low = -1
    down_high = -1
    up = 0
    other_up = 0
    for r in range(13):
        down = vector[offsets[_k.O_OWN_DOWN] + r]
        if down > 0.0:
            down_high = r
            if down_low < 0:
                down_low = r
        if vector[offsets[_k.O_OWN_UP] + r] > 0.0:
            up = r
        if vector[offsets[_k.O_UP] + width + r] > 0.0:
            other_up = r
    bets, facing, brought, pot, aggressor = _betting(vector, offsets, 0)
    key = _packed(np.int64(THIRD_STREET), (0, down_low, down_high, up, other_up, bets, facing, brought, pot,
                                           aggressor), _THIRD_STREET_BITS)
    return _with_legal(key, mask)


@njit(cache=CACHE, inline="always")
def _with_legal(key, mask):
    """``key`` with the five legal ids packed in after it, a bit each (id 0 highest)."""
    return _packed(key, (mask[0], mask[1], mask[2], mask[3], mask[4]), _LEGAL_BITS)


@njit(cache=CACHE, inline="always")
def _packed(key, values, bits):
    """``key`` with ``values`` packed in after it, ``bits[i]`` bits for ``values[i]``."""
    for field in range(len(values)):
        key = (key << bits[field]) | values[field]
    return key


@njit(cache=CACHE, inline="always")
def _betting(vector, offsets, street):
    """The betting as the bucket abstractions read it: bets this round (0-4), a bet to call, who brought in, the
    pot's level and the last aggressor of the street before (the seat, the other, no one: 2)."""
    bets = min(_first_set(vector, offsets[_k.O_BET_COUNT], 6), 4)
    facing = 1 if vector[offsets[_k.O_CALL]] > 0.0 else 0
    brought = _first_set(vector, offsets[_k.O_BRING_IN], 2)
    pot = 0
    while pot < _POT_EDGES.shape[0] and vector[offsets[_k.O_POT]] >= _POT_EDGES[pot]:
        pot += 1
    seats, slots = offsets[_k.O_SEATS], offsets[_k.O_SLOTS]
    entry = seats + 9  # a history slot: the seat one-hot, the kind one-hot (8), the amount
    aggressor = 2
    if street > 0:  # the street before's last bet or raise: read from its newest decision back
        for k in range(slots - 1, -1, -1):
            base = offsets[_k.O_HISTORY] + ((street - 1) * slots + k) * entry
            if (vector[base + seats + _k.A_COMPLETE] + vector[base + seats + _k.A_BET]
                    + vector[base + seats + _k.A_BET_BIG] + vector[base + seats + _k.A_RAISE]) > 0.0:
                aggressor = _first_set(vector, base, seats)
                break
    return bets, facing, brought, pot, aggressor


@njit(cache=CACHE, inline="always")
def _stud8_key(vector, mask, offsets, kind):
    """``stud8_buckets`` or ``stud8_coarse`` (``kind``): see the module docstring; read from the ``flat`` vector (a
    card's column is its id: rank times four plus suit), each side's ranks counted 3 bits a rank and its suits 4 bits
    a suit in one integer."""
    width = offsets[_k.O_CARD_WIDTH]
    street = _first_set(vector, offsets[_k.O_STREET], 5)
    ranks = np.int64(0)
    suits = np.int64(0)
    up_ranks = np.int64(0)
    up_suits = np.int64(0)
    own_up_low = 0
    for c in range(52):
        r, u = c >> 2, c & 3
        if vector[offsets[_k.O_OWN_DOWN] + c] + vector[offsets[_k.O_OWN_UP] + c] > 0.0:
            ranks += np.int64(1) << (3 * r)
            suits += np.int64(1) << (4 * u)
        if r < 8 and vector[offsets[_k.O_OWN_UP] + c] > 0.0:
            own_up_low |= 1 << r
        if vector[offsets[_k.O_UP] + width + c] > 0.0:
            up_ranks += np.int64(1) << (3 * r)
            up_suits += np.int64(1) << (4 * u)
    low_distinct, low_top = 0, 8
    other_low, other_pairs = 0, 0
    pairs, trips, quads, pair_rank = 0, 0, 0, -1
    run, longest = 0, 0
    for r in range(13):
        count = (ranks >> (3 * r)) & 7
        up = (up_ranks >> (3 * r)) & 7
        if r < 8 and count > 0 and low_distinct < 5:
            low_distinct += 1
            low_top = r
        if r < 8 and up > 0:
            other_low += 1
        other_pairs += 1 if up >= 2 else 0
        pairs += 1 if count == 2 else 0
        trips += 1 if count == 3 else 0
        quads += 1 if count == 4 else 0
        if count == 2:
            pair_rank = r  # read where there is one pair only
    for step in range(14):  # A-2-...-K-A: the ace ends a run at either end
        run = run + 1 if (ranks >> (3 * (step % 13))) & 7 else 0
        longest = max(longest, run)
    suited = 0
    other_suited = 0
    for u in range(4):
        suited = max(suited, (suits >> (4 * u)) & 15)
        other_suited = max(other_suited, (up_suits >> (4 * u)) & 15)
    if quads or (trips and pairs) or trips >= 2 or suited >= 5 or longest >= 5:
        high = 6
    elif trips:
        high = 5
    elif pairs >= 2:
        high = 4
    elif pairs:
        high = 3 if pair_rank == 0 else 2 if pair_rank >= 8 else 1
    else:
        high = 0
    other_ace = 1 if up_ranks & 7 else 0
    bets, facing, brought, pot, aggressor = _betting(vector, offsets, street)
    if kind == STUD8_COARSE:
        if low_distinct == 5:
            low = 5 if low_top <= 5 else 4
        elif low_distinct == 4:
            low = 3
        elif low_distinct == 3:
            low = 2 if low_top <= 4 else 1
        else:
            low = 0
        draw = 2 if max(suited, longest) >= 4 else 1 if max(suited, longest) == 3 else 0
        values = (street, low, high, draw if high < 6 else 0, min(max(other_low - 1, 0), 2),
                  1 if other_pairs else 0, 1 if other_suited >= 3 else 0, other_ace, bets, facing, brought, pot,
                  aggressor)
        key = _packed(np.int64(STUD8_COARSE), values, _STUD8_COARSE_BITS)
    else:
        values = (street, low_distinct, low_top, high, min(suited, 5), min(longest, 5),
                  min(_bit_count(own_up_low), 4), min(other_low, 4), min(other_pairs, 2), min(other_suited, 4),
                  other_ace, bets, facing, brought, pot, aggressor)
        key = _packed(np.int64(STUD8_BUCKETS), values, _STUD8_BITS)
    return _with_legal(key, mask)


@njit(cache=CACHE, inline="always")
def _bit_count(bits):
    """The set bits of ``bits`` (a rank set of 8 bits)."""
    count = 0
    while bits:
        count += bits & 1
        bits >>= 1
    return count


LAYOUTS = {RAZZ_BUCKETS: RAZZ_FIELDS, ACTION_RAZZ_BUCKETS: ACTION_RAZZ_FIELDS, STUD8_BUCKETS: STUD8_FIELDS,
           STUD8_COARSE: STUD8_COARSE_FIELDS, RAZZ_FINE: RAZZ_FINE_FIELDS, RAZZ_THIRD: RAZZ_FIELDS,
           THIRD_STREET: THIRD_STREET_FIELDS}
"""Each bucket abstraction's code and its fields, as packed."""


def bucket_fields(key: int) -> dict[str, int]:
    """A bucket abstraction's key unpacked into its fields (levels as the module docstring lists them; for the razz
    games ``top`` and ``second`` 0-9 for A-8, 9-T, J-K, ``second`` 10 for none; seats relative to the actor,
    ``aggressor`` 2: none).

    >>> bucket_fields(1 << 38)["street"], bucket_fields((1 << 38) | 0b10110)["legal"]
    (0, 22)
    >>> bucket_fields((2 << 40) | 0b100000)["other_face"], bucket_fields((2 << 40) | 0b100000)["own_face"]
    (1, 0)
    """
    for code, layout in LAYOUTS.items():
        if key >> sum(bits for _, bits in layout) == code:
            fields = {}
            for name, bits in reversed(layout):
                fields[name] = key & ((1 << bits) - 1)
                key >>= bits
            return dict(reversed(list(fields.items())))
    raise ValueError(f"bucket_fields: {key} is no bucket abstraction's key (razz_buckets, action_razz_buckets, "
                     f"stud8_buckets, stud8_coarse, razz_fine, razz_third)")


@njit(cache=CACHE)
def _keys(kind, vectors, masks, offsets, out):
    for row in range(vectors.shape[0]):
        out[row] = infoset_key(kind, vectors[row], masks[row], offsets)


def infoset_keys(abstraction: str, vectors: np.ndarray, masks: np.ndarray,
                 offsets: np.ndarray | None = None) -> np.ndarray:
    """The keys (int64, (N,)) of ``vectors`` ((N, size) float32, laid out as ``offsets``:
    :func:`abstraction_layout`, needed by every abstraction but ``exact``) and ``masks`` ((N, 5)) under
    ``abstraction``."""
    kind = abstraction_code(abstraction)
    if offsets is None:
        if kind != EXACT:
            raise ValueError(f"infoset_keys: {abstraction!r} reads the vectors' layout; pass offsets")
        offsets = np.zeros(_k.NUM_OFFSETS, dtype=np.int64)
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    masks = np.ascontiguousarray(masks, dtype=np.int8)
    if vectors.ndim != 2 or masks.shape != (vectors.shape[0], 5):
        raise ValueError(f"infoset_keys: expected (N, size) vectors and (N, 5) masks, got {vectors.shape} and "
                         f"{masks.shape}")
    out = np.empty(vectors.shape[0], dtype=np.int64)
    _keys(kind, vectors, masks, np.asarray(offsets, dtype=np.int64), out)
    return out
