"""Many seat views as arrays: what each acting seat of many tables may see, one row per decision.

:class:`SeatViews` is the batched form of :class:`~razz_env.engine.view.SeatView`: the same fields, stacked
into arrays so that array code decides for thousands of tables at once. It is built either from scalar
views (:meth:`SeatViews.from_views`, what tests compare against) or by the batched engine
(:meth:`razz_env.batch.BatchEngine.seat_views`); row ``i`` read back as a scalar view
(:meth:`SeatViews.view`) equals the view the scalar engine gives that seat. Like a ``SeatView`` it holds
nothing hidden from the seat: other seats' down cards and undealt cards are ``-1`` in ``cards``.

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.engine.state import HandState
>>> hands = [HandState(HandConfig.create("razz"), seed=s) for s in (1, 2)]
>>> views = SeatViews.from_views([h.view(h.actor) for h in hands])
>>> len(views), views.own_down.shape, views.up_cards.shape
(2, (2, 3), (2, 2, 4))
>>> views.view(1) == hands[1].view(hands[1].actor)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from razz_env.engine.actions import Action
from razz_env.engine.state import HistoryEntry
from razz_env.engine.variants import VARIANTS
from razz_env.engine.view import SeatView

NO_CARD = -1
"""A card the seat cannot see, or one not dealt yet (and "none" in ``community``/``bring_in_seat``/``actor``)."""

HISTORY_FIELDS = ("street", "seat", "action", "amount")
"""The columns of ``history``: one decision per row, as :class:`~razz_env.engine.state.HistoryEntry`."""

_ACTIONS = tuple(Action)


@dataclass(frozen=True, eq=False)
class SeatViews:
    """One acting seat's view per row; every array's first axis is the row (read-only arrays).

    ``cards`` (N, S, cards a seat): every card the row's seat may see in dealing order: its own cards, the
    other seats' up cards, ``-1`` for hidden or undealt ones. ``history`` (N, L, 4) holds each decision of
    the hand as (street, seat, action value, chips put in), ``history_length`` (N,) of them, ``-1`` padded.
    ``legal`` (N, 8) marks the legal :class:`~razz_env.engine.actions.Action` values. Seat arrays
    (``stacks``, ``bets``, ``contributed``, ``folded``, ``all_in``) are (N, S); the rest are (N,) but the table's
    ``variant``, ``num_seats`` and stakes (``ante``, ``bring_in``, ``big_bet``), one for every row.
    """

    variant: str
    num_seats: int
    ante: int
    bring_in: int
    big_bet: int
    seat: np.ndarray
    street: np.ndarray
    cards: np.ndarray
    community: np.ndarray
    stacks: np.ndarray
    bets: np.ndarray
    contributed: np.ndarray
    folded: np.ndarray
    all_in: np.ndarray
    pot: np.ndarray
    actor: np.ndarray
    to_call: np.ndarray
    level: np.ndarray
    bet_count: np.ndarray
    bet_size: np.ndarray
    bring_in_seat: np.ndarray
    history: np.ndarray
    history_length: np.ndarray
    legal: np.ndarray
    is_over: np.ndarray

    def __post_init__(self) -> None:
        rows = len(self.seat)
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray):
                if len(value) != rows:
                    raise ValueError(f"SeatViews.{field.name}: {len(value)} rows, expected {rows} (one per seat)")
                value.flags.writeable = False

    def __len__(self) -> int:
        return len(self.seat)

    def __reduce__(self) -> tuple[type[SeatViews], tuple]:
        return SeatViews, tuple(getattr(self, f.name) for f in fields(self))

    # ------------------------------------------------------------------ derived arrays

    @property
    def up_positions(self) -> range:
        """Positions of the face-up cards in ``cards`` (the variant's layout)."""
        return VARIANTS[self.variant].up_positions

    @property
    def up_cards(self) -> np.ndarray:
        """(N, S, up cards a seat) every seat's up cards, door first, ``-1`` where not dealt."""
        up = self.up_positions
        return self.cards[:, :, up.start:up.stop]

    @property
    def own_cards_by_position(self) -> np.ndarray:
        """(N, cards a seat) the row seat's own cards in dealing order, ``-1`` where not dealt."""
        return self.cards[np.arange(len(self)), self.seat]

    @property
    def own_up(self) -> np.ndarray:
        """(N, up cards a seat) the row seat's up cards, ``-1`` where not dealt."""
        up = self.up_positions
        return self.own_cards_by_position[:, up.start:up.stop]

    @property
    def own_down(self) -> np.ndarray:
        """(N, down cards a seat) the row seat's down cards in dealing order, ``-1`` where not dealt."""
        up = self.up_positions
        own = self.own_cards_by_position
        return np.concatenate([own[:, :up.start], own[:, up.stop:]], axis=1)

    @property
    def own_cards(self) -> np.ndarray:
        """(N, down + up + 1) down cards, up cards, then the community card: :attr:`SeatView.own_cards`."""
        return np.concatenate([self.own_down, self.own_up, self.community[:, None]], axis=1)

    @property
    def dead(self) -> np.ndarray:
        """(N, S, up cards a seat) the up cards of folded seats (``-1`` elsewhere): :attr:`SeatView.dead_cards`."""
        return np.where(self.folded[:, :, None], self.up_cards, NO_CARD)

    @property
    def live_opponents(self) -> np.ndarray:
        """(N, S) bool: seats other than the row's that have not folded."""
        return ~self.folded & (np.arange(self.num_seats)[None, :] != self.seat[:, None])

    def take(self, rows: np.ndarray | Sequence[int]) -> SeatViews:
        """The views of ``rows`` only (an index array or a boolean mask)."""
        index = np.asarray(rows)
        if index.dtype != bool:
            index = index.astype(np.intp)
        return SeatViews(**{f.name: (getattr(self, f.name)[index] if isinstance(getattr(self, f.name), np.ndarray)
                                     else getattr(self, f.name)) for f in fields(self)})

    def with_own_down(self, rows: np.ndarray | Sequence[int], down: np.ndarray) -> SeatViews:
        """The views of ``rows`` (repeats allowed), each seat's own down cards replaced by the row of ``down`` (N, k):
        card ids in dealing order, ``-1`` for none (what a range of hypothetical holdings is asked about)."""
        index = np.asarray(rows, dtype=np.intp)
        faces = VARIANTS[self.variant].faces
        positions = np.array([p for p in range(len(faces)) if p not in self.up_positions], dtype=np.intp)
        down = np.asarray(down, dtype=np.int64).reshape(len(index), -1)
        if down.shape[1] > len(positions):
            raise ValueError(f"SeatViews.with_own_down: {down.shape[1]} down cards, a seat has {len(positions)}")
        cards = self.cards[index]
        seats = self.seat[index][:, None]
        lines = np.arange(len(index))[:, None]
        cards[lines, seats, positions[None, :]] = NO_CARD
        cards[lines, seats, positions[None, :down.shape[1]]] = down
        return SeatViews(**{f.name: cards if f.name == "cards" else (
            getattr(self, f.name)[index] if isinstance(getattr(self, f.name), np.ndarray) else getattr(self, f.name))
            for f in fields(self)})

    # ------------------------------------------------------------------ scalar views in and out

    def view(self, row: int) -> SeatView:
        """Row ``row`` as the scalar :class:`SeatView` (equal to the scalar engine's view of that seat)."""
        up = self.up_positions
        seats = range(self.num_seats)
        own = self.cards[row, self.seat[row]]
        up_cards = tuple(tuple(int(c) for c in self.cards[row, s, up.start:up.stop] if c != NO_CARD) for s in seats)
        folded = tuple(bool(f) for f in self.folded[row])
        history = tuple(HistoryEntry(int(street), int(seat), _ACTIONS[action], int(amount))
                        for street, seat, action, amount in self.history[row, :self.history_length[row]].tolist())
        return SeatView(
            seat=int(self.seat[row]),
            num_seats=self.num_seats,
            variant=self.variant,
            street=int(self.street[row]),
            own_down=tuple(int(c) for c in np.concatenate([own[:up.start], own[up.stop:]]) if c != NO_CARD),
            own_up=up_cards[self.seat[row]],
            up_cards=up_cards,
            dead_cards=tuple(c for s in seats if folded[s] for c in up_cards[s]),
            community=_optional(self.community[row]),
            stacks=tuple(int(x) for x in self.stacks[row]),
            bets=tuple(int(x) for x in self.bets[row]),
            contributed=tuple(int(x) for x in self.contributed[row]),
            folded=folded,
            all_in=tuple(bool(x) for x in self.all_in[row]),
            pot=int(self.pot[row]),
            actor=_optional(self.actor[row]),
            to_call=int(self.to_call[row]),
            level=int(self.level[row]),
            bet_count=int(self.bet_count[row]),
            bet_size=int(self.bet_size[row]),
            ante=self.ante,
            bring_in=self.bring_in,
            big_bet=self.big_bet,
            bring_in_seat=_optional(self.bring_in_seat[row]),
            history=history,
            legal_actions=tuple(_ACTIONS[a] for a in np.flatnonzero(self.legal[row])),
            is_over=bool(self.is_over[row]),
        )

    @classmethod
    def from_views(cls, views: Sequence[SeatView]) -> SeatViews:
        """Stack scalar views of one variant, table size and stakes (any seats, streets and hands) into arrays."""
        if not views:
            raise ValueError("SeatViews.from_views: expected at least one view")
        first = views[0]
        mixed = [v for v in views if _game(v) != _game(first)]
        if mixed:
            raise ValueError(f"SeatViews.from_views: every view must be of one game; got {_shown_game(first)} and "
                             f"{_shown_game(mixed[0])}")
        variant = VARIANTS[first.variant]
        up, n, rows = variant.up_positions, first.num_seats, len(views)
        cards = np.full((rows, n, variant.cards_per_seat), NO_CARD, dtype=np.int64)
        longest = max(len(v.history) for v in views)
        history = np.full((rows, longest, len(HISTORY_FIELDS)), -1, dtype=np.int64)
        legal = np.zeros((rows, len(_ACTIONS)), dtype=bool)
        for i, v in enumerate(views):
            for s in range(n):
                cards[i, s, up.start:up.start + len(v.up_cards[s])] = v.up_cards[s]
            down = v.own_down
            before = min(len(down), up.start)
            cards[i, v.seat, :before] = down[:before]
            cards[i, v.seat, up.stop:up.stop + len(down) - before] = down[before:]
            if v.history:
                history[i, :len(v.history)] = [tuple(e) for e in v.history]
            legal[i, list(v.legal_actions)] = True
        column = {name: np.array([getattr(v, name) for v in views], dtype=np.int64)
                  for name in ("seat", "street", "pot", "to_call", "level", "bet_count", "bet_size")}
        seats = {name: np.array([getattr(v, name) for v in views], dtype=np.int64).reshape(rows, n)
                 for name in ("stacks", "bets", "contributed")}
        return cls(
            variant=first.variant, num_seats=n, ante=first.ante, bring_in=first.bring_in, big_bet=first.big_bet,
            cards=cards, history=history, legal=legal, **column, **seats,
            community=_column([v.community for v in views]),
            folded=np.array([v.folded for v in views], dtype=bool).reshape(rows, n),
            all_in=np.array([v.all_in for v in views], dtype=bool).reshape(rows, n),
            actor=_column([v.actor for v in views]),
            bring_in_seat=_column([v.bring_in_seat for v in views]),
            history_length=np.array([len(v.history) for v in views], dtype=np.int64),
            is_over=np.array([v.is_over for v in views], dtype=bool),
        )


def _game(view: SeatView) -> tuple[str, int, int, int, int]:
    """What every row of one :class:`SeatViews` shares: the variant, the table size and the stakes."""
    return view.variant, view.num_seats, view.ante, view.bring_in, view.big_bet


def _shown_game(view: SeatView) -> str:
    return (f"{view.variant} with {view.num_seats} seats (ante {view.ante}, bring-in {view.bring_in}, big bet "
            f"{view.big_bet})")


def _optional(value: np.integer) -> int | None:
    return None if value == NO_CARD else int(value)


def _column(values: Sequence[int | None]) -> np.ndarray:
    return np.array([NO_CARD if v is None else v for v in values], dtype=np.int64)
