"""``rdpsym``: one parser for every subcommand, and one error path.

    rdpsym table2
    rdpsym derive laplace --order 2 --set lambda=1/2 --dps 40
    rdpsym derive laplace --latex laplace.tex --pdf
    rdpsym check myclaims/ --latex report.tex --json results.json
    rdpsym epsilon --mechanism sampled-gaussian --set q=0.01 --set sigma=1.1 --steps 10000 --delta 1e-5
    rdpsym calibrate --mechanism sampled-gaussian --set q=0.01 --steps 10000 --epsilon 3 --delta 1e-5
    rdpsym plot laplace:scale=1 gaussian:sigma=1 --output curves.png
    rdpsym verify --mechanism gaussian --set sigma=2 --orders 2,10 --rdp 0.25,1.25

Every value typed is read by :mod:`rdpsym.foundations.reading` (parsed, never
evaluated) and every output path checked before any work starts; an error
the user can fix is one line, ``rdpsym: error: <what> must be <range>; got
<value>.``, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Iterable

import rdpsym
from rdpsym.cli.help import SUMMARIES, Parser, finish
from rdpsym.cli.output import BAD_INPUT, OUTPUT_FAILED, STATUSES
from rdpsym.cli.progress import working
from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.termination import sigterm_exits

#: Every subcommand and the module that reads its options and runs it (``register(subparsers)`` sets
#: ``args.run``), in the order ``rdpsym --help`` lists them.  A module is imported by name when its command is
#: the one typed, not before: the modules load SymPy, mpmath and python-flint, which ``rdpsym --version`` and
#: ``rdpsym --help`` do not need (their one-line helps are :data:`rdpsym.cli.help.SUMMARIES`).
COMMANDS = {
    "table2": "rdpsym.cli.table2",
    "derive": "rdpsym.cli.derive",
    "check": "rdpsym.cli.check",
    "epsilon": "rdpsym.cli.accounting",
    "delta": "rdpsym.cli.accounting",
    "reference": "rdpsym.cli.accounting",
    "audit": "rdpsym.cli.accounting",
    "plot": "rdpsym.cli.plot",
    "calibrate": "rdpsym.cli.calibrate",
    "verify": "rdpsym.cli.verify",
    "cache": "rdpsym.cli.cache",
}


class _Version(argparse.Action):
    """``--version``: rdpsym's version, looked up only when asked (importlib.metadata costs a startup)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show rdpsym's version and exit"):  # noqa: A002 - argparse's own keyword
        super().__init__(option_strings, dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"rdpsym {rdpsym.__version__}")
        parser.exit()


def build_parser(commands: Iterable[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The command line's parser: every command in ``commands`` (all by default) with its options, the others
    listed by name and one-line help only (their modules are not imported)."""
    parser = Parser(prog="rdpsym", description="Rényi differential privacy, derived and checked.",
                    epilog=STATUSES + "\n\n'rdpsym COMMAND --help' describes a command, with examples.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)
    wanted = set(commands)
    for module in dict.fromkeys(COMMANDS[name] for name in COMMANDS if name in wanted):
        importlib.import_module(module).register(sub)
    for name, summary in SUMMARIES.items():
        if name not in sub.choices:
            sub.add_parser(name, help=summary)
    finish(parser)
    return parser


#: The errors of a write that cannot go on: no space, a quota, an I/O error, a file too large.
_WRITE_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (see :data:`rdpsym.cli.output.STATUSES`)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The command is the first word that is not an option (the top level has only --help and --version).
    typed = next((word for word in argv if not word.startswith("-")), None)
    try:
        # (--help and --version print as they are parsed: their output can fail to be written too)
        args = build_parser([typed] if typed in COMMANDS else []).parse_args(argv)
        # (derive --latex - --json - wrote both documents one after the other on stdout, one unreadable file: a probe)
        to_stdout = [f"--{name}" for name in ("latex", "json", "markdown") if getattr(args, name, None) == "-"]
        if len(to_stdout) > 1:
            raise ParameterError(must("the outputs", "at most one written to standard output (-)",
                                      " and ".join(to_stdout)))
        # SIGTERM ends the command as Ctrl-C does, through every finally: workers stopped, no output half written
        with sigterm_exits():
            with working(args.command):
                status = args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # (here, where a full disk is said; at exit it was a traceback)
        return status
    except RdpSymError as exc:
        print(f"rdpsym: error: {exc}", file=sys.stderr)
        return BAD_INPUT
    except BrokenPipeError:
        # The reader of standard output closed it (``rdpsym table2 | head -1``): the rest is not wanted, and
        # Python's flush of stdout at exit must not raise again (a traceback was printed; a probe).
        _stdout_to_devnull()
        return OUTPUT_FAILED
    except OSError as exc:
        return _write_failed(exc)
    except SystemExit as exc:  # argparse's exit after --help (or a usage error): what it printed is flushed here
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError as failure:
            return _write_failed(failure)
        raise exc from None


def _write_failed(exc: OSError) -> int:
    """Standard output could not be written (``rdpsym table2 > /dev/full``: a traceback and status 1, which means "a
    result is not as required"; a probe): said once, and the flush at exit not tried again."""
    if exc.errno not in _WRITE_FAILURES or exc.filename is not None:
        raise exc  # (a file named in the error is not standard output: a cache or a temporary file, said as itself)
    print(f"rdpsym: error: the output could not be written ({exc.strerror})", file=sys.stderr)
    _stdout_to_devnull()
    return OUTPUT_FAILED


def _stdout_to_devnull() -> None:
    if sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
