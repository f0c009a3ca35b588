"""One hand of a fixed-limit stud game (any declared variant) as a state object.

``HandState(config, seed=...)`` antes, deals the first street (seven-card stud's 3rd,
MiniRazz's 2nd) and waits for the bring-in.
``actor`` is the seat to act, ``legal_actions()`` what it may do (masks fall out
of it), ``act(action)`` applies a decision and runs the hand forward — dealing,
opening each street, and settling the pots — until the next decision or the end.
An illegal action raises :class:`IllegalActionError` and changes nothing.

>>> from razz_env.engine.config import STREET_NAMES, HandConfig
>>> hand = HandState(HandConfig.create("razz", num_seats=2), seed=7)
>>> hand.street, hand.legal_actions()
(3, (<Action.BRING_IN: 3>, <Action.COMPLETE: 4>))
>>> while not hand.is_over:
...     _ = hand.act(hand.legal_actions()[-1] if hand.street < 5 else Action.CALL
...                  if Action.CALL in hand.legal_actions() else hand.legal_actions()[0])
>>> sum(hand.payoffs)
0

``docs/rules.md`` lists every rule with the option that changes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from razz_env.engine.actions import Action
from razz_env.engine.checks import as_int
from razz_env.engine.config import STREET_NAMES, HandConfig
from razz_env.engine.dealing import DeckDealer, ExplicitDealer
from razz_env.engine.errors import ConfigError, IllegalActionError, shown
from razz_env.engine.order import bring_in_seat, strongest_seat, weakest_seat
from razz_env.engine.showdown import PotResult, settle
from razz_env.engine.view import SeatView, seat_view

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)
_BRING_IN_ONLY = (BRING_IN,)
_BRING_IN_OR_COMPLETE = (BRING_IN, COMPLETE)
_FOLD_CALL = (FOLD, CALL)
_FOLD_CALL_RAISE = (FOLD, CALL, RAISE)
_FOLD_CALL_COMPLETE = (FOLD, CALL, COMPLETE)
_CHECK = (CHECK,)
_FOLD_CHECK = (FOLD, CHECK)
_FOLD_CHECK_RAISE = (FOLD, CHECK, RAISE)
_FOLD_CHECK_COMPLETE = (FOLD, CHECK, COMPLETE)
_FOLD_CHECK_BET = (FOLD, CHECK, BET)
_FOLD_CHECK_BET_BIG = (FOLD, CHECK, BET, BET_BIG)
# What an action can change: restored when a partial explicit deal has no card for what it started.
_UNDO_FIELDS = ("stacks", "bets", "contributed", "folded", "acted", "community", "street", "actor", "level",
                "bet_count", "increment", "cap", "bring_in_pending", "big_bet_open", "payoffs", "pots", "is_over",
                "_legal")


class HistoryEntry(NamedTuple):
    """One decision: the street number (cards each seat holds: stud 3-7), the seat, the action and the chips
    it put in."""

    street: int
    seat: int
    action: Action
    amount: int


class HandState:
    """A hand in progress or finished; see the module docstring."""

    __slots__ = (
        "config", "num_seats", "initial_stacks", "stacks", "bets", "contributed", "folded",
        "acted", "cards", "community", "street", "actor", "level", "bet_count", "increment",
        "cap", "bring_in_pending", "big_bet_open", "history", "payoffs", "pots", "is_over",
        "bring_in_seat", "_legal", "_dealer", "_low", "_bet_sizes", "_big_bet", "_bring_in",
        "_open_pair_rule", "_partial", "_layout", "_first", "_up", "unknown", "_door_suits", "_board_suits",
    )

    def __init__(
        self,
        config: HandConfig,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        deck: Sequence[int] | None = None,
        cards: Sequence[Sequence[int]] | None = None,
        community: int | None = None,
    ) -> None:
        if not isinstance(config, HandConfig):
            raise ConfigError(f"config: expected a HandConfig, got {shown(config)}")
        n = config.num_seats
        self.config = config
        self.num_seats = n
        self._dealer: DeckDealer | ExplicitDealer = _dealer(config, seed, rng, deck, cards, community)
        self._partial = isinstance(self._dealer, ExplicitDealer) and not self._dealer.complete
        stakes = config.stakes
        layout = self._layout = config.layout
        self._first = layout.first
        self._up = layout.up
        self._low = config.variant.low_board
        self._bet_sizes = config.bets_by_street
        self._big_bet = config.big_bet
        self._bring_in = stakes.bring_in
        self._open_pair_rule = config.open_pair_big_bet
        self._door_suits, self._board_suits = config.bring_in_by_suit, config.later_streets_by_suit
        self.initial_stacks = config.stacks
        self.stacks = list(config.stacks)
        self.contributed = [0] * n
        self.folded = [False] * n
        self.history: list[HistoryEntry] = []
        self.community: int | None = None
        self.payoffs: list[int] | None = None
        self.pots: list[PotResult] = []
        self.is_over = False
        self.actor: int | None = None
        self._legal: tuple[Action, ...] = ()
        self.bring_in_seat: int | None = None
        self.big_bet_open = False
        # (seat, position) of each card a replayed record lists as unknown ("??"): the hand holds a
        # placeholder there, which views, records and PHH leave out (UNKNOWN_COMMUNITY: the community card).
        self.unknown: frozenset[tuple[int, int]] = frozenset()
        for seat in range(n):
            ante = min(stakes.ante, self.stacks[seat])
            self.stacks[seat] -= ante
            self.contributed[seat] = ante
        self.cards = self._dealer.first_street()
        self._start_round(layout.first)

    # ------------------------------------------------------------------ queries

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take (empty once the hand is over)."""
        return self._legal

    @property
    def pot(self) -> int:
        """All chips put in so far, antes and this round's bets included."""
        return sum(self.contributed)

    @property
    def to_call(self) -> int:
        """Chips the seat to act must add to match the current bet (0 when none is to act)."""
        if self.actor is None:
            return 0
        return min(self.level - self.bets[self.actor], self.stacks[self.actor])

    def up_cards(self, seat: int) -> list[int]:
        """The seat's face-up cards (``variant.up_positions``; stud: door, 4th, 5th, 6th), as dealt so far."""
        return self.cards[seat][self._up]

    def down_cards(self, seat: int) -> list[int]:
        """The seat's face-down cards: private to that seat."""
        held = self.cards[seat]
        up = self._up
        return held[: up.start] + held[up.stop:]

    def dead_cards(self) -> list[int]:
        """Up cards of folded seats: seen by everyone, out of play."""
        up = self._up
        return [c for seat in range(self.num_seats) if self.folded[seat] for c in self.cards[seat][up]]

    def is_known(self, seat: int, position: int) -> bool:
        """Whether the card at ``position`` (dealing order) of ``seat`` is a real card, not a replay placeholder."""
        return (seat, position) not in self.unknown

    def is_all_in(self, seat: int) -> bool:
        """The seat is live with no chips behind."""
        return not self.folded[seat] and self.stacks[seat] == 0

    def showdown_cards(self, seat: int) -> list[int]:
        """The cards a live seat plays at showdown: its own plus any community card."""
        held = self.cards[seat]
        return held + [self.community] if self.community is not None else list(held)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now: its own cards and everything public, nothing else."""
        return seat_view(self, seat)

    # ------------------------------------------------------------------ actions

    def can_act(self, action: Action | str | int) -> bool:
        """Whether ``action`` is legal now."""
        try:
            return Action.parse(action) in self._legal
        except ValueError:
            return False

    def act(self, action: Action | str | int) -> HistoryEntry:
        """Apply ``action`` for the seat to act and run the hand to the next decision."""
        legal = self._legal
        if action.__class__ is not Action or action not in legal:
            try:
                parsed = Action.parse(action)
            except ValueError as err:
                raise IllegalActionError(self._illegal_message(action, str(err))) from None
            if parsed not in legal:
                raise IllegalActionError(self._illegal_message(parsed, None))
            action = parsed
        seat = self.actor
        undo = self._undo_point() if self._partial else None
        bets = self.bets
        stacks = self.stacks
        amount = self.chips_for(action)
        if action is FOLD:
            self.folded[seat] = True
        elif action is BRING_IN:
            self.bring_in_pending = False
            if amount > self.level:
                self.level = amount
        elif action is not CHECK and action is not CALL:
            level = self.level
            if action is BET_BIG:
                self.increment = self._big_bet
            target = self.increment if self.bet_count == 0 else level + self.increment
            amount_to = bets[seat] + amount
            self.bring_in_pending = False
            if (amount_to - level) * 2 >= target - level:
                self.bet_count += 1
                acted = self.acted
                for other in range(self.num_seats):
                    acted[other] = False
            if amount_to > level:
                self.level = amount_to
        if amount:
            bets[seat] += amount
            stacks[seat] -= amount
            self.contributed[seat] += amount
        self.acted[seat] = True
        entry = HistoryEntry(self.street, seat, action, amount)
        self.history.append(entry)
        if undo is None:
            self._advance(seat)
        else:
            try:
                self._advance(seat)
            except ConfigError as err:
                self._undo(undo)
                raise ConfigError(f"{err}: {action} refused, the hand is unchanged") from None
        return entry

    def chips_for(self, action: Action) -> int:
        """Chips the seat to act puts in with the legal ``action`` (what :meth:`act` moves; for evaluators that
        weigh actions not taken)."""
        seat = self.actor
        if action is FOLD or action is CHECK:
            return 0
        if action is CALL:
            return min(self.level - self.bets[seat], self.stacks[seat])
        if action is BRING_IN:
            return min(self._bring_in, self.stacks[seat])
        increment = self._big_bet if action is BET_BIG else self.increment
        target = increment if self.bet_count == 0 else self.level + increment
        return min(target, self.bets[seat] + self.stacks[seat]) - self.bets[seat]

    def _undo_point(self) -> dict[str, object]:
        """What :meth:`_undo` needs to put the hand back as it is now."""
        saved: dict[str, object] = {name: getattr(self, name) for name in _UNDO_FIELDS}
        for name in ("stacks", "bets", "contributed", "folded", "acted", "pots"):
            saved[name] = list(saved[name])
        saved["cards"] = [list(held) for held in self.cards]
        saved["history"] = len(self.history)
        return saved

    def _undo(self, saved: dict[str, object]) -> None:
        for name in _UNDO_FIELDS:
            setattr(self, name, saved[name])
        self.cards = saved["cards"]
        del self.history[saved["history"]:]

    def _illegal_message(self, action: object, problem: str | None) -> str:
        if self.is_over:
            return f"the hand is over; no action is legal (got {action!r})"
        legal = ", ".join(str(a) for a in self._legal)
        what = problem or f"{action} is not legal"
        return (f"seat {self.actor} on {STREET_NAMES[self.street]} street: {what}; "
                f"legal: {legal} (to call: {self.to_call}, bet level: {self.level})")

    # ------------------------------------------------------------------ flow

    def _advance(self, seat: int) -> None:
        """Find the next seat to act after ``seat``, or close the round."""
        folded = self.folded
        n = self.num_seats
        if folded.count(False) == 1:
            self._finish()
            return
        stacks, bets, acted, level = self.stacks, self.bets, self.acted, self.level
        nxt = seat
        for _ in range(n - 1):
            nxt = nxt + 1 if nxt + 1 < n else 0
            if not folded[nxt] and stacks[nxt] and (not acted[nxt] or bets[nxt] < level):
                self.actor = nxt
                self._legal = self._compute_legal()
                return
        self._end_round()

    def _start_round(self, street: int) -> None:
        """Open the betting on ``street``, or deal on when fewer than two seats can bet."""
        n = self.num_seats
        self.street = street
        self.bets = [0] * n
        self.acted = [False] * n
        self.level = 0
        self.bet_count = 0
        self.increment = self._bet_sizes[street]
        self.bring_in_pending = False
        self.big_bet_open = False
        folded, stacks = self.folded, self.stacks
        able = [seat for seat in range(n) if not folded[seat] and stacks[seat]]
        if len(able) < 2:
            self.actor = None
            self._legal = ()
            self._end_round()
            return
        self.cap = self.config.raise_cap_for(folded.count(False))
        cards = self.cards
        opening = street == self._first
        if opening:
            start = self._up.start
            if self._layout.first_up == 1:
                first = bring_in_seat([held[start] for held in cards], self._low, self._door_suits)
            else:
                first = weakest_seat([held[start:] for held in cards], self._low, self._door_suits)
            self.bring_in_pending = True
        else:
            up = self._up
            boards = [None if folded[seat] else cards[seat][up] for seat in range(n)]
            first = strongest_seat(boards, self._low, self._board_suits)
            if self._open_pair_rule and street == self._layout.second:
                self.big_bet_open = any(b is not None and len({c >> 2 for c in b}) < len(b) for b in boards)
        while not stacks[first] or folded[first]:
            first = first + 1 if first + 1 < n else 0
        if opening:
            self.bring_in_seat = first
        self.actor = first
        self._legal = self._compute_legal()

    def _compute_legal(self) -> tuple[Action, ...]:
        seat = self.actor
        stacks = self.stacks
        stack = stacks[seat]
        if self.bring_in_pending:
            return _BRING_IN_OR_COMPLETE if stack > self._bring_in else _BRING_IN_ONLY
        level = self.level
        bets, folded = self.bets, self.folded
        to_call = level - bets[seat]
        others_have_chips = others_can_call_more = False
        for other in range(self.num_seats):
            if other != seat and not folded[other] and stacks[other]:
                others_have_chips = True
                if bets[other] + stacks[other] > level:
                    others_can_call_more = True
                    break
        can_raise = (
            others_can_call_more
            and stack > to_call
            and not self.acted[seat]
            and (self.cap is None or self.bet_count < self.cap)
        )
        if to_call:
            if not can_raise:
                return _FOLD_CALL
            return _FOLD_CALL_RAISE if self.bet_count else _FOLD_CALL_COMPLETE
        if not can_raise:
            return _FOLD_CHECK if others_have_chips else _CHECK
        if self.bet_count:
            return _FOLD_CHECK_RAISE
        if level or self.street == self._first:
            return _FOLD_CHECK_COMPLETE
        return _FOLD_CHECK_BET_BIG if self.big_bet_open else _FOLD_CHECK_BET

    def _end_round(self) -> None:
        """Close the betting on this street and deal the next one (or settle)."""
        street = self.street
        layout = self._layout
        following = layout.next_street[street]
        if not following:
            self._finish()
            return
        n = self.num_seats
        folded, cards = self.folded, self.cards
        live = [seat for seat in range(n) if not folded[seat]]
        if following == layout.single_last:
            dealt = sum(len(held) for held in cards)
            if layout.deck_size - dealt < len(live):
                self.community = self._dealer.last_card(live, True)
            else:
                lasts = self._dealer.last_card(live, False)
                for seat in live:
                    cards[seat].append(lasts[seat])
        elif following == street + 1:
            deal = self._dealer.deal
            for seat in live:
                cards[seat].append(deal(seat, street))
        else:
            deal = self._dealer.deal
            for seat in live:
                cards[seat].extend(deal(seat, position) for position in range(street, following))
        self._start_round(following)

    def _finish(self) -> None:
        """Settle every pot and record the payoffs; the hand is over."""
        self.actor = None
        self._legal = ()
        self.is_over = True
        winnings, self.pots = settle(self)
        self.payoffs = [w - c for w, c in zip(winnings, self.contributed)]
        self.stacks = [s + w for s, w in zip(self.stacks, winnings)]


def _dealer(config: HandConfig, seed: object, rng: random.Random | None, deck: Sequence[int] | None,
            cards: Sequence[Sequence[int]] | None, community: int | None) -> DeckDealer | ExplicitDealer:
    """The dealer the arguments ask for; ``ConfigError`` for combinations that would silently ignore one."""
    if cards is not None and deck is not None:
        raise ConfigError("cards: give either explicit cards or a deck, not both")
    if community is not None and cards is None:
        raise ConfigError("community: only explicit cards take a community card")
    if seed is not None and rng is not None:
        raise ConfigError("seed: give either a seed or an rng, not both")
    if (seed is not None or rng is not None) and (cards is not None or deck is not None):
        given = "seed" if seed is not None else "rng"
        raise ConfigError(f"{given}: the hand deals the given {'cards' if cards is not None else 'deck'}, "
                          f"so a {given} would be ignored; give one or the other")
    if cards is not None:
        return ExplicitDealer(cards, community, config)
    if deck is not None:
        return DeckDealer(deck, config)
    if rng is None:
        rng = random.Random(None if seed is None else as_int("seed", seed))
    elif not callable(getattr(rng, "random", None)):
        raise ConfigError(f"rng: expected a random.Random, got {shown(rng)}")
    return DeckDealer.shuffled(rng, config)
