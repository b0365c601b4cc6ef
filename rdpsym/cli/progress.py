"""What a command shows while it works: a spinner saying what it is doing, on a terminal only.

``rich`` draws it on standard error; the command's own output still goes to standard output, printed above
the spinner.  Piped or redirected (a script, CI, a test), nothing is drawn: the output is exactly what the
command prints.  ``rdpsym check`` shows its own per-claim progress instead.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

#: What each command is doing, as its spinner says it.
DOING = {
    "table2": "deriving Mironov's Table II from the densities",
    "derive": "deriving the Rényi divergence",
    "epsilon": "computing a certified ε",
    "delta": "computing a certified δ",
    "reference": "computing the reference tables",
    "audit": "auditing the peer against certified values",
    "plot": "computing the curves",
    "calibrate": "calibrating (certified on both sides)",
    "verify": "verifying the peer's answers",
}


@contextlib.contextmanager
def working(command: str, stream=None) -> Iterator[None]:
    """A spinner saying what ``command`` does, while the block runs, if ``stream`` (standard error) is a
    terminal; nothing otherwise."""
    stream = sys.stderr if stream is None else stream
    doing = DOING.get(command)
    if doing is None or not getattr(stream, "isatty", lambda: False)():
        yield
        return
    # a third-party library, loaded only when a spinner is drawn
    from rich.console import Console
    from rich.live import Live
    from rich.spinner import Spinner

    # Standard output is redirected through the spinner's console only when it is the terminal too (the lines
    # then print above the spinner); piped (`rdpsym derive --latex - > doc.tex`), it is left alone, or rich
    # would carry the document to standard error.
    shared = bool(getattr(sys.stdout, "isatty", lambda: False)())
    spinner = Spinner("dots", f"rdpsym {command}: {doing}…")
    with Live(spinner, console=Console(file=stream), transient=True, redirect_stdout=shared, redirect_stderr=False):
        yield


__all__ = ["DOING", "working"]
