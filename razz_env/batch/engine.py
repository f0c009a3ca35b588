"""N hands of one stud game in lockstep: arrays of cards, chips and turns, one action id per table a step.

:class:`BatchEngine` plays ``num_tables`` hands of a :class:`~razz_env.engine.config.HandConfig` at once.
Each table deals from its own seeded stream (or from explicit decks), so table ``t`` always plays the same
sequence of deals for a seed; a deck deals exactly as ``HandState(config, deck=...)`` deals it. ``step``
takes one action id (:mod:`razz_env.encoding.actions`: 0 fold ... 4 bet_big) per table, for its acting
seat; a table whose hand ends reports the payoffs and deals its next hand at once, so every table always
has a seat to act.

>>> from razz_env.engine.config import STREET_NAMES, HandConfig
>>> engine = BatchEngine(HandConfig.create("razz", num_seats=3), 4, seed=1)
>>> engine.masks.shape, bool(engine.masks[:, 3].all())  # every table opens with a bring-in
((4, 5), True)
>>> result = engine.step(np.full(4, 3))
>>> result.payoffs.shape, int(result.finished.sum())
((4, 3), 0)

The rules are the scalar engine's (``docs/rules.md``), played by the numba kernels in
:mod:`razz_env.batch.kernels`; the differential tests in ``tests/batch`` hold the two to identical
acting seats, masks and payoffs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from razz_env.encoding import BATCHED_ENCODERS
from razz_env.encoding.actions import NUM_ACTIONS, ActionTable
from razz_env.encoding.encoders import NO_COLUMN, TableEncoder
from razz_env.engine.actions import Action
from razz_env.engine.checks import as_int
from razz_env.engine.config import STREET_NAMES, HandConfig
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.seat_views import NO_CARD, SeatViews
from razz_env.engine.showdown_core import KIND_CODES

try:
    from razz_env.batch import kernels as _k
except ImportError as err:  # pragma: no cover - the extra is installed wherever the tests run
    raise ImportError("razz_env.batch needs numba: pip install 'razz-env[batch]' "
                      f"(import failed: {err})") from None

_LEGAL_SETS = (
    (Action.BRING_IN,), (Action.BRING_IN, Action.COMPLETE), (Action.FOLD, Action.CALL),
    (Action.FOLD, Action.CALL, Action.RAISE), (Action.FOLD, Action.CALL, Action.COMPLETE), (Action.CHECK,),
    (Action.FOLD, Action.CHECK), (Action.FOLD, Action.CHECK, Action.RAISE),
    (Action.FOLD, Action.CHECK, Action.COMPLETE), (Action.FOLD, Action.CHECK, Action.BET),
    (Action.FOLD, Action.CHECK, Action.BET, Action.BET_BIG), (),
)
"""The scalar engine's legal sets, indexed by the kernels' legal codes (``kernels.L_*``)."""


_LEGAL_ACTIONS = np.zeros((len(_LEGAL_SETS), len(Action)), dtype=bool)
for _code, _legal in enumerate(_LEGAL_SETS):
    _LEGAL_ACTIONS[_code, list(_legal)] = True
_FIRST_VIEW_SLOTS = 16
"""Decisions kept per street at first when an engine keeps views (doubled whenever a street fills them)."""


def _action_tables(allow_open_fold: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per legal code: the int8 mask over the five ids and, per id, the engine action value (-1: illegal)."""
    table = ActionTable(allow_open_fold)
    masks = np.zeros((_k.NUM_LEGAL, NUM_ACTIONS), dtype=np.int8)
    engine = np.full((_k.NUM_LEGAL, NUM_ACTIONS), -1, dtype=np.int64)
    for code, legal in enumerate(_LEGAL_SETS):
        found = table.lookup(legal)
        masks[code] = found.mask
        for action_id, action in enumerate(found.engine):
            if action is not None:
                engine[code, action_id] = int(action)
    return masks, engine


class StepResult(NamedTuple):
    """What one step did: ``payoffs`` (T, S) chips won or lost by each seat in the hands that ended (zero
    elsewhere) and ``finished`` (T,) 1 for the tables whose hand ended (they have dealt their next hand)."""

    payoffs: np.ndarray
    finished: np.ndarray


def _array(value: object) -> np.ndarray | None:
    """``value`` as a numpy array, or ``None`` when numpy cannot make one (ragged lists...)."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError):
        return None


def _shape_of(array: np.ndarray | None) -> str:
    return "a ragged sequence" if array is None else f"{array.dtype} of shape {array.shape}"


def _check_int64(config: HandConfig) -> None:
    """Refuse a cap or a stake the kernels' int64 cannot hold (the same bound as a stack: a table's chips, all in
    one pot, still fit), naming the option."""
    n, stakes, most = config.num_seats, config.stakes, int(np.iinfo(np.int64).max)
    cap = config.rules.raise_cap
    if cap is not None and cap > most:
        raise ConfigError(f"raise_cap: the batched engine counts in int64, so it is at most {most:,}, got {cap:,}")
    amounts = {"ante": stakes.ante, "bring_in": stakes.bring_in, "small_bet": stakes.small_bet,
               "big_bet": stakes.big_bet, "chip": stakes.chip}
    for street, bet in zip(config.variant.street_numbers, stakes.street_bets or ()):
        amounts[f"street_bets ({STREET_NAMES[street]} street)"] = bet
    for name, amount in amounts.items():
        if amount > most // n:
            raise ConfigError(f"{name}: the batched engine counts chips in int64, so a stake at {n} seats is at "
                              f"most {most // n:,} chips, got {amount:,}")


def compile_rules(config: HandConfig, allow_open_fold: bool) -> _k.Rules:
    """The kernels' view of ``config``: every rule a table plays by, as arrays (``ConfigError`` for a cap or a
    stake beyond int64); built once for the CPU engine and the CUDA engine alike."""
    _check_int64(config)
    n, variant, layout, rules, stakes = config.num_seats, config.variant, config.layout, config.rules, config.stakes
    mask_table, id_to_engine = _action_tables(allow_open_fold)
    halves = [KIND_CODES[half] for half in variant.showdown] + [-1]
    p = np.zeros(_k.NUM_PARAMS, dtype=np.int64)
    p[_k.P_N], p[_k.P_FIRST], p[_k.P_SECOND], p[_k.P_LAST] = n, layout.first, layout.second, layout.last
    p[_k.P_FIRST_UP], p[_k.P_UP_START], p[_k.P_UP_STOP] = layout.first_up, layout.up.start, layout.up.stop
    p[_k.P_SINGLE_LAST], p[_k.P_DECK], p[_k.P_LOW] = layout.single_last, layout.deck_size, variant.low_board
    p[_k.P_BRING], p[_k.P_BIG], p[_k.P_OPEN_PAIR] = stakes.bring_in, config.big_bet, config.open_pair_big_bet
    # a cap of -1 is none; with heads_up_tournament_uncapped a two-seat table has none at all
    cap = None if rules.heads_up_tournament_uncapped and n == 2 else rules.raise_cap
    p[_k.P_CAP] = -1 if cap is None else cap
    p[_k.P_HU_UNCAPPED], p[_k.P_ANTE], p[_k.P_HAND_SIZE] = rules.heads_up_uncapped, stakes.ante, variant.hand_size
    p[_k.P_HALF0], p[_k.P_HALF1] = halves[0], halves[1]
    p[_k.P_DOOR_SUITS], p[_k.P_BOARD_SUITS] = config.bring_in_by_suit, config.later_streets_by_suit
    p[_k.P_CHIP] = stakes.chip
    return _k.Rules(p, np.array(config.bets_by_street, dtype=np.int64),
                         np.array(layout.next_street, dtype=np.int64), np.array(variant.deck, dtype=np.int64),
                         mask_table, id_to_engine)


class EncoderLayout(NamedTuple):
    """Where the kernels write each piece of an encoder's vector (``kernels.O_*``), its card columns, and the
    decisions it shows per street (1 without an encoder)."""

    offsets: np.ndarray
    card_index: np.ndarray
    slots: int


def encoder_layout(config: HandConfig, encoder: TableEncoder | None) -> EncoderLayout:
    """``encoder``'s layout as the kernels read it; a ``ConfigError`` for anything but a table encoder of
    ``config``."""
    if encoder is None:
        return EncoderLayout(np.zeros(_k.NUM_OFFSETS, dtype=np.int64), np.zeros(1, dtype=np.int64), 1)
    if not isinstance(encoder, TableEncoder) or encoder.config != config:
        known = ", ".join(cls.__name__ for cls in BATCHED_ENCODERS)
        raise ConfigError(f"encoder: expected a table encoder ({known}) of this config, got {shown(encoder)}")
    off = encoder.layout.offsets
    names = ("own_down", "own_up", "up_cards", "dead_cards", "community", "stacks", "round_bets",
             "contributed", "pot", "to_call", "bet_size", "street", "bet_count", "live", "all_in",
             "bring_in", "to_act", "big_bet_open", "history", "history_overflow")
    offsets = np.array([off[name] for name in names] + [off.get("seated", NO_COLUMN)]
                       + [encoder.card_width, encoder.seats, encoder.history_slots], dtype=np.int64)
    return EncoderLayout(offsets, np.array(encoder.card_index, dtype=np.int64), encoder.history_slots)


def check_stacks(config: HandConfig, num_tables: int, stacks: object) -> np.ndarray:
    """``stacks`` checked as (T, S) starting stacks (``None``: the config's at every table), as int64."""
    num_seats = config.num_seats
    shape = (num_tables, num_seats)
    most = np.iinfo(np.int64).max // num_seats  # a table's chips, all in one pot, still fit an int64
    if stacks is None:
        if max(config.stacks) > most:
            raise ConfigError(f"stacks: the batched engine counts chips in int64, so a stack at {num_seats} "
                              f"seats holds at most {most:,} chips, got {max(config.stacks):,}")
        return np.tile(np.array(config.stacks, dtype=np.int64), (num_tables, 1))
    array = _array(stacks)
    if array is None or array.shape != shape or array.dtype.kind not in "iu":
        raise ConfigError(f"stacks: expected integer chip counts of shape {shape} (tables, seats), "
                          f"got {_shape_of(array)}")
    if (array < 1).any():
        raise ConfigError(f"stacks: every stack must be at least 1 chip, got {int(array.min())}")
    if int(array.max()) > most:
        raise ConfigError(f"stacks: the batched engine counts chips in int64, so a stack at {num_seats} "
                          f"seats holds at most {most:,} chips, got {int(array.max()):,}")
    ante = config.stakes.ante
    stuck = np.flatnonzero((array > ante).sum(axis=1) < 2)
    if len(stuck):
        raise ConfigError(f"stacks[{int(stuck[0])}]: at least two seats need more than the ante ({ante}) "
                          f"so that a hand has a decision, got {array[stuck[0]].tolist()}")
    return array.astype(np.int64)


def check_decks(config: HandConfig, decks: object, count: int) -> np.ndarray:
    """``decks`` checked as ``count`` permutations of the variant's deck, as int64."""
    size = config.layout.deck_size
    array = _array(decks)
    if array is None or array.shape != (count, size) or array.dtype.kind not in "iu":
        raise ConfigError(f"decks: expected card ids of shape ({count}, {size}) (tables, the "
                          f"{config.variant.name} deck), got {_shape_of(array)}")
    expected = np.sort(np.array(config.variant.deck, dtype=np.int64))
    bad = np.flatnonzero((np.sort(array, axis=1) != expected).any(axis=1))
    if len(bad):
        raise ConfigError(f"decks[{int(bad[0])}]: must hold every card of the {config.variant.name} deck "
                          "once (a permutation of variant.deck)")
    return array.astype(np.int64)


def check_tables(num_tables: int, tables: object) -> np.ndarray:
    """``tables`` checked as distinct table indices (``None``: every table), as int64."""
    if tables is None:
        return np.arange(num_tables, dtype=np.int64)
    index = _array(tables)
    if index is None or index.ndim != 1 or index.dtype.kind not in "iu" or len(index) and (
            index.min() < 0 or index.max() >= num_tables or len(np.unique(index)) != len(index)):
        raise ConfigError(f"tables: expected distinct table indices 0 to {num_tables - 1}, got {shown(tables)}")
    return index.astype(np.int64)


class TableState:
    """The per-table state both engines show, as arrays over their tables: host arrays (read-only views) on the
    CPU, device arrays on the GPU; ``_field`` says which."""

    _tables: _k.Tables

    def _field(self, array: Any, index: int | None = None) -> Any:
        """``array[..., index]`` (all of ``array`` when ``index`` is None), as this engine shows it."""
        raise NotImplementedError

    @property
    def masks(self) -> Any:
        """(T, 5) int8 legal-id masks of the acting seats."""
        return self._field(self._tables.masks)

    @property
    def actor(self) -> Any:
        """(T,) the acting seat of each table."""
        return self._field(self._tables.tab, _k.C_ACTOR)

    @property
    def street(self) -> Any:
        """(T,) street numbers (cards each seat holds: stud 3-7)."""
        return self._field(self._tables.tab, _k.C_STREET)

    @property
    def level(self) -> Any:
        """(T,) the bet to match this round."""
        return self._field(self._tables.tab, _k.C_LEVEL)

    @property
    def bring_in_seat(self) -> Any:
        """(T,) the seat that brought in (or must) this hand."""
        return self._field(self._tables.tab, _k.C_BRING_SEAT)

    @property
    def community(self) -> Any:
        """(T,) the community card, -1 when none was dealt."""
        return self._field(self._tables.tab, _k.C_COMMUNITY)

    @property
    def cards(self) -> Any:
        """(T, S, cards a seat) each seat's cards in dealing order; the first ``num_cards`` are dealt."""
        return self._field(self._tables.cards)

    @property
    def num_cards(self) -> Any:
        """(T, S) cards dealt to each seat."""
        return self._field(self._tables.seats, _k.S_NCARDS)

    @property
    def stacks(self) -> Any:
        """(T, S) chips behind."""
        return self._field(self._tables.seats, _k.S_STACK)

    @property
    def bets(self) -> Any:
        """(T, S) chips put in this round."""
        return self._field(self._tables.seats, _k.S_BET)

    @property
    def contributed(self) -> Any:
        """(T, S) chips put in this hand, antes included."""
        return self._field(self._tables.seats, _k.S_CONTRIB)

    @property
    def folded(self) -> Any:
        """(T, S) 1 for a folded seat."""
        return self._field(self._tables.seats, _k.S_FOLDED)

    @property
    def decks(self) -> Any:
        """(T, deck size) the deck each table's current hand deals from."""
        return self._field(self._tables.deck)


_announced = False


def _announce_compiling() -> None:
    """Say on stderr, once per process, that the kernels are about to compile (a silent pause looks like a hang)."""
    global _announced
    if not _announced:
        _announced = True
        note = _k.compile_note()
        if note is not None:
            print(f"razz: {note}", file=sys.stderr, flush=True)


class BatchEngine(TableState):
    """``num_tables`` hands of ``config`` in lockstep; see the module docstring.

    ``stacks``: starting stacks per table, shape (T, S) (every hand at a table starts from them; default
    ``config.stacks``). ``encoder``: a table encoder of ``config`` (``FlatEncoder``, ``RanksEncoder``, any
    ``max_players``/``history_slots``, or their padded twins ``"flat8"``/``"ranks8"``) for :meth:`observe`.
    ``decks``: the first hand's deck per table, shape (T, deck size) (default: drawn from each table's stream).
    ``allow_open_fold``: as the environments' option. ``views``: keep every decision of each hand, so that
:meth:`seat_views` can give the acting seats' views (the history of a view is the whole hand's).
    Arrays (read-only views, updated in place by :meth:`step`): ``actor``, ``masks``, ``street``,
    ``cards`` (T, S, cards a seat) with ``num_cards``, ``community`` (-1: none), ``stacks``, ``bets``,
    ``contributed``, ``folded``, ``decks``, ``bring_in_seat``, ``level``.
    """

    def __init__(self, config: HandConfig, num_tables: int, *, seed: int | None = None,
                 stacks: np.ndarray | Sequence[Sequence[int]] | None = None,
                 decks: np.ndarray | Sequence[Sequence[int]] | None = None, allow_open_fold: bool = False,
                 encoder: TableEncoder | None = None, views: bool = False) -> None:
        if not isinstance(config, HandConfig):
            raise ConfigError(f"config: expected a HandConfig, got {shown(config)}")
        num_tables = as_int("num_tables", num_tables, 1)
        _announce_compiling()
        self.config = config
        self.num_tables = num_tables
        n = self.num_seats = config.num_seats
        variant, layout = config.variant, config.layout
        self._rules = compile_rules(config, allow_open_fold)
        starting = check_stacks(config, num_tables, stacks)
        self.encoder = encoder
        offsets, card_index, slots = encoder_layout(config, encoder)
        self._encoding = _k.Encoding(offsets, card_index, 1.0 / config.big_bet)
        self.keeps_views = bool(views)
        if self.keeps_views:
            slots = max(slots, _FIRST_VIEW_SLOTS)
        streets = len(variant.streets)
        # int32 halves the history's memory (a step at thousands of tables is bound by memory traffic) and holds
        # any chip amount a table's stacks allow; int64 only for stacks beyond it
        small = starting.max() <= np.iinfo(np.int32).max
        tab = np.zeros((num_tables, _k.NUM_TAB), dtype=np.int64)
        seats = np.zeros((num_tables, n, _k.NUM_SEAT), dtype=np.int64)
        cards = np.full((num_tables, n, variant.cards_per_seat), -1, dtype=np.int64)
        self._tables = _k.Tables(
            tab=tab, seats=seats, cards=cards, deck=np.zeros((num_tables, layout.deck_size), dtype=np.int64),
            used=np.zeros((num_tables, layout.deck_size), dtype=np.int8),
            rng=np.random.SeedSequence(None if seed is None else as_int("seed", seed, 0)).generate_state(
                num_tables, np.uint64),
            starting=starting,
            history=np.zeros((num_tables, streets, slots, 3), dtype=np.int32 if small else np.int64),
            counts=np.zeros((num_tables, streets), dtype=np.int32),
            masks=np.zeros((num_tables, NUM_ACTIONS), dtype=np.int8), payoffs=np.zeros((num_tables, n), dtype=np.int64),
            finished=np.zeros(num_tables, dtype=np.int64), ended_tab=np.zeros_like(tab),
            ended_seats=np.zeros_like(seats), ended_cards=np.full_like(cards, -1))
        self._work = _k.new_work()
        self._no_vectors = np.zeros((1, 1), dtype=np.float32)
        self._result = StepResult(self._tables.payoffs, self._tables.finished)
        self.reset(decks=decks)

    # ------------------------------------------------------------------ play

    def kernel_state(self) -> tuple[_k.Rules, _k.Tables, np.ndarray, _k.Encoding]:
        """The arrays the kernels read and write (rules, tables, scratch, encoding), themselves, not copies: for a
        later layer's kernel that steps rows itself (:mod:`razz_env.solve.sampled_cfr` copies a row to branch)."""
        return self._rules, self._tables, self._work, self._encoding

    def reset(self, tables: Sequence[int] | np.ndarray | None = None,
              decks: np.ndarray | Sequence[Sequence[int]] | None = None) -> None:
        """Abandon the hands at ``tables`` (default: all) and deal new ones, from ``decks`` (one per table
        reset) or from each table's stream."""
        index = check_tables(self.num_tables, tables)
        if decks is not None:
            self._tables.deck[index] = check_decks(self.config, decks, len(index))
        _k.deal_tables(index, decks is not None, self._rules, self._tables)

    def step(self, actions: np.ndarray | Sequence[int], out: np.ndarray | None = None) -> StepResult:
        """Apply one action id per table for its acting seat; ``ValueError`` (nothing changed) naming the first
        table whose id its mask forbids. With ``out`` (float32, (T, encoder.size)), also write the new acting
        seats' vectors there, as :meth:`observe` would, in the same pass over the tables (faster than a step
        then an observe). The result's arrays are reused by the next call."""
        array = _array(actions)
        if array is None or array.shape != (self.num_tables,) or array.dtype.kind not in "iu":
            raise ValueError(f"actions: expected one integer action id per table, shape ({self.num_tables},), "
                             f"got {_shape_of(array)}")
        observe = out is not None
        vectors = self._vectors(out) if observe else self._no_vectors
        array = array.astype(np.int64, copy=False)
        bad = _k.step_tables(array, self._rules, self._tables, self._work, observe, self._encoding, vectors)
        self.make_history_room()
        if bad >= 0:
            legal = ", ".join(str(i) for i in np.flatnonzero(self._tables.masks[bad]))
            raise ValueError(f"actions[{bad}]: id {int(array[bad])} is not legal for seat {int(self.actor[bad])} "
                             f"at table {bad}; legal ids: {legal}")
        return self._result

    def make_history_room(self) -> None:
        """With ``views``, double the decisions kept per street once a street fills them, before any is lost
        (a step adds at most one decision per table); every path that steps tables calls it."""
        history = self._tables.history
        if self.keeps_views and self._tables.counts.max(initial=0) >= history.shape[2]:
            grown = np.zeros(history.shape[:2] + (2 * history.shape[2], 3), dtype=history.dtype)
            grown[:, :, :history.shape[2]] = history
            self._tables = self._tables._replace(history=grown)

    def seat_views(self, tables: np.ndarray | Sequence[int] | None = None) -> SeatViews:
        """The acting seat's view at each of ``tables`` (default: all), as :class:`SeatViews` rows in that order.

        Built from the engine's arrays with every other seat's down cards and the undealt cards hidden; row
        ``i`` read back (``.view(i)``) equals the scalar engine's view of that seat. Needs ``views=True``.
        """
        if not self.keeps_views:
            raise ConfigError("seat_views: this engine keeps only the encoder's recent decisions; build it with "
                              "views=True")
        index = np.arange(self.num_tables) if tables is None else np.asarray(tables, dtype=np.int64)
        tab, seat_arr = self._tables.tab[index], self._tables.seats[index]
        rows, n = len(index), self.num_seats
        actor = tab[:, _k.C_ACTOR]
        up = self.config.variant.up_positions
        cards = self._tables.cards[index].copy()
        position = np.arange(cards.shape[2])
        visible = (position[None, None, :] < seat_arr[:, :, _k.S_NCARDS, None]) & (
            ((position >= up.start) & (position < up.stop))[None, None, :]
            | (np.arange(n)[None, :, None] == actor[:, None, None]))
        cards[~visible] = NO_CARD
        stacks, bets = seat_arr[:, :, _k.S_STACK], seat_arr[:, :, _k.S_BET]
        folded = seat_arr[:, :, _k.S_FOLDED].astype(bool)
        mine = np.arange(rows), actor
        history, length = self._full_history(index)
        return SeatViews(
            variant=self.config.variant.name, num_seats=n, ante=self.config.stakes.ante,
            bring_in=self.config.stakes.bring_in, big_bet=self.config.big_bet, seat=actor.copy(),
            street=tab[:, _k.C_STREET], cards=cards, community=tab[:, _k.C_COMMUNITY], stacks=stacks, bets=bets,
            contributed=seat_arr[:, :, _k.S_CONTRIB], folded=folded, all_in=~folded & (stacks == 0),
            pot=seat_arr[:, :, _k.S_CONTRIB].sum(axis=1), actor=actor.copy(),
            to_call=np.minimum(tab[:, _k.C_LEVEL] - bets[mine], stacks[mine]), level=tab[:, _k.C_LEVEL],
            bet_count=tab[:, _k.C_BET_COUNT], bet_size=tab[:, _k.C_INCREMENT],
            bring_in_seat=tab[:, _k.C_BRING_SEAT], history=history, history_length=length,
            legal=_LEGAL_ACTIONS[tab[:, _k.C_LEGAL]], is_over=tab[:, _k.C_OVER].astype(bool))

    def _full_history(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, L, 4) every decision of each table's hand so far as (street, seat, action, amount), in order."""
        counts = self._tables.counts[index].astype(np.int64)
        length = counts.sum(axis=1)
        history = np.full((len(index), int(length.max(initial=0)), 4), -1, dtype=np.int64)
        row, street, slot = np.nonzero(np.arange(self._tables.history.shape[2])[None, None, :] < counts[:, :, None])
        start = np.cumsum(counts, axis=1) - counts  # where each street's decisions begin in the row's history
        at = start[row, street] + slot
        history[row, at, 0] = np.asarray(self.config.variant.street_numbers, dtype=np.int64)[street]
        history[row, at, 1:] = self._tables.history[index[row], street, slot]
        return history, length

    def _vectors(self, out: object) -> np.ndarray:
        """``out`` checked as the (T, encoder.size) float32 array the vectors go to (a new one for ``None``)."""
        encoder = self.encoder
        if encoder is None:
            raise ConfigError("observe: this engine was built without an encoder; pass encoder=FlatEncoder(config)")
        shape = (self.num_tables, encoder.size)
        if out is None:
            return np.empty(shape, dtype=np.float32)
        if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.float32:
            raise ValueError(f"out: expected float32 of shape {shape}, got {_shape_of(_array(out))}")
        if not out.flags.writeable:
            raise ValueError(f"out: expected a writeable array, got a read-only float32 array of shape {shape}")
        return out

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """(T, encoder.size) float32: each table's acting seat's vector, as the encoder writes it for that
        seat of the same hand (a new array, or ``out`` overwritten)."""
        out = self._vectors(out)
        _k.encode_tables(self._rules, self._tables, self._encoding, out)
        return out

    def observe_as(self, encoder: TableEncoder) -> np.ndarray:
        """(T, encoder.size) float32: each table's acting seat's vector as another table encoder of this config
        writes it (for an agent reading another encoding than the engine's, e.g. ``flat8``); ``ConfigError`` when
        it shows more decisions a street than this engine keeps (build it with ``views=True``: 16 or more)."""
        layout = encoder_layout(self.config, encoder)
        kept = self._tables.history.shape[2]
        if layout.slots > kept:
            raise ConfigError(f"observe_as: {encoder.name!r} shows {layout.slots} decisions a street; this engine "
                              f"keeps {kept} (build it with views=True)")
        out = np.empty((self.num_tables, encoder.size), dtype=np.float32)
        _k.encode_tables(self._rules, self._tables, _k.Encoding(layout.offsets, layout.card_index,
                                                                1.0 / self.config.big_bet), out)
        return out

    # ------------------------------------------------------------------ state (read-only views)

    @staticmethod
    def _field(array: np.ndarray, index: int | None = None) -> np.ndarray:
        view = array.view() if index is None else array[..., index]
        view.flags.writeable = False
        return view

    @property
    def nbytes(self) -> int:
        """Bytes of the per-table state arrays (the memory a table costs)."""
        return sum(array.nbytes for array in self._tables)
