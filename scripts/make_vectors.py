"""Make the test vectors in ``tests/data/vectors/``: random hands that PokerKit 0.7.7 and our engine agree on.

Each hand is played with random legal decisions through our engine and, in step, through PokerKit
(``FixedLimitRazz``, ``FixedLimitSevenCardStud``, ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``;
Action Razz is PokerKit's razz with a hand type that ranks a seven-card hand holding a J, Q or K above
every hand without one). At every decision both must agree on the seat to act, the kinds of decision
open to it, every stack and every bet; at the end, on every payoff. Hands that reach a situation where
PokerKit knowingly plays by other rules (``docs/rules.md``, "Known differences from PokerKit") are
discarded: board ties broken by suit, short all-in bets and raises, a community card after folds, odd
chips, stud8 pots without a qualifying low. Folds with nothing to call and the stud open-pair big bet are
never chosen. Every kept hand is written as a hand record (``docs/hand-records.md``), one per line.
The first hands of each variant, with player names added, are also the documentation's sample file
``docs/examples/hands.jsonl``.

Seeded, so the output is the same on every run: ``python scripts/make_vectors.py`` rewrites the files;
``--check`` regenerates them in memory and exits 1 if a committed file differs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import warnings
from collections import Counter
from pathlib import Path

import pokerkit

from razz_env.engine.actions import AGGRESSIVE, Action
from razz_env.engine.cards import DECK_SIZE, card_str
from razz_env.engine.config import HandConfig
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "data" / "vectors"
EXAMPLES = ROOT / "docs" / "examples" / "hands.jsonl"
HANDS = {"razz": 300, "action_razz": 200, "stud": 200, "stud8": 200}
EXAMPLE_HANDS = 8  # per variant
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
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
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)
WEIGHTS = {Action.CHECK: 4, Action.CALL: 4, Action.BRING_IN: 3, Action.COMPLETE: 2, Action.BET: 2, Action.RAISE: 2}
KINDS = {Action.FOLD: "fold", Action.CHECK: "check_or_call", Action.CALL: "check_or_call", Action.BRING_IN: "bring_in",
         Action.COMPLETE: "cbr", Action.BET: "cbr", Action.BET_BIG: "cbr", Action.RAISE: "cbr"}


class Skip(Exception):
    """The hand met a known difference from PokerKit (``args[0]`` names it) or a disagreement."""


def random_config(variant: str, rng: random.Random, unit: int) -> HandConfig:
    """Random stakes and stacks (a quarter of them short), all in chips of ``unit``."""
    small = rng.choice([2, 3, 4, 5, 10, 20])
    big = small * rng.choice([1, 2, 2, 2, 3])
    bring_in = rng.randint(1, small - 1)
    ante = rng.randint(0, bring_in)
    stacks = []
    for _ in range(rng.randint(2, 8)):
        kind = rng.random()
        if kind < 0.04:
            stacks.append(rng.randint(1, ante + bring_in + 1))
        elif kind < 0.25:
            stacks.append(rng.randint(1, 6 * big))
        else:
            stacks.append(rng.randint(20 * big, 60 * big))
    return HandConfig.create(variant, stacks=[unit * s for s in stacks], ante=unit * ante,
                             bring_in=unit * bring_in, small_bet=unit * small, big_bet=unit * big)


def tied_deck(rng: random.Random, num_seats: int) -> list[int]:
    """A shuffled deck dealing seat 1 the ranks of seat 0's seven cards in another order: split pots."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    ranks = [deck[position * num_seats] >> 2 for position in range(7)]
    if max(Counter(ranks).values()) > 2:
        return deck
    used = {deck[position * num_seats] for position in range(7)}
    for position, source in enumerate(rng.sample(range(7), 7)):
        card = rng.choice([c for c in range(ranks[source] * 4, ranks[source] * 4 + 4) if c not in used])
        used.add(card)
        slot, other = position * num_seats + 1, deck.index(card)
        deck[slot], deck[other] = card, deck[slot]
    return deck


def rank_key(board: list[int], low: bool) -> tuple:
    """A board's strength for choosing the opener, suits ignored (greater opens first)."""
    ranks = [c >> 2 if low else ((c >> 2) - 1) % 13 for c in board]
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    key = (tuple(n for n, _ in groups), tuple(r for _, r in groups))
    return (tuple(-n for n in key[0]), tuple(-r for r in key[1])) if low else key


def opener_tied(hand: HandState) -> bool:
    """Two live boards equal but for suits: PokerKit breaks that by seat, we by suit."""
    low = hand.config.variant.low_board
    keys = [rank_key(hand.cards[s][2:6], low) for s in range(hand.num_seats) if not hand.folded[s]]
    return keys.count(max(keys)) > 1


def settlement_skip(hand: HandState) -> str | None:
    """Why PokerKit would settle this finished hand by other rules, if it would."""
    low_somewhere = any("eight" in pot.winners for pot in hand.pots)
    for pot in hand.pots:
        if len(pot.eligible) > 1 and low_somewhere and "eight" not in pot.winners:
            return "stud8 pot with no qualifying low"
        if any(pot.amount % (len(pot.winners) * len(winners)) for winners in pot.winners.values()):
            return "odd chip"
    return None


def short_all_in(hand: HandState, action: Action) -> bool:
    """An aggressive action that leaves the seat all-in below the full bet or raise."""
    if action not in AGGRESSIVE:
        return False
    seat = hand.actor
    size = hand.config.stakes.bet_size(hand.street)
    target = (max(hand.bets) // size + 1) * size
    return hand.bets[seat] + hand.stacks[seat] < target


def choose(hand: HandState, rng: random.Random, fold_weight: int) -> Action:
    """A random legal action: never a fold with nothing to call, never the open-pair big bet."""
    nothing_to_call = hand.bets[hand.actor] >= max(hand.bets)
    options = [a for a in hand.legal_actions()
               if a is not Action.BET_BIG and not (a is Action.FOLD and nothing_to_call)]
    weights = [fold_weight if a is Action.FOLD else WEIGHTS[a] for a in options]
    return rng.choices(options, weights)[0]


class Mirror:
    """A PokerKit state fed our engine's cards and decisions."""

    def __init__(self, hand: HandState) -> None:
        config, stakes = hand.config, hand.config.stakes
        self.state = GAMES[config.variant.name].create_state(
            AUTOMATIONS, True, stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet,
            list(config.stacks), config.num_seats)
        self.dealt = [0] * config.num_seats

    def deal(self, hand: HandState) -> None:
        """Give PokerKit the cards our engine dealt (its burns are blank); show every hand at showdown."""
        state = self.state
        while True:
            if state.can_burn_card("??"):
                state.burn_card("??")
            elif state.can_deal_hole():
                seat = state.hole_dealee_index
                count = len(state.hole_dealing_statuses[seat])
                cards = hand.cards[seat][self.dealt[seat]:self.dealt[seat] + count]
                if len(cards) != count:
                    raise Skip("disagreement: PokerKit deals a card we did not")
                state.deal_hole("".join(map(card_str, cards)), seat)
                self.dealt[seat] += count
            elif state.can_deal_board():
                if hand.community is None:
                    raise Skip("disagreement: PokerKit deals a community card")
                state.deal_board(card_str(hand.community))
            elif state.can_show_or_muck_hole_cards(True):
                state.show_or_muck_hole_cards(True)
            else:
                return

    def agrees(self, hand: HandState) -> bool:
        """Same seat to act, stacks, bets and kinds of decision (less the open fold PokerKit refuses)."""
        state = self.state
        checks = (("fold", state.can_fold), ("check_or_call", state.can_check_or_call),
                  ("bring_in", state.can_post_bring_in), ("cbr", state.can_complete_bet_or_raise_to))
        theirs = {name for name, can in checks if can()}
        if hand.bring_in_pending and hand.stacks[hand.actor] <= hand.config.stakes.bring_in:
            theirs.discard("cbr")  # PokerKit lets a stack no bigger than the bring-in "complete" for the same chips
        ours = {KINDS[a] for a in hand.legal_actions()}
        if hand.bets[hand.actor] >= max(hand.bets):
            ours.discard("fold")
        return (state.actor_index == hand.actor and list(state.stacks) == hand.stacks
                and list(state.bets) == hand.bets and theirs == ours)

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
            state.complete_bet_or_raise_to(
                sum(e.amount for e in hand.history if e.street == entry.street and e.seat == entry.seat))


def play_hand(variant: str, seed: str) -> HandState:
    """One random hand both engines play alike, or :class:`Skip` saying why it was discarded."""
    rng = random.Random(seed)
    ties = rng.random() < 0.25
    config = random_config(variant, rng, 2 if ties or variant == "stud8" and rng.random() < 0.7 else 1)
    fold_weight = rng.choice((0, 1, 1, 2))
    if ties:
        deck = tied_deck(rng, config.num_seats)
    else:
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
    hand = HandState(config, deck=deck)
    mirror = Mirror(hand)
    checked_street = 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PokerKit warns on odd dealing or burnt chips: discard such hands
        try:
            while True:
                if hand.community is not None and any(hand.folded):
                    raise Skip("community card after folds")
                mirror.deal(hand)
                if hand.is_over:
                    break
                if hand.street != checked_street:
                    checked_street = hand.street
                    if opener_tied(hand):
                        raise Skip("board tie broken by suit")
                if not mirror.agrees(hand):
                    raise Skip("disagreement at a decision")
                action = choose(hand, rng, fold_weight)
                if short_all_in(hand, action):
                    raise Skip("short all-in bet or raise")
                hand.act(action)
                mirror.act(hand, action)
        except Warning as warning:
            raise Skip(f"PokerKit warning: {warning}") from None
    reason = settlement_skip(hand)
    if reason:
        raise Skip(reason)
    pk = mirror.state
    if pk.status or [end - start for end, start in zip(pk.stacks, config.stacks)] != hand.payoffs:
        raise Skip("disagreement at the payoffs")
    return hand


def make(variant: str, count: int) -> tuple[list[HandState], Counter]:
    """``count`` agreed hands, and the discards by reason."""
    hands: list[HandState] = []
    skipped: Counter = Counter()
    attempt = 0
    while len(hands) < count:
        try:
            hands.append(play_hand(variant, f"vectors-{variant}-{attempt}"))
        except Skip as skip:
            skipped[skip.args[0]] += 1
        attempt += 1
    return hands, skipped


def jsonl(hands: list[HandState], named: bool = False) -> str:
    """The hands as JSONL hand records, with player names when ``named``."""
    records = (to_record(hand, players=NAMES[:hand.num_seats] if named else None) for hand in hands)
    return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records)


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every vector file and the sample file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = parser.parse_args(argv)
    files: dict[Path, str] = {}
    examples = []
    for variant, count in HANDS.items():
        hands, skipped = make(variant, count)
        path = OUTPUT / f"{variant}.jsonl"
        files[path] = jsonl(hands)
        examples += hands[:EXAMPLE_HANDS]
        print(f"{path.name}: {count} hands kept, {skipped.total()} discarded {dict(sorted(skipped.items()))}")
        disagreements = sum(n for reason, n in skipped.items() if reason.startswith("disagreement"))
        if disagreements:
            print(f"  warning: {disagreements} hands where PokerKit and this engine disagree", file=sys.stderr)
    files[EXAMPLES] = jsonl(examples, named=True)
    if args.check:
        stale = [str(path.relative_to(ROOT)) for path, text in files.items()
                 if not path.exists() or path.read_text(encoding="utf-8") != text]
        if stale:
            print(f"out of date: {', '.join(stale)} (run python scripts/make_vectors.py)", file=sys.stderr)
            return 1
        return 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
