"""``studies/minirazz_equilibrium.py``: a smoke run of every method on the tiny game, resumed, and its report."""

from __future__ import annotations

import csv
import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("numba", reason="the learned methods train on the batched engine")

from razz_env.solve.best_response import exploitability  # noqa: E402
from razz_env.solve.policy import TabularPolicy  # noqa: E402

SMOKE = ["--game", "minirazz_tiny", "--measure-every", "2"]


def curve(folder):
    with open(folder / "curve.csv", newline="") as handle:
        return list(csv.DictReader(handle))


LEARNED = ("ppo", "fsp", "mmd_moving")


@pytest.mark.parametrize("method", [*LEARNED, "double_oracle", "mccfr"])
def test_a_run_measures_exactly_resumes_with_a_larger_budget_and_reports(study, tmp_path, method):
    out = str(tmp_path)
    first = study("minirazz_equilibrium").run("--method", method, "--minutes", "0.05", "--output", out, *SMOKE)
    assert first.returncode == 0, first.stderr
    folder = tmp_path / method / "seed1"
    rows = curve(folder)
    assert rows and 0 < float(rows[-1]["mbb"]) < 1000
    assert float(rows[-1]["cpu_minutes"]) >= 0.05
    done = study("minirazz_equilibrium").run("--method", method, "--minutes", "0.05", "--output", out, *SMOKE)
    assert done.returncode == 0 and "has its 0.05 CPU minutes or 0 steps already" in done.stdout
    if method in LEARNED:  # a learned run goes on from its checkpoint: steps and CPU minutes carry on
        larger = f"{float(rows[-1]['cpu_minutes']) + 0.05:.3f}"  # the first run may overshoot 0.05 by an update
        more = study("minirazz_equilibrium").run("--method", method, "--minutes", larger, "--output", out, *SMOKE)
        assert more.returncode == 0, more.stderr
        longer = curve(folder)
        assert longer[:len(rows)] == rows and len(longer) > len(rows)
        assert int(longer[-1]["steps"]) > int(rows[-1]["steps"])
        assert float(longer[-1]["cpu_minutes"]) >= float(larger)
        assert json.loads((folder / "state.json").read_text())["update"] > 0
    policy = TabularPolicy.load(folder / "policy.npz")
    assert policy.exploitability_mbb == pytest.approx(exploitability(policy.game, policy).mbb)
    assert policy.exploitability_mbb == pytest.approx(float(curve(folder)[-1]["mbb"]), abs=1e-3)
    assert (folder / "final.pt").exists() == (method in LEARNED)
    reported = study("minirazz_equilibrium").run("--report", "--output", out)
    assert reported.returncode == 0, reported.stderr
    with open(tmp_path / "table.csv", newline="") as handle:
        table, = list(csv.DictReader(handle))
    assert table["method"] == method and table["mbb_at_5_cpu_min"] == "" and float(table["last_mbb"]) > 0
    assert table["role"] == "result"
    docs = tmp_path / "docs"
    published = study("minirazz_equilibrium").run("--report", "--output", out, "--publish", str(docs))
    assert published.returncode == 0, published.stderr
    assert sorted(p.name for p in (docs / method / "seed1").iterdir()) == ["args.json", "curve.csv", "settings.json"]
    assert (docs / method / "seed1" / "curve.csv").read_text() == (folder / "curve.csv").read_text()
    assert (docs / "table.csv").read_text() == (tmp_path / "table.csv").read_text()
    assert (tmp_path / "equilibrium.png").stat().st_size > 1000


@pytest.mark.parametrize("args, named", [
    (["--method", "nfsp"], "--method: unknown 'nfsp'"),
    (["--set", "ent_coef=0.1"], "--set: name the run with --tag"),
    (["--set", "entropy=0.1", "--tag", "x"], "--set: expected name=value with a trainer setting's name"),
    (["--set", "ent_coef=lots", "--tag", "x"], "--set ent_coef: expected a float, got 'lots'"),
    (["--method", "cfr_plus", "--seed", "2"], "--seed: cfr_plus is deterministic"),
    (["--method", "mccfr", "--set", "ent_coef=0.1", "--tag", "x"], "--set: mccfr is not a trainer"),
    (["--minutes", "0"], "--minutes: must be more than 0, got 0"),
    (["--report"], "--report: no run in"),
])
def test_bad_settings_exit_2_naming_them(study, tmp_path, args, named):
    study("minirazz_equilibrium").assert_refuses([*args, "--output", str(tmp_path / "out"), *SMOKE], named)


def test_a_run_stopped_by_steps_repeats_exactly(study, tmp_path):
    for name in ("a", "b"):
        ran = study("minirazz_equilibrium").run("--method", "mmd", "--max-steps", "65536", "--minutes", "5",
                                                "--output", str(tmp_path / name), *SMOKE)
        assert ran.returncode == 0, ran.stderr
    first, second = (TabularPolicy.load(tmp_path / name / "mmd" / "seed1" / "policy.npz") for name in "ab")
    assert first.header()["sha256"] == second.header()["sha256"]
    assert [row["steps"] for row in curve(tmp_path / "a" / "mmd" / "seed1")][-1] == "65536"


def test_a_run_with_other_settings_in_the_same_folder_is_refused(study, tmp_path):
    out = str(tmp_path)
    ran = study("minirazz_equilibrium").run("--method", "ppo", "--minutes", "0.02", "--output", out, *SMOKE)
    assert ran.returncode == 0, ran.stderr
    state_path = tmp_path / "ppo" / "seed1" / "state.json"
    state = json.loads(state_path.read_text())
    state["settings"]["ent_coef"] = 0.5  # as if the method's settings had changed since the run began
    state_path.write_text(json.dumps(state))
    rows = curve(tmp_path / "ppo" / "seed1")
    for minutes in ("0.01", "0.1"):  # a budget the folder's run has spent (it is not that run's), and a larger one
        study("minirazz_equilibrium").assert_refuses(["--method", "ppo", "--minutes", minutes, "--output", out,
                                                      *SMOKE], "holds a run with other settings")
    assert curve(tmp_path / "ppo" / "seed1") == rows
