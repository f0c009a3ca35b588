"""``razz exploit --method exact``: the solver's exact figure for an agent, its report, and what it refuses."""

import csv
import json

import numpy as np
import pytest

from razz_env.agents.simple import RandomAgent
from razz_env.cli import main
from razz_env.engine.errors import ConfigError
from razz_env.exploit import exploitability as measure
from razz_env.solve.agent import policy_from_agent
from razz_env.solve.best_response import exploitability
from razz_env.solve.game import build_game
from razz_env.solve.policy import TabularPolicy


def test_the_report_is_the_exact_figure_of_the_agents_policy(tmp_path, capsys):
    out = tmp_path / "random"
    assert main(["exploit", "--agent", "random", "--method", "exact", "--variant", "minirazz_tiny",
                 "--output", str(out)]) == 0
    game = build_game("minirazz_tiny")
    expected = exploitability(game, policy_from_agent(game, RandomAgent()))
    assert expected.mbb == pytest.approx(exploitability(game, TabularPolicy.uniform(game)).mbb, rel=1e-12)
    report = json.loads((out / "exploit.json").read_text())
    assert report["exploitability_mbb"] == pytest.approx(expected.mbb, rel=1e-12)
    assert report["bb_per_100"] == pytest.approx(expected.mbb / 10, rel=1e-12)
    assert report["best_response_chips"] == pytest.approx(list(expected.best_response), rel=1e-12)
    assert report["method"] == "exact" and report["lower_bound_on_exploitability"] is False
    with open(out / "exploit.csv", newline="") as handle:
        (row,) = csv.DictReader(handle)
    assert float(row["bb_per_100"]) == pytest.approx(report["bb_per_100"])
    assert f"{expected.mbb:.4g} mbb/hand" in capsys.readouterr().out


def test_the_solved_agent_is_exploitable_by_no_more_than_its_manifest_says(tmp_path, capsys):
    out = tmp_path / "cfr"
    assert main(["exploit", "--agent", "minirazz_cfr", "--method", "exact", "--variant", "minirazz",
                 "--output", str(out)]) == 0
    assert json.loads((out / "exploit.json").read_text())["exploitability_mbb"] < 0.02


@pytest.mark.parametrize(("argv", "message"), [
    (["--agent", "random", "--variant", "razz"], "method 'exact' needs a game small enough to solve"),
    (["--agent", "random", "--variant", "minirazz_tiny", "--deals", "10"], "--deals: method 'exact' plays no hands"),
    (["--agent", "random", "--variant", "minirazz_tiny", "--steps", "10"], "--steps: method 'exact' plays no hands"),
    (["--agent", "razz_heuristic", "--variant", "minirazz_tiny"], "cannot be seated at minirazz_tiny"),
    (["--agent", "no_such_agent", "--variant", "minirazz_tiny"], "no_such_agent"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "bad"
    assert main(["exploit", "--method", "exact", *argv, "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


class Doubled(RandomAgent):
    """States a row that sums to 2."""

    name = "doubled"

    def action_probabilities_batch(self, observations):
        return 2 * super().action_probabilities_batch(observations)


class NotANumber(RandomAgent):
    """States NaN everywhere."""

    name = "not_a_number"

    def action_probabilities_batch(self, observations):
        return super().action_probabilities_batch(observations) * np.nan


@pytest.mark.parametrize(("agent", "what"), [(Doubled(), "sum to 2, not 1"), (NotANumber(), "not finite")])
def test_a_stated_policy_that_is_not_a_distribution_is_one_line_naming_the_information_set(tmp_path, agent, what):
    with pytest.raises(ConfigError, match=rf"^agent: agent '{agent.name}' at 's1 \[.*\]A vs A .*{what}") as caught:
        measure(agent, "exact", variant="minirazz_tiny", output=str(tmp_path / "bad"))
    assert "\n" not in str(caught.value) and not (tmp_path / "bad").exists()


def test_an_earlier_report_is_kept_unless_fresh(tmp_path, capsys):
    out = tmp_path / "kept"
    args = ["exploit", "--agent", "random", "--method", "exact", "--variant", "minirazz_tiny", "--output", str(out)]
    assert main(args) == 0
    before = (out / "exploit.json").read_bytes()
    assert main(args) == 2
    assert "already holds a report" in capsys.readouterr().err and (out / "exploit.json").read_bytes() == before
    assert main([*args, "--fresh"]) == 0


def test_lbr_and_rl_still_need_deals(capsys):
    assert main(["exploit", "--agent", "random", "--variant", "razz"]) == 2
    assert "--deals: method 'lbr' plays the agent" in capsys.readouterr().err
