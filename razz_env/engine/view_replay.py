"""A seat's view replayed into a hand: the public history dealt again, placeholders for the cards it cannot see.

What a question about the hand's earlier decisions needs, asked from one seat's information only: a mixture of
policies weighs its members by what each would have done at the seat's own earlier decisions
(:mod:`razz_env.agents.mixture`), a best response replays the opponent's decisions to update its range
(:mod:`razz_env.agents.lbr`). Other seats' down cards are placeholders (unseen cards of the deck, as a record's
unknown cards are: :func:`~razz_env.engine.record.fill_unknown`); no decision of the hand depended on them (the
boards set who brings in and who acts first), so the replay takes every decision the view lists, and the seat's
own observations along the way are the ones it had.

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.engine.state import HandState
>>> config = HandConfig.create("razz")
>>> hand = HandState(config, seed=3)
>>> for action in ("bring_in", "complete", "call"):
...     _ = hand.act(action)
>>> view = hand.view(hand.actor)
>>> replayed = replay_view(view, config)
>>> replayed.view(view.seat) == view, replayed.cards[view.seat] == hand.cards[view.seat]
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

from razz_env.engine.actions import Action
from razz_env.engine.config import HandConfig
from razz_env.engine.record import fill_unknown
from razz_env.engine.state import HandState
from razz_env.engine.view import SeatView


def replay_view(view: SeatView, config: HandConfig, visit: Callable[[int, HandState], object] | None = None
                ) -> HandState:
    """The hand ``view`` shows, at ``config``'s table, replayed to the view's moment; ``visit(number, hand)`` is
    called before the history's entry ``number`` is applied (the hand at that decision). A finished hand's pots are
    the placeholders' (what the view does not show, the replay cannot know).

    ``ValueError`` when the replay does not reach the view's chips, seat to act and legal actions, or cannot take one
    of its decisions (the view is of another table: other stacks, stakes or rules), or its cards do not fit
    ``config``'s variant.
    """
    up, last = config.layout.up, config.layout.last
    # another seat holds its last street's down cards if it was live when they were dealt (not a community card)
    gone = {entry.seat for entry in view.history if entry.action is Action.FOLD and entry.street < last}
    full_hand = view.street == last and view.community is None
    cards: list[list[int | None]] = []
    for seat in range(view.num_seats):
        if seat == view.seat:
            ups, downs = iter(view.own_up), iter(view.own_down)
            positions = range(len(view.own_up) + len(view.own_down))
            cards.append([next(ups) if up.start <= p < up.stop else next(downs) for p in positions])
            continue
        board = view.up_cards[seat]
        trailing = len(board) == up.stop - up.start and full_hand and seat not in gone
        cards.append([None] * up.start + list(board) + [None] * (config.variant.cards_per_seat - up.stop) * trailing)
    filled, community = fill_unknown(config, cards, view.community, False)
    hand = HandState(config, cards=filled, community=community)
    for number, entry in enumerate(view.history):
        if visit is not None:
            visit(number, hand)
        hand.act(entry.action)
    # once the hand is over its stacks hold the pots, which the placeholders may have won
    live = not view.is_over
    if (hand.contributed != list(view.contributed) or (live and hand.stacks != list(view.stacks))
            or (live and (hand.actor, hand.legal_actions() if view.legal_actions else ()) !=
                (view.actor, view.legal_actions))):
        started = [stack + chips for stack, chips in zip(view.stacks, view.contributed)]
        plays = ", ".join(f"{name} {value}" for name, value in config.stakes.to_dict().items() if value is not None)
        raise ValueError(f"the replay of the hand does not match the view: the hand started from stacks {started} "
                         f"with chips in {list(view.contributed)}, seat {view.actor} to act "
                         f"({_names(view.legal_actions)}); replayed at stacks {list(config.stacks)}, stakes ({plays}) "
                         f"and raise cap {config.rules.raise_cap} it has stacks {hand.stacks}, chips in "
                         f"{hand.contributed}, seat {hand.actor} to act ({_names(hand.legal_actions())})")
    return hand


def _names(actions: tuple[Action, ...]) -> str:
    """``actions`` by name, for a message."""
    return ", ".join(action.name.lower() for action in actions) or "no action"
