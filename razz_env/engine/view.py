"""What one seat may see: its own cards, every up card, dead cards, chips and the betting so far.

A :class:`SeatView` is built from a :class:`HandState` and holds nothing hidden
from that seat: other seats' down cards never enter it. Agents, encoders and the
text renderer read views, so a leak would have to be written here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from razz_env.engine.actions import Action

if TYPE_CHECKING:
    from razz_env.engine.state import HandState, HistoryEntry


@dataclass(frozen=True, slots=True)
class SeatView:
    """The public state of a hand plus one seat's private cards.

    ``up_cards[s]`` are seat ``s``'s face-up cards (door first), for every seat,
    folded seats included (their up cards are also ``dead_cards``). ``ante``, ``bring_in`` and ``big_bet`` are the
    table's stakes (the big bet is what ``bet_big`` puts in), so what each action costs follows from the view.
    """

    seat: int
    num_seats: int
    variant: str
    street: int
    own_down: tuple[int, ...]
    own_up: tuple[int, ...]
    up_cards: tuple[tuple[int, ...], ...]
    dead_cards: tuple[int, ...]
    community: int | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    pot: int
    actor: int | None
    to_call: int
    level: int
    bet_count: int
    bet_size: int
    ante: int
    bring_in: int
    big_bet: int
    bring_in_seat: int | None
    history: tuple[HistoryEntry, ...]
    legal_actions: tuple[Action, ...]
    is_over: bool

    @property
    def own_cards(self) -> tuple[int, ...]:
        """Every card the seat holds (down and up), plus the community card if dealt."""
        extra = (self.community,) if self.community is not None else ()
        return self.own_down + self.own_up + extra

    @property
    def live_opponents(self) -> list[int]:
        """Seats other than this one that have not folded."""
        return [s for s in range(self.num_seats) if s != self.seat and not self.folded[s]]


def seat_view(hand: HandState, seat: int) -> SeatView:
    """The view of ``hand`` from ``seat``."""
    n = hand.num_seats
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not at this table (seats 0-{n - 1})")
    is_actor = hand.actor == seat
    view = SeatView(
        seat=seat,
        num_seats=n,
        variant=hand.config.variant.name,
        street=hand.street,
        own_down=tuple(hand.down_cards(seat)),
        own_up=tuple(hand.up_cards(seat)),
        up_cards=tuple(tuple(hand.up_cards(s)) for s in range(n)),
        dead_cards=tuple(hand.dead_cards()),
        community=hand.community,
        stacks=tuple(hand.stacks),
        bets=tuple(hand.bets),
        contributed=tuple(hand.contributed),
        folded=tuple(hand.folded),
        all_in=tuple(hand.is_all_in(s) for s in range(n)),
        pot=hand.pot,
        actor=hand.actor,
        to_call=min(hand.level - hand.bets[seat], hand.stacks[seat]) if not hand.is_over else 0,
        level=hand.level,
        bet_count=hand.bet_count,
        bet_size=hand.increment,
        ante=hand.config.stakes.ante,
        bring_in=hand.config.stakes.bring_in,
        big_bet=hand.config.big_bet,
        bring_in_seat=hand.bring_in_seat,
        history=tuple(hand.history),
        legal_actions=hand.legal_actions() if is_actor else (),
        is_over=hand.is_over,
    )
    return _without_unknown(hand, view) if hand.unknown else view


def _without_unknown(hand: HandState, view: SeatView) -> SeatView:
    """``view`` less the placeholders of a replayed record's unknown cards: no one saw those, so no one may."""
    up = hand.config.layout.up

    def known(seat: int, positions: range) -> tuple[int, ...]:
        held = hand.cards[seat]
        return tuple(held[p] for p in positions if p < len(held) and hand.is_known(seat, p))

    def ups(seat: int) -> tuple[int, ...]:
        return known(seat, range(up.start, up.stop))

    seat, size = view.seat, hand.config.variant.cards_per_seat
    own_down = known(seat, range(up.start)) + known(seat, range(up.stop, size))
    dead = tuple(c for s in range(hand.num_seats) if hand.folded[s] for c in ups(s))
    community = view.community if hand.is_known(-1, 0) else None
    return replace(view, own_down=own_down, own_up=ups(seat), up_cards=tuple(ups(s) for s in range(hand.num_seats)),
                   dead_cards=dead, community=community)
