"""``razz solve``: the run folder it writes, what its figures mean, and the arguments it refuses."""

import csv
import json

import pytest

from razz_env.cli import main
from razz_env.solve.best_response import exploitability
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.run import OUTPUTS, read_convergence


def test_a_solve_writes_the_policy_its_convergence_and_a_summary_that_agree(tmp_path, capsys):
    out = tmp_path / "tiny"
    assert main(["solve", "--game", "minirazz_tiny", "--method", "cfr+", "--iterations", "60",
                 "--check-every", "20", "--output", str(out), "--quiet"]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(OUTPUTS)
    summary = json.loads((out / "summary.json").read_text())
    policy = TabularPolicy.load(out / "policy.npz")
    measured = exploitability(policy.game, policy)
    assert summary["exploitability_mbb"] == pytest.approx(measured.mbb, rel=1e-12)
    assert policy.exploitability_mbb == pytest.approx(measured.mbb, rel=1e-12)
    assert summary["iterations"] == policy.iterations == 60 and summary["method"] == policy.method == "cfr+"
    assert summary["counts"]["information_sets"] == policy.game.num_infosets
    history = read_convergence(out / "convergence.csv")
    assert [p.iteration for p in history] == [20, 40, 60]
    assert history[-1].mbb == pytest.approx(measured.mbb, rel=1e-5)
    assert history[0].mbb > history[-1].mbb
    assert (out / "convergence.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "exploitability" in capsys.readouterr().out


def test_a_target_stops_the_solve_once_it_is_reached(tmp_path):
    out = tmp_path / "target"
    assert main(["solve", "--game", "minirazz_tiny", "--target-mbb", "50", "--check-every", "5",
                 "--output", str(out), "--quiet", "--no-plots"]) == 0
    with open(out / "convergence.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert float(rows[-1]["exploitability_mbb"]) < 50 <= min(float(r["exploitability_mbb"]) for r in rows[:-1])
    assert not (out / "convergence.png").exists()


def test_an_earlier_solve_is_kept_unless_fresh(tmp_path, capsys):
    out = tmp_path / "kept"
    args = ["solve", "--game", "minirazz_tiny", "--iterations", "5", "--output", str(out), "--quiet", "--no-plots"]
    assert main(args) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert main(args) == 2
    assert "already holds a solve" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert main([*args[:4], "9", *args[5:], "--fresh"]) == 0
    assert json.loads((out / "summary.json").read_text())["iterations"] == 9


@pytest.mark.parametrize(("flags", "message"), [
    (["--iterations", "0"], "--iterations: must be at least 1, got 0"),
    (["--target-mbb", "-1"], "--target-mbb: must be more than 0, got -1"),
    (["--seconds", "nan"], "--seconds: expected a number more than 0, got nan"),
    ([], "give --iterations, --target-mbb or --seconds"),
    (["--seconds", "inf"], "--seconds: expected a number more than 0, got inf"),
])
def test_bad_arguments_are_one_line_and_write_nothing(tmp_path, capsys, flags, message):
    out = tmp_path / "bad"
    assert main(["solve", "--game", "minirazz_tiny", "--output", str(out), *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_an_output_that_is_a_file_is_refused(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("mine")
    assert main(["solve", "--game", "minirazz_tiny", "--iterations", "2", "--output", str(target)]) == 2
    assert "is a file" in capsys.readouterr().err and target.read_text() == "mine"


def test_minirazz_large_is_refused_at_once_with_its_estimated_size(tmp_path, capsys):
    out = tmp_path / "large"
    assert main(["solve", "--game", "minirazz_large", "--iterations", "1", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert "about 33 million public nodes (estimated" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_only_minirazz_games_can_be_solved(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "--game", "razz", "--iterations", "1"])
    assert exit_.value.code == 2 and "invalid choice: 'razz'" in capsys.readouterr().err


def test_an_interrupted_fresh_solve_keeps_the_earlier_one_and_resumes_from_its_checkpoint(tmp_path, monkeypatch,
                                                                                          capsys):
    from razz_env.solve import run

    out = tmp_path / "resumed"
    args = ["solve", "--game", "minirazz_tiny", "--method", "cfr+", "--check-every", "5", "--output", str(out),
            "--quiet", "--no-plots"]
    assert main([*args, "--iterations", "5"]) == 0
    earlier_summary = (out / "summary.json").read_bytes()
    monkeypatch.setattr(run, "CHECKPOINT_SECONDS", 0.0)
    measured = []

    def interrupt(point) -> None:
        measured.append(point.iteration)
        if point.iteration == 20:
            raise KeyboardInterrupt

    assert main([*args, "--iterations", "40", "--fresh"]) == 0  # a whole fresh run replaces the earlier one
    after_fresh = json.loads((out / "summary.json").read_text())
    assert after_fresh["iterations"] == 40 and not (out / run.CHECKPOINT).exists()
    reference = run.read_convergence(out / "convergence.csv")
    (out / "summary.json").write_bytes(earlier_summary)
    kept = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(KeyboardInterrupt):
        run.solve("minirazz_tiny", out, method="cfr+", iterations=40, check_every=5, fresh=True, plots=False,
                  report=interrupt)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != run.CHECKPOINT} == kept
    assert (out / run.CHECKPOINT).exists()
    capsys.readouterr()
    assert main([*args, "--iterations", "40"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["iterations"] == 40 and not (out / run.CHECKPOINT).exists()
    assert [(p.iteration, p.mbb) for p in run.read_convergence(out / "convergence.csv")] == [
        (p.iteration, p.mbb) for p in reference]


def test_files_a_killed_run_left_half_written_never_join_the_output(tmp_path):
    """A kill -9 while writing leaves ``.partial/``; a later run without plots moved its stale picture in."""
    out = tmp_path / "tiny"
    (out / ".partial").mkdir(parents=True)
    (out / ".partial" / "convergence.png").write_bytes(b"stale picture of another run")
    assert main(["solve", "--game", "minirazz_tiny", "--iterations", "20", "--check-every", "20", "--output",
                 str(out), "--quiet", "--no-plots"]) == 0
    assert not (out / "convergence.png").exists() and not (out / ".partial").exists()
