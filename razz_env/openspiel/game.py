"""The OpenSpiel games: one per variant, a thin Game/State pair around the engine.

:class:`StudState` wraps a :class:`~razz_env.openspiel.deal.ChanceHand`, so the engine's
:class:`~razz_env.engine.state.HandState` decides everything (who acts, what is legal, when a
street is dealt, who wins). OpenSpiel sees:

* chance nodes for every card, in dealing order, each outcome a card's index in the variant's deck
  (``variant.deck``, card ids ``rank * 4 + suit`` ascending: in the 52-card games the index is the card
  id, :mod:`razz_env.engine.cards`; MiniRazz's 12 cards are outcomes 0-11) with equal probability over
  the cards still in the deck;
* the five action ids of :mod:`razz_env.encoding.actions` (0 fold, 1 check/call, 2 complete/bet/raise,
  3 bring-in, 4 bet the big bet), legal exactly where the environments' mask allows them;
* returns in chips at the end of the hand (each seat's net win; they sum to zero);
* observation and information-state tensors and strings from :mod:`razz_env.openspiel.observer`.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

import pyspiel

from razz_env.encoding.actions import ACTION_NAMES, NUM_ACTIONS, mask_for, to_engine
from razz_env.engine.actions import Action
from razz_env.engine.cards import card_str, cards_str
from razz_env.engine.config import MIN_SEATS, STREET_NAMES, max_seats
from razz_env.engine.state import HandState
from razz_env.engine.table import Table
from razz_env.engine.text import render_hand
from razz_env.engine.variants import VARIANTS
from razz_env.openspiel.deal import ChanceHand, Slot
from razz_env.openspiel.observer import StudObserver
from razz_env.openspiel.params import game_table, max_game_length, parameters_for, utility_range

GAME_NAMES: dict[str, str] = {variant: f"razz_env_{variant}" for variant in VARIANTS}
"""OpenSpiel short name of each variant's game: ``pyspiel.load_game(GAME_NAMES["razz"], {"num_seats": 3})``."""

_LEGAL_IDS: dict[tuple[tuple[Action, ...], bool], list[int]] = {}


def _game_type(variant: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAMES[variant],
        long_name=f"razz-env {VARIANTS[variant].title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_seats(VARIANTS[variant]),
        min_num_players=MIN_SEATS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters_for(variant),
    )


GAME_TYPES: dict[str, pyspiel.GameType] = {variant: _game_type(variant) for variant in VARIANTS}


class StudGame(pyspiel.Game):
    """A variant's game: its :class:`~razz_env.engine.table.Table` (:attr:`table`, and the engine :attr:`config`)
    comes from the parameters, as does :attr:`allow_open_fold`."""

    variant = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.table: Table
        self.table, self.allow_open_fold = game_table(self.variant, params)
        self.config = config = self.table.hand_config()
        self.deck = config.variant.deck
        least, most = utility_range(config)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(self.deck),
            num_players=config.num_seats,
            min_utility=least,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=max_game_length(config),
        )
        # one stack per seat: a lone number would come back from the game's string as an int, not a str
        super().__init__(GAME_TYPES[self.variant], info, {**params, "stacks": self.table.to_params()["stacks"]})

    def new_initial_state(self) -> StudState:
        """A hand before the deal: the first node is chance dealing seat 0's first card."""
        return StudState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> StudObserver:
        """The observer of ``iig_obs_type`` (default: one seat's observation without perfect recall)."""
        return StudObserver(self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            params)

    def max_chance_nodes_in_history(self) -> int:
        """Every card the table can deal."""
        config = self.config
        return min(config.variant.cards_per_seat * config.num_seats, len(self.deck))


def _game_class(variant: str) -> type[StudGame]:
    """A module-level game class for ``variant`` (``minirazz_tiny`` -> ``MinirazzTinyGame``; stud's is
    ``StudHighGame``), so games pickle."""
    name = "StudHighGame" if variant == "stud" else "".join(part.capitalize() for part in variant.split("_")) + "Game"
    cls = type(name, (StudGame,), {"__doc__": f"{VARIANTS[variant].title}.", "variant": variant,
                                   "__module__": __name__, "__qualname__": name})
    globals()[name] = cls
    return cls


GAME_CLASSES: dict[str, type[StudGame]] = {variant: _game_class(variant) for variant in VARIANTS}


class StudState(pyspiel.State):
    """One hand: chance deals, seats act by action id; the engine hand is :attr:`hand`."""

    def __init__(self, game: StudGame) -> None:
        super().__init__(game)
        self._config = game.config
        self._allow_open_fold = game.allow_open_fold
        self._deal = ChanceHand(game.config)

    @property
    def hand(self) -> HandState | None:
        """The engine's hand as of the last decision (``None`` until the first street is dealt); read it, never act on
        it."""
        return self._deal.hand

    @property
    def dealing(self) -> Slot | None:
        """Where the card of this chance node goes (``None`` at a decision or the end)."""
        return self._deal.next_slot

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while cards are due, ``TERMINAL`` once the hand is over."""
        deal = self._deal
        if deal.needed:
            return pyspiel.PlayerId.CHANCE
        if deal.hand.is_over:
            return pyspiel.PlayerId.TERMINAL
        return deal.hand.actor

    def _legal_actions(self, player: int) -> list[int]:
        """The action ids the engine allows the seat to act, ascending."""
        legal = self._deal.hand.legal_actions()
        key = (legal, self._allow_open_fold)
        ids = _LEGAL_IDS.get(key)
        if ids is None:
            ids = _LEGAL_IDS[key] = [i for i, allowed in enumerate(mask_for(*key)) if allowed]
        return list(ids)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card still in the deck (as its index in the deck), equally likely."""
        deck = self._config.variant.deck
        cards = self._deal.undealt()
        p = 1.0 / len(cards)
        return [(bisect_left(deck, card), p) for card in cards]

    def card(self, outcome: int) -> int:
        """The card id of chance outcome ``outcome`` (its index in the deck); ``ValueError`` outside the deck."""
        deck = self._config.variant.deck
        if not 0 <= outcome < len(deck):
            raise ValueError(f"chance outcome {outcome!r} cannot be dealt: outcomes are 0 to {len(deck) - 1}, one per "
                             f"card of the deck")
        return deck[outcome]

    def _apply_action(self, action: int) -> None:
        """Deal the card of outcome ``action`` at a chance node, or apply the seat's action id."""
        deal = self._deal
        if deal.needed:
            deal.deal(self.card(action))
        else:
            hand = deal.hand
            deal.act(to_engine(action, hand.legal_actions(), self._allow_open_fold, f"seat {hand.actor}"))

    def _action_to_string(self, player: int, action: int) -> str:
        """``"deal Kh"`` for a chance outcome, the id's name (``"check_call"``) for a seat's action."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_str(self.card(action))}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        """The engine has settled the hand."""
        return not self._deal.needed and self._deal.hand.is_over

    def returns(self) -> list[float]:
        """Each seat's net chips for the hand (zero until it is over)."""
        hand = self._deal.hand
        if hand is None or not hand.is_over:
            return [0.0] * self._config.num_seats
        return [float(p) for p in hand.payoffs]

    def __str__(self) -> str:
        deal = self._deal
        hand = deal.hand
        if hand is None:
            first = STREET_NAMES[self._config.variant.street_numbers[0]]
            return f"dealing {first} street: " + ", ".join(f"s{seat} {cards_str(held)}"
                                                          for seat, held in enumerate(deal.cards))
        text = render_hand(hand)
        if deal.pending is not None:
            new = [f"s{seat} {cards_str(held[len(hand.cards[seat]):])}" for seat, held in enumerate(deal.cards)
                   if len(held) > len(hand.cards[seat])]
            if deal.community is not None:
                new.append(f"community {card_str(deal.community)}")
            text += f"\ndealing after seat {hand.actor} {deal.pending}: {', '.join(new) or 'no card yet'}"
        return text


for _variant, _cls in GAME_CLASSES.items():
    pyspiel.register_game(GAME_TYPES[_variant], _cls)
