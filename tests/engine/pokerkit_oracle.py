"""The PokerKit 0.7.7 oracle: a PokerKit state fed this engine's cards and random decisions, asserting agreement.

Both engines get the same cards and the same decisions. At every decision they must agree on the seat to act,
on what it may do (fold / check-or-call / bring-in / complete-bet-or-raise) and on every seat's stack and bet; at
the end, on every payoff. A hand that runs into a situation where PokerKit knowingly plays by other rules
(``docs/rules.md``, "Known differences from PokerKit") raises :class:`Skip` naming it. Action Razz runs through
PokerKit's razz with a hand type in which a hand holding a J, Q or K beats every hand without one.

Shared by the differential test, the PHH test and ``scripts/make_vectors.py`` (which writes the vectors).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter

import pokerkit

from razz_env.engine.actions import AGGRESSIVE, Action
from razz_env.engine.cards import DECK_SIZE, card_str
from razz_env.engine.config import HandConfig
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState

FACES = frozenset("JQK")


class ActionRazzHand(pokerkit.RegularLowHand):
    """PokerKit's razz low, except that a showdown hand holding a J, Q or K ("face") beats every other.

    Boards (four up cards or fewer, which choose who opens a street) are read as plain razz boards.
    """

    face: bool | None = None

    @classmethod
    def from_game(cls, hole_cards: pokerkit.utilities.CardsLike,
                  board_cards: pokerkit.utilities.CardsLike = ()) -> pokerkit.Hand:
        hole, board = list(pokerkit.Card.clean(hole_cards)), list(pokerkit.Card.clean(board_cards))  # may be iterators
        hand = super().from_game(hole, board)
        cards = hole + board
        if len(cards) >= 5:
            hand.face = any(str(card.rank) in FACES for card in cards)
        return hand

    def __lt__(self, other: pokerkit.Hand) -> bool:
        if isinstance(other, ActionRazzHand) and None not in (self.face, other.face) and self.face != other.face:
            return not self.face
        return super().__lt__(other)

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other) and getattr(other, "face", None) == self.face

    def __hash__(self) -> int:
        return hash((self.entry, self.face))


class FixedLimitActionRazz(pokerkit.FixedLimitRazz):
    """Fixed-limit razz betting with the Action Razz showdown."""

    hand_types = (ActionRazzHand,)


GAMES = {
    "razz": pokerkit.FixedLimitRazz,
    "action_razz": FixedLimitActionRazz,
    "stud": pokerkit.FixedLimitSevenCardStud,
    "stud8": pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
}
# Everything but dealing, done with our engine's cards, and showing, done without PokerKit's slow "can it win?".
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)
# Relative odds of each kind of decision in the random play; folds get a per-hand weight of 0 to 2.
WEIGHTS = {Action.CHECK: 4, Action.CALL: 4, Action.BRING_IN: 3, Action.COMPLETE: 2,
           Action.BET: 2, Action.RAISE: 2}
_CATEGORY = {Action.FOLD: "fold", Action.CHECK: "check_or_call", Action.CALL: "check_or_call",
             Action.BRING_IN: "bring_in", Action.COMPLETE: "cbr", Action.BET: "cbr", Action.BET_BIG: "cbr",
             Action.RAISE: "cbr"}


class Skip(Exception):
    """The hand reached a known PokerKit difference; ``args[0]`` names it."""


def random_config(variant: str, rng: random.Random, unit: int, **options: object) -> HandConfig:
    """Random stakes (bring-in below the small bet) and stacks, a quarter of them short; all in chips of ``unit``;
    ``options``: more table options (a board tie-break...)."""
    small = rng.choice([2, 3, 4, 5, 10, 20])
    big = small * rng.choice([1, 2, 2, 2, 3])
    bring_in = rng.randint(1, small - 1)
    ante = rng.randint(0, bring_in)
    stacks = []
    for _ in range(rng.randint(2, 8)):
        kind = rng.random()
        if kind < 0.04:
            stacks.append(rng.randint(1, ante + bring_in + 1))  # all-in on the ante or the bring-in
        elif kind < 0.25:
            stacks.append(rng.randint(1, 6 * big))
        else:
            stacks.append(rng.randint(20 * big, 60 * big))
    return HandConfig.create(variant, stacks=[unit * s for s in stacks], ante=unit * ante, bring_in=unit * bring_in,
                             small_bet=unit * small, big_bet=unit * big, **options)


def tied_deck(rng: random.Random, num_seats: int) -> list[int]:
    """A shuffled deck that deals seat 1 the ranks of seat 0's seven cards, in another order: split pots."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    ranks = [deck[position * num_seats] >> 2 for position in range(7)]
    if max(Counter(ranks).values()) > 2:
        return deck  # seat 0 holds trips: no second set of that rank for seat 1
    used = {deck[position * num_seats] for position in range(7)}
    for position, source in enumerate(rng.sample(range(7), 7)):
        card = rng.choice([c for c in range(ranks[source] * 4, ranks[source] * 4 + 4) if c not in used])
        used.add(card)
        slot, other = position * num_seats + 1, deck.index(card)
        deck[slot], deck[other] = card, deck[slot]
    return deck


def rank_key(board: list[int], low: bool) -> tuple:
    """A board's strength for choosing the opener, suits ignored (greater opens first)."""
    ranks = [c >> 2 if low else ((c >> 2) - 1) % 13 for c in board]  # aces low in razz, high in stud
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    key = (tuple(n for n, _ in groups), tuple(r for _, r in groups))
    return (tuple(-n for n in key[0]), tuple(-r for r in key[1])) if low else key


def door_tied(hand: HandState) -> bool:
    """Two door cards share the bring-in's rank: PokerKit breaks that by suit (a position tie-break differs)."""
    low = hand.config.variant.low_board
    keys = [rank_key(held[2:3], low) for held in hand.cards]
    return keys.count(min(keys)) > 1


def opener_tied(hand: HandState) -> bool:
    """Two live boards share the best strength but for suits: PokerKit breaks that by seat, we by suit."""
    low = hand.config.variant.low_board
    keys = [rank_key(hand.up_cards(s), low) for s in range(hand.num_seats) if not hand.folded[s]]
    return keys.count(max(keys)) > 1


def settlement_skip(hand: HandState) -> str | None:
    """The reason PokerKit would settle this finished hand by other rules, if any."""
    low_somewhere = any("eight" in pot.winners for pot in hand.pots)
    for pot in hand.pots:
        if len(pot.eligible) > 1 and low_somewhere and "eight" not in pot.winners:
            return "stud8 pot with no qualifying low"
        if any(pot.amount % (len(pot.winners) * len(winners)) for winners in pot.winners.values()):
            return "odd chip"  # a pot that does not split evenly between its halves and their winners
    return None


def short_all_in(hand: HandState, action: Action) -> bool:
    """An aggressive action that leaves the seat all-in below the full bet or raise."""
    if action not in AGGRESSIVE:
        return False
    seat = hand.actor
    size = hand.config.bet_size(hand.street)
    target = (max(hand.bets) // size + 1) * size  # levels are whole bets: hands with short raises are skipped
    return hand.bets[seat] + hand.stacks[seat] < target


class PokerKitMirror:
    """A PokerKit state fed our engine's cards and decisions."""

    def __init__(self, hand: HandState) -> None:
        config = hand.config
        stakes = config.stakes
        # Ante trimming on: antes are layered into side pots with the bets, as in our showdown.
        self.state = GAMES[config.variant.name].create_state(
            AUTOMATIONS, True, stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet,
            list(config.stacks), config.num_seats,
        )
        self.dealt = [0] * config.num_seats

    def deal(self, hand: HandState) -> None:
        """Give PokerKit every card it asks for, from what our engine dealt (burns are blank); show at showdown."""
        state = self.state
        while True:
            if state.can_burn_card("??"):
                state.burn_card("??")
            elif state.can_deal_hole():
                seat = state.hole_dealee_index
                count = len(state.hole_dealing_statuses[seat])
                cards = hand.cards[seat][self.dealt[seat]:self.dealt[seat] + count]
                assert len(cards) == count, f"PokerKit deals seat {seat} {count} card(s); we dealt {len(cards)}"
                state.deal_hole("".join(map(card_str, cards)), seat)
                self.dealt[seat] += count
            elif state.can_deal_board():
                assert hand.community is not None, "PokerKit deals a board card; we dealt no community card"
                state.deal_board(card_str(hand.community))
            elif state.can_show_or_muck_hole_cards(True):
                state.show_or_muck_hole_cards(True)
            else:
                return

    def check_decision(self, hand: HandState, seed: str) -> None:
        """Assert that PokerKit agrees on the seat to act, the chips and the kinds of legal decision."""
        state = self.state
        assert state.actor_index == hand.actor, f"actor: PokerKit {state.actor_index}; {describe(seed, hand)}"
        assert list(state.stacks) == hand.stacks, f"stacks: PokerKit {state.stacks}; {describe(seed, hand)}"
        assert list(state.bets) == hand.bets, f"bets: PokerKit {state.bets}, ours {hand.bets}; {describe(seed, hand)}"
        checks = (("fold", state.can_fold), ("check_or_call", state.can_check_or_call),
                  ("bring_in", state.can_post_bring_in), ("cbr", state.can_complete_bet_or_raise_to))
        theirs = {name for name, can in checks if can()}
        if hand.bring_in_pending and hand.stacks[hand.actor] <= hand.config.stakes.bring_in:
            theirs.discard("cbr")  # PokerKit lets a stack no bigger than the bring-in "complete" for the same chips
        ours = our_legal(hand)
        assert theirs == ours, f"legal: PokerKit {theirs}, ours {hand.legal_actions()}; {describe(seed, hand)}"

    def act(self, hand: HandState, action: Action) -> None:
        """Apply ``action`` (already applied to ``hand``) to PokerKit."""
        state = self.state
        if action is Action.FOLD:
            state.fold()
        elif action in (Action.CHECK, Action.CALL):
            state.check_or_call()
        elif action is Action.BRING_IN:
            state.post_bring_in()
        else:
            entry = hand.history[-1]
            street_bet = sum(e.amount for e in hand.history if e.street == entry.street and e.seat == entry.seat)
            state.complete_bet_or_raise_to(street_bet)


def our_legal(hand: HandState) -> set[str]:
    """Our legal decision kinds, less the fold with nothing to call that PokerKit refuses."""
    seat = hand.actor
    legal = {_CATEGORY[a] for a in hand.legal_actions()}
    if hand.bets[seat] >= max(hand.bets):
        legal.discard("fold")
    return legal


def choose(hand: HandState, rng: random.Random, fold_weight: int) -> Action:
    """A random legal action, never a fold with nothing to call nor the stud open-pair big bet."""
    nothing_to_call = hand.bets[hand.actor] >= max(hand.bets)
    options = [a for a in hand.legal_actions()
               if a is not Action.BET_BIG and not (a is Action.FOLD and nothing_to_call)]
    weights = [fold_weight if a is Action.FOLD else WEIGHTS[a] for a in options]
    return rng.choices(options, weights)[0]


def describe(seed: str, hand: HandState) -> str:
    """Where a mismatch happened: the seed and our hand record so far."""
    return f"seed {seed!r}, {to_record(hand)}"


def play_hand(variant: str, seed: str, against_pokerkit: bool = True, bring_in_tie_break: str = "suit",
              later_street_tie_break: str = "suit") -> HandState:
    """Play one random hand, through PokerKit too unless told not to, asserting agreement at every step.

    Raises :class:`Skip` when the hand meets a known difference, whether or not PokerKit plays along. PokerKit
    breaks tied door cards by suit and tied later boards by seat (the WSOP presets' reading in razz and stud8):
    a tied door card under ``bring_in_tie_break="position"`` and a tied later board under
    ``later_street_tie_break="suit"`` are the differences.
    """
    rng = random.Random(seed)
    ties = rng.random() < 0.25  # with even chips, so that most split pots divide evenly
    config = random_config(variant, rng, 2 if ties or variant == "stud8" and rng.random() < 0.7 else 1,
                           bring_in_tie_break=bring_in_tie_break, later_street_tie_break=later_street_tie_break)
    fold_weight = rng.choice((0, 1, 1, 2))  # never folding brings 8 seats to a community card
    if ties:
        deck = tied_deck(rng, config.num_seats)
    else:
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
    hand = HandState(config, deck=deck)
    if bring_in_tie_break == "position" and door_tied(hand):
        raise Skip("bring-in tie broken by position")
    mirror = PokerKitMirror(hand) if against_pokerkit else None
    checked_street = 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PokerKit warns on odd dealing or burnt chips: fail on either
        while True:
            if hand.community is not None and any(hand.folded):
                raise Skip("community card after folds")
            if mirror:
                mirror.deal(hand)
            if hand.is_over:
                break
            if hand.street != checked_street:
                checked_street = hand.street
                if later_street_tie_break == "suit" and opener_tied(hand):
                    raise Skip("board tie broken by suit")
            if mirror:
                mirror.check_decision(hand, seed)
            action = choose(hand, rng, fold_weight)
            if short_all_in(hand, action):
                raise Skip("short all-in bet or raise")
            hand.act(action)
            if mirror:
                mirror.act(hand, action)
        reason = settlement_skip(hand)
        if reason:
            raise Skip(reason)
        if mirror:
            pk = mirror.state
            assert not pk.status, f"PokerKit's hand is still running ({pk.operations[-3:]}); {describe(seed, hand)}"
            payoffs = [end - start for end, start in zip(pk.stacks, config.stacks)]
            assert payoffs == hand.payoffs, f"payoffs: PokerKit {payoffs}, ours {hand.payoffs}; {describe(seed, hand)}"
    return hand
