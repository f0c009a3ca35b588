"""``razz bench``: the agent against its game's reference field and its bound, reported as bench.json and
bench.html; bad input is one line, exit 2 and nothing written."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex

import numpy as np
import pytest

import razz_env.bench as bench
from razz_env.agents.base import BaseAgent
from razz_env.agents.registry import register
from razz_env.cli import main
from razz_env.encoding.actions import BRING_IN, CHECK_CALL, NUM_ACTIONS
from razz_env.encoding.interface import Declaration, Observation
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.config import DEFAULT_LINEUPS

pytestmark = pytest.mark.xdist_group("bench")
FIGURES = ("", "aivat_")


@register("bench_test_silent", replace=True)
class Silent(BaseAgent):
    """Calls down, and states no policy."""

    name = "bench_test_silent"
    declaration = Declaration()

    def act(self, observation: Observation) -> int:
        return self.first_legal(observation, (CHECK_CALL, BRING_IN))


@register("bench_test_station", replace=True)
class Station(Silent):
    """Calls down, and states its one-hot policy."""

    name = "bench_test_station"
    declaration = Declaration(observes=(), states_policy=True)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        out = np.zeros(NUM_ACTIONS)
        out[self.act(observation)] = 1.0
        return out


@register("bench_test_razz_only", replace=True)
class RazzOnly(Station):
    name = "bench_test_razz_only"
    declaration = Declaration(observes=(), variants=("razz",), states_policy=True)


def _razz(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["bench", *argv])
    return code, out.getvalue()


@pytest.fixture(scope="module")
def heuristic(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, str]:
    """A tiny bench of razz_heuristic against the whole razz field (4 hands each, 2 LBR deals): its bench.json,
    bench.html and terminal output."""
    folder = tmp_path_factory.mktemp("bench") / "razz_heuristic"
    code, out = _razz("razz_heuristic", "--hands", "4", "--lbr-deals", "2", "--workers", "1", "--output",
                      str(folder), "--quiet")
    assert code == 0
    return (json.loads((folder / "bench.json").read_text()), (folder / "bench.html").read_text(), out)


@pytest.fixture
def small_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """A field of two cheap members, so a bench plays in seconds."""
    monkeypatch.setattr(bench, "DEFAULT_LINEUPS", {**DEFAULT_LINEUPS, "razz": ("random", "calling_station")})


def _ordered(row: dict) -> None:
    for prefix in FIGURES:
        value, low, high = (row[f"{prefix}{name}"] for name in ("bb_per_100", "ci95_low", "ci95_high"))
        assert value is not None and low is not None and high is not None, row
        assert low <= value <= high, row


def test_a_tiny_bench_reports_every_field_member_and_the_bound_with_ordered_cis(heuristic) -> None:
    data, page, out = heuristic
    assert [row["opponent"] for row in data["field"]] == [a for a in DEFAULT_LINEUPS["razz"] if a != "razz_heuristic"]
    assert {"agent", "spec", "fingerprint", "variant", "package_version", "hands", "deals", "seed", "field", "bound",
            "summary", "reproduce"} <= set(data)
    assert data["agent"] == "razz_heuristic" and data["variant"] == "razz" and data["hands"] == 4
    assert data["fingerprint"]["source_sha256"] and data["package_version"]
    for row in data["field"]:
        assert row["hands"] == 4 and row["seed"] == 0 and row["verdict"] in ("wins", "loses", "undecided")
        assert row["reproduce"].startswith("python -c ") and row["fingerprint"]
        _ordered(row)
    bound = data["bound"]
    assert bound["method"] == "lbr" and bound["hands"] == 4 and bound["valid"] and "lower bound" in bound["kind"]
    assert bound["reproduce"].startswith("razz exploit --agent razz_heuristic --method lbr --variant razz --deals 2")
    _ordered(bound)
    assert data["reproduce"] == ("razz bench razz_heuristic --variant razz --hands 4 --seed 0 --best-response lbr "
                                 "--lbr-deals 2")
    assert data["summary"] in out and "bound: lbr" in out and out.count("\n") > len(data["field"])


def test_the_page_is_self_contained_with_the_table_picture_and_commands(heuristic) -> None:
    data, page, _ = heuristic
    assert page.startswith("<!doctype html>") and "data:image/png;base64," in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert page.count("<tr>") == 1 + len(data["field"]) + 1  # the header, the field, the bound
    for row in data["field"]:
        assert f"<td>{row['opponent']}</td>" in page
    assert "razz exploit --agent razz_heuristic" in page and "razz bench razz_heuristic" in page


def test_a_pairings_reproduce_command_gives_its_figures(heuristic) -> None:
    data, _, _ = heuristic
    row = next(row for row in data["field"] if row["opponent"] == "random")
    code = shlex.split(row["reproduce"])[2]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})  # noqa: S102 - the command the report wrote
    assert f"{row['bb_per_100']:+.2f} bb/100" in out.getvalue()


def test_the_bounds_reproduce_command_gives_its_figure(heuristic, tmp_path) -> None:
    data, _, _ = heuristic
    words = shlex.split(data["bound"]["reproduce"])
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*words[1:], "--output", str(tmp_path), "--quiet", "--no-plots"]) == 0
    figure = json.loads((tmp_path / "exploit.json").read_text())
    assert figure["bb_per_100"] == data["bound"]["bb_per_100"] and figure["hands"] == data["bound"]["hands"]


def test_the_field_leaves_out_the_agent_by_label_or_type() -> None:
    assert "tag" not in bench.reference_field({"type": "tag", "label": "mine"}, "stud")
    assert bench.reference_field("ppo_razz", "razz") == tuple(a for a in DEFAULT_LINEUPS["razz"] if a != "ppo_razz")
    assert bench.reference_field("somebody_else", "stud8") == DEFAULT_LINEUPS["stud8"]


@pytest.mark.parametrize(("argv", "message"), [
    (["razz_heuristic", "--variant", "holdem"], "razz bench: --variant: 'holdem' has no reference field; one of razz"),
    (["razz_heuristic", "--variant", "minirazz"], "--variant: 'minirazz' has no reference field"),
    (["bench_test_razz_only", "--variant", "stud"], "--variant: agent 'bench_test_razz_only' plays razz at any "
                                                    "number of seats; it cannot be seated at stud"),
    (["nobody"], "razz bench: AGENT: unknown agent 'nobody'"),
    (["razz_heuristic", "--hands", "3"], "--hands: duplicate dealing plays each deal twice, seats swapped; give an "
                                         "even number, got 3"),
    (["razz_heuristic", "--hands", "0"], "--hands: must be at least 2, got 0"),
    (["razz_heuristic", "--lbr-deals", "0"], "--lbr-deals: must be at least 1, got 0"),
    (["bench_test_silent", "--best-response", "lbr"], "--best-response: 'bench_test_silent' states no policy"),
])
def test_bad_input_is_one_line_and_exit_2_with_nothing_written(tmp_path, capsys, argv, message) -> None:
    folder = tmp_path / "bench"
    assert main(["bench", *argv, "--output", str(folder)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert not folder.exists()


def test_a_report_into_a_file_is_refused_and_the_file_kept(tmp_path, capsys) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine")
    assert main(["bench", "random", "--output", str(taken)]) == 2
    assert "--output: " in capsys.readouterr().err and taken.read_text() == "mine"


def test_without_the_train_extra_a_learned_bound_is_refused_naming_the_extra(monkeypatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None)
    with pytest.raises(ConfigError, match=r"needs sb3_contrib.*razz-env\[train\].*--best-response none"):
        bench.bound_method("auto", False, "silent")
    assert bench.bound_method("auto", True, "stated") == "lbr" and bench.bound_method("none", False, "x") == "none"


def test_an_agent_that_states_no_policy_can_be_benched_without_a_bound(tmp_path, small_field) -> None:
    code, out = _razz("bench_test_silent", "--hands", "4", "--best-response", "none", "--workers", "1", "--output",
                      str(tmp_path), "--quiet")
    data = json.loads((tmp_path / "bench.json").read_text())
    assert code == 0 and [row["opponent"] for row in data["field"]] == ["random", "calling_station"]
    assert data["bound"] == {"method": "none", "kind": "not measured (--best-response none)"}
    assert "exploitability not bounded" in data["summary"] and "bound: " not in out
    assert "razz exploit" not in (tmp_path / "bench.html").read_text() and not (tmp_path / bench.BOUND_FOLDER).exists()


def test_an_agent_that_states_no_policy_gets_a_learned_best_response(tmp_path, small_field, monkeypatch) -> None:
    """auto: a learned best response (its training replaced by a stand-in, so the test is quick), measured on fresh
    deals and reported as such."""
    pytest.importorskip("sb3_contrib", reason="the learned best response needs the train extra")
    import razz_env.train.best_response as best_response

    def trained(target, *, steps, output, seed, variant, fresh, progress):
        return {"spec": {"type": "bench_test_station"}, "steps": steps, "train_seconds": 1.0, "output": str(output)}

    monkeypatch.setattr(best_response, "train_best_response", trained)
    code, _ = _razz("bench_test_silent", "--hands", "4", "--rl-steps", "64", "--workers", "1", "--output",
                    str(tmp_path), "--quiet")
    bound = json.loads((tmp_path / "bench.json").read_text())["bound"]
    assert code == 0 and bound["method"] == "rl" and "learned best response" in bound["kind"]
    assert bound["train_steps"] == 64 and bound["hands"] == 4 and bound["seed"] == -1
    assert bound["reproduce"].endswith("--method rl --variant razz --deals 2 --seed 0 --aivat --fresh --steps 64")
    _ordered(bound)


def test_the_field_plays_at_the_default_tournaments_table_where_the_zoo_agents_were_made(tmp_path, monkeypatch):
    """A sampled CFR agent made at 1,000-chip stacks is benched (its field met it at 200 before, and refused it)."""
    pytest.importorskip("numba", reason="the sampled solver's policies read the batched engine's abstraction")
    monkeypatch.setattr(bench, "DEFAULT_LINEUPS", {**DEFAULT_LINEUPS, "stud8": ("random", "calling_station")})
    code, _ = _razz("mccfr_stud8", "--hands", "4", "--best-response", "none", "--workers", "1", "--output",
                    str(tmp_path), "--quiet")
    data = json.loads((tmp_path / "bench.json").read_text())
    assert code == 0 and [row["opponent"] for row in data["field"]] == ["random", "calling_station"]
    assert all("table={'variant': 'stud8', 'stacks': 1000}" in row["reproduce"] for row in data["field"])
