"""The rank game is the suited game: same values and exploitability, for the uniform policy and a CFR+ policy.

A rank-game policy is lifted to the suited game (each suited information set plays what the policy plays
at the rank-game set it falls in); exact means the suited best responses, which see every suit, win no
more against it than the rank-game ones. ``minirazz_small`` is where it bites: dealing the suit order
of the higher door card only when a tie needs it (instead of when the door is turned up) makes its
lifted CFR+ policy more exploitable than the rank game says.
"""

import pytest

from razz_env.solve.best_response import exploitability
from razz_env.solve.cfr import CFRPlus
from razz_env.solve.game import build_game
from razz_env.solve.policy import TabularPolicy, translate


def check_exact(variant: str, iterations: int) -> None:
    rank, suited = build_game(variant), build_game(variant, suited=True)
    uniform_rank = exploitability(rank, TabularPolicy.uniform(rank))
    uniform_suited = exploitability(suited, TabularPolicy.uniform(suited))
    assert uniform_rank.chips == pytest.approx(uniform_suited.chips, abs=1e-9)
    solver = CFRPlus(rank)
    solver.run(iterations=iterations)
    policy = solver.average_policy()
    measured, lifted = exploitability(rank, policy), exploitability(suited, translate(policy, suited))
    assert measured.value == pytest.approx(lifted.value, abs=1e-9)
    assert measured.best_response[0] == pytest.approx(lifted.best_response[0], abs=1e-9)
    assert measured.best_response[1] == pytest.approx(lifted.best_response[1], abs=1e-9)
    assert measured.mbb == pytest.approx(lifted.mbb, abs=1e-9)


def test_tiny_rank_game_is_exact():
    check_exact("minirazz_tiny", iterations=100)


@pytest.mark.slow
def test_small_rank_game_is_exact():
    check_exact("minirazz_small", iterations=100)


def test_the_suited_game_is_bigger_by_the_suits_only():
    rank, suited = build_game("minirazz_tiny"), build_game("minirazz_tiny", suited=True)
    assert suited.counts()["information_sets"] > 3 * rank.counts()["information_sets"]
    assert rank.stakes == suited.stakes and rank.legal.shape[1] == suited.legal.shape[1]
