"""PHH export: PokerKit loads what ``razz_env.engine.phh`` writes and replays it to our final stacks.

The random hands come from the differential test's generator, which discards hands meeting a known
PokerKit difference (``docs/rules.md``, "Known differences from PokerKit"); every other hand must replay exactly.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from razz_env.engine.cards import parse_cards
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.phh import PHH_VARIANTS, to_phh, write_phh
from razz_env.engine.state import HandState

pytest.importorskip("pokerkit")

import pokerkit
from pokerkit.notation import HandHistory
from pokerkit_oracle import Skip, play_hand

DECISIONS = (pokerkit.BringInPosting, pokerkit.CheckingOrCalling, pokerkit.CompletionBettingOrRaisingTo,
             pokerkit.Folding, pokerkit.HoleCardsShowingOrMucking)


def random_hands(variant: str, count: int) -> list[HandState]:
    """``count`` random finished hands that PokerKit's rules settle as ours do."""
    hands: list[HandState] = []
    attempt = 0
    while len(hands) < count:
        try:
            hands.append(play_hand(variant, f"phh-{variant}-{attempt}", against_pokerkit=False))
        except Skip:
            pass
        attempt += 1
    return hands


def replayed_stacks(history: HandHistory) -> list[int]:
    """Run PokerKit through a loaded hand history, as written; its final stacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PokerKit warns on unexpected fields, odd dealing and burnt chips
        *_, state = history
    assert not state.status, "PokerKit's replay stops before the end of the hand"
    # PokerKit "repairs" a file by inserting checks, folds or shows where a written one does not fit.
    decisions = sum(isinstance(op, DECISIONS) for op in state.operations)
    assert decisions == sum(not action.startswith("d ") for action in history.actions), "PokerKit repaired the file"
    return list(state.stacks)


def check_replays(variant: str, count: int, tmp_path: Path) -> None:
    """Export ``count`` random hands one file each; PokerKit must load and replay each to our stacks."""
    hands = random_hands(variant, count)
    for index, hand in enumerate(hands):
        path = tmp_path / f"{index}.phh"
        path.write_text(to_phh(hand), encoding="utf-8")
        with path.open("rb") as handle:
            history = HandHistory.load(handle)
        assert history.variant == PHH_VARIANTS[variant]
        assert replayed_stacks(history) == hand.stacks, f"hand {index}:\n{to_phh(hand)}"


@pytest.mark.parametrize("variant", sorted(PHH_VARIANTS))
def test_random_hands_replay_in_pokerkit(variant: str, tmp_path: Path) -> None:
    check_replays(variant, 200, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PHH_VARIANTS))
def test_random_hands_replay_in_pokerkit_soak(variant: str, tmp_path: Path) -> None:
    check_replays(variant, 1000, tmp_path)


def test_write_phh_sections_load_all(tmp_path: Path) -> None:
    hands = random_hands("razz", 5) + random_hands("stud8", 5)
    path = tmp_path / "hands.phhs"
    assert write_phh(path, hands) == len(hands)
    with path.open("rb") as handle:
        histories = list(HandHistory.load_all(handle))
    assert [h.variant for h in histories] == ["FR"] * 5 + ["F7S/8"] * 5
    assert [replayed_stacks(h) for h in histories] == [hand.stacks for hand in hands]
    assert [h.finishing_stacks for h in histories] == [hand.stacks for hand in hands]


def test_all_in_showdown_comes_before_the_runout() -> None:
    """p2 is all-in on 3rd street: PokerKit shows down, deals 4th to 7th street, then shows the 7th down card."""
    config = HandConfig.create("stud", stacks=[100, 6], ante=1, bring_in=2, small_bet=5, big_bet=10)
    hand = HandState(config, cards=[parse_cards("Ah Kd 2c 9s 9d 3c 4d"), parse_cards("Qs Qd 7h 8c Ts Jh 5d")])
    for action in ("bring_in", "complete", "call"):
        hand.act(action)
    assert hand.is_over
    history = HandHistory.loads(to_phh(hand))
    assert history.actions == [
        "d dh p1 AhKd2c", "d dh p2 QsQd7h", "p1 pb", "p2 cbr 5", "p1 cc", "p1 sm AhKd2c", "p2 sm QsQd7h",
        "d dh p1 9s", "d dh p2 8c", "d dh p1 9d", "d dh p2 Ts", "d dh p1 3c", "d dh p2 Jh", "d dh p1 4d", "d dh p2 5d",
        "p1 sm AhKd2c9s9d3c4d", "p2 sm QsQd7h8cTsJh5d",
    ]
    assert replayed_stacks(history) == hand.stacks == [94, 12]


def test_fold_with_nothing_to_call_loads_with_a_pokerkit_warning() -> None:
    """Our rules allow it; PokerKit's hand histories play cash-game mode, which warns and allows it."""
    config = HandConfig.create("razz", stacks=[100, 100])
    hand = HandState(config, cards=[parse_cards("Ac 2c Ks 3d"), parse_cards("3c 4c 5c 6d")])
    for action in ("bring_in", "call", "fold"):
        hand.act(action)
    history = HandHistory.loads(to_phh(hand))
    assert history.actions[-1] == "p2 f"
    with pytest.warns(UserWarning, match="no reason for this player to fold"):
        *_, state = history
    assert list(state.stacks) == hand.stacks == [103, 97]


def test_action_razz_is_refused_with_the_supported_variants() -> None:
    hand = HandState(HandConfig.create("action_razz"), seed=1)
    with pytest.raises(ValueError, match="action_razz.*razz, stud, stud8"):
        to_phh(hand)


def test_open_pair_big_bet_is_refused() -> None:
    config = HandConfig.create("stud", stacks=[100, 100], ante=1, bring_in=2, small_bet=5, big_bet=10)
    hand = HandState(config, cards=[parse_cards("2c 3c 9h 9s"), parse_cards("4c 5c Kh 7d")])
    for action in ("bring_in", "call", "bet_big"):
        hand.act(action)
    with pytest.raises(ValueError, match="big bet"):
        to_phh(hand)


def test_bet_schedule_pokerkit_cannot_play_is_refused() -> None:
    config = HandConfig.create("razz", street_bets=[2, 4, 4, 8, 8], bring_in=1)
    with pytest.raises(ValueError, match="schedule"):
        to_phh(HandState(config, seed=3))


def test_more_raises_than_pokerkit_allows_are_refused() -> None:
    config = HandConfig.create("razz", stacks=[500, 500], raise_cap=0)
    hand = HandState(config, seed=5)
    hand.act("complete")
    for _ in range(4):
        hand.act("raise")
    with pytest.raises(ValueError, match="caps a round at 4"):
        to_phh(hand)


def test_player_names_are_written_as_phh_players_and_pokerkit_reads_them() -> None:
    hand = random_hands("stud8", 1)[0]
    names = [f'seat "{seat}" \\ Zoë' for seat in range(hand.num_seats)]
    history = HandHistory.loads(to_phh(hand, players=names))
    assert history.players == names
    assert replayed_stacks(history) == hand.stacks
    assert "players" not in to_phh(hand)


def test_write_phh_takes_one_list_of_names_per_hand(tmp_path: Path) -> None:
    hands = random_hands("razz", 3)
    names = [[f"a{i}-{seat}" for seat in range(hand.num_seats)] for i, hand in enumerate(hands)]
    names[1] = None
    path = tmp_path / "named.phhs"
    assert write_phh(path, hands, players=names) == 3
    with path.open("rb") as handle:
        histories = list(HandHistory.load_all(handle))
    assert [h.players for h in histories] == [names[0], None, names[2]]


@pytest.mark.parametrize(
    ("players", "match"),
    [
        ([["a", "b"]], r"players: expected one list of names per hand \(2\), got 1"),
        ("ab", "players: expected one list of names per hand, got 'ab'"),
        ([["a", "b"], ["a"]], r"hand 2: players: expected 2 names \(one per seat\), got 1"),
        ([["a", "b"], ["a", 3]], r"hand 2: players\[1\]: expected a name"),
    ],
)
def test_write_phh_refuses_bad_names_and_writes_nothing(tmp_path: Path, players, match) -> None:
    hands = [HandState(HandConfig.create("razz"), seed=seed) for seed in range(2)]
    for hand in hands:
        hand.act("bring_in")
        hand.act("complete")
        hand.act("fold")
    path = tmp_path / "bad.phhs"
    with pytest.raises(ConfigError, match=match):
        write_phh(path, hands, players=players)
    assert not path.exists()
