"""A tournament's results folder: its stamp, its key, its lock and the block results it holds.

A folder belongs to one configuration identity
(:meth:`~razz_env.evaluate.config.TournamentConfig.identity`). ``tournament.json``, the
stamp, is written before the first block and checked on every later run; every line of
``matches.jsonl`` carries its configuration id and its block and is checked when read, so
results of another configuration, a line that is not a result, or two different results
for one block are refused with the line named, never used. Only a torn last line (a kill
mid-write) is dropped. ``.key`` (32 random bytes, readable by its owner only, made with the
folder) signs every line (``mac``: HMAC-SHA256 of the rest), so a line forged, edited or
copied from another folder is refused, even one for a block not yet played: an isolated agent
never sees the key (the sandbox hides the results folder), a trusted one runs as the user and
could. A run holds an exclusive ``fcntl.flock`` on ``.lock``: a second run in the same folder
is refused, and the operating system releases the lock when the process ends, even by
``SIGKILL``, so a killed run resumes.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import logging
import math
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from razz_env.engine.errors import ConfigError
from razz_env.evaluate.block_sums import AIVAT_SUM_FIELDS, SUM_FIELDS
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.policy_fit import FIT_FIELDS
from razz_env.evaluate.tasks import Task

RESULTS_FILE = "matches.jsonl"
STAMP_FILE = "tournament.json"
LOCK_FILE = ".lock"
KEY_FILE = ".key"
MAC = "mac"
HANDS_DIR = "hands"
REPORT_FILES = ("summary.json", "standings.csv", "pairings.csv", "crosstable.png", "ci.png")
HAND_FILE = re.compile(r"\d+(-\d+)+_\d+\.(jsonl|phhs)(\.tmp)?")

BlockKey = tuple[str, int]
log = logging.getLogger(__name__)


def block_key(block: Task | dict[str, Any]) -> BlockKey:
    """What identifies a block among results: its id and its deal count (a short last block is another block)."""
    if isinstance(block, Task):
        return block.task_id, block.deals
    return block["task_id"], block["deals"]


def hand_file(task_id: str, suffix: str) -> str:
    """File name of a block's hand records in ``hands/`` (``0-1/3`` -> ``0-1_3.jsonl``)."""
    return task_id.replace("/", "_") + suffix


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def result_problem(data: Any, config: TournamentConfig) -> str | None:
    """Why ``data`` is not a block result of ``config`` (its identity), or None when it is one."""
    if not isinstance(data, dict):
        return f"expected a JSON object, got {json.dumps(data)[:40]}"
    for name, kind in (("task_id", str), ("config", str), ("lineup", list), ("block", int), ("deals", int),
                       ("seed", str)):
        if name not in data:
            return f"no {name!r}"
        if not isinstance(data[name], kind) or isinstance(data[name], bool):
            return f"{name!r} is not a {kind.__name__}"
    if data["config"] != config.config_id:
        return f"written by another configuration (id {data['config']}; this folder's is {config.config_id})"
    lineup = tuple(data["lineup"])
    if lineup not in config.lineups():
        return f"lineup {data['lineup']} is not one of this tournament's"
    if data["block"] < 0 or not 1 <= data["deals"] <= config.block_deals:
        return f"block {data['block']} of {data['deals']} deals is out of range"
    task = Task.for_block(config, lineup, data["block"], data["deals"])
    if (data["task_id"], data["seed"]) != (task.task_id, task.seed):
        return f"task_id/seed {data['task_id']}/{data['seed']} do not match block {task.task_id} ({task.seed})"
    if "error" in data:
        error = data["error"]
        if (not isinstance(error, dict) or error.get("agent") not in lineup or not _is_int(error["agent"])
                or not isinstance(error.get("kind"), str) or not isinstance(error.get("message"), str)):
            return "'error' needs the failing agent (of the lineup), a kind and a message"
        return None
    replays = len(lineup) if config.duplicate else 1
    if not _is_int(data.get("hands")) or data["hands"] != data["deals"] * replays:
        return f"'hands' should be {data['deals'] * replays} ({data['deals']} deals x {replays} replays)"
    for name in sum_fields(config):
        sums = data.get(name)
        if (not isinstance(sums, list) or len(sums) != len(lineup)
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                           for v in sums)):
            return f"{name!r} should be {len(lineup)} finite numbers (one per lineup position)"
    return _fit_problem(data, len(lineup)) if config.aivat else None


def _fit_problem(data: dict[str, Any], positions: int) -> str | None:
    """Why the policy fit's sums of an AIVAT block are not what :class:`~razz_env.evaluate.policy_fit.FitSums`
    writes (per lineup position: a count of decisions, then five counts, five sums and five sums), or None."""
    decisions = data.get("fit_decisions")
    if not isinstance(decisions, list) or len(decisions) != positions or not all(
            _is_int(n) and n >= 0 for n in decisions):
        return f"'fit_decisions' should be {positions} counts (one per lineup position)"
    for name in FIT_FIELDS[1:]:
        rows = data.get(name)
        counts = name == "fit_taken"
        if not isinstance(rows, list) or len(rows) != positions or not all(
                isinstance(row, list) and len(row) == 5
                and all((_is_int(v) if counts else isinstance(v, (int, float)) and not isinstance(v, bool)
                         and math.isfinite(v)) and v >= 0 for v in row) for row in rows):
            return f"{name!r} should be {positions} lists of five non-negative numbers (one per lineup position)"
    return None


def sum_fields(config: TournamentConfig) -> tuple[str, ...]:
    """The sums every block result of ``config`` carries."""
    return SUM_FIELDS + AIVAT_SUM_FIELDS * config.aivat


def _same_result(first: dict[str, Any], second: dict[str, Any], config: TournamentConfig) -> bool:
    return all(first[name] == second[name] for name in ("hands", *sum_fields(config), *FIT_FIELDS * config.aivat))


def line_mac(result: dict[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 (hex) of ``result`` without its ``mac``, as canonical JSON, under the folder's ``key``."""
    body = json.dumps({k: v for k, v in result.items() if k != MAC}, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def read_results(path: Path, config: TournamentConfig, secret: bytes) -> dict[BlockKey, dict[str, Any]]:
    """The latest result of each block in ``path`` (a success supersedes earlier failures of its block), each line
    signed under the folder's key ``secret`` (its ``mac`` removed from what is returned).

    Raises :class:`ConfigError` naming the line for anything but a torn last line.
    """
    latest: dict[BlockKey, dict[str, Any]] = {}
    lines: dict[BlockKey, int] = {}
    with open(path, "rb") as handle:
        data = handle.read()
    complete = data[: data.rfind(b"\n") + 1]
    for number, raw in enumerate(complete.splitlines(), 1):
        where = f"{path}:{number}"
        try:
            result = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ConfigError(f"{where}: not valid JSON; a results file holds one block result per line "
                              f"(use --fresh to start over)") from None
        problem = result_problem(result, config)
        if problem is not None:
            raise ConfigError(f"{where}: not a block result of this tournament: {problem} (use --fresh to start "
                              f"over, or another --output)")
        mac = result.pop(MAC, None)
        if not isinstance(mac, str) or not hmac.compare_digest(mac, line_mac(result, secret)):
            raise ConfigError(f"{where}: its signature does not match this folder's {KEY_FILE}: a line no run of this "
                              f"folder wrote (forged, edited or copied from another folder); use --fresh to start "
                              f"over, or another --output")
        key = block_key(result)
        earlier = latest.get(key)
        if earlier is not None and "error" not in earlier and (
                "error" in result or not _same_result(earlier, result, config)):
            raise ConfigError(f"{where}: block {result['task_id']} already has a different result at line "
                              f"{lines[key]}; the folder mixes runs (use --fresh to start over)")
        if earlier is None or "error" in earlier:
            latest[key] = result
            lines[key] = number
    return latest


class ResultsFolder:
    """The results folder of one tournament configuration: checked, then opened locked for a run.

    ``report_files``: reports written there besides the tournament's (a fresh run removes them too).
    """

    def __init__(self, config: TournamentConfig, path: str | Path, report_files: Sequence[str] = ()) -> None:
        self.config = config
        self.path = Path(path)
        self.report_files = (*REPORT_FILES, *report_files)
        self._handle: IO[str] | None = None
        self._key = b""

    @property
    def results_file(self) -> Path:
        """``matches.jsonl``: one line per finished or failed block."""
        return self.path / RESULTS_FILE

    @property
    def hands(self) -> Path:
        """``hands/``: the hand records of each block, when recorded."""
        return self.path / HANDS_DIR

    def check(self) -> dict[BlockKey, dict[str, Any]]:
        """The results already here (by block); refuses a folder that holds another configuration or bad lines.

        Reads only: a refused folder is left as it was.
        """
        try:
            return self._check()
        except OSError as err:
            raise ConfigError(f"output: cannot read {self.path}: {err.strerror or err}") from None

    def _check(self) -> dict[BlockKey, dict[str, Any]]:
        refuse_a_file(self.path)
        stamp = self._read_stamp()
        has_results = self.results_file.exists() and self.results_file.stat().st_size > 0
        if stamp is None:
            if has_results or self._hand_files():
                raise ConfigError(f"{self.path}: holds results but no {STAMP_FILE} saying which configuration they "
                                  f"belong to; use --fresh to discard them, or another --output")
            return {}
        identity = self.config.identity()
        changed = _changed_agent(stamp, identity, self.config.labels)
        if changed:
            raise ConfigError(f"{self.path}: {changed}; its results are another player's: give the new one a new "
                              f"name (a new label), or use --fresh to discard them, or another --output")
        differences = _differences(stamp, identity)
        if differences:
            raise ConfigError(f"{self.path}: holds results of another configuration ({differences}); use --fresh to "
                              f"discard them, or another --output")
        if not has_results:
            return {}
        key = self._read_key()
        if key is None:
            raise ConfigError(f"{self.path}: holds results but no {KEY_FILE} to check their signatures (written by "
                              f"razz-env before lines were signed, or the key was removed); use --fresh to start "
                              f"over, or another --output")
        return read_results(self.results_file, self.config, key)

    def _read_key(self) -> bytes | None:
        path = self.path / KEY_FILE
        if not path.exists():
            return None
        key = path.read_bytes()
        if len(key) != 32:
            raise ConfigError(f"{path}: damaged ({len(key)} bytes, a key has 32); use --fresh to start over")
        return key

    def _make_key(self) -> bytes:
        """The folder's key, made (32 random bytes, owner-only) when it has none."""
        key = self._read_key()
        if key is not None:
            return key
        key = os.urandom(32)
        descriptor = os.open(self.path / KEY_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(key)
        return key

    def _read_stamp(self) -> dict[str, Any] | None:
        path = self.path / STAMP_FILE
        if not path.exists():
            return None
        try:
            stamp = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ConfigError(f"{path}: unreadable ({type(err).__name__}); it says which configuration the results "
                              f"belong to; use --fresh to start over") from None
        if not isinstance(stamp, dict) or not isinstance(stamp.get("config"), dict):
            raise ConfigError(f"{path}: garbled or from an older razz-env (no 'config' mapping); it says which "
                              f"configuration the results belong to; use --fresh to start over")
        return stamp["config"]

    def _hand_files(self) -> list[Path]:
        if not self.hands.is_dir():
            return []
        return [p for p in self.hands.iterdir() if HAND_FILE.fullmatch(p.name)]

    @contextmanager
    def open(self, fresh: bool = False) -> Iterator[dict[BlockKey, dict[str, Any]]]:
        """Lock the folder, clear it if ``fresh``, check it, stamp it; yields the results already here.

        Anything that cannot be written is a :class:`ConfigError` before the first block.
        """
        refuse_a_file(self.path)
        with folder_lock(self.path):
            try:
                if fresh:
                    self._clear()
                done = self.check()
                self._drop_torn_tail()
                self._key = self._make_key()
                self._write_stamp()
                handle = open(self.results_file, "a", encoding="utf-8")
            except OSError as err:
                raise ConfigError(f"output: cannot write to {self.path}: {err.strerror or err}") from None
            with handle:
                self._handle = handle
                try:
                    yield done
                finally:
                    self._handle = None

    def append(self, result: dict[str, Any]) -> None:
        """Add one block result, on disk (fsynced) before this returns."""
        if self._handle is None:
            raise RuntimeError("the results folder is not open")
        signed = {**result, MAC: line_mac(result, self._key)}
        self._handle.write(json.dumps(signed, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def _clear(self) -> None:
        """Remove every file an earlier run wrote (results, stamp, reports, hand records); nothing else."""
        for name in (RESULTS_FILE, STAMP_FILE, KEY_FILE, *self.report_files):
            (self.path / name).unlink(missing_ok=True)
        for path in self._hand_files():
            path.unlink()
        if self.hands.is_dir() and not any(self.hands.iterdir()):
            self.hands.rmdir()

    def _drop_torn_tail(self) -> None:
        """Cut a partial last line (a kill mid-write) so appends start on a fresh line."""
        if not self.results_file.exists():
            return
        data = self.results_file.read_bytes()
        if data and not data.endswith(b"\n"):
            log.warning("%s: dropped a torn last line (a run killed while writing it); its block is played again",
                        self.results_file)
            self.results_file.write_bytes(data[: data.rfind(b"\n") + 1])

    def _write_stamp(self) -> None:
        path = self.path / STAMP_FILE
        stamp = {"config_id": self.config.config_id, "config": self.config.identity()}
        partial = path.with_name(path.name + ".tmp")
        partial.write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
        os.replace(partial, path)


def refuse_a_file(path: Path) -> None:
    """Refuse an ``output`` that is a file: the results go in a folder."""
    if path.exists() and not path.is_dir():
        raise ConfigError(f"output: {path} is a file; expected a folder for the results")


def _changed_agent(saved: dict[str, Any], identity: dict[str, Any], labels: list[str]) -> str | None:
    """``agents[i] (label): its model changed (...)`` when the agents are the same but what plays under one is not."""
    current = json.loads(json.dumps(identity))
    there, now = saved.get("fingerprints"), current["fingerprints"]
    if saved.get("agents") != current["agents"] or not isinstance(there, list) or len(there) != len(now):
        return None
    for index, (old, new) in enumerate(zip(there, now)):
        if old != new:
            what = "model" if "model_sha256" in json.dumps([old, new]) else "code"
            return (f"agents[{index}] ({labels[index]}): what plays under this name changed since these results "
                    f"(its {what}: {_brief(old)} there, {_brief(new)} now)")
    return None


def _differences(saved: dict[str, Any], identity: dict[str, Any]) -> str:
    """The identity fields that differ, as ``field: saved here vs now`` (empty when none do)."""
    current = json.loads(json.dumps(identity))
    names = sorted(set(saved) | set(current), key=lambda n: (n not in current, n))
    return "; ".join(f"{name}: {_difference(saved.get(name), current.get(name))}"
                     for name in names if saved.get(name) != current.get(name))


def _difference(there: Any, now: Any) -> str:
    """``there`` vs ``now`` in a line: two lists by their lengths and first differing entry (a lineup that
    only grew would read the same if cut short), anything else as JSON cut at 60 characters."""
    if isinstance(there, list) and isinstance(now, list):
        at = next(i for i in range(max(len(there), len(now))) if i >= min(len(there), len(now))
                  or there[i] != now[i])
        entry = [_brief(values[at]) if at < len(values) else "nothing" for values in (there, now)]
        return (f"{len(there)} entries there, {len(now)} now; entry {at}: {entry[0]} there, {entry[1]} now")
    return f"{_brief(there)} there, {_brief(now)} now"


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


@contextmanager
def folder_lock(path: Path, busy: str = "another razz tournament is running", tidy: bool = False) -> Iterator[None]:
    """Hold an exclusive lock on the folder (created if needed); refuse, changing nothing, when another process
    holds it (``busy`` says who: ``... in this folder``). ``tidy``: the lock file (and the folder, when this made it
    and nothing was written) goes when the lock is released."""
    lock = path / LOCK_FILE
    made_folder = tidy and not path.exists()
    try:
        path.mkdir(parents=True, exist_ok=True)
        made_lock = tidy and not lock.exists()
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise ConfigError(f"output: cannot write to {path}: {err.strerror or err}") from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            made_lock = made_folder = False
            raise ConfigError(f"{path}: {busy} in this folder; wait for it to end, or use another --output") from None
        yield
    finally:
        if made_lock:
            lock.unlink(missing_ok=True)
        if made_folder and not any(path.iterdir()):
            path.rmdir()
        os.close(descriptor)
