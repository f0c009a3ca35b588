"""``studies/heads_up_field.py``: one duplicate match per opponent, gathered into results.csv."""

from __future__ import annotations

import csv

SCRIPT = "heads_up_field"


def test_each_opponent_gets_a_row_of_the_agents_duplicate_result(tmp_path, study):
    out = tmp_path / "eval"
    result = study(SCRIPT).run("--agent", "random", "--opponents", "calling_station", "rock", "--deals", "3",
                                    "--out", str(out))
    assert result.returncode == 0, result.stderr
    with open(out / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["opponent"] for row in rows] == ["calling_station", "rock"]
    assert {row["hands"] for row in rows} == {"6"}


def test_bad_input_exits_2_naming_it_without_a_traceback(tmp_path, study):
    cases = ((["--agent", "random", "--deals", "0"], "--deals"), (["--agent", "no_such_agent"], "no_such_agent"),
             (["--run", str(tmp_path)], str(tmp_path)), (["--deals", "3"], "exactly one of --agent"),
             (["--agent", "random", "--run", str(tmp_path)], "exactly one of --agent"))
    for args, named in cases:
        study(SCRIPT).assert_refuses(args, named, tmp_path / "o")


def test_variant_plays_another_game(tmp_path, study):
    out = tmp_path / "stud"
    result = study(SCRIPT).run("--agent", "tag", "--opponents", "rock", "--deals", "2", "--variant", "stud",
                                    "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "variant: stud" in (out / "rock.yaml").read_text()
    refused = study(SCRIPT).run("--agent", "ppo_razz", "--opponents", "rock", "--variant", "stud",
                                     "--out", str(tmp_path / "o"))
    assert refused.returncode == 2 and "cannot be seated at stud" in refused.stderr
