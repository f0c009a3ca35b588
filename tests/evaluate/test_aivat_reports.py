"""AIVAT in matches, tournaments and exploit runs: the figures beside the raw ones, on both engines, resumed,
never mixed, and the stated policies the harness records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from razz_env.agents.registry import available_agents, make_agent, register
from razz_env.agents.simple import RandomAgent
from razz_env.cli import main
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import NUM_ACTIONS, to_engine
from razz_env.encoding.interface import Declaration, act_batch, action_probabilities, declaration_of, observe
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate import match
from razz_env.evaluate.blocks import states_varying_policy
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.report import pairing_rows, standings, write_reports
from razz_env.evaluate.runner import run_tournament
from razz_env.exploit import exploitability
from razz_env.exploit.bound import format_exploit

AGENTS = ("random", "calling_station", "razz_heuristic")
ENGINES = ["scalar", "batch"]


def _config(tmp_path: Path, name: str, **overrides) -> TournamentConfig:
    settings = {"name": name, "agents": AGENTS, "deals": 60, "block_deals": 30, "workers": 1,
                "output": str(tmp_path / name), "seed": 5, "aivat": True}
    settings.update(overrides)
    return TournamentConfig.from_dict(settings)


def _figures(result) -> list[tuple]:
    return [(p.agent, p.opponent, round(p.duplicate.mean_bb100, 9), round(p.aivat.mean_bb100, 9),
             round(p.aivat.sd_bb100, 9)) for p in result.pairings]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_raw_figures_are_those_of_the_same_tournament_without_aivat(tmp_path, engine):
    """Asking the stated policies changes no decision: the raw results are the plain tournament's."""
    pytest.importorskip("numba")
    scored = run_tournament(_config(tmp_path, "scored", engine=engine), progress=False)
    plain = run_tournament(_config(tmp_path, "plain", engine=engine, aivat=False), progress=False)
    assert [(p.agent, p.opponent, p.duplicate, p.plain) for p in scored.pairings] == [
        (p.agent, p.opponent, p.duplicate, p.plain) for p in plain.pairings]
    assert all(p.aivat is None for p in plain.pairings)
    assert all(p.aivat.samples == p.duplicate.samples for p in scored.pairings)


@pytest.mark.parametrize("records", [False, True])
def test_both_engines_give_the_same_aivat_figures(tmp_path, records):
    pytest.importorskip("numba")
    scalar = run_tournament(_config(tmp_path, "scalar", engine="scalar", records=records), progress=False)
    batch = run_tournament(_config(tmp_path, "batch", engine="batch", records=records), progress=False)
    np.testing.assert_allclose(np.array(_figures(batch), dtype=float), np.array(_figures(scalar), dtype=float),
                               atol=1e-9)


def test_summary_and_pairings_carry_the_aivat_columns(tmp_path):
    config = _config(tmp_path, "files")
    result = run_tournament(config, progress=False)
    write_reports(result, config.output, plots=False)
    summary = json.loads((Path(config.output) / "summary.json").read_text())
    assert summary["aivat"] == {"value_function": {"name": "showdown_share", "version": 1},
                                "policy_fit": {"name": "freedman_per_action_id", "version": 1, "alpha": 1e-6},
                                "ranked_by": "bb_per_100"}
    for row in summary["pairings"]:
        assert row["aivat_ci95_low"] <= row["aivat_bb_per_100"] <= row["aivat_ci95_high"]
        assert row["sd_ratio"] == pytest.approx(row["sd_bb_per_100"] / row["aivat_sd_bb_per_100"], rel=1e-3)
    heuristic = next(r for r in summary["standings"] if r["agent"] == "razz_heuristic")
    assert {"aivat_bb_per_100", "aivat_ci95"} <= set(heuristic)
    text = str(result)
    assert "sd ratio" in text and "showdown_share v1" in text and "ranked by bb/100" in text
    assert "aivat" in (Path(config.output) / "pairings.csv").read_text().splitlines()[0]


def test_a_plain_tournament_reports_no_aivat_columns(tmp_path):
    config = _config(tmp_path, "plain", aivat=False, deals=20, block_deals=20)
    result = run_tournament(config, progress=False)
    assert not any(key.startswith("aivat") or key == "sd_ratio" for row in pairing_rows(result) for key in row)
    assert "sd ratio" not in str(result)
    assert "aivat" not in config.identity()


def test_standings_rank_by_the_figure_asked_for(tmp_path):
    result = run_tournament(_config(tmp_path, "ranked", rank_by="aivat_bb_per_100"), progress=False)
    ranked = standings(result)
    figures = [row["aivat_bb_per_100"] for row in ranked]
    assert figures == sorted(figures, reverse=True)
    assert "ranked by AIVAT bb/100" in str(result)


def test_ranking_by_aivat_needs_aivat(tmp_path):
    with pytest.raises(ConfigError, match="rank_by: 'aivat_bb_per_100' .* aivat: true"):
        _config(tmp_path, "bad", aivat=False, rank_by="aivat_bb_per_100")
    with pytest.raises(ConfigError, match="rank_by: expected one of bb_per_100, aivat_bb_per_100, got 'rating'"):
        _config(tmp_path, "bad", rank_by="rating")
    with pytest.raises(ConfigError, match="aivat"):
        _config(tmp_path, "bad", aivat="yes")


def test_an_aivat_tournament_resumes_and_extends_to_the_uninterrupted_figures(tmp_path):
    whole = run_tournament(_config(tmp_path, "whole", deals=90), progress=False)
    run_tournament(_config(tmp_path, "grown", deals=30), progress=False)
    grown = run_tournament(_config(tmp_path, "grown", deals=90), progress=False)
    assert _figures(grown) == _figures(whole)


def test_results_with_and_without_aivat_never_mix(tmp_path):
    run_tournament(_config(tmp_path, "mixed", aivat=False, deals=30), progress=False)
    with pytest.raises(ConfigError, match="another configuration .*aivat"):
        run_tournament(_config(tmp_path, "mixed", deals=60), progress=False)
    run_tournament(_config(tmp_path, "other", deals=30), progress=False)
    with pytest.raises(ConfigError, match="another configuration .*aivat"):
        run_tournament(_config(tmp_path, "other", aivat=False, deals=60), progress=False)


def test_a_block_line_without_its_aivat_sums_is_refused(tmp_path):
    config = _config(tmp_path, "torn", deals=30)
    run_tournament(config, progress=False)
    path = Path(config.output) / "matches.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    del lines[0]["aivat_deal_sum"]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ConfigError, match="'aivat_deal_sum' should be 2 finite numbers"):
        run_tournament(config, progress=False)


@register("test_misstated")
class Misstated(RandomAgent):
    """Acts at random but states a policy that never raises: its stated policy is not what it plays."""

    name = "test_misstated"

    def action_probabilities_batch(self, observations):
        probabilities = super().action_probabilities_batch(observations)
        probabilities[:, 3:] = 0.0
        return probabilities / probabilities.sum(axis=1, keepdims=True)


@register("test_unstated")
class Unstated(RandomAgent):
    """Says it states a policy, then raises when asked for it."""

    name = "test_unstated"

    def action_probabilities_batch(self, observations):
        raise RuntimeError("no policy today")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("agent", "kind", "message"), [
    ("test_misstated", "policy", "is not a distribution over the legal ids .* that gives the action taken"),
    ("test_unstated", "exception", "action_probabilities: RuntimeError: no policy today"),
])
def test_an_agent_that_does_not_play_its_stated_policy_fails_its_blocks(tmp_path, engine, agent, kind, message):
    pytest.importorskip("numba")
    config = _config(tmp_path, f"{agent}-{engine}", agents=("calling_station", agent), engine=engine, deals=30)
    result = run_tournament(config, progress=False)
    assert result.failures
    for failure in result.failures:
        assert failure["error"]["agent"] == 1 and failure["error"]["kind"] == kind
        assert re.search(message, failure["error"]["message"])


@pytest.mark.parametrize("name", sorted(set(available_agents()) - {"lbr"}))
def test_an_agent_declared_deterministic_states_the_one_hot_of_its_action(name):
    """A deterministic agent's decisions need no correction; the declaration must be true: its stated policy is
    the one-hot of what it plays, decision after decision."""
    try:
        agent = make_agent(name, seed=1)
    except Exception as err:  # noqa: BLE001 - an agent this machine cannot build (a missing extra)
        pytest.skip(f"{name}: {err}")
    declared = declaration_of(agent)
    assert states_varying_policy(agent) == (declared.states_policy and not declared.deterministic)
    if not declared.deterministic:
        return
    variant = (declared.variants or ("razz",))[0]
    seats = (declared.seat_counts or (2,))[0]
    config = HandConfig.create(variant, num_seats=seats)
    encoder = make_encoder(declared.encoding, config) if declared.encoding else None
    rng = np.random.default_rng(3)
    for seed in range(6):
        hand = HandState(config, seed=seed)
        for seat in range(seats):
            agent.reset(seat, seats, variant)
        while not hand.is_over:
            observation = observe(hand, hand.actor, encoder=encoder)
            stated = action_probabilities(agent, [observation])[0]
            played = act_batch(agent, [observation])[0]
            assert stated.shape == (NUM_ACTIONS,) and stated[played] == 1.0
            legal = np.flatnonzero(observation.action_mask)
            hand.act(to_engine(int(rng.choice(legal)), hand.legal_actions()))


def test_a_match_reports_both_figures():
    result = match("razz_heuristic", "random", deals=300, aivat=True)
    plain = match("razz_heuristic", "random", deals=300)
    assert (result.bb_per_100, result.ci95_low) == (plain.bb_per_100, plain.ci95_low)
    assert plain.aivat_bb_per_100 is None and plain.sd_ratio is None
    assert result.aivat_ci95_low < result.aivat_bb_per_100 < result.aivat_ci95_high
    assert result.sd_ratio > 1
    assert "AIVAT" in str(result) and "AIVAT" not in str(plain)


def test_razz_tournament_takes_aivat_on_the_command_line(tmp_path, capsys):
    config = tmp_path / "small.yaml"
    config.write_text("agents: [random, calling_station]\ndeals: 20\nblock_deals: 20\nworkers: 1\n")
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "out"), "--aivat", "--quiet",
                 "--no-plots"]) == 0
    assert "sd ratio" in capsys.readouterr().out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert "sd_ratio" in summary["pairings"][0]
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "ranked"), "--aivat", "--quiet",
                 "--no-plots", "--rank-by", "aivat_bb_per_100"]) == 0
    assert "ranked by AIVAT bb/100" in capsys.readouterr().out
    assert main(["tournament", "--config", str(config), "--output", str(tmp_path / "bad"), "--quiet",
                 "--rank-by", "aivat_bb_per_100"]) == 2
    assert "rank_by: 'aivat_bb_per_100' ranks by the AIVAT figures, which need aivat: true" in capsys.readouterr().err


def test_exact_exploitability_refuses_aivat(capsys):
    assert main(["exploit", "--agent", "minirazz_cfr", "--method", "exact", "--variant", "minirazz",
                 "--aivat"]) == 2
    assert "--aivat: method 'exact' plays no hands" in capsys.readouterr().err


def test_an_exploit_run_reports_the_aivat_figure(tmp_path):
    result = exploitability("razz_heuristic", "lbr", deals=3, output=str(tmp_path / "lbr"), aivat=True)
    assert result.aivat_bb_per_100 is not None and result.sd_ratio is not None
    row = result.detail.row()
    assert row["aivat_ci95_low"] <= row["aivat_bb_per_100"] <= row["aivat_ci95_high"]
    assert "scored with AIVAT" in format_exploit(result.detail)


def test_declarations_refuse_a_deterministic_flag_that_is_not_a_flag():
    with pytest.raises(ConfigError, match="deterministic: expected True or False"):
        Declaration(deterministic="yes")


def test_a_table_tournament_scores_every_seat_alike_on_both_engines(tmp_path):
    """Multi-way: one row per agent at the table, the same AIVAT figures on both engines, zero-sum like the raw."""
    pytest.importorskip("numba")
    results = [run_tournament(_config(tmp_path, f"table-{engine}", format="table", engine=engine,
                                      agents=("random", "calling_station", "razz_heuristic", "tag")), progress=False)
               for engine in ENGINES]
    for scalar, batch in zip(*(r.pairings for r in results)):
        assert scalar.aivat.mean_bb100 == pytest.approx(batch.aivat.mean_bb100, abs=1e-9)
    hands = results[0].pairings[0].hands
    total = sum(p.aivat.mean_bb100 * p.hands / hands for p in results[0].pairings)
    assert total == pytest.approx(0.0, abs=1e-6)


def test_a_pairing_whose_deals_cancel_exactly_is_no_aivat_verdict(tmp_path):
    """Two deterministic agents that play every deal alike from both seats: the raw deal results are exactly zero,
    and so must the AIVAT ones be (float noise in the corrections once made a spurious significant figure)."""
    result = run_tournament(_config(tmp_path, "mirror", agents=("calling_station", "maniac"), deals=60),
                            progress=False)
    pairing = next(p for p in result.pairings if p.opponent is not None)
    assert pairing.duplicate.mean_bb100 == 0.0 and pairing.duplicate.sd_bb100 == 0.0
    assert pairing.aivat.mean_bb100 == 0.0 and not pairing.aivat.significant
    assert pairing.sd_ratio is None
    row = next(r for r in pairing_rows(result) if r["opponent"] == "maniac")
    assert row["sd_ratio"] is None and row["aivat_significant"] is False
    assert "n/a" in str(result)


def test_the_terminal_report_fits_120_columns_with_aivat(tmp_path):
    result = run_tournament(_config(tmp_path, "wide", deals=30), progress=False)
    assert max(len(line) for line in str(result).splitlines()) <= 120
