"""Sanity checks on strength (loose thresholds, seeded, duplicate deals): the smart baselines win chips.

Measured at the time of writing (bb/100 = big bets won per 100 hands): razz_heuristic about
+20 against random and +45 against calling_station; monte_carlo about +70 against both.
"""

from __future__ import annotations

from agents.registry import make_agent


def test_heuristic_beats_random(bb_per_100) -> None:
    assert bb_per_100(make_agent("razz_heuristic", seed=1), make_agent("random", seed=2), deals=1000) > 8


def test_heuristic_beats_calling_station(bb_per_100) -> None:
    assert bb_per_100(make_agent("razz_heuristic", seed=1), make_agent("calling_station"), deals=1000) > 20


def test_monte_carlo_beats_calling_station(bb_per_100) -> None:
    hero = make_agent({"type": "monte_carlo", "samples": 100}, seed=1)
    assert bb_per_100(hero, make_agent("calling_station"), deals=150) > 20
