"""Win rates with confidence intervals from running sums.

Results are kept as (count, sum, sum of squares) so blocks from any number of
workers combine exactly. With duplicate dealing the sample unit is the deal
(the mean over its seat permutations); the per-hand figures of the same hands
give the plain-dealing interval for comparison.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class WinRate:
    """Mean big bets per 100 hands with a 95% normal-approximation CI."""

    samples: int
    mean_bb100: float
    sd_bb100: float

    @property
    def half_width(self) -> float:
        """Half-width of the 95% CI, in bb/100."""
        return Z95 * self.sd_bb100 / math.sqrt(self.samples) if self.samples > 1 else math.inf

    @property
    def low(self) -> float:
        return self.mean_bb100 - self.half_width

    @property
    def high(self) -> float:
        return self.mean_bb100 + self.half_width

    @property
    def significant(self) -> bool:
        """The 95% CI excludes zero."""
        return self.low > 0 or self.high < 0

    def samples_to_resolve(self, edge_bb100: float) -> int:
        """Samples needed for a 95% CI half-width of ``edge_bb100`` at this spread."""
        if edge_bb100 <= 0:
            raise ValueError(f"edge must be positive, got {edge_bb100}")
        return math.ceil((Z95 * self.sd_bb100 / edge_bb100) ** 2)


def sd_ratio(raw: WinRate, corrected: WinRate) -> float | None:
    """Raw SD over corrected (AIVAT) SD per sample: the factor a CI narrows by (its square, the samples saved);
    None when the corrected figure does not vary.

    >>> sd_ratio(WinRate(10, 0.0, 60.0), WinRate(10, 0.0, 40.0))
    1.5
    """
    return raw.sd_bb100 / corrected.sd_bb100 if corrected.sd_bb100 > 0 else None


def win_rate(count: int, total: float, total_sq: float) -> WinRate:
    """Mean and spread in bb/100 from per-sample big bets (sum and sum of squares).

    >>> round(win_rate(4, 2.0, 2.0).mean_bb100, 1)
    50.0
    """
    if count <= 0:
        return WinRate(0, 0.0, 0.0)
    mean = total / count
    variance = max(total_sq / count - mean * mean, 0.0) * count / max(count - 1, 1)
    return WinRate(count, 100.0 * mean, 100.0 * math.sqrt(variance))
