"""A tabular policy over one game's information sets: readable keys, probabilities, save and load.

The probabilities live in a ``(decisions, 5, P)`` array (the solver's layout); keys are the
readable strings of :mod:`razz_env.solve.keys`. A saved policy is one ``.npz`` file: the
probabilities of every information set (in the game's information-set order) and a JSON
header naming the game (variant, rank or suited, stakes, cap, sizes), the table it was
solved at, the iterations and exploitability, and the SHA-256 of the probabilities. Loading
refuses a file for another game, or one whose probabilities do not match their checksum.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.engine.checks import archive_problem, as_int, as_real
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError, labelled
from razz_env.solve.game import Game, build_game
from razz_env.solve.keys import head_from_cards, tail_from_cards

FORMAT = "razz-env tabular policy"
VERSION = 1


class TabularPolicy:
    """Action probabilities at every information set of ``game`` (``array``: ``(decisions, 5, P)``).

    ``iterations``, ``method`` and ``exploitability_mbb`` are what a solver knew about it (saved along).
    """

    def __init__(self, game: Game, array: np.ndarray, *, iterations: int = 0, method: str = "",
                 exploitability_mbb: float | None = None) -> None:
        expected = (len(game.decision_nodes), NUM_ACTIONS, game.num_private)
        array = np.asarray(array, dtype=np.float64)
        if array.shape != expected:
            raise ValueError(f"policy array of shape {array.shape}; {game.describe()} needs {expected}")
        self.game = game
        self.array = array
        self.iterations = iterations
        self.method = method
        self.exploitability_mbb = exploitability_mbb

    @classmethod
    def uniform(cls, game: Game) -> TabularPolicy:
        """Every legal action equally likely."""
        from razz_env.solve.sweep import uniform_policy

        return cls(game, uniform_policy(game), method="uniform")

    @classmethod
    def from_table(cls, game: Game, table: np.ndarray, **info: Any) -> TabularPolicy:
        """From ``(information sets, 5)`` probabilities in the game's information-set order (:meth:`table`)."""
        table = np.asarray(table, dtype=np.float64)
        if table.shape != (game.num_infosets, NUM_ACTIONS):
            raise ValueError(f"policy table of shape {table.shape}; {game.describe()} needs "
                             f"{(game.num_infosets, NUM_ACTIONS)}")
        array = cls.uniform(game).array
        array[game.infoset_decision, :, game.infoset_private] = table
        return cls(game, array, **info)

    def table(self) -> np.ndarray:
        """``(information sets, 5)`` probabilities, in the game's information-set order."""
        return self.array[self.game.infoset_decision, :, self.game.infoset_private]

    def keys(self) -> list[str]:
        """Every information set's key, in the order of :meth:`table`."""
        return self.game.keys()

    def probabilities(self, key: str) -> np.ndarray:
        """The five action-id probabilities at the information set ``key``."""
        game = self.game
        index = game.infoset_index(key)
        return self.array[game.infoset_decision[index], :, game.infoset_private[index]].copy()

    __getitem__ = probabilities

    def check_game(self, game: Game) -> None:
        """``ConfigError`` unless this policy is for ``game`` (the same tree)."""
        if game is not self.game and game.identity() != self.game.identity():
            raise ConfigError(f"policy: this policy is for {self.game.describe()}, not {game.describe()}")

    def validate(self, tolerance: float = 1e-9) -> None:
        """``ValueError`` unless every possible information set has legal probabilities summing to 1."""
        game, table = self.game, self.table()
        legal = game.legal[game.infoset_decision]
        if not np.isfinite(table).all():
            raise ValueError("policy: probabilities that are not finite numbers")
        if (table < -tolerance).any() or np.abs(np.where(legal, 0.0, table)).max(initial=0.0) > tolerance:
            raise ValueError("policy: negative probabilities, or probability on an illegal action")
        worst = np.abs(table.sum(axis=1) - 1.0).max(initial=0.0)
        if worst > tolerance:
            raise ValueError(f"policy: probabilities sum to 1 within {worst:.3g}, beyond {tolerance:g}")

    # ------------------------------------------------------------------ files

    def header(self) -> dict[str, Any]:
        """The JSON header :meth:`save` writes."""
        table = self.table()
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.identity(),
            "table": table_of(self.game.config),
            "iterations": self.iterations,
            "method": self.method,
            "exploitability_mbb": self.exploitability_mbb,
            "sha256": hashlib.sha256(np.ascontiguousarray(table).tobytes()).hexdigest(),
        }

    def save(self, path: str | Path) -> Path:
        """Write the policy to ``path`` (``.npz`` is added when missing); returns the path written."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        header = json.dumps(self.header(), sort_keys=True).encode()
        np.savez_compressed(path, probabilities=self.table(), header=np.frombuffer(header, dtype=np.uint8))
        return path

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None) -> TabularPolicy:
        """Read a policy saved by :meth:`save`; for ``game`` when given (refused if it was solved for another),
        else for the game its header names (built here)."""
        path = Path(path)
        where = f"policy file {path}"
        header, arrays = read_archive(path, where, "tabular policy", ("probabilities",))
        table = arrays["probabilities"].astype(np.float64)
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ConfigError(f"{where}: not a tabular policy file (no '{FORMAT}' header)")
        if header.get("version") != VERSION:
            raise ConfigError(f"{where}: format version {header.get('version')!r}; this library reads {VERSION}")
        digest = hashlib.sha256(np.ascontiguousarray(table).tobytes()).hexdigest()
        if digest != header.get("sha256"):
            raise ConfigError(f"{where}: the probabilities do not match their SHA-256 (the file is damaged)")
        identity, info = header.get("game"), _info(header, where)
        if not isinstance(identity, dict):
            raise ConfigError(f"{where}: the header names no game (expected an object under 'game')")
        if game is None:
            table_header = header.get("table")
            if not isinstance(table_header, dict):
                raise ConfigError(f"{where}: the header names no table (expected an object under 'table')")
            game = build_game(config_of(table_header, where), suited=identity.get("suited") is True)
        if identity != game.identity():
            raise ConfigError(f"{where}: solved for {describe_identity(identity)}, not for {game.describe()}")
        if table.shape != (game.num_infosets, NUM_ACTIONS):
            raise ConfigError(f"{where}: {table.shape} probabilities, but {game.describe()} has "
                              f"{(game.num_infosets, NUM_ACTIONS)}")
        policy = cls.from_table(game, table, **info)
        with labelled(where, ValueError):
            policy.validate(tolerance=1e-6)
        return policy


def read_archive(path: Path, where: str, kind: str, names: tuple[str, ...]) -> tuple[Any, dict[str, np.ndarray]]:
    """The JSON header and the arrays ``names`` of the ``.npz`` file at ``path`` (never a pickle); ``ConfigError``
    naming ``where`` when it is missing, or is not a ``kind`` file (why, where the archive says)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            return header, {name: np.array(data[name]) for name in names}
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except Exception as err:  # noqa: BLE001 - numpy, zipfile and zlib raise many kinds on a damaged file
        try:
            problem = archive_problem(path.read_bytes())
        except OSError:
            problem = None
        problem = problem or f"{type(err).__name__}: {' '.join(str(err).split())}"
        raise ConfigError(f"{where}: not a {kind} file ({problem})") from None


def _info(header: dict[str, Any], where: str) -> dict[str, Any]:
    """What a solver knew about a saved policy (iterations, method, exploitability), checked."""
    iterations, method, mbb = header.get("iterations", 0), header.get("method", ""), header.get("exploitability_mbb")
    as_int(f"{where}: 'iterations'", iterations, 0, what="a count")
    if not isinstance(method, str):
        raise ConfigError(f"{where}: 'method' must be text, got {method!r}")
    if mbb is not None:
        as_real(f"{where}: 'exploitability_mbb'", mbb, 0, what="a number or null")
    return {"iterations": iterations, "method": method, "exploitability_mbb": mbb}


def translate(policy: TabularPolicy, game: Game) -> TabularPolicy:
    """``policy`` played in ``game``: the same table dealt suited (each suited information set plays what the
    policy plays at the rank-game set it falls in), or the game itself."""
    source = policy.game
    if game is source:
        return policy
    same_table = {k: v for k, v in game.identity().items() if k in ("variant", "ante", "bring_in", "bets", "raise_cap")}
    if same_table != {k: source.identity()[k] for k in same_table} or (source.suited and not game.suited):
        raise ConfigError(f"policy: a policy for {source.describe()} plays only in that game or its suited form, "
                          f"not in {game.describe()}")
    indices = np.empty(game.num_infosets, dtype=np.int64)
    i = 0
    for d in range(len(game.decision_nodes)):
        seat = int(game.decision_player[d])
        boards = game.board_cards(d)
        tail = tail_from_cards(source.model, seat, boards, game.public[d].actions)
        for x in np.flatnonzero(game.possible[d]).tolist():
            down = game.down_cards(d, x, boards)[seat]
            indices[i] = source.infoset_index(head_from_cards(source.model, seat, down) + tail)
            i += 1
    return TabularPolicy.from_table(game, policy.table()[indices], iterations=policy.iterations,
                                    method=policy.method)


def table_of(config: HandConfig) -> dict[str, Any]:
    """The table a game was built for, as JSON (what :func:`config_of` reads back)."""
    stakes = config.stakes
    return {"variant": config.variant.name, "stacks": list(config.stacks), "ante": stakes.ante,
            "bring_in": stakes.bring_in, "small_bet": stakes.small_bet, "big_bet": stakes.big_bet,
            "street_bets": list(stakes.street_bets) if stakes.street_bets is not None else None,
            "raise_cap": config.rules.raise_cap or 0}  # 0 is no cap, as in every table spec


def config_of(table: dict[str, Any], where: str) -> HandConfig:
    """The :class:`HandConfig` of a saved ``table``; ``ConfigError`` naming ``where`` when it is not one."""
    try:
        return HandConfig.create(table["variant"], **{key: table[key] for key in (
            "stacks", "ante", "bring_in", "small_bet", "big_bet", "street_bets", "raise_cap")})
    except (KeyError, TypeError) as err:
        raise ConfigError(f"{where}: the header's table is incomplete ({err})") from None
    except ConfigError as err:
        raise ConfigError(f"{where}: {err}") from None


def describe_identity(identity: dict[str, Any]) -> str:
    """One line naming the game of a saved policy (as :meth:`Game.describe`)."""
    try:
        bets = "/".join(str(b) for b in identity["bets"])
        return (f"{identity['variant']} ({'suited' if identity['suited'] else 'rank'} game, ante {identity['ante']}, "
                f"bring-in {identity['bring_in']}, bets {bets}, cap {identity['raise_cap']})")
    except (KeyError, TypeError):
        return f"an unreadable game {identity!r}"
