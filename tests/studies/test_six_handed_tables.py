"""``studies/six_handed_tables.py``: the agent at six-handed tables, its standings row gathered."""

from __future__ import annotations

import csv

SCRIPT = "six_handed_tables"


def test_each_table_gets_the_agents_row_over_every_rotation(tmp_path, study):
    out = tmp_path / "tables"
    result = study(SCRIPT).run("--agent", "tag", "--tables", "b", "--deals", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    with open(out / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["table"], row["agent"], row["hands"]) for row in rows] == [("b", "tag", "12")]
    assert float(rows[0]["ci95_low"]) <= float(rows[0]["bb_per_100"]) <= float(rows[0]["ci95_high"])
    with open(out / "table_b" / "standings.csv", newline="") as handle:
        seated = {row["agent"] for row in csv.DictReader(handle)}
    assert seated == {"tag", "random", "maniac", "check_raiser", "razz_heuristic", "monte_carlo"}


def test_bad_input_exits_2_naming_it_without_a_traceback(tmp_path, study):
    cases = ((["--agent", "tag", "--deals", "0"], "--deals"), (["--agent", "no_such_agent"], "no_such_agent"),
             (["--agent", "tag", "--tables", "c"], "unknown table 'c'; the tables are a, b"),
             (["--run", str(tmp_path)], str(tmp_path)))
    for args, named in cases:
        study(SCRIPT).assert_refuses(args, named, tmp_path / "o")
