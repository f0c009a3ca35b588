"""``studies/duplicate_vs_plain.py``: both dealings of each pairing measured, bad input refused in one line."""

from __future__ import annotations


def test_each_pairing_gets_a_row_with_both_dealings_and_their_ratio(study):
    result = study("duplicate_vs_plain").run("--hands", "40", "--pairings", "razz_heuristic:random", "tag:rock")
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()[1:]
    assert [row.split()[:3] for row in rows] == [["razz_heuristic", "vs", "random"], ["tag", "vs", "rock"]]
    assert all(row.count("±") == 2 and row.endswith("x") for row in rows)


def test_the_help_gives_each_fields_docstring_and_default(study):
    result = study("duplicate_vs_plain").run("--help")
    assert "hands per pairing and dealing mode" in result.stdout and "(default: 0)" in result.stdout
    assert "at least 2;" in result.stdout and "default: 10000)" in result.stdout


def test_bad_input_exits_2_naming_it(study):
    for args, named in ((["--hands", "1"], "--hands: must be at least 2, got 1"),
                        (["--pairings", "tag"], "AGENT:OPPONENT"),
                        (["--pairings", "tag:nobody"], "unknown agent 'nobody'"), (["--hands", "x"], "--hands")):
        study("duplicate_vs_plain").assert_refuses(args, named)
