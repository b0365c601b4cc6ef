"""A command line of its ecosystem (issue 27): every subcommand described with examples that run, option help
everywhere, ``--json FILE`` (``-``: standard output) on every command that computes, "did you mean" for a
name typed wrong, timings labelled as CPU time."""

from __future__ import annotations

import argparse
import json
import os
import shlex

import pytest

from rdpsym.cli.help import EXAMPLES
from rdpsym.cli.main import build_parser, main


def _subcommands() -> dict:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def test_every_subcommand_has_a_description_option_help_and_examples():
    subs = _subcommands()
    assert set(subs) == set(EXAMPLES)
    for name, sub in subs.items():
        assert sub.description, name
        text = sub.format_help()
        assert "examples:\n  rdpsym " + name in text, name
        undocumented = [a.option_strings or [a.dest] for a in sub._actions if not a.help]
        assert not undocumented, (name, undocumented)


def test_every_example_parses_as_shown():
    parser = build_parser()
    for name, examples in EXAMPLES.items():
        for example in examples:
            argv = shlex.split(example)[1:]
            assert argv[0] == name
            parser.parse_args(argv)  # a SystemExit here is an example that does not parse


@pytest.mark.parametrize("argv, suggestion", [
    (["tabel2"], "did you mean 'table2'?"),
    (["epsilon", "--mechanism", "gausian", "--delta", "1e-5"], "did you mean 'gaussian'"),
    (["derive", "lapalce"], "did you mean 'laplace'?"),
    (["audit", "opacos"], "did you mean 'opacus'?"),
])
def test_a_name_typed_wrong_gets_the_closest_valid_ones(argv, suggestion, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert suggestion in capsys.readouterr().err


def test_json_on_derive_table2_and_epsilon(tmp_path, capsys):
    assert main(["derive", "gaussian", "--json", "-"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out[out.index("{"):])
    assert data["result"] == "alpha/(2*sigma**2)" and data["status"] == "proved" and data["steps"]
    target = tmp_path / "eps.json"
    assert main(["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--json",
                 str(target)]) == 0
    assert "ε = 1.99309" in capsys.readouterr().out and json.loads(target.read_text())["conversion"] == "balle-wang"
    assert main(["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["conversion"] == "balle-wang"  # a bare --json: standard output


def test_table2_json_and_its_timing_say_cpu(tmp_path, capsys):
    target = tmp_path / "t2.json"
    assert main(["table2", "--json", str(target)]) == 0
    assert "s of CPU time" in capsys.readouterr().out
    data = json.loads(target.read_text())
    assert data["proved"] == len(data["cells"]) > 5 and all(c["status"] == "proved" for c in data["cells"])


class _Terminal:
    """A stream that says it is a terminal (as a user's would), collecting what is drawn on it."""

    def __init__(self):
        self.text = []

    def isatty(self):
        return True

    def write(self, s):
        self.text.append(s)
        return len(s)

    def flush(self):
        pass


def test_a_long_command_shows_what_it_does_on_a_terminal_and_nothing_when_piped(capsys):
    import io

    from rdpsym.cli.progress import DOING, working

    assert set(DOING) <= set(EXAMPLES) and "check" not in DOING  # check draws its own progress bar
    terminal = _Terminal()
    with working("table2", terminal):
        pass
    assert "deriving Mironov's Table II" in "".join(terminal.text)
    piped = io.StringIO()
    with working("table2", piped):
        pass
    assert piped.getvalue() == ""
    assert main(["table2"]) == 0  # under pytest standard error is not a terminal: the output is exactly the table
    assert capsys.readouterr().err == ""


def test_output_piped_while_the_spinner_draws_stays_on_standard_output(capsys):
    """`rdpsym derive gaussian --latex - > doc.tex` from a terminal: the spinner draws on standard error, and the
    document printed meanwhile must stay on standard output (rich's default redirect carried it to stderr)."""
    from rdpsym.cli.progress import working

    terminal = _Terminal()
    with working("derive", terminal):
        print(r"\documentclass{article}")
    assert capsys.readouterr().out == "\\documentclass{article}\n"
    assert "documentclass" not in "".join(terminal.text)


def test_a_reader_that_closes_the_pipe_ends_the_command_quietly(tmp_path):
    """``rdpsym table2 | head -1``: the pipe closed under the command printed a BrokenPipeError traceback (a probe).
    The command ends quietly with the status of an output not written."""
    import subprocess
    import sys

    code = ("import sys; from rdpsym.cli.main import main\n"
            "sys.exit(main(['epsilon', '--mechanism', 'gaussian', '--set', 'sigma=2', '--delta', '1e-5']))")
    reader = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "RDPSYM_CACHE_DIR": str(tmp_path)})
    reader.stdout.close()  # (closed before the command writes: its first print meets a broken pipe)
    _, err = reader.communicate(timeout=300)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()[-2000:]
    assert reader.returncode == 3


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", [["table2"], ["--version"]])
def test_an_output_that_cannot_be_written_is_said_once_with_its_status(tmp_path, command):
    """A probe: ``rdpsym table2 > /dev/full`` (and every command but one, ``--version`` too) printed an OSError traceback
    and exited 1, the status of a result not as required; 3 is an output not written."""
    import subprocess
    import sys

    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "rdpsym", *command], stdout=full, stderr=subprocess.PIPE,
                              env={**os.environ, "RDPSYM_CACHE_DIR": str(tmp_path)}, timeout=300)
    err = done.stderr.decode()
    assert "Traceback" not in err and done.returncode == 3, err[-2000:]
    assert err == "rdpsym: error: the output could not be written (No space left on device)\n"


def test_at_most_one_output_goes_to_standard_output(capsys):
    """A probe: ``derive gaussian --latex - --json -`` wrote both documents one after the other on standard output, one
    file neither reader can read; refused before any work."""
    for args, named in [(["derive", "gaussian", "--latex", "-", "--json", "-"], "--latex and --json"),
                        (["check", "proofs/mironov2017", "--json", "-", "--markdown", "-"], "--json and --markdown")]:
        assert main(args) == 2
        out, err = capsys.readouterr()
        assert out == "" and f"at most one written to standard output (-); got {named}" in err
