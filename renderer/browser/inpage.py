"""Our functions in the page (``settle.js``, ``snapshot.js``, Readability.js and the first
snapshot's combined call), defined once per document by an init script that the pool adds to
every context ahead of time, then called by name with a small expression.

Sending a function's source with every call cost a trip through the Playwright driver and a
parse on both sides each time: about 15 ms for the first snapshot's call with Readability.js
(150 kB of source) on every capture, and a millisecond or so for each settle step. The
functions sit on the window under a registered symbol, neither writable nor enumerable; a
document our init script did not reach is sent the source instead (``call_expression`` says
so with ``MISSING``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from renderer.browser.readability import ReadabilityUnavailable, readability_expression

JS = Path(__file__).with_name("js")
KEY = "readermode.functions"
"""The registered symbol (``Symbol.for``) the functions are defined under."""
MISSING = "readermode: our functions are missing from this document"
"""What a call by name answers where the init script never ran."""

HELD = "readermode: Readability.js held for the next call"
"""What ``first`` answers for Readability.js when it was asked to hold the run (``ahead``): the
run starts in the page's next task, and ``held`` gives its result."""

FIRST_SNAPSHOT = """(fns) => {
  // Readability.js's run on the first snapshot when it is held for the next call (``ahead``):
  // the snapshot's HTML goes back to the renderer at once, which reads it while the run goes
  // on in the page.
  let held = null;
  const later = setTimeout; // as at document start: a page script may replace it
  const first = (args) => {
    // One synchronous call: nothing of the page runs between the state it reports and the
    // snapshot, so on a page idle at that moment the snapshot is the settled page.
    const before = fns.settle({action: "quiet", maxReveal: 0});
    const started = performance.now();
    const snap = fns.snapshot(args.snapshot);
    snap.ms = performance.now() - started;
    let run = null;
    held = null;
    const quietDom = before.sinceMutation >= args.idleMs || before.framesQuiet;
    if (fns.readability && args.readability && before.idle && quietDom) {
      const options = Object.assign({}, args.readability, {html: snap.html});
      const read = () => {
        try {
          return fns.readability(options);
        } catch (e) {
          return null; // run again on its own, where its failure is reported
        }
      };
      if (args.ahead) {
        const job = {done: false, result: null};
        job.take = () => (job.done ? job.result : read());
        later(() => {
          if (held !== job) return; // taken already
          job.result = read();
          job.done = true;
        }, 0);
        held = job;
        run = args.heldMark;
      } else {
        run = read();
      }
    }
    return {before, snap, readability: run};
  };
  const take = () => {
    const job = held;
    held = null;
    return job ? job.take() : null;
  };
  return {first, held: take};
}"""
"""``first``: the page's ``quiet`` state, the first snapshot and, when the page was idle and
the arguments ask for it, Readability.js on that snapshot (``snapshot.take_first_snapshot``),
run in the same call or, with ``ahead``, held: started in the page's next task, its result
given by ``held`` (``HELD`` in its place)."""


@cache
def script(name: str) -> str:
    """The source of one of our in-page scripts (``js/NAME``)."""
    return (JS / name).read_text(encoding="utf-8")


@cache
def _sources() -> dict[str, str]:
    """Each function's source: ``settle``, ``snapshot`` and ``readability`` (left out when
    Readability.js is not installed: its own run reports that)."""
    found = {"settle": script("settle.js"), "snapshot": script("snapshot.js")}
    try:
        found["readability"] = readability_expression()
    except ReadabilityUnavailable:
        pass
    return found


def _table() -> str:
    return "{\n" + ",\n".join(f"{name}: {source}" for name, source in _sources().items()) + "\n}"


@cache
def functions_init_script() -> str:
    """The init script that defines our functions in every document, before its scripts."""
    return (
        "(() => {\n  try {\n"
        f"    const key = Symbol.for({KEY!r});\n"
        "    if (Object.prototype.hasOwnProperty.call(window, key)) return;\n"
        f"    const fns = {_table()};\n"
        f"    const snapshots = ({FIRST_SNAPSHOT})(fns);\n"
        "    fns.first = snapshots.first;\n    fns.held = snapshots.held;\n"
        "    Object.defineProperty(window, key, { value: Object.freeze(fns) });\n"
        "  } catch (e) {\n    /* never break the page */\n  }\n})();"
    )


@cache
def call_expression(name: str) -> str:
    """``(arg) => result`` calling our function ``name`` in the page, or ``MISSING``."""
    return (
        f"(arg) => {{ const fns = window[Symbol.for({KEY!r})];"
        f" return fns && fns.{name} ? fns.{name}(arg) : {MISSING!r}; }}"
    )


@cache
def source_expression(name: str) -> str:
    """``(arg) => result`` carrying the function's whole source, for a document without our
    functions. Raises ReadabilityUnavailable for Readability.js when it is not installed."""
    if name == "readability":
        return readability_expression()
    if name == "first":  # no run is held where our functions are missing: none could take it
        return f"(arg) => ({FIRST_SNAPSHOT})({_table()}).first({{...arg, ahead: false}})"
    if name == "held":
        return "(arg) => null"
    return _sources()[name]
