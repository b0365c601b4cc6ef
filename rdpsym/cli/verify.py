"""``rdpsym verify``: a peer accountant's answers against certified values, order by order.

    rdpsym verify --mechanism sampled-gaussian --set q=0.01 --set sigma=1.1 --steps 10000 \\
        --orders 4.7,8 --rdp 3.1778807180860317,2.93 --delta 1e-5 --epsilon 5.63199236854841 --peer opacus
    rdpsym verify --event ledger.json --delta 1e-3 --epsilon 0 --orders 1.00000001,1.1 --peer dp-accounting
    rdpsym verify --history opacus_history.json --delta 1e-5 --epsilon 2.1

What the peer was told is one of: a built-in mechanism (``--mechanism``,
``--set``, ``--steps``), a dp_accounting event as JSON (``--event FILE``: the
fields of ``DpEvent.to_named_tuple()``, each event a dict with its
``class_name``, nested events as dicts; ``--neighboring-relation`` names the
relation of the accountant that read it, which the JSON does not carry), or an Opacus history as JSON
(``--history FILE``: a list of ``[noise_multiplier, sample_rate, steps]``).
JSON is read by the standard library's parser and every number by rdpsym's
one reader: nothing is evaluated.  The exit status is 1 when any answer is
unsafe -- invalid (NaN, negative), or below the certified value and not
certainly within float64 rounding, decided in Arb balls at any magnitude
(``OrderCheck.unsafe``: the verdict ``unsafe``) -- and 0 otherwise.
"""

from __future__ import annotations

import json
import math
import os
import stat
from decimal import Decimal

from rdpsym.cli import params
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import NOT_AS_EXPECTED, OK, Outputs, check_path
from rdpsym.cli.params import steps
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import comma_separated
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.laws.mechanisms import REGISTRY
from rdpsym.peers._reading import held_as_typed
from rdpsym.peers.events import from_dp_event
from rdpsym.peers.relations import NEIGHBORING_RELATIONS, Accounted
from rdpsym.peers.verify import verify
from rdpsym.render.peers import verification_json, verification_text

#: How deep a JSON event may nest (a ledger is a few levels; this bounds hostile files).
MAX_DEPTH = 64
#: The largest JSON file read (``--event``, ``--history``): a ledger of a million steps is a few MB.
MAX_FILE_BYTES = 50_000_000


#: dp_accounting's event classes (0.6) and their fields, as ``to_named_tuple()`` writes them: a field of the class is
#: tolerated where rdpsym's reading never asks for it (an event inside a Poisson sampling of probability 0, which
#: costs nothing whatever it is: a review); any other is refused.  A class not listed here: every field must be read.
DP_EVENT_FIELDS = {
    "ComposedDpEvent": ("events",), "DiscreteLaplaceDpEvent": ("noise_parameter", "sensitivity"),
    # (of its development tree, which rdpsym reads: their fields were called misspellings where the event was never
    # read, inside a sampling of probability 0, a probe)
    "DiscreteGaussianDpEvent": ("sigma", "sensitivity", "dimension"), "EpsilonDeltaDpEvent": ("epsilon", "delta"),
    "ExponentialMechanismDpEvent": ("epsilon",), "PermuteAndFlipDpEvent": ("epsilon",),
    "GaussianDpEvent": ("noise_multiplier",), "LaplaceDpEvent": ("noise_multiplier",),
    "MixtureOfGaussiansDpEvent": ("standard_deviation", "sensitivities", "sampling_probs"), "NoOpDpEvent": (),
    "NonPrivateDpEvent": (), "PoissonSampledDpEvent": ("sampling_probability", "event"),
    "RandomizedResponseDpEvent": ("noise_parameter", "num_buckets"),
    "RepeatAndSelectDpEvent": ("event", "mean", "shape"),
    "SampledWithReplacementDpEvent": ("source_dataset_size", "sample_size", "event"),
    "SampledWithoutReplacementDpEvent": ("source_dataset_size", "sample_size", "event"),
    "SelfComposedDpEvent": ("event", "count"), "SingleEpochTreeAggregationDpEvent": ("noise_multiplier", "step_counts"),
    "TruncatedSubsampledGaussianDpEvent": ("dataset_size", "sampling_probability", "truncated_batch_size",
                                           "noise_multiplier"),
    "UnsupportedDpEvent": (), "ZCDpEvent": ("rho", "xi"),
}


class JsonEvent:
    """A dp_accounting event read from JSON: its ``class_name`` and fields, as ``to_named_tuple()`` gives them.  It
    remembers which fields were read (:meth:`unread`): a field rdpsym's reading of the event never asks for is a
    misspelling or a field the event does not have, and is refused, not dropped (a probe: ``{"class_name":
    "ZCDpEvent", "rho": 0.1, "Xi": 0.5}`` was read as ξ = 0, and a Gaussian's ``"sensitivity": 5`` ignored)."""

    def __init__(self, class_name: str, fields: dict):
        self.class_name = class_name
        self._fields = ("class_name", *fields)
        self._read: set[str] = set()
        for k, v in fields.items():
            setattr(self, k, v)

    def __getattribute__(self, name: str):
        if not name.startswith("_") and name in object.__getattribute__(self, "_fields"):
            object.__getattribute__(self, "_read").add(name)
        return object.__getattribute__(self, name)

    def unread(self, where: str = "event") -> list[tuple[str, str, list[str]]]:
        """(where, field, the fields read beside it) of every field of this event and the events inside it that was
        never read."""
        fields, read = object.__getattribute__(self, "_fields")[1:], object.__getattribute__(self, "_read")
        known = DP_EVENT_FIELDS.get(object.__getattribute__(self, "class_name"))
        kept = read if known is None else set(known)
        out = [(where, k, sorted(kept - {"class_name"})) for k in fields if k not in kept]
        for k in fields:
            value = object.__getattribute__(self, k)
            for i, inner in enumerate(value if isinstance(value, list) else [value]):
                if isinstance(inner, JsonEvent):
                    out += inner.unread(f"{where}.{k}" + (f"[{i}]" if isinstance(value, list) else ""))
        return out

    def __repr__(self) -> str:
        fields = object.__getattribute__(self, "_fields")[1:]
        return f"{self.class_name}({', '.join(f'{k}={object.__getattribute__(self, k)!r}' for k in fields)})"


def _event(value: object, where: str, depth: int = 0) -> object:
    if depth > MAX_DEPTH:
        raise ParameterError(must("--event", f"nested at most {MAX_DEPTH} levels", "deeper"))
    if isinstance(value, dict):
        if "class_name" not in value or not isinstance(value["class_name"], str):
            raise ParameterError(must(f"--event {where}", "an object with a \"class_name\" (such as "
                                      "\"GaussianDpEvent\")", json.dumps(value)[:80]))
        # dp_accounting's fields are public names: "__class__", "__dict__" or "_fields" would rewrite the object
        odd = [k for k in value if not (isinstance(k, str) and k.isidentifier() and not k.startswith("_"))]
        if odd:
            raise ParameterError(must(f"--event {where}", "fields named as a DpEvent's are (public identifiers)",
                                      repr(odd[0])))
        fields = {k: _event(v, f"{where}.{k}", depth + 1) for k, v in value.items()
                  if k not in ("class_name", "module_name")}
        return JsonEvent(value["class_name"], fields)
    if isinstance(value, list):
        return [_event(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
    return value


def _load(path: str, option: str) -> object:
    """A JSON file, read only if it is a regular file of at most :data:`MAX_FILE_BYTES` (a FIFO would block,
    ``/dev/zero`` never ends), and read no further than that."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ParameterError(must(option, "a regular JSON file", f"{path!r} (not a regular file: a pipe, a "
                                      "device or a folder)"))
        if info.st_size > MAX_FILE_BYTES:
            raise ParameterError(must(option, f"a JSON file of at most {MAX_FILE_BYTES} bytes",
                                      f"{path!r} ({info.st_size} bytes)"))
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:  # it grew after the stat
            raise ParameterError(must(option, f"a JSON file of at most {MAX_FILE_BYTES} bytes", f"{path!r} (more)"))
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParameterError(must(option, "a readable JSON file", f"{path!r} ({exc.__class__.__name__})")) from None
    def number(written: str) -> float:  # 1e400 would be read as inf, and refused later as "oo", not as written
        value = float(written)
        # (and 1e-400 as 0.0: a Gaussian event's noise multiplier of 1e-400 was judged non-private, its RDP ∞ where
        # it is 10⁸⁰⁰; a probe.  A peer's event held floats, and no float holds either.)
        if math.isinf(value) or (value == 0 and Decimal(written) != 0):
            raise ParameterError(must(option, "numbers a float holds (0, or about 5e-324 to 1.8e308 in size)", written))
        # (a whole number written "1e3" is that integer where the float holds it exactly: a count of 1e3 was refused
        # as "1000.0", where --steps 1e3 is read; a probe)
        if "." not in written and value.is_integer() and Decimal(written) == int(value):
            return int(value)
        return value

    def unique(pairs: list) -> dict:  # ({"sigma": 2, "sigma": 0.5} was read as σ = 1/2, silently: a probe)
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise ParameterError(must(option, "JSON objects with each key once", f"{key!r} twice"))
            seen.add(key)
        return dict(pairs)

    try:
        return json.loads(text, parse_float=number, object_pairs_hook=unique)
    except ParameterError:
        raise
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError; so is a 5000-digit integer
        raise ParameterError(must(option, "a JSON file", f"{path!r} ({exc})")) from None


def _told(args) -> tuple[object, int]:
    given = [name for name, v in (("--mechanism", args.mechanism), ("--event", args.event),
                                  ("--history", args.history)) if v]
    if len(given) != 1:
        raise ParameterError(must("what the peer was told", "exactly one of --mechanism, --event, --history",
                                  ", ".join(given) or "none"))
    if args.neighboring_relation and not args.event:
        raise ParameterError(must("--neighboring-relation", "given with --event (an Opacus history and a built-in "
                                  "mechanism state theirs)", "given with " + given[0]))
    if args.mechanism:
        declared = REGISTRY[args.mechanism]
        # (the values the peer held: a decimal typed for one is the float nearest to it, as in --event's JSON)
        return params.build(declared, params.read_assignments(args.set, declared, held=held_as_typed)), args.steps
    if args.set:
        raise ParameterError(must("--set", "given with --mechanism", "given with " + given[0]))
    if args.event:
        event = _load(args.event, "--event")
        if not isinstance(event, dict):  # a list was read as an Opacus history, and the message named that
            raise ParameterError(must("--event", "a JSON object with a \"class_name\" (a DpEvent's to_named_tuple)",
                                      f"a JSON {type(event).__name__}"))
        read = _event(event, "event")
        # (a JSON event carries no neighbouring relation: its accountant had one, which --neighboring-relation says)
        told = Accounted(read, args.neighboring_relation) if args.neighboring_relation else read
        from_dp_event(told)  # (what rdpsym reads of it, and refuses)
        for where, field, fields in read.unread():
            raise ParameterError(must(f"--event {where}", "fields the event has (here "
                                      f"{', '.join(fields) or 'none'})", f"also {field!r}: a misspelling, or a field "
                                      "the event does not have"))
        return told, args.steps
    history = _load(args.history, "--history")
    if not isinstance(history, list):
        raise ParameterError(must("--history", "a JSON list of [noise_multiplier, sample_rate, steps]",
                                  type(history).__name__))
    return [tuple(e) if isinstance(e, list) else e for e in history], args.steps


def _list(text: str | None, option: str) -> list[str] | None:
    """A comma-separated list; an empty entry is refused (a peer's missing value would shift the rest)."""
    return None if text is None else comma_separated(text, option)


def run_verify(args) -> int:
    dps = read_dps(args.dps, "--dps")
    out = check_path(args.json, "--json")
    told, k = _told(args)
    orders = _list(args.orders, "--orders")  # (each read by verify as the peer held it: a decimal as its float)
    if args.orders is not None and args.orders.strip() in ("dp-accounting", "opacus", "mironov", "continuous"):
        orders = args.orders.strip()
    report = verify(told, orders=orders, rdp=_list(args.rdp, "--rdp"), delta=args.delta, epsilon=args.epsilon, steps=k,
                    peer=args.peer, conversion=args.conversion, dps=dps)
    if Outputs.console_text(out):
        print(verification_text(report))
    outputs = Outputs()
    outputs.text("--json", out, json.dumps(verification_json(report), indent=2, ensure_ascii=False))
    return outputs.status(NOT_AS_EXPECTED if any(c.unsafe for c in report.checks) else OK)


def register(sub) -> None:
    p = sub.add_parser("verify", help=SUMMARIES["verify"])
    p.add_argument("--mechanism", choices=sorted(REGISTRY), help="what the peer was told: a built-in mechanism")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="a parameter of --mechanism, e.g. sigma=1.1")
    p.add_argument("--event", metavar="FILE", help="what the peer was told: a dp_accounting event as JSON")
    p.add_argument("--neighboring-relation", choices=NEIGHBORING_RELATIONS,
                   help="the neighbouring relation of the accountant that read --event (dp_accounting's "
                        "NeighboringRelation; a DpEvent carries none, and it changes the curve: REPLACE_SPECIAL "
                        "for randomized response, REPLACE_ONE doubles a Gaussian's or Laplace's sensitivity)")
    p.add_argument("--history", metavar="FILE", help="what the peer was told: an Opacus history as JSON")
    p.add_argument("--steps", type=steps, default=1, help="k-fold composition (default 1)")
    p.add_argument("--orders", help="the orders the peer used, e.g. '1.5,2,4.7' (or a grid name for --epsilon)")
    p.add_argument("--rdp", help="the peer's RDP at --orders, e.g. '0.1,0.2,0.3' (its floats as printed)")
    p.add_argument("--delta", help="the δ of the peer's --epsilon")
    p.add_argument("--epsilon", help="the peer's ε at --delta")
    p.add_argument("--peer", default="peer", help="the peer's name (dp-accounting, opacus, autodp, prv-accountant "
                                                  "name its known causes)")
    p.add_argument("--conversion", default="bbghs", choices=["mironov", "bbghs", "balle"],
                   help="the peer's RDP → (ε, δ) conversion (default bbghs, as dp_accounting and Opacus)")
    p.add_argument("--dps", default="30", help="significant digits of the certified values (default 30)")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON (- for standard output, instead of "
                                                  "the text)")
    p.set_defaults(run=run_verify)
