"""``studies/aivat_value_functions.py``: every scoring of the same hands gets a row; bad input refused in one line."""

from __future__ import annotations


def test_each_scoring_gets_a_row_and_the_raw_one_is_the_unit(study):
    result = study("aivat_value_functions").run("--deals", "4", "--pairing", "razz_heuristic:random",
                                                "--allowances", "0", "0.5")
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()[2:-1]
    assert [row.split("  ")[0].strip() for row in rows] == ["raw", "showdown_share v1", "equity + 0", "equity + 0.5"]
    assert rows[0].split()[-3] == "1.00"
    assert all(float(row.split()[-1]) >= 0 for row in rows)  # CPU ms a hand


def test_bad_input_exits_2_naming_it(study):
    for args, named in ((["--deals", "1"], "--deals: must be at least 2, got 1"),
                        (["--pairing", "tag"], "AGENT:OPPONENT"),
                        (["--pairing", "tag:nobody"], "unknown agent 'nobody'")):
        study("aivat_value_functions").assert_refuses(args, named)
