"""What a seat observes in the OpenSpiel games: tensors from the flat encoding, and text.

Two observation types are served (both of one seat, with its private cards and the public table):

* the **observation** (``perfect_recall=False``, OpenSpiel's default): exactly the vector of the
  environments' default ``"flat"`` encoding (:class:`~razz_env.encoding.encoders.FlatEncoder`), so a
  network trained on the environments reads it unchanged; its string is the text table of ``razz play``.
* the **information state** (``perfect_recall=True``): the seat one-hot, then the flat encoding with
  enough history slots that no betting round can overflow them
  (:func:`~razz_env.openspiel.params.recall_history_slots`), then ``dealt_street``: the street on which
  each card of the deck the seat has seen was dealt. The flat encoding shows each seat's cards as a set; with
  ``dealt_street`` every earlier decision point of the seat can be read back (which card was the door,
  which down card came on 7th street), so two histories share an information state only if the seat
  saw the same cards dealt on the same streets and the same actions: perfect recall. Cards dealt together
  (the two down cards of 3rd street) are a set in both the tensor and the string, which lists the same,
  street by street, a street's down cards in card order.

Chance nodes show the table as of the last decision: the engine applies the action that closed a round
only once chance has dealt the next street. Before the first deal the tensors are zero (the seat one-hot
aside) and the strings say the deal is under way.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from razz_env.encoding.encoders import FlatEncoder
from razz_env.encoding.layout import Layout, Piece
from razz_env.engine.cards import card_str
from razz_env.engine.config import STREET_NAMES, HandConfig
from razz_env.engine.text import render_hand
from razz_env.openspiel.params import recall_history_slots

if TYPE_CHECKING:
    from razz_env.engine.state import HandState
    from razz_env.engine.variants import Variant


@cache
def dealt_on(variant: Variant) -> tuple[int, ...]:
    """The street number each dealing position is dealt on (seven-card stud: 3, 3, 3, 4, 5, 6, 7).

    >>> from razz_env.engine.variants import VARIANTS
    >>> dealt_on(VARIANTS["minirazz"])
    (2, 2, 3)
    """
    return tuple(next(n for n in variant.street_numbers if position < n) for position in range(variant.cards_per_seat))


class StudObserver:
    """OpenSpiel's ``PyObserver``: ``tensor`` and its named views ``dict``, filled by ``set_from(state, player)``."""

    def __init__(self, config: HandConfig, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observer parameters: none are supported, got {sorted(params)}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("observation type: only one seat's view (private_info=SINGLE_PLAYER, public_info=True) "
                             "is supported, with or without perfect recall")
        self.perfect_recall = iig_obs_type.perfect_recall
        n = config.num_seats
        variant = config.variant
        self._streets = variant.street_numbers
        self._dealt_on = [self._streets.index(street) for street in dealt_on(variant)]
        if self.perfect_recall:
            self.encoder = FlatEncoder(config, history_slots=recall_history_slots(config))
            first, last = STREET_NAMES[self._streets[0]], STREET_NAMES[self._streets[-1]]
            pieces = [Piece("player", (n,), "the observing seat, one-hot"), *self.encoder.layout.pieces,
                      Piece("dealt_street", (self.encoder.card_width, len(self._streets)),
                            f"for each card of the deck the seat has seen dealt, the street it came on "
                            f"(one-hot, {first}-{last})")]
        else:
            self.encoder = FlatEncoder(config)
            pieces = list(self.encoder.layout.pieces)
        self.layout = Layout(pieces)
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {piece.name: self.layout.view(self.tensor, piece.name) for piece in pieces}
        self._encoded = self.encoder.layout.size
        self._start = n if self.perfect_recall else 0

    def set_from(self, state: Any, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees in ``state`` (a game state of this module's games)."""
        hand = state.hand
        tensor = self.tensor
        if hand is None:
            tensor.fill(0.0)
        else:
            self.encoder.encode(hand, player, out=tensor[self._start:self._start + self._encoded])
        if self.perfect_recall:
            tensor[:self._start] = 0.0
            tensor[player] = 1.0
            dealt = self.dict["dealt_street"]
            dealt.fill(0.0)
            if hand is not None:
                column = self.encoder.card_index
                for _, position, card in visible_cards(hand, player):
                    dealt[column[card], self._dealt_on[position]] = 1.0
                if hand.community is not None:
                    dealt[column[hand.community], len(self._streets) - 1] = 1.0

    def string_from(self, state: Any, player: int) -> str:
        """What ``player`` sees in ``state``, as text."""
        hand = state.hand
        if hand is None:
            return f"seat {player}: the {STREET_NAMES[self._streets[0]]}-street cards are being dealt"
        if self.perfect_recall:
            return information_state_text(hand, player)
        return render_hand(hand, viewer=player)


def visible_cards(hand: HandState, viewer: int) -> list[tuple[int, int, int]]:
    """``(seat, position, card)`` of every card ``viewer`` has seen dealt: its own, and the others' up cards."""
    up = hand.config.variant.up_positions
    return [(seat, position, card) for seat, held in enumerate(hand.cards) for position, card in enumerate(held)
            if seat == viewer or position in up]


def information_state_text(hand: HandState, viewer: int) -> str:
    """Everything ``viewer`` has seen, in order: per street the cards dealt (own down cards in brackets) and
    every decision with the chips it put in.

    >>> from razz_env.engine.config import HandConfig
    >>> from razz_env.engine.state import HandState
    >>> hand = HandState(HandConfig.create("razz"), cards=[[0, 1, 48], [4, 5, 44]])
    >>> information_state_text(hand, 0)
    'seat 0 | 3rd: s0 [Ac] [Ad] Kc, s1 Qc;'
    """
    variant = hand.config.variant
    streets = variant.street_numbers
    up, street_of = variant.up_positions, dealt_on(variant)
    seen: dict[int, list[tuple[int, str]]] = {street: [] for street in streets}
    for seat, position, card in sorted(visible_cards(hand, viewer), key=lambda c: (c[0], c[1] in up, c[2])):
        name = card_str(card) if position in up else f"[{card_str(card)}]"
        seen[street_of[position]].append((seat, name))
    parts = [f"seat {viewer}"]
    for street in streets[:streets.index(hand.street) + 1]:
        cards: dict[int, list[str]] = {}
        for seat, name in seen[street]:
            cards.setdefault(seat, []).append(name)
        dealt = [f"s{seat} {' '.join(names)}" for seat, names in sorted(cards.items())]
        if street == streets[-1] and hand.community is not None:
            dealt.append(f"community {card_str(hand.community)}")
        decisions = [f"s{e.seat} {e.action}" + (f" {e.amount}" if e.amount else "")
                     for e in hand.history if e.street == street]
        parts.append(f"{STREET_NAMES[street]}: {', '.join(dealt)}; {', '.join(decisions)}".rstrip())
    return " | ".join(parts)
