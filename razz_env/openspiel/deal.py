"""A hand dealt card by card from outside: the engine's deal as a sequence of OpenSpiel chance nodes.

The engine deals a street the moment a betting round closes, so :class:`ChanceHand` keeps a
:class:`~razz_env.engine.state.HandState` built on the cards chance has given so far. The action
that closes a round needs cards that hand does not have: the engine refuses it and leaves the hand
unchanged, and the action waits (``pending``) while chance deals the cards the engine will use
before its next decision. Which cards those are (who is dealt, how many streets an all-in runs
out, whether 7th street needs a community card) is found by replaying the hand on stand-in cards:
the engine decides, this module never applies a rule of its own. With the last card the hand is
rebuilt on the real cards and the pending action applied.

Cards come in dealing order: the first street's cards (seven-card stud: down, down, door) around the
table, then each later street in seat order, as the variant declares its streets
(:mod:`razz_env.engine.variants`). A :class:`ChanceHand` pickles by replaying its actions (the
engine stays the only source of its state); a deep copy (OpenSpiel clones a state for every child it
explores) copies the engine hand's lists instead (:func:`copy_hand`), several times faster than a replay.

>>> from razz_env.engine.config import HandConfig
>>> deal = ChanceHand(HandConfig.create("razz", num_seats=2))
>>> deal.next_slot, len(deal.undealt())
(Slot(seat=0, position=0), 52)
>>> for card in range(6):
...     deal.deal(card)
>>> deal.hand.street, deal.next_slot is None
(3, True)
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from razz_env.engine.actions import Action
from razz_env.engine.cards import CARD_NAMES, DECK_SIZE, cards_str
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import position_names
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.engine.variants import Variant


class Slot(NamedTuple):
    """Where the next card goes: a seat (``None`` for the community card) and its position in dealing order."""

    seat: int | None
    position: int

    def describe(self, variant: Variant) -> str:
        """``"seat 0's door card"``, in ``variant``'s names of the dealing positions."""
        if self.seat is None:
            return "the community card"
        return f"seat {self.seat}'s {position_names(variant)[self.position]} card"


@cache
def _first_street_slots(seats: int, cards: int) -> tuple[Slot, ...]:
    """The first street's cards in dealing order: each position around the table."""
    return tuple(Slot(seat, position) for position in range(cards) for seat in range(seats))


class ChanceHand:
    """A hand whose cards arrive through :meth:`deal` and whose decisions through :meth:`act`; see the module."""

    __slots__ = ("config", "cards", "community", "actions", "pending", "needed", "hand", "_dealt")

    def __init__(self, config: HandConfig) -> None:
        n = config.num_seats
        self.config = config
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.community: int | None = None
        self.actions: list[Action] = []
        self.pending: Action | None = None
        self.needed: list[Slot] = list(_first_street_slots(n, config.variant.street_numbers[0]))
        self.hand: HandState | None = None
        self._dealt = bytearray(DECK_SIZE)

    @property
    def next_slot(self) -> Slot | None:
        """The card chance deals next, or ``None`` when a seat is to act or the hand is over."""
        return self.needed[0] if self.needed else None

    def undealt(self) -> list[int]:
        """The cards still in the variant's deck, ascending (every dealt card stays out, folded seats' too)."""
        dealt = self._dealt
        return [card for card in self.config.variant.deck if not dealt[card]]

    def describe(self, slot: Slot) -> str:
        """``slot`` in words, in this hand's variant (``"seat 1's door card"``)."""
        return slot.describe(self.config.variant)

    def deal(self, card: int) -> None:
        """Give the next card; ``ValueError`` if no card is due or ``card`` is not in the deck (or already out)."""
        if not self.needed:
            raise ValueError("no card is due: a seat is to act or the hand is over")
        deck = self.config.variant.deck
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"card {card!r} cannot be dealt: card ids are 0 to {DECK_SIZE - 1}")
        if len(deck) < DECK_SIZE and card not in deck:
            raise ValueError(f"card {CARD_NAMES[card]} cannot be dealt: the {self.config.variant.name} deck is "
                             f"{cards_str(deck)}")
        if self._dealt[card]:
            raise ValueError(f"card {CARD_NAMES[card]} cannot be dealt: it is already out of the deck")
        slot = self.needed.pop(0)
        self._dealt[card] = 1
        if slot.seat is None:
            self.community = card
        else:
            self.cards[slot.seat].append(card)
        if not self.needed:
            self.hand = self._replay(self.cards, self.community, self.pending)
            if self.pending is not None:
                self.actions.append(self.pending)
                self.pending = None

    def act(self, action: Action) -> None:
        """Apply ``action`` for the seat to act, or hold it until chance has dealt the cards it needs."""
        if self.needed or self.hand is None:
            raise ValueError(f"{action} cannot be applied: {self.describe(self.next_slot)} is due first")
        try:
            self.hand.act(action)
        except ConfigError:  # the engine refused: this action closes a round whose cards are not dealt yet
            self.needed = self._cards_needed(action)
            self.pending = action
            return
        self.actions.append(action)

    def _replay(self, cards: list[list[int]], community: int | None, last: Action | None) -> HandState:
        """A hand on ``cards`` with every action so far (and ``last``) applied."""
        hand = HandState(self.config, cards=cards, community=community)
        for action in self.actions:
            hand.act(action)
        if last is not None:
            hand.act(last)
        return hand

    def _cards_needed(self, action: Action) -> list[Slot]:
        """The cards the engine deals between ``action`` and its next decision, in dealing order.

        The hand is replayed with ``action`` on stand-in cards for every position a live seat could be
        dealt; the positions the replay used are the ones chance must fill. Which cards stand in does not
        matter: who is dealt depends on folds and stacks, never on the cards.
        """
        hand = self.hand
        folder = hand.actor if action is Action.FOLD else None
        live = [seat for seat in range(self.config.num_seats) if not hand.folded[seat] and seat != folder]
        spare = iter(self.undealt())
        listed = [list(held) for held in self.cards]
        last = self.config.variant.cards_per_seat - 1
        for _ in range(len(listed[live[0]]), last):
            for seat in live:
                listed[seat].append(next(spare))
        rest = list(spare)
        community = None
        if len(rest) >= len(live):
            for seat, card in zip(live, rest):
                listed[seat].append(card)
        else:
            community = rest[0]
        probe = self._replay(listed, community, action)
        slots = sorted((position, seat) for seat, held in enumerate(self.cards)
                       for position in range(len(held), len(probe.cards[seat])))
        needed = [Slot(seat, position) for position, seat in slots]
        if probe.community is not None:
            needed.append(Slot(None, last))
        return needed

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self.config, self.cards, self.community, self.actions, self.pending, self.needed)

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceHand:
        twin = ChanceHand.__new__(ChanceHand)
        twin.config = self.config
        twin.cards = [list(held) for held in self.cards]
        twin.community = self.community
        twin.actions = list(self.actions)
        twin.pending = self.pending
        twin.needed = list(self.needed)
        twin.hand = None if self.hand is None else copy_hand(self.hand)
        twin._dealt = bytearray(self._dealt)
        return twin


def copy_hand(hand: HandState) -> HandState:
    """An independent copy of an engine hand: every list it holds is copied (a list of lists, each seat's cards,
    to the second level); the config, the dealer (an explicit deal, only read) and the immutable values are shared.
    """
    twin = object.__new__(HandState)
    for name in HandState.__slots__:
        try:
            value = getattr(hand, name)
        except AttributeError:  # a slot the hand never set
            continue
        if value.__class__ is list:
            value = [item[:] for item in value] if value and value[0].__class__ is list else value[:]
        setattr(twin, name, value)
    return twin


def _restore(config: HandConfig, cards: list[list[int]], community: int | None, actions: list[Action],
             pending: Action | None, needed: list[Slot]) -> ChanceHand:
    """A :class:`ChanceHand` in the given position, its engine hand rebuilt by replay."""
    deal = ChanceHand(config)
    deal.cards = cards
    deal.community = community
    deal.actions = actions
    deal.pending = pending
    deal.needed = needed
    for card in (c for held in cards for c in held):
        deal._dealt[card] = 1
    if community is not None:
        deal._dealt[community] = 1
    if all(len(held) >= config.variant.street_numbers[0] for held in cards):
        deal.hand = deal._replay(cards, community, None)
    return deal
