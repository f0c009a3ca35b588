"""SeatViews: scalar views stacked into arrays read back equal, hold nothing hidden, and refuse mixed games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from razz_env.engine.config import HandConfig
from razz_env.engine.seat_views import NO_CARD, SeatViews
from razz_env.engine.state import HandState


def _decisions(variant: str, seats: int, hands: int, seed: int = 0) -> tuple[list, list]:
    """Every decision's view of ``hands`` random hands, with the hand it came from (finished)."""
    views, owners = [], []
    for deal in range(hands):
        hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seed + deal)
        chooser = random.Random(deal)
        while not hand.is_over:
            views.append(hand.view(hand.actor))
            owners.append(hand)
            hand.act(chooser.choice(hand.legal_actions()))
    return views, owners


@pytest.mark.parametrize("variant", ["razz", "stud", "stud8", "action_razz", "minirazz"])
@pytest.mark.parametrize("seats", [2, 3, 8])
def test_rows_read_back_as_the_scalar_views(variant: str, seats: int) -> None:
    if variant == "minirazz" and seats > 3:
        pytest.skip("MiniRazz deals two-suit decks to at most three seats")
    views, _ = _decisions(variant, seats, 40)
    batch = SeatViews.from_views(views)
    assert len(batch) == len(views)
    assert all(batch.view(i) == view for i, view in enumerate(views))
    subset = batch.take(np.arange(0, len(views), 3))
    assert all(subset.view(i) == views[3 * i] for i in range(len(subset)))


def test_derived_arrays_match_the_view_fields() -> None:
    views, _ = _decisions("razz", 3, 30)
    batch = SeatViews.from_views(views)
    for i, view in enumerate(views):
        assert [c for c in batch.own_down[i] if c != NO_CARD] == list(view.own_down)
        assert [c for c in batch.own_up[i] if c != NO_CARD] == list(view.own_up)
        assert [c for c in batch.own_cards[i] if c != NO_CARD] == list(view.own_cards)
        assert [c for c in batch.dead[i].ravel() if c != NO_CARD] == list(view.dead_cards)
        assert np.flatnonzero(batch.live_opponents[i]).tolist() == view.live_opponents


def test_no_hidden_card_is_reachable() -> None:
    """Every card id anywhere in a row is the seat's own or face up: other seats' down cards never enter."""
    views, hands = _decisions("stud", 4, 40)
    batch = SeatViews.from_views(views)
    for i, (view, hand) in enumerate(zip(views, hands, strict=True)):
        hidden = {c for s in range(hand.num_seats) if s != view.seat for c in hand.down_cards(s)}
        hidden |= set(hand.deck_order()[hand.dealt_count():]) if hasattr(hand, "deck_order") else set()
        seen = {int(c) for c in batch.cards[i].ravel() if c != NO_CARD} | {int(batch.community[i])}
        assert not seen & hidden


def test_mixed_games_are_refused() -> None:
    razz, _ = _decisions("razz", 2, 1)
    stud, _ = _decisions("stud", 3, 1)
    with pytest.raises(ValueError, match="one game"):
        SeatViews.from_views(razz + stud)


def test_arrays_are_read_only() -> None:
    batch = SeatViews.from_views(_decisions("razz", 2, 2)[0])
    with pytest.raises(ValueError):
        batch.cards[0, 0, 0] = 5


@pytest.mark.parametrize("variant", ["razz", "stud", "minirazz"])
def test_rows_with_other_down_cards_read_back_as_the_replaced_views(variant: str) -> None:
    """Repeated rows with the seat's down cards replaced (``-1`` for fewer) read back as the scalar views with
    ``own_down`` replaced; every other card and field is the row's."""
    import dataclasses

    views, _ = _decisions(variant, 3, 4)
    batch = SeatViews.from_views(views)
    rng = np.random.default_rng(0)
    rows = rng.integers(0, len(views), 40)
    width = batch.own_down.shape[1]
    down = np.full((len(rows), width), NO_CARD)
    expected = []
    for i, row in enumerate(rows):
        seen = {c for up in views[row].up_cards for c in up}
        count = min(width, len(views[row].own_down) + 1)
        cards = rng.choice([c for c in range(52) if c not in seen], count, replace=False)
        down[i, :count] = cards
        expected.append(dataclasses.replace(views[row], own_down=tuple(int(c) for c in cards)))
    replaced = batch.with_own_down(rows, down)
    assert len(replaced) == len(rows)
    assert [replaced.view(i) for i in range(len(rows))] == expected
    with pytest.raises(ValueError, match="down cards"):
        batch.with_own_down(rows[:1], np.zeros((1, width + 1), dtype=np.int64))
