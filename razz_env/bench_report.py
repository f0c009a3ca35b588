"""``razz bench``'s report: the figures as data (bench.json), the terminal summary and one self-contained page
(bench.html: the summary, the field's table, the bound, the picture as an inline PNG, the reproducing commands).

Every figure carries its 95% CI, raw and AIVAT, its hands and seed and the command that reproduces it; the page
fetches nothing (inline CSS and image), as :mod:`razz_env.show`'s replay page.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import shlex
from pathlib import Path
from typing import Any

from razz_env.bench import BenchResult

FILES = ("bench.json", "bench.html")
FIGURES = ("bb_per_100", "ci95_low", "ci95_high", "aivat_bb_per_100", "aivat_ci95_low", "aivat_ci95_high")


def _number(value: float | None, digits: int = 3) -> float | None:
    """``value`` rounded for the report; None when there is none (a CI needs two deals) or it is not finite."""
    return round(value, digits) if value is not None and math.isfinite(value) else None


def verdict(low: float | None, high: float | None) -> str:
    """``wins`` or ``loses`` when the 95% CI excludes zero, else ``undecided``.

    >>> verdict(1.0, 9.0), verdict(-9.0, -1.0), verdict(-1.0, 9.0), verdict(None, None)
    ('wins', 'loses', 'undecided', 'undecided')
    """
    if low is not None and low > 0:
        return "wins"
    if high is not None and high < 0:
        return "loses"
    return "undecided"


def _python(code: str) -> str:
    """The shell command that runs ``code``: in double quotes when nothing in it is special there.

    >>> print(_python("print('a')"))
    python -c "print('a')"
    """
    plain = not any(char in code for char in '"$`\\!')
    return f'python -c "{code}"' if plain else f"python -c {shlex.quote(code)}"


def bench_command(result: BenchResult) -> str:
    """The ``razz bench`` command that reproduces the whole report."""
    args, bench = result.args, result.plan
    words = ["razz", "bench", shlex.quote(args.agent), "--variant", bench.variant, "--hands", str(args.hands),
             "--seed", str(args.seed), "--best-response", bench.bound]
    budget = {"lbr": ["--lbr-deals", str(args.lbr_deals)], "rl": ["--rl-steps", str(args.rl_steps)]}
    words += budget.get(bench.bound, [])
    return " ".join(words)


def pairing_row(result: BenchResult, index: int) -> dict[str, Any]:
    """The agent against field member ``index``: its figures with CIs (raw and AIVAT), the verdict of the raw CI,
    hands, seed, the member's fingerprint and the command that reproduces the figures."""
    match, bench = result.pairings[index], result.plan
    figures = {name: _number(getattr(match, name)) for name in FIGURES}
    code = (f"from razz_env.evaluate import match; print(match({bench.agent!r}, {bench.field[index]!r}, "
            f"deals={match.deals}, seed={match.seed}, table={bench.table!r}, aivat=True))")
    return {"opponent": match.agents[1], "fingerprint": match.config.fingerprints[1], **figures,
            "sd_ratio": _number(match.sd_ratio), "aivat_reliable": match.aivat_reliable,
            "aivat_note": match.aivat_fit_note, "verdict": verdict(figures["ci95_low"], figures["ci95_high"]),
            "hands": match.hands, "deals": match.deals, "seed": match.seed,
            "seconds": round(result.pairing_seconds[index], 1), "reproduce": _python(code)}


def bound_row(result: BenchResult) -> dict[str, Any]:
    """The exploitability bound: the best response's win rate with its CIs (raw and AIVAT), whether it is a valid
    lower bound, its sentence and the ``razz exploit`` command that reproduces it (``method: none``: not measured)."""
    bound, args = result.bound, result.args
    if bound is None:
        return {"method": "none", "kind": "not measured (--best-response none)"}
    run = bound.detail
    training = run.training or {}
    command = ["razz", "exploit", "--agent", shlex.quote(args.agent), "--method", bound.method, "--variant",
               bound.variant, "--deals", str(run.row()["deals"]), "--seed", str(args.seed), "--aivat", "--fresh"]
    if bound.method == "rl":
        command += ["--steps", str(args.rl_steps)]
    kind = {"lbr": "local best response", "rl": "learned best response (MaskablePPO)"}[bound.method]
    return {"method": bound.method, "kind": f"{kind}: a lower bound on exploitability (a best response may win more)",
            **{name: _number(getattr(bound, name)) for name in FIGURES}, "sd_ratio": _number(bound.sd_ratio),
            "aivat_reliable": bound.aivat_reliable, "valid": bound.valid,
            "off_policy_actions": bound.off_policy_actions, "hands": bound.hands, "deals": run.row()["deals"],
            "seed": run.tournament.config.seed, "train_steps": training.get("steps"),
            "train_seconds": training.get("train_seconds"), "seconds": bound.seconds, "sentence": str(bound),
            "results": str(run.tournament.config.output), "reproduce": " ".join(command)}


def summary_line(data: dict[str, Any]) -> str:
    """One line: how the agent fared against the field (by the raw 95% CIs) and its bound."""
    rows = data["field"]
    counts = {name: sum(row["verdict"] == name for row in rows) for name in ("wins", "loses", "undecided")}
    line = (f"{data['agent']} ({data['variant']}): beats {counts['wins']} of {len(rows)} field agents, loses to "
            f"{counts['loses']}, {counts['undecided']} undecided (raw 95% CIs, {data['hands']} hands each)")
    bound = data["bound"]
    if bound["method"] == "none" or bound["bb_per_100"] is None:
        return f"{line}; exploitability not bounded"
    if not bound["valid"]:
        return f"{line}; the {bound['method']} bound is INVALID (the agent played off its stated policy)"
    figure = f"{bound['bb_per_100']:.1f} bb/100 {_ci(bound)}"
    if bound["ci95_low"] is not None and bound["ci95_low"] > 0:
        return f"{line}; exploitable by at least {figure} ({bound['method']}, a lower bound)"
    return f"{line}; {bound['method']} found no exploit ({figure})"


def _ci(row: dict[str, Any], prefix: str = "") -> str:
    low, high = row[f"{prefix}ci95_low"], row[f"{prefix}ci95_high"]
    return "[n/a]" if low is None or high is None else f"[{low:.1f}, {high:.1f}]"


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


def bench_data(result: BenchResult) -> dict[str, Any]:
    """The report as JSON-ready data (bench.json)."""
    from razz_env.cli import package_version
    from razz_env.evaluate.config import agent_fingerprint

    bench, args = result.plan, result.args
    data = {"agent": bench.label, "spec": bench.agent, "fingerprint": agent_fingerprint(bench.agent),
            "variant": bench.variant, "package_version": package_version(), "hands": args.hands,
            "deals": args.hands // 2, "seed": args.seed, "workers": args.workers, "duplicate": True,
            "units": "bb/100: big bets won per 100 hands, 95% CIs over duplicate deals",
            "field": [pairing_row(result, index) for index in range(len(result.pairings))],
            "bound": bound_row(result), "seconds": round(result.seconds, 1), "reproduce": bench_command(result)}
    data["summary"] = summary_line(data)
    return data


def _table_rows(data: dict[str, Any]) -> list[tuple[str, ...]]:
    """The field's rows and the bound's, as the terminal and the page show them."""
    rows = [(row["opponent"], _value(row["bb_per_100"]), _ci(row), _value(row["aivat_bb_per_100"]),
             _ci(row, "aivat_") + ("" if row["aivat_reliable"] is not False else " unreliable"),
             "-" if row["sd_ratio"] is None else f"{row['sd_ratio']:.2f}", str(row["hands"]), row["verdict"])
            for row in data["field"]]
    bound = data["bound"]
    if bound["method"] != "none":
        rows.append((f"bound: {bound['method']}", _value(bound["bb_per_100"]), _ci(bound),
                     _value(bound["aivat_bb_per_100"]), _ci(bound, "aivat_"),
                     "-" if bound["sd_ratio"] is None else f"{bound['sd_ratio']:.2f}", str(bound["hands"]),
                     "valid" if bound["valid"] else "INVALID"))
    return rows


HEADER = ("opponent", "bb/100", "95% CI", "AIVAT", "AIVAT 95% CI", "SD ratio", "hands", "verdict")


def format_summary(result: BenchResult) -> str:
    """The terminal summary: the field's table (the agent's win rate against each member), the bound, one line."""
    data = bench_data(result)
    widths = (22, 8, 18, 8, 18, 9, 7, 10)
    lines = [f"razz bench: {data['agent']} ({data['variant']}) against the reference field, {data['hands']} hands "
             f"per pairing ({data['deals']} duplicate deals, seed {data['seed']}); the agent's bb/100", ""]
    for row in (HEADER, *_table_rows(data)):
        lines.append("".join(f"{cell[:width - 1]:<{width}}" if i == 0 else f"{cell:>{width}}"
                             for i, (cell, width) in enumerate(zip(row, widths))).rstrip())
    bound = data["bound"]
    lines += ["", bound.get("sentence", "exploitability: not measured (--best-response none)"), "", data["summary"]]
    return "\n".join(lines)


def figure_png(data: dict[str, Any]) -> bytes:
    """The picture: the agent's bb/100 against each member, raw and AIVAT with 95% CIs, and the bound (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(f"vs {row['opponent']}", row) for row in data["field"]]
    if data["bound"]["method"] != "none":
        rows.append((f"bound ({data['bound']['method']})", data["bound"]))
    fig, ax = plt.subplots(figsize=(8, 0.42 * len(rows) + 1.8))
    for prefix, offset, colour, name in (("", -0.15, "tab:blue", "raw"), ("aivat_", 0.15, "tab:orange", "AIVAT")):
        points = [(y + offset, row[f"{prefix}bb_per_100"], row[f"{prefix}ci95_low"], row[f"{prefix}ci95_high"])
                  for y, (_, row) in enumerate(rows) if row[f"{prefix}bb_per_100"] is not None]
        for y, _, low, high in points:
            if low is not None and high is not None:
                ax.plot([low, high], [y, y], color=colour, lw=1.5)
        ax.plot([p[1] for p in points], [p[0] for p in points], "o", color=colour, ms=4, label=name)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(range(len(rows)), [name for name, _ in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel("bb/100 with 95% CI (field: the agent's win rate; bound: the best response's)")
    ax.set_title(f"{data['agent']} ({data['variant']}): {data['hands']} hands per pairing")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return buffer.getvalue()


def page(data: dict[str, Any], picture: bytes) -> str:
    """bench.html: one page with everything inline (nothing is fetched)."""
    text = html.escape
    table = "".join("<tr>" + "".join(f"<td>{text(cell)}</td>" for cell in row) + "</tr>" for row in _table_rows(data))
    commands = [("the whole report", data["reproduce"])]
    commands += [(f"vs {row['opponent']}", row["reproduce"]) for row in data["field"]]
    if data["bound"]["method"] != "none":
        commands.append((f"the bound ({data['bound']['method']})", data["bound"]["reproduce"]))
    listing = "".join(f"<dt>{text(name)}</dt><dd><code>{text(command)}</code></dd>" for name, command in commands)
    notes = [f"package version {data['package_version']}", f"seed {data['seed']}",
             f"{data['deals']} duplicate deals per pairing", f"agent fingerprint {json.dumps(data['fingerprint'])}",
             f"{data['seconds']:.0f} s"]
    return _PAGE.format(title=text(f"razz bench: {data['agent']} ({data['variant']})"), summary=text(data["summary"]),
                        header="".join(f"<th>{text(cell)}</th>" for cell in HEADER), table=table,
                        bound=text(data["bound"].get("sentence", data["bound"]["kind"])),
                        picture=base64.b64encode(picture).decode("ascii"), commands=listing,
                        notes=text("; ".join(notes)))


def write_bench(result: BenchResult, output: str | Path) -> list[Path]:
    """Write bench.json and bench.html into ``output`` (each written whole, then renamed into place)."""
    from razz_env.train.runfolder import write_atomic

    data = bench_data(result)
    written = []
    for name, content in (("bench.json", json.dumps(data, indent=2)), ("bench.html", page(data, figure_png(data)))):
        written.append(Path(output) / name)
        write_atomic(written[-1], content.encode("utf-8"))
    return written


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
  body {{ margin: 0 auto; max-width: 1000px; padding: 12px; font: 14px "DejaVu Sans", Arial, sans-serif; }}
  table {{ border-collapse: collapse; }}
  th, td {{ padding: 3px 9px; border-bottom: 1px solid #ccc; text-align: right; }}
  th:first-child, td:first-child {{ text-align: left; }}
  img {{ max-width: 100%; }}
  code {{ font-size: 12px; word-break: break-all; }}
  dd {{ margin: 0 0 8px 16px; }}
  .note {{ color: #555; font-size: 12px; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p><strong>{summary}</strong></p>
<h2>Against the reference field</h2>
<p class="note">The agent's win rate in bb/100 (big bets per 100 hands) with its 95% CI, raw and with AIVAT (the same
hands, less variance; SD ratio: raw SD / AIVAT SD); verdict: the raw CI above zero (wins), below (loses) or across it.
The last row is the best response's win rate against the agent.</p>
<table><thead><tr>{header}</tr></thead><tbody>{table}</tbody></table>
<h2>Exploitability</h2>
<p>{bound}</p>
<img alt="win rates with 95% CIs" src="data:image/png;base64,{picture}">
<h2>Reproduce</h2>
<dl>{commands}</dl>
<p class="note">{notes}; the figures as data: bench.json</p>
</body>
</html>
"""
