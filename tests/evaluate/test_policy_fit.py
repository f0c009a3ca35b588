"""The policy fit behind every AIVAT figure: an agent whose actions misstate its stated policy is caught and its
figures marked unreliable (match, tournament files, terminal, rank_by), honest agents never are, on both engines."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from razz_env.agents.base import BaseAgent, Declaration, ObservationBatch
from razz_env.agents.registry import register
from razz_env.evaluate import match
from razz_env.evaluate.blocks import run_task
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.policy_fit import FIT_ALPHA, FIT_FIELDS, Fit, FitSums, verdict
from razz_env.evaluate.report import pairing_rows, standings, write_reports
from razz_env.evaluate.results import result_problem
from razz_env.evaluate.runner import run_tournament
from razz_env.evaluate.tasks import build_tasks


@register("test_highest_stated_uniform", replace=True)
class HighestStatedUniform(BaseAgent):
    """Always plays its highest legal id, but states a uniform policy: the issue's misstating agent."""

    name = "highest_stated_uniform"
    declaration = Declaration(observes=(), states_policy=True, acts_in_batch=True)

    def act(self, observation) -> int:
        return int(np.flatnonzero(observation.action_mask)[-1])

    def act_batch(self, observations) -> list[int]:
        return [self.act(o) for o in observations]

    def action_probabilities(self, observation) -> np.ndarray:
        return self.action_probabilities_batch([observation])[0]

    def action_probabilities_batch(self, observations) -> np.ndarray:
        masks = ObservationBatch.of(observations).masks.astype(np.float64)
        return masks / masks.sum(axis=1, keepdims=True)


@register("test_highest_stated_honestly", replace=True)
class HighestStatedHonestly(HighestStatedUniform):
    """Its honest twin: the same play, stated as the one-hot of the id it plays."""

    name = "highest_stated_honestly"

    def action_probabilities_batch(self, observations) -> np.ndarray:
        masks = ObservationBatch.of(observations).masks
        probabilities = np.zeros(masks.shape)
        probabilities[np.arange(len(masks)), [int(np.flatnonzero(row)[-1]) for row in masks]] = 1.0
        return probabilities


ENGINES = ["scalar", "batch"]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_agent_that_misstates_its_policy_has_its_aivat_figure_flagged(engine):
    """The issue's example: AIVAT far from the raw figure, and now marked unreliable, naming the agent."""
    if engine == "batch":
        pytest.importorskip("numba")
    result = match(HighestStatedUniform(), "calling_station", deals=100, aivat=True, engine=engine)
    assert result.aivat_bb_per_100 - result.bb_per_100 > 30  # the inflation the check exists for
    assert result.aivat_reliable is False and result.aivat_misstated_by == "highest_stated_uniform"
    assert result.aivat_policy_fit_p < FIT_ALPHA
    assert "AIVAT UNRELIABLE: highest_stated_uniform's actions do not fit its stated policy" in str(result)
    twin = match(HighestStatedHonestly(), "calling_station", deals=100, aivat=True, engine=engine)
    assert twin.aivat_reliable is True and twin.aivat_misstated_by is None
    assert "UNRELIABLE" not in str(twin)


def test_both_engines_give_the_same_fit_sums(tmp_path):
    pytest.importorskip("numba")
    sums = []
    for engine in ENGINES:
        config = TournamentConfig.from_dict({"name": engine, "agents": ["razz_heuristic", "random"], "deals": 40,
                                             "block_deals": 20, "output": str(tmp_path / engine), "aivat": True,
                                             "engine": engine})
        sums.append([{name: run_task(config, task)[name] for name in FIT_FIELDS} for task in build_tasks(config)])
    assert sums[0] == sums[1]
    assert all(block["fit_decisions"][0] > 0 and block["fit_decisions"][1] > 0 for block in sums[0])


@pytest.mark.parametrize("agent", ["random", "razz_heuristic", "calling_station",
                                   {"type": "ppo_razz", "deterministic": False}, "ppo_razz"])
def test_shipped_agents_with_a_stated_policy_are_not_flagged(agent):
    result = match(agent, {"type": "random", "label": "opponent"}, deals=60, aivat=True)
    assert result.aivat_reliable is True and result.aivat_misstated_by is None
    assert result.aivat_policy_fit_p >= FIT_ALPHA  # random, the opponent, states its policy too


def test_a_tournament_marks_every_figure_at_the_misstating_agents_tables_and_ranks_by_the_raw_figure(tmp_path):
    config = TournamentConfig.from_dict({
        "name": "fit", "agents": ["test_highest_stated_uniform", "calling_station", "random"], "deals": 60,
        "block_deals": 30, "workers": 1, "seed": 3, "output": str(tmp_path / "fit"), "aivat": True,
        "rank_by": "aivat_bb_per_100"})
    result = run_tournament(config, progress=False)
    rows = {(row["agent"], row["opponent"]): row for row in pairing_rows(result)}
    for (agent, opponent), row in rows.items():
        involved = "test_highest_stated_uniform" in (agent, opponent) or opponent == "field"
        assert row["aivat_reliable"] is not involved, (agent, opponent)
        assert row["aivat_misstated_by"] == ("test_highest_stated_uniform" if involved else None)
    ranked = standings(result)
    assert all(row["aivat_reliable"] is False for row in ranked)  # each agent met the misstating one
    assert [row["bb_per_100"] for row in ranked] == sorted((row["bb_per_100"] for row in ranked), reverse=True)
    text = str(result)
    assert "ranked by bb/100" in text and "rank_by aivat_bb_per_100 fell back to the raw bb/100" in text
    assert ("! AIVAT unreliable at the tables of test_highest_stated_uniform: its actions do not fit its stated "
            "policy") in text
    assert max(len(line) for line in text.splitlines()) <= 120
    write_reports(result, config.output, plots=False)
    summary = json.loads((Path(config.output) / "summary.json").read_text())
    assert summary["aivat"]["ranked_by"] == "bb_per_100"
    assert "test_highest_stated_uniform" in summary["aivat"]["rank_by_fallback"]
    assert summary["aivat"]["policy_fit"]["alpha"] == FIT_ALPHA
    header = (Path(config.output) / "pairings.csv").read_text().splitlines()[0]
    assert "aivat_reliable" in header and "aivat_policy_fit_p" in header


def test_honest_agents_keep_the_aivat_ranking(tmp_path):
    config = TournamentConfig.from_dict({
        "name": "honest", "agents": ["test_highest_stated_honestly", "razz_heuristic", "random"], "deals": 40,
        "block_deals": 20, "workers": 1, "seed": 3, "output": str(tmp_path / "honest"), "aivat": True,
        "rank_by": "aivat_bb_per_100"})
    result = run_tournament(config, progress=False)
    assert all(row["aivat_reliable"] for row in pairing_rows(result))
    figures = [row["aivat_bb_per_100"] for row in standings(result)]
    assert figures == sorted(figures, reverse=True)
    assert "ranked by AIVAT bb/100" in str(result) and "AIVAT unreliable" not in str(result)


def _honest_fit(rng: np.random.Generator, decisions: int) -> Fit:
    """The fit of ``decisions`` actions drawn from random stated policies (some near-deterministic)."""
    logits = rng.normal(size=(decisions, 5)) * rng.choice([0.5, 3.0, 12.0], size=(decisions, 1))
    masks = rng.random((decisions, 5)) < 0.7
    masks[np.arange(decisions), rng.integers(0, 5, decisions)] = True
    policies = np.where(masks, np.exp(logits - logits.max(axis=1, keepdims=True)), 0.0)
    policies /= policies.sum(axis=1, keepdims=True)
    taken = (policies.cumsum(axis=1) < rng.random((decisions, 1))).sum(axis=1).clip(max=4)
    sums = FitSums(1)
    sums.add(0, policies, taken)
    return Fit.empty().plus(sums.fields(), 0)


def test_the_bound_holds_for_honest_play():
    """The fit bound is an upper bound on the chance of so large a deviation: among 400 honest agents, the
    share with a bound below 5% is at most 5% (it is conservative: far fewer)."""
    rng = np.random.default_rng(20260601)
    bounds = [_honest_fit(rng, int(n)).p for n in rng.integers(1, 3000, 400)]
    assert np.mean(np.array(bounds) < 0.05) <= 0.05
    assert min(bounds) > FIT_ALPHA


def test_block_sums_combine_exactly_and_name_the_worst_action():
    sums = FitSums(2)
    sums.add(0, np.array([[0.5, 0.5, 0, 0, 0]] * 3), np.array([1, 1, 1]))
    sums.add(0, np.array([[0.5, 0.5, 0, 0, 0]]), np.array([1]))
    fields = sums.fields()
    assert fields == {"fit_decisions": [4, 0], "fit_taken": [[0, 4, 0, 0, 0], [0] * 5],
                      "fit_expected": [[2.0, 2.0, 0.0, 0.0, 0.0], [0.0] * 5],
                      "fit_variance": [[1.0, 1.0, 0.0, 0.0, 0.0], [0.0] * 5]}
    twice = Fit.empty().plus(fields, 0).plus(fields, 0)
    assert (twice.decisions, twice.taken[1], twice.expected[1]) == (8, 8, 4.0)
    assert twice.worst() == "took fold 0 times in 8 decisions where its stated policy gives 4.0"
    assert not twice.fails  # eight coin flips all heads is not evidence enough
    many = Fit(4000, (0, 4000, 0, 0, 0), (2000.0, 2000.0, 0.0, 0.0, 0.0), (1000.0, 1000.0, 0.0, 0.0, 0.0))
    assert many.fails and many.p == 0.0 and many.log10_p < -300
    judged = verdict([(0, Fit.empty()), (1, many)])
    assert judged.unreliable and judged.agent == 1 and judged.shown_p().startswith("1e-")
    assert not verdict([(0, Fit.empty())]).unreliable


def test_a_result_with_bad_fit_sums_is_refused(tmp_path):
    config = TournamentConfig.from_dict({"name": "x", "agents": ["random", "calling_station"], "deals": 10,
                                         "block_deals": 10, "workers": 1, "output": str(tmp_path / "x"),
                                         "aivat": True})
    assert config.identity()["aivat_policy_fit"]["alpha"] == FIT_ALPHA
    good = run_task(config, build_tasks(config)[0])
    assert result_problem(good, config) is None
    assert "fit_taken" in result_problem({**good, "fit_taken": [[1, 2], [0] * 5]}, config)
    assert "fit_decisions" in result_problem({k: v for k, v in good.items() if k != "fit_decisions"}, config)
