"""``razz_env.acceptance``: the agent under test named exactly once, and the rows written as one CSV."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from razz_env.acceptance import agent_under_test, write_results
from razz_env.engine.errors import ConfigError


@pytest.mark.parametrize(("agent", "run", "deals", "message"), [
    (None, None, 10, "give exactly one of --agent"),
    ("ppo_razz", Path("runs/x"), 10, "give exactly one of --agent"),
    ("ppo_razz", None, 0, "--deals: expected a positive number of deals, got 0"),
])
def test_the_agent_is_named_once_and_the_deals_are_counted(agent, run, deals, message):
    with pytest.raises(ConfigError, match=message):
        agent_under_test(agent, run, "final.zip", deals, 2)


def test_a_registered_name_is_the_agent_itself():
    assert agent_under_test("razz_heuristic", None, "final.zip", 10, 6) == "razz_heuristic"


def test_the_rows_become_one_csv(tmp_path):
    rows = [{"opponent": "random", "bb_per_100": 12.5}, {"opponent": "rock", "bb_per_100": -3.0}]
    write_results(rows, tmp_path)
    with open(tmp_path / "results.csv", newline="") as handle:
        assert list(csv.DictReader(handle)) == [{k: str(v) for k, v in row.items()} for row in rows]
