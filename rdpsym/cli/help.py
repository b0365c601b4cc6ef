"""What ``--help`` says, and what a mistyped name gets: every subcommand's description and examples in one
place, and "did you mean" for a subcommand, a mechanism or any other choice typed wrong.

Each example is a command that runs as shown (tests/test_cli_help.py runs the quick ones).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys

#: Every subcommand's one-line help, in the order ``rdpsym --help`` lists them (read without loading the command's
#: module, which loads SymPy: ``rdpsym --help`` lists them at once).
SUMMARIES = {
    "table2": "derive Mironov's Table II and show how each cell was established",
    "derive": "derive one mechanism's Rényi divergence",
    "check": "prove or check claims: the paper's (default) or your own files/folders",
    "epsilon": "epsilon of a (composed) mechanism, to --dps digits, rounded up",
    "delta": "delta of a (composed) mechanism, to --dps digits, rounded up",
    "reference": "export high-precision reference tables (JSON and CSV)",
    "audit": "compare an installed peer accountant with rdpsym's certified values",
    "plot": "draw Rényi budget curves ε(α) or (ε, δ) conversion curves ε(δ) to PNG, PDF or SVG",
    "calibrate": "the smallest noise (or most steps, or largest rate) meeting (ε, δ), certified on both sides",
    "verify": "check a peer accountant's RDP and ε against certified values",
    "cache": "show (or --clear) the derivations kept between processes",
}

#: Every subcommand's examples, shown at the end of its ``--help``.
EXAMPLES = {
    "table2": ["rdpsym table2", "rdpsym table2 --latex table2.tex --pdf", "rdpsym table2 --json -"],
    "derive": ["rdpsym derive gaussian", "rdpsym derive laplace --order 2 --set lambda=1/2 --dps 40",
               "rdpsym derive randomized-response --order inf --latex rr.tex --pdf", "rdpsym derive gaussian --json -"],
    "check": ["rdpsym check", "rdpsym check proofs/peers --markdown atlas.md --latex atlas.tex --pdf",
              "rdpsym check myclaims/ --json results.json --timeout 60"],
    "epsilon": ["rdpsym epsilon --mechanism sampled-gaussian --set q=0.01 --set sigma=1.1 --steps 10000 "
                "--delta 1e-5",
                "rdpsym epsilon --mechanism laplace --set scale=2 --steps 10 --delta 1e-6 --certified",
                "rdpsym epsilon --mechanism gaussian --set sigma=2 --delta 1e-5 --json result.json"],
    "delta": ["rdpsym delta --mechanism gaussian --set sigma=2 --steps 4 --epsilon 1",
              "rdpsym delta --mechanism sampled-gaussian --set q=0.01 --set sigma=1 --steps 1000 --epsilon 2 "
              "--json -"],
    "reference": ["rdpsym reference --out refs --dps 60", "rdpsym reference --quick --dps 30 --workers 2 --out refs",
                  "rdpsym reference --out refs --scheduler tcp://host:8786"],
    "audit": ["rdpsym audit dp-accounting --grid small", "rdpsym audit opacus --grid full --json opacus.json"],
    "plot": ["rdpsym plot gaussian:sigma=1 laplace:scale=1 --output curves.png",
             "rdpsym plot sampled-gaussian:q=0.01,sigma=1 --steps 1000 --kind epsilon-delta --output eps.pdf"],
    "calibrate": ["rdpsym calibrate --mechanism gaussian --epsilon 1 --delta 1e-5",
                  "rdpsym calibrate --mechanism sampled-gaussian --set q=256/60000 --steps 14063 --epsilon 3.01 "
                  "--delta 1e-5", "rdpsym calibrate --mechanism laplace --epsilon 0.5,1,2 --delta 1e-6 --workers 2"],
    "verify": ["rdpsym verify --mechanism gaussian --set sigma=2 --orders 2,10 --rdp 0.25,1.25",
               "rdpsym verify --event ledger.json --delta 1e-5 --epsilon 3.2 --peer dp-accounting",
               "rdpsym verify --history opacus_history.json --delta 1e-5 --epsilon 2.1 --peer opacus"],
    "cache": ["rdpsym cache", "rdpsym cache --clear", "rdpsym cache --json"],
}


class _Formatter(argparse.HelpFormatter):
    """argparse's layout, except that the examples keep their lines (a description is still wrapped)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


#: A value starting with a negative number as typed: -1e-5, -.5, -2, and a list or range that starts with one
#: ("--bounds -1,10" was "expected one argument" instead of the bounds' range; a review).  No option of rdpsym's
#: starts with a dash and a digit.
_NEGATIVE_NUMBER = re.compile(r"^-(\d|\.\d)")


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose error for a choice typed wrong names the closest valid ones.

    >>> p = Parser(prog="rdpsym")
    >>> _ = p.add_argument("mechanism", choices=["gaussian", "laplace"])
    >>> p.parse_args(["gausian"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A value such as -1e-5 is a (wrong) value, not an option: argparse's own pattern knows only -1 and -.5,
        # so "--delta -1e-5" was "expected one argument" instead of delta's range (a probe).
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def error(self, message: str):
        found = re.search(r"invalid choice: '(.*?)' \(choose from (.*)\)", message)
        if found:
            typed, listed = found.group(1), found.group(2)
            choices = re.findall(r"'([^']*)'", listed) or [c.strip() for c in listed.split(",")]
            close = difflib.get_close_matches(typed, choices, n=3, cutoff=0.6)
            if close:
                message += "; did you mean " + " or ".join(repr(c) for c in close) + "?"
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def finish(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand a description (its one-line help, when it has none), its examples and a layout
    that keeps them on their own lines."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: a.help for a in action._choices_actions}
        for name, sub in action.choices.items():
            if not sub.description and helps.get(name):
                sub.description = helps[name][0].upper() + helps[name][1:] + "."
            examples = EXAMPLES.get(name)
            if examples:
                sub.epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
                sub.formatter_class = _Formatter


__all__ = ["EXAMPLES", "SUMMARIES", "Parser", "finish"]
