"""``razz_env/evaluate/block_sums.py``: a block's sums, per deal (its replays averaged) and per hand, in big bets."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from razz_env.evaluate.block_sums import summarise_tables


def table(deal: int, positions: tuple[int, ...], payoffs: list[float]) -> SimpleNamespace:
    return SimpleNamespace(deal=deal, positions=positions, payoffs=payoffs)


def test_a_duplicate_deal_counts_once_as_the_mean_of_its_replays() -> None:
    """Two deals, each played in both seatings; big bet 10 chips. Position 0 wins 20 and 0 on deal 0 (mean 1 big
    bet), loses 10 and wins 30 on deal 1 (mean 1): per deal 1 + 1, per hand 2 + 0 - 1 + 3."""
    tables = [table(0, (0, 1), [20, -20]), table(0, (1, 0), [0, 0]),
              table(1, (0, 1), [-10, 10]), table(1, (1, 0), [-30, 30])]
    sums = summarise_tables(tables, seats=2, deals=2, big_bet=10)
    assert (sums["deals"], sums["hands"]) == (2, 4)
    assert sums["deal_sum"] == [2.0, -2.0] and sums["deal_sumsq"] == [2.0, 2.0]
    assert sums["hand_sum"] == [4.0, -4.0] and sums["hand_sumsq"] == [14.0, 14.0]
    assert "aivat_deal_sum" not in sums


def test_aivat_payoffs_get_the_same_sums_beside_the_raw_ones() -> None:
    tables = [table(0, (0, 1), [20, -20]), table(0, (1, 0), [0, 0])]
    sums = summarise_tables(tables, seats=2, deals=1, big_bet=10, corrected=[[5.0, -5.0], [-5.0, 5.0]])
    assert sums["aivat_deal_sum"] == [pytest.approx(0.5), pytest.approx(-0.5)]
    assert sums["aivat_hand_sumsq"] == [pytest.approx(0.5), pytest.approx(0.5)]
    assert sums["deal_sum"] == [1.0, -1.0]
