"""The table encoders: a seat's view of a hand as one float32 vector, written straight from the HandState.

Two encoders share one implementation and differ only in how cards are written:

* :class:`FlatEncoder` (``"flat"``, the default): card one-hots over the variant's deck (52 wide for the
  seven-card games, by card id ``rank * 4 + suit``; 12 wide for MiniRazz's A-6 in two suits).
* :class:`RanksEncoder` (``"ranks"``): counts per rank of the variant (13 for razz), suit-free, for the
  lowball games (razz, action razz, MiniRazz) where suits never matter at showdown.

Each has a padded twin, :class:`PaddedFlatEncoder` (``"flat8"``) and :class:`PaddedRanksEncoder`
(``"ranks8"``), whose layout is the same at every table size of a variant, so one network plays 2 to 8
handed: always eight seat positions, ``S = 16`` history slots, a ``seated`` piece marking the relative
positions that hold a seat at this table (a folded seat is seated and not live; an empty position is
neither), and chip bounds of eight times the largest stack, whatever the seat count.

Seats are *relative*: position 0 is the observer, then clockwise (increasing seat
numbers, wrapping). The vector has ``N`` seat positions (``max_players``, default
the table size); positions beyond the table are zero. Chip amounts are divided by
the big bet (``config.big_bet``: the bet of the first big-bet street, 5th street in
seven-card stud), so they read "in big bets".

The betting history is a ``(T streets, S slots, W)`` tensor, ``T`` the variant's
streets (5 in seven-card stud, 2 in MiniRazz), ``W = N + 8 + 1``: the acting seat
(relative one-hot), the engine action (one-hot over fold, check, call, bring_in,
complete, bet, bet_big, raise) and the chips it put in. ``S`` (``history_slots``)
defaults to ``N + cap * (N - 1)``, the longest round a capped table can play
without short all-ins, at most 16. A street with more than ``S`` decisions keeps
its most recent ``S`` and sets its ``history_overflow`` flag; nothing else is dropped.

Only what the observer may see enters the vector: its own down cards, every up
card, dead cards, the community card, chips and the public action history.

Speed: each encoder keeps, per seat, a template of the last hand it encoded for
that seat. Cards, live seats and the street are rewritten only when the street
or the number of folds changes, and the history only gains the decisions made
since the last call; chips and turn flags are written on every call. A different
hand object simply starts a new template, so results never depend on the cache
(an encoder is not thread-safe: use one per thread).

>>> from razz_env.engine.config import HandConfig
>>> enc = FlatEncoder(HandConfig.create("razz", num_seats=2))
>>> enc.size, enc.layout.slices["own_down"]
(676, slice(0, 52, None))
>>> FlatEncoder(HandConfig.create("minirazz")).layout.slices["up_cards"]
slice(24, 48, None)
>>> [PaddedFlatEncoder(HandConfig.create("razz", num_seats=n)).size for n in (2, 8)]
[2068, 2068]
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np

from razz_env.encoding.layout import Layout, Piece
from razz_env.engine.actions import Action
from razz_env.engine.cards import DECK_SIZE, RANKS, SUITS
from razz_env.engine.checks import as_int
from razz_env.engine.config import MAX_SEATS, STREET_NAMES
from razz_env.engine.variants import VARIANTS

if TYPE_CHECKING:
    from gymnasium import spaces

    from razz_env.engine.config import HandConfig
    from razz_env.engine.state import HandState
    from razz_env.engine.variants import Variant

NUM_KINDS = len(Action)
BET_COUNT_BINS = 6
MAX_DEFAULT_HISTORY_SLOTS = 16
FLOAT32_BYTES = 4
NO_COLUMN = -1
_KIND_NAMES = ", ".join(str(a) for a in Action)
PADDED_HISTORY_SLOTS = MAX_DEFAULT_HISTORY_SLOTS


def default_history_slots(config: HandConfig, seats: int) -> int:
    """``N + cap * (N - 1)`` (the longest capped round without short all-ins), at most 16."""
    rules = config.rules
    cap = rules.raise_cap
    if cap is None or rules.heads_up_uncapped or config.raise_cap_for(config.num_seats) is None:
        return MAX_DEFAULT_HISTORY_SLOTS
    return min(seats + cap * (seats - 1), MAX_DEFAULT_HISTORY_SLOTS)


class TableEncoder:
    """Shared encoder; subclasses say how a card is written (:meth:`card_columns`, :meth:`card_description`).

    ``card_index`` maps every card id 0-51 to its column in a card piece (``NO_COLUMN`` for a card
    outside the variant's deck); ``card_width`` is the width of a card piece.
    """

    name = ""
    padded = False
    """Whether the layout is the same at every table size of a variant (the padded encodings)."""

    def __init__(self, config: HandConfig, max_players: int | None = None, history_slots: int | None = None) -> None:
        n = config.num_seats
        if self.padded:
            self._check_padded_options(max_players, history_slots)
            max_players, history_slots = MAX_SEATS, PADDED_HISTORY_SLOTS
        seats = n if max_players is None else max_players
        as_int("max_players", seats, n, MAX_SEATS, what=f"a number of seats from num_players ({n}) to {MAX_SEATS}")
        slots = default_history_slots(config, seats) if history_slots is None else history_slots
        as_int("history_slots", slots, 1)
        variant = config.variant
        self.config = config
        self.seats = seats
        self.history_slots = slots
        self.card_index, self.card_width, self.card_high = self.card_columns(variant)
        self._history_width = seats + NUM_KINDS + 1
        self._space: spaces.Box | None = None
        streets = variant.street_numbers
        big_bet = config.big_bet
        # padded: a bound that does not change with the seat count (no table holds more than 8 largest stacks)
        total_chips = MAX_SEATS * max(config.stacks) if self.padded else sum(config.stacks)
        largest_bet = max(config.bet_size(street) for street in streets)
        chip_high = max(total_chips, largest_bet) / big_bet
        self.layout = Layout(self._pieces(seats, slots, chip_high))
        self.size = self.layout.size
        self._inv_big_bet = 1.0 / big_bet
        self._high = self.layout.high()
        self._zeros = array("f", bytes(self.size * FLOAT32_BYTES))
        self._history_end = self.layout.slices["history"].stop
        off = self.layout.offsets
        self._o_own_down = off["own_down"]
        self._o_own_up = off["own_up"]
        self._o_up = off["up_cards"]
        self._o_dead = off["dead_cards"]
        self._o_community = off["community"]
        self._o_stacks = off["stacks"]
        self._o_bets = off["round_bets"]
        self._o_contributed = off["contributed"]
        self._o_pot = off["pot"]
        self._o_call = off["to_call"]
        self._o_bet_size = off["bet_size"]
        self._o_street = off["street"]
        self._o_bet_count = off["bet_count"]
        self._o_seated = off.get("seated", NO_COLUMN)
        self._o_live = off["live"]
        self._o_all_in = off["all_in"]
        self._o_bring_in = off["bring_in"]
        self._o_to_act = off["to_act"]
        self._o_big_bet_open = off["big_bet_open"]
        self._o_history = off["history"]
        self._o_overflow = off["history_overflow"]
        # street number -> its index in the street one-hot, the history and the overflow flags
        self._street_index = [NO_COLUMN] * (streets[-1] + 1)
        for index, street in enumerate(streets):
            self._street_index[street] = index
        self._up = variant.up_positions
        self._fresh = self._zeros[:]
        for r in range(n):
            self._fresh[self._o_live + r] = 1.0
            if self.padded:
                self._fresh[self._o_seated + r] = 1.0
        self._fresh[self._o_street] = 1.0
        self._templates = [_Template(self._fresh, self._o_to_act, self._o_bet_count) for _ in range(n)]
        self._rotations = [list(range(seat, n)) + list(range(seat)) for seat in range(n)]
        self._relative = [[(s - seat) % n for s in range(n)] for seat in range(n)]
        street_size = slots * self._history_width
        self._street_rows = [self._o_history + max(index, 0) * street_size for index in self._street_index]
        self._card_targets = [self._targets_for(r, variant.cards_per_seat) for r in range(n)]

    def _check_padded_options(self, max_players: object, history_slots: object) -> None:
        """A padded encoding fixes ``max_players`` and ``history_slots``: only their fixed values are accepted."""
        for option, value, fixed in (("max_players", max_players, MAX_SEATS),
                                     ("history_slots", history_slots, PADDED_HISTORY_SLOTS)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value != fixed):
                raise ValueError(f"{option}: encoding {self.name!r} always has {fixed}, got {value!r}; leave it "
                                 f"unset, or use encoding {self.name.removesuffix('8')!r} to choose it")

    def card_columns(self, variant: Variant) -> tuple[list[int], int, float]:
        """``(card_index, card_width, card_high)`` of a card piece in ``variant``; subclasses decide."""
        raise NotImplementedError

    def card_description(self, variant: Variant) -> str:
        """How a card piece is written, for the layout's descriptions; subclasses decide."""
        raise NotImplementedError

    def _targets_for(self, r: int, cards_per_seat: int) -> list[tuple[int, ...]]:
        """Where the card dealt at each position (dealing order) to relative seat ``r`` is written: up cards for
        every seat, and the observer's own down and up pieces; other seats' down cards go nowhere."""
        own = r == 0
        up = (self._o_up + r * self.card_width, self._o_own_up) if own else (self._o_up + r * self.card_width,)
        down = (self._o_own_down,) if own else ()
        return [up if position in self._up else down for position in range(cards_per_seat)]

    def _pieces(self, seats: int, slots: int, chip_high: float) -> list[Piece]:
        """The layout: the single declaration the vector, its bounds, docs and tests follow."""
        variant = self.config.variant
        w = self.card_width
        ch = self.card_high
        what = self.card_description(variant)
        streets = len(variant.streets)
        first, last = (STREET_NAMES[number] for number in (variant.street_numbers[0], variant.street_numbers[-1]))
        seated = [Piece("seated", (seats,), "a seat sits at this relative position at this table (1 for the "
                        "observer and every other seat, folded or not; 0 beyond the table)", 1.0, "N")]
        return [
            Piece("own_down", (w,), f"own down cards, {what}", ch),
            Piece("own_up", (w,), f"own up cards, {what}", ch),
            Piece("up_cards", (seats, w), f"every seat's up cards by relative seat (0 = observer, then "
                  f"clockwise; positions beyond the table are zero), {what}", ch, f"(N, {w})"),
            Piece("dead_cards", (w,), f"up cards of folded seats, {what}", ch),
            Piece("community", (w,), f"the community {last}-street card once dealt, {what}", ch),
            Piece("stacks", (seats,), "chips behind per relative seat / big bet", chip_high, "N"),
            Piece("round_bets", (seats,), "chips put in this betting round per relative seat / big bet",
                  chip_high, "N"),
            Piece("contributed", (seats,), "chips put in this hand (antes included) per relative seat / big bet",
                  chip_high, "N"),
            Piece("pot", (1,), "all chips put in so far / big bet", chip_high),
            Piece("to_call", (1,), "chips the observer must add to call (at most its stack; 0 once over) / big bet",
                  chip_high),
            Piece("bet_size", (1,), "this street's fixed bet and raise size / big bet", chip_high),
            Piece("street", (streets,), f"street one-hot, {first} to {last}"),
            Piece("bet_count", (BET_COUNT_BINS,), f"bets and raises this round, one-hot 0-{BET_COUNT_BINS - 2}; "
                  f"the last bin is {BET_COUNT_BINS - 1}+"),
            *(seated if self.padded else []),
            Piece("live", (seats,), "seat has not folded, by relative seat", 1.0, "N"),
            Piece("all_in", (seats,), "seat is live with no chips behind, by relative seat", 1.0, "N"),
            Piece("bring_in", (seats,), "the seat that was forced to bring in, relative one-hot", 1.0, "N"),
            Piece("to_act", (seats,), "the seat to act, relative one-hot (all zero once the hand is over)",
                  1.0, "N"),
            Piece("big_bet_open", (1,), "stud open pair on 4th street: the first bet may be the big bet"),
            Piece("history", (streets, slots, self._history_width),
                  f"every decision by street ({first}-{last}) and order: relative seat one-hot (N), action one-hot "
                  f"({_KIND_NAMES}), chips put in / big bet; a street longer than S keeps its last S",
                  chip_high, f"({streets}, S, N + {NUM_KINDS + 1})"),
            Piece("history_overflow", (streets,), "street had more than S decisions (oldest not shown)"),
        ]

    @property
    def observation_space(self) -> spaces.Box:
        """The Box every vector of this encoder lies in (low 0, per-element high from the layout); cached."""
        if self._space is None:
            from gymnasium import spaces

            self._space = spaces.Box(low=np.zeros(self.size, np.float32), high=self._high, dtype=np.float32)
        return self._space

    def describe_observation(self) -> dict[str, tuple[slice, str]]:
        """Every named slice of the vector with its description."""
        return self.layout.describe()

    def write_own_down(self, vectors: np.ndarray, down: np.ndarray) -> None:
        """Each row of ``vectors`` (N, size) given other own down cards, in place: ``down`` (N, k) card ids, ``-1``
        for none. What asking a policy about other holdings at one decision changes (LBR's range, a mixture's
        weights), everything else of the vector being public."""
        line, column = np.nonzero(down >= 0)
        block = np.zeros((len(vectors), self.card_width), dtype=vectors.dtype)
        np.add.at(block, (line, np.asarray(self.card_index)[down[line, column]]), 1)
        vectors[:, self.layout.slices["own_down"]] = block

    def __call__(self, hand: HandState, seat: int) -> np.ndarray:
        """``encode(hand, seat)``: serves as :class:`razz_env.encoding.interface.Observation`'s ``encode``."""
        return self.encode(hand, seat)

    def encode(self, hand: HandState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The vector for ``seat`` (a new array, or ``out`` overwritten); hidden cards never enter it."""
        template = self._templates[seat]
        if template.hand is not hand:
            if hand.num_seats != len(self._templates):
                raise ValueError(f"this encoder was built for {len(self._templates)} seats; "
                                 f"the hand has {hand.num_seats}")
            template.start(hand, self._fresh)
        key = (hand.street, hand.folded.count(True))
        if template.key != key:
            self._update_public(template, hand, seat)
            template.key = key
        history = hand.history
        if template.done != len(history) and not template.overflow:
            self._extend_history(template, history, seat)
        buf = template.values
        if template.overflow:
            self._write_history(buf, history, seat)

        stacks = hand.stacks
        bets = hand.bets
        contributed = hand.contributed
        folded = hand.folded
        inv = self._inv_big_bet
        o_stacks = self._o_stacks
        o_bets = self._o_bets
        o_contributed = self._o_contributed
        o_all_in = self._o_all_in
        r = 0
        for s in self._rotations[seat]:
            stack = stacks[s]
            buf[o_stacks + r] = stack * inv
            buf[o_bets + r] = bets[s] * inv
            buf[o_contributed + r] = contributed[s] * inv
            buf[o_all_in + r] = 0.0 if stack or folded[s] else 1.0
            r += 1
        buf[self._o_pot] = sum(contributed) * inv
        buf[template.to_act_at] = 0.0
        actor = hand.actor
        if actor is None:
            buf[self._o_call] = 0.0
        else:
            call = hand.level - bets[seat]
            buf[self._o_call] = (call if call < stacks[seat] else stacks[seat]) * inv
            template.to_act_at = self._o_to_act + self._relative[seat][actor]
            buf[template.to_act_at] = 1.0
        buf[self._o_bet_size] = hand.increment * inv
        bet_count = hand.bet_count
        buf[template.bet_count_at] = 0.0
        template.bet_count_at = self._o_bet_count + (bet_count if bet_count < BET_COUNT_BINS else BET_COUNT_BINS - 1)
        buf[template.bet_count_at] = 1.0
        buf[self._o_big_bet_open] = 1.0 if hand.big_bet_open else 0.0
        if out is None:
            return template.view.copy()
        out[:] = template.view
        return out

    def _update_public(self, template: _Template, hand: HandState, seat: int) -> None:
        """Write the cards dealt and the folds made since the last update, the street and the bring-in."""
        buf = template.values
        cards = hand.cards
        folded = hand.folded
        seen = template.seen
        dead = template.dead
        column = self.card_index
        r = 0
        for s in self._rotations[seat]:
            held = cards[s]
            first = seen[s]
            if first < len(held):
                targets = self._card_targets[r]
                for position in range(first, len(held)):
                    c = column[held[position]]
                    for o in targets[position]:
                        buf[o + c] += 1.0
                seen[s] = len(held)
            if folded[s] and not dead[s]:
                dead[s] = True
                buf[self._o_live + r] = 0.0
                o = self._o_dead
                for c in held[self._up.start:self._up.stop]:
                    buf[o + column[c]] += 1.0
            r += 1
        if hand.community is not None and not template.community:
            template.community = True
            buf[self._o_community + column[hand.community]] += 1.0
        o = self._o_street
        buf[o + template.street_shown] = 0.0
        street_shown = self._street_index[hand.street]
        buf[o + street_shown] = 1.0
        template.street_shown = street_shown
        if hand.bring_in_seat is not None:
            buf[self._o_bring_in + self._relative[seat][hand.bring_in_seat]] = 1.0

    def _extend_history(self, template: _Template, history: list, seat: int) -> None:
        """Add the decisions since the last call to the template (or flag a street longer than ``S``)."""
        slots = self.history_slots
        hw = self._history_width
        kind = self.seats
        amount_at = kind + NUM_KINDS
        inv = self._inv_big_bet
        rel = self._relative[seat]
        street_rows = self._street_rows
        buf = template.values
        street = template.street
        k = template.slot
        base = street_rows[street] + k * hw
        for street_, s, action, amount in history[template.done:]:
            if street_ != street:
                street = street_
                k = 0
                base = street_rows[street]
            if k == slots:
                template.overflow = True
                return
            buf[base + rel[s]] = 1.0
            buf[base + kind + action] = 1.0
            if amount:
                buf[base + amount_at] = amount * inv
            k += 1
            base += hw
        template.street = street
        template.slot = k
        template.done = len(history)

    def _write_history(self, buf: array, history: list, seat: int) -> None:
        """Rewrite the whole history in ``buf``: each street's last ``S`` decisions, longer streets flagged."""
        rel = self._relative[seat]
        o_history = self._o_history
        buf[o_history:self._history_end] = self._zeros[o_history:self._history_end]
        slots = self.history_slots
        counts = [0] * len(self._street_index)
        for entry in history:
            counts[entry[0]] += 1
        hw = self._history_width
        kind = self.seats
        amount_at = kind + NUM_KINDS
        inv = self._inv_big_bet
        street_rows = self._street_rows
        current = 0
        k = 0
        for street_, s, action, amount in history:
            if street_ != current:
                current = street_
                extra = counts[street_] - slots
                if extra > 0:
                    k = -extra
                    buf[self._o_overflow + self._street_index[street_]] = 1.0
                else:
                    k = 0
            if k >= 0:
                base = street_rows[street_] + k * hw
                buf[base + rel[s]] = 1.0
                buf[base + kind + action] = 1.0
                if amount:
                    buf[base + amount_at] = amount * inv
            k += 1


class _Template:
    """One seat's vector for the hand it last encoded; ``encode`` refreshes it and returns a copy."""

    __slots__ = ("hand", "key", "seen", "dead", "community", "street_shown", "done", "street", "slot", "overflow",
                 "to_act_at", "bet_count_at", "values", "view", "_to_act_start", "_bet_count_start")

    def __init__(self, fresh: array, to_act_start: int, bet_count_start: int) -> None:
        self.hand: HandState | None = None
        self.values = fresh[:]
        self.view = np.frombuffer(self.values, dtype=np.float32)
        self._to_act_start = to_act_start
        self._bet_count_start = bet_count_start

    def __getstate__(self) -> dict[str, object]:
        """Every slot but ``view``: pickled or copied, it would come back as an array detached from ``values``."""
        return {name: getattr(self, name) for name in self.__slots__ if name != "view" and hasattr(self, name)}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.view = np.frombuffer(self.values, dtype=np.float32)

    def start(self, hand: HandState, fresh: array) -> None:
        """Begin a template for ``hand`` from ``fresh`` (every seat live, the first street, nothing dealt)."""
        n = hand.num_seats
        self.hand = hand
        self.key: tuple[int, int] | None = None
        self.seen = [0] * n
        self.dead = [False] * n
        self.community = False
        self.street_shown = 0
        self.done = 0
        self.street = 0
        self.slot = 0
        self.overflow = False
        self.values[:] = fresh
        self.to_act_at = self._to_act_start
        self.bet_count_at = self._bet_count_start


class FlatEncoder(TableEncoder):
    """``"flat"``: card one-hots over the variant's deck (52 wide in seven-card stud); works for every variant."""

    name = "flat"

    def card_columns(self, variant: Variant) -> tuple[list[int], int, float]:
        """One column per card of the deck, in card-id order."""
        index = [NO_COLUMN] * DECK_SIZE
        for column, card in enumerate(variant.deck):
            index[card] = column
        return index, len(variant.deck), 1.0

    def card_description(self, variant: Variant) -> str:
        """"one-hot by card id (rank * 4 + suit)", over the variant's cards when its deck is short."""
        if len(variant.deck) == DECK_SIZE:
            return "one-hot by card id (rank * 4 + suit)"
        return f"one-hot over the {len(variant.deck)} cards of the deck in card-id order (rank * 4 + suit)"


class RanksEncoder(TableEncoder):
    """``"ranks"``: counts per rank instead of card one-hots (razz, action razz and MiniRazz)."""

    name = "ranks"

    def __init__(self, config: HandConfig, max_players: int | None = None, history_slots: int | None = None) -> None:
        if not config.variant.low_board or "high" in config.variant.showdown:
            lowball = ", ".join(v.name for v in VARIANTS.values() if v.low_board and "high" not in v.showdown)
            raise ValueError(f"encoding {self.name!r} drops suits, which matter in {config.variant.name}; "
                             f"use it for {lowball}, or use encoding={self.name.replace('ranks', 'flat')!r}")
        super().__init__(config, max_players, history_slots)

    def card_columns(self, variant: Variant) -> tuple[list[int], int, float]:
        """One column per rank of the variant (A first); a rank holds up to one card per suit."""
        index = [NO_COLUMN] * DECK_SIZE
        for card in variant.deck:
            index[card] = variant.ranks.index(RANKS[card // len(SUITS)])
        return index, len(variant.ranks), float(len(variant.suits))

    def card_description(self, variant: Variant) -> str:
        """"count per rank (A to K, 0-4)" with the variant's ranks and suits."""
        return f"count per rank ({variant.ranks[0]} to {variant.ranks[-1]}, 0-{len(variant.suits)})"


class PaddedFlatEncoder(FlatEncoder):
    """``"flat8"``: ``"flat"`` with the layout of every table size (8 seat positions, ``seated``, 16 slots)."""

    name = "flat8"
    padded = True


class PaddedRanksEncoder(RanksEncoder):
    """``"ranks8"``: ``"ranks"`` with the layout of every table size (8 seat positions, ``seated``, 16 slots)."""

    name = "ranks8"
    padded = True
