"""Tournament reports: standings ranked by bb/100 (rating its own column), crosstable text colours, CI plot."""

from __future__ import annotations

import csv
import json
import math

import pytest

pytest.importorskip("matplotlib", reason="the reports need the eval extra")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.report import (
    ci_figure,
    crosstable_figure,
    format_terminal,
    standings,
    text_colour,
    write_reports,
)
from razz_env.evaluate.runner import PairingResult, TournamentResult
from razz_env.evaluate.stats import WinRate

LABELS = ["random", "calling_station", "razz_heuristic"]
# bb/100 of row against column: the station beats random narrowly, the heuristic crushes both.
TABLE = {(0, 1): -9.0, (0, 2): -120.0, (1, 2): -135.0}


def _result() -> TournamentResult:
    """A finished round robin whose openskill ratings order the agents unlike their bb/100 (as in
    configs/tournament_plain.yaml, where random's rating is above the station's)."""
    config = TournamentConfig.from_dict({"agents": LABELS, "name": "report_test"})
    pairings = []
    for (a, b), rate in TABLE.items():
        pairings.append(PairingResult(a, b, WinRate(500, rate, 150.0), WinRate(1000, rate, 220.0), 1000))
        pairings.append(PairingResult(b, a, WinRate(500, -rate, 150.0), WinRate(1000, -rate, 220.0), 1000))
    field = {0: -64.5, 1: -63.0, 2: 127.5}
    pairings += [PairingResult(i, None, WinRate(1000, rate, 150.0), WinRate(2000, rate, 220.0), 2000)
                 for i, rate in field.items()]
    ratings = {0: 12.0, 1: 3.0, 2: 30.0}
    rows = [{"agent": LABELS[i], "bb_per_100": field[i], "ci95": 9.3, "hands": 2000, "rating_mu": ratings[i] + 6,
             "rating_sigma": 2.0, "rating": ratings[i]} for i in (2, 0, 1)]  # in rating order, as summarised
    return TournamentResult(config, LABELS, pairings, rows, [], 6, 6)


def test_standings_rank_by_bb_per_100_and_keep_the_rating_as_a_column():
    ranked = standings(_result())
    assert [(row["rank"], row["agent"]) for row in ranked] == [(1, "razz_heuristic"), (2, "calling_station"),
                                                               (3, "random")]
    assert [row["rating"] for row in ranked] == [30.0, 3.0, 12.0]
    assert list(ranked[0])[:2] == ["rank", "agent"]


def test_unplayed_agents_rank_last():
    result = _result()
    result.standings[0] = {**result.standings[0], "bb_per_100": math.nan}
    assert standings(result)[-1]["agent"] == "razz_heuristic"


def test_terminal_csv_and_json_share_the_bb_per_100_ranking(tmp_path):
    result = _result()
    lines = format_terminal(result).splitlines()
    table = lines[lines.index(next(line for line in lines if line.startswith("rank"))) + 1:][:3]
    assert [line.split()[:2] for line in table] == [["1", "razz_heuristic"], ["2", "calling_station"],
                                                     ["3", "random"]]
    assert table[1].split()[-1] == "3.00"  # the rating column
    write_reports(result, tmp_path, plots=False)
    with open(tmp_path / "standings.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["rank"], row["agent"]) for row in rows] == [("1", "razz_heuristic"), ("2", "calling_station"),
                                                             ("3", "random")]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [row["agent"] for row in summary["standings"]] == ["razz_heuristic", "calling_station", "random"]


def test_text_colour_follows_cell_luminance():
    assert text_colour((0.02, 0.19, 0.38)) == "white"  # dark blue
    assert text_colour((0.4, 0.0, 0.12)) == "white"  # dark red
    assert text_colour((0.97, 0.97, 0.97)) == "black"  # near white
    assert text_colour((0.96, 0.64, 0.51)) == "black"  # light red


def test_crosstable_numbers_are_white_on_dark_cells_and_black_on_light_ones():
    fig = crosstable_figure(_result())
    try:
        ax = fig.axes[0]
        image = ax.images[0]
        colours = {}
        for text in ax.texts:
            x, y = (round(v) for v in text.get_position())
            colours[(y, x)] = matplotlib.colors.to_hex(text.get_color())
            cell = image.cmap(image.norm(image.get_array()[y, x]))
            assert text.get_color() == text_colour(cell)
        assert colours[(1, 2)] == "#ffffff" and colours[(2, 1)] == "#ffffff"  # -135 and +135: darkest cells
        assert colours[(0, 1)] == "#000000"  # -9: a pale cell
        assert "bb/100" in ax.get_title()
    finally:
        plt.close(fig)


def test_ci_plot_is_titled_in_bb_per_100():
    fig = ci_figure(_result())
    try:
        ax = fig.axes[0]
        assert "bb/100" in ax.get_title() and "bb/100" in ax.get_xlabel()
    finally:
        plt.close(fig)


def test_plots_are_written(tmp_path):
    paths = {p.name for p in write_reports(_result(), tmp_path)}
    assert {"crosstable.png", "ci.png", "standings.csv", "summary.json"} <= paths


def _round_robin(labels: list[str], rate) -> TournamentResult:
    """A finished round robin of ``labels`` where ``rate(a, b)`` is a's bb/100 against b."""
    config = TournamentConfig.from_dict({"agents": labels, "name": "wide"})
    pairings = []
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            pairings.append(PairingResult(a, b, WinRate(500, rate(a, b), 150.0), WinRate(1000, rate(a, b), 220.0),
                                          1000))
            pairings.append(PairingResult(b, a, WinRate(500, -rate(a, b), 150.0),
                                          WinRate(1000, -rate(a, b), 220.0), 1000))
    field = {i: sum(rate(i, j) if i < j else -rate(j, i) for j in range(len(labels)) if j != i) / len(labels)
             for i in range(len(labels))}
    pairings += [PairingResult(i, None, WinRate(1000, r, 150.0), WinRate(2000, r, 220.0), 2000)
                 for i, r in field.items()]
    rows = [{"agent": labels[i], "bb_per_100": field[i], "ci95": 9.3, "hands": 2000, "rating_mu": 6.0,
             "rating_sigma": 2.0, "rating": 0.0} for i in range(len(labels))]
    return TournamentResult(config, labels, pairings, rows, [], 6, 6)


def test_the_terminal_report_of_the_default_lineup_fits_120_columns():
    from razz_env.evaluate.config import DEFAULT_AGENTS

    labels = [str(label) for label in DEFAULT_AGENTS]
    text = format_terminal(_round_robin(labels, lambda a, b: -123.4 * (b - a)))
    assert max(len(line) for line in text.splitlines()) <= 120
    assert "crosstable: bb/100 of row agent against column agent" in text
    wider = format_terminal(_round_robin([f"agent_{i}" for i in range(20)], lambda a, b: 1.0))
    assert max(len(line) for line in wider.splitlines()) <= 120 and "see crosstable.png" in wider


def test_the_default_lineup_seats_no_two_agents_that_play_alike_heads_up():
    from razz_env.evaluate.config import DEFAULT_AGENTS

    assert "ppo_razz_pool" in DEFAULT_AGENTS and "ppo_razz_multiway" not in DEFAULT_AGENTS


def test_the_ci_plot_of_a_big_round_robin_is_sized_sanely_and_clips_far_off_pairings():
    big = _round_robin([f"agent_{i}" for i in range(13)], lambda a, b: 10.0 * (b - a))
    fig = ci_figure(big)
    try:
        width, height = fig.get_size_inches() * 110
        assert len(fig.axes[0].get_yticks()) == 13 and height < 1000 and width < 1000
    finally:
        plt.close(fig)
    few = _round_robin(["a", "b", "c", "d"], lambda a, b: 400.0 if (a, b) == (0, 3) else 5.0)
    fig = ci_figure(few)
    try:
        ax = fig.axes[0]
        assert len(ax.get_yticks()) == 4 + 6
        left, right = ax.get_xlim()
        assert right < 400 and left > -400 and right - left > 50
        assert [text.get_text() for text in ax.texts] == ["+400"]
    finally:
        plt.close(fig)
