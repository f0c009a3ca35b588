"""The progress of a long run: a live bar on a terminal, a few whole lines in a log.

On a terminal, tqdm's bar redraws itself in place. Written to a file or a pipe (``razz tournament > run.log
2>&1``, CI), those redraws are carriage returns: a 1,248-block tournament left one line of 28,608 characters. So off
a terminal, progress is a plain line at each tenth of the way, as pip and pytest write off a terminal.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

STEPS = 10
"""Lines a run writes off a terminal: one at each tenth of the way."""


class LineProgress:
    """tqdm's ``update``/``n``/``refresh``/``set_postfix``/``write``/``close``, as whole lines: ``desc: n/total unit
    (p%) after t s`` at each tenth of ``total``, and the last one at :meth:`close`.

    >>> import io
    >>> log = io.StringIO()
    >>> bar = LineProgress(total=40, initial=0, unit="block", desc="tournament", file=log, clock=lambda: 0.0)
    >>> for _ in range(40):
    ...     bar.update(1)
    >>> bar.close()
    >>> lines = log.getvalue().splitlines()
    >>> len(lines), lines[0], lines[-1]
    (10, 'tournament: 4/40 blocks (10%) after 0 s', 'tournament: 40/40 blocks (100%) after 0 s')
    """

    def __init__(self, total: int, initial: int, unit: str, desc: str, file: IO[str],
                 clock: Any = time.monotonic) -> None:
        self.total, self.n, self.unit, self.desc, self.file, self.clock = total, initial, unit, desc, file, clock
        self.started = clock()
        self.postfix = ""
        self.shown = self._step()

    def _step(self) -> int:
        return STEPS * self.n // self.total if self.total > 0 else STEPS

    def update(self, n: int = 1) -> None:
        """``n`` more done."""
        self.n += n
        self.refresh()

    def refresh(self) -> None:
        """Write a line if :attr:`n` has passed another tenth of the way."""
        if self._step() > self.shown:
            self.shown = self._step()
            self._line()

    def set_postfix(self, values: dict[str, Any]) -> None:
        """Figures shown at the end of the next line."""
        self.postfix = ", ".join(f"{key}={value:.3g}" if isinstance(value, float) else f"{key}={value}"
                                 for key, value in values.items())

    def write(self, message: str, file: IO[str] | None = None) -> None:
        """A message of its own line."""
        print(message, file=file or self.file, flush=True)

    def close(self) -> None:
        """The last line, unless it was written already."""
        if self.shown < STEPS and self.n > 0 and self.n >= self.total:
            self.shown = STEPS
            self._line()

    def _line(self) -> None:
        share = 100 * self.n // self.total if self.total > 0 else 100
        plural = "s" if self.total != 1 else ""
        tail = f" ({self.postfix})" if self.postfix else ""
        self.write(f"{self.desc}: {self.n}/{self.total} {self.unit}{plural} ({share}%) after "
                   f"{self.clock() - self.started:.0f} s{tail}")


def progress_bar(total: int, initial: int, unit: str, desc: str, file: IO[str] | None = None) -> Any:
    """A tqdm bar on ``file`` (default stderr) when it is a terminal, else a :class:`LineProgress`."""
    file = file if file is not None else sys.stderr
    isatty = getattr(file, "isatty", None)
    if isatty is not None and isatty():
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, unit=unit, desc=desc, dynamic_ncols=True, file=file)
    return LineProgress(total, initial, unit, desc, file)
