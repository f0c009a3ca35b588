"""A script's worth of Python (a match, a tournament, LBR) runs with the core and ``eval`` extras only.

The script runs in a fresh interpreter whose import system refuses torch, SB3, sb3-contrib, numba, Ray and
OpenSpiel, as an install without the ``train``, ``batch``, ``ray`` and ``openspiel`` extras would.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ("torch", "stable_baselines3", "sb3_contrib", "numba", "ray", "open_spiel", "pyspiel")
REFUSE = f'''
import sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ImportError(f"{{name}}: not installed (core and eval extras only)")

sys.meta_path.insert(0, Refuse())
'''
SCRIPT = '''
from razz_env.evaluate import match, tournament
from razz_env.exploit import exploitability

result = match("razz_heuristic", "calling_station", deals=10)
assert result.hands == 20 and result.ci95_low < result.bb_per_100 < result.ci95_high
standings = tournament({"agents": ["razz_heuristic", "calling_station", "monte_carlo"], "deals": 2, "workers": 1,
                        "output": "tour"})
assert standings.blocks_done == 3 and not standings.failures
bound = exploitability("razz_heuristic", "lbr", deals=2, output="lbr")
assert bound.hands == 4 and not bound.exact
print(sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED))
'''


def _run(code: str, folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_match_tournament_and_lbr_need_no_torch_numba_ray_or_openspiel(tmp_path):
    done = _run(REFUSE + f"BLOCKED = {BLOCKED!r}\n" + SCRIPT, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split("\n")[-2] == "[]"


def test_the_refusal_bites(tmp_path):
    done = _run(REFUSE + "from razz_env.agents.registry import make_agent\nmake_agent('ppo_razz')", tmp_path)
    assert done.returncode != 0 and "not installed (core and eval extras only)" in done.stderr
