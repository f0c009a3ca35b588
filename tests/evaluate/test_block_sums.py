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


def test_blocks_merged_give_the_rates_of_every_deal_at_once() -> None:
    """Three blocks' sums merged (``Sums.total``) give the mean and sample spread of all their deals' payoffs,
    computed here directly; the AIVAT rate too, and a block without AIVAT adds no AIVAT deal."""
    import random
    import statistics

    from razz_env.evaluate.block_sums import Sums

    rng = random.Random(5)
    blocks, deal_means, corrected_means = [], [], []
    for _ in range(3):
        deals = rng.randint(2, 6)
        tables, corrected = [], []
        for deal in range(deals):
            won = [rng.randint(-40, 40) for _ in range(2)]
            fixed = [rng.uniform(-20, 20) for _ in range(2)]
            tables += [table(deal, (0, 1), [won[0], -won[0]]), table(deal, (1, 0), [won[1], -won[1]])]
            corrected += [[fixed[0], -fixed[0]], [fixed[1], -fixed[1]]]
            deal_means.append((won[0] - won[1]) / 2 / 10)
            corrected_means.append((fixed[0] - fixed[1]) / 2 / 10)
        blocks.append(summarise_tables(tables, seats=2, deals=deals, big_bet=10, corrected=corrected))
    total = Sums.total(blocks, 0)
    assert (total.deals, total.hands, total.aivat_deals) == (len(deal_means), 2 * len(deal_means), len(deal_means))
    assert total.per_deal.mean_bb100 == pytest.approx(100 * statistics.fmean(deal_means))
    assert total.per_deal.sd_bb100 == pytest.approx(100 * statistics.stdev(deal_means))
    assert total.aivat_per_deal.mean_bb100 == pytest.approx(100 * statistics.fmean(corrected_means))
    assert total.aivat_per_deal.sd_bb100 == pytest.approx(100 * statistics.stdev(corrected_means))
    raw_only = {key: value for key, value in blocks[0].items() if not key.startswith("aivat_")}
    assert (Sums.total(blocks, 1) + Sums.of(raw_only, 1)).aivat_deals == total.aivat_deals
    assert Sums().aivat_per_deal is None and Sums.of(raw_only, 0).aivat_per_deal is None
