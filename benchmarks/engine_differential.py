"""The two builds of the engine side by side: N seeded self-played games (half tv_match, half dagang) in
the compiled core and in the pure-Python modules (GOUJI_PURE_PYTHON=1), each in its own interpreter; their
records (GJN text, as ``python -m engine selfplay`` writes them), rule events and re-checks
(``gjn.check``), results, the legal moves at every decision and the records' GJN round trips must be
byte-identical. Exit 1 at the first game that differs, showing both records.

Goal (issue 24): 10,000 games, no difference. The test suite runs 600 of them
(tests/engine/test_native.py); this is the whole comparison.
Usage: python benchmarks/engine_differential.py [--games 10000] [--seed diff]
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# one line per game: its number and the sha256 of its fingerprint (``fingerprint`` below), or on request
# the fingerprint of one game in full
_SIDE = r"""
import hashlib, runpy, sys
fingerprint = runpy.run_path(sys.argv[4])["fingerprint"]
from engine import native
n, seed, show = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
print(native.BUILD, flush=True)
for i in range(n):
    text = fingerprint(i, seed)
    if i == show:
        sys.stdout.write(text)
        break
    print(i, hashlib.sha256(text.encode()).hexdigest())
"""


def fingerprint(i: int, seed: str) -> str:
    """Everything the engine says of seeded self-played game ``i`` (tv_match for even ``i``, dagang for
    odd): the legal moves at every decision (move codes, in the engine's order), the record as ``python
    -m engine selfplay`` writes it, the rule events, the result, the re-check (``gjn.check``) and the
    record's round trip (parsed, written again, replayed to the same moves and result)."""
    import json
    import random

    from engine import gjn, new_game
    from engine.cli import record_text

    rules = ("tv_match", "dagang")[i % 2]
    s = f"{seed}-{i}"
    g = new_game(rules, seed=s)
    g.play_randomly(random.Random(f"gouji-play:{s}"))
    text = record_text(g, s, f"differential {i + 1}")
    replay = new_game(rules, seed=s)
    listed = []
    for code in g.move_codes:
        listed.append(" ".join(map(str, replay.legal_codes())))
        replay.push_code(code, undo=False)
    assert replay.is_over() and replay.move_codes == g.move_codes
    rec = gjn.parse(text, f"{s}.gjn")
    again = gjn.replay(rec, undo=False)
    round_trip = gjn.write(gjn.parse(gjn.write(rec))) == gjn.write(rec)
    parts = [
        text,
        "\n".join(listed),
        repr([tuple(e) for e in g.events()]),
        json.dumps(g.result().to_json(), ensure_ascii=False, sort_keys=True),
        json.dumps(gjn.check(text, f"{s}.gjn"), ensure_ascii=False, sort_keys=True),
        f"round trip {round_trip} {again.move_codes == g.move_codes} {again.result() == g.result()}",
    ]
    return "\n".join(parts) + "\n"


def _side(pure: bool, n: int, seed: str, show: int = -1) -> tuple[str, list[str]]:
    """(the build that ran, one line per game) from a fresh interpreter on the compiled core or, with
    ``pure``, on the pure-Python modules."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("GOUJI_PURE_PYTHON", None)
    if pure:
        env["GOUJI_PURE_PYTHON"] = "1"
    r = subprocess.run(
        [sys.executable, "-c", _SIDE, str(n), seed, str(show), __file__],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise RuntimeError(f"the {'pure' if pure else 'default'} side failed:\n{r.stderr[-3000:]}")
    lines = r.stdout.splitlines()
    return lines[0], lines[1:]


def compare(n: int, seed: str) -> tuple[str, str | None]:
    """Games 0…n-1 on the default build and on the pure-Python modules: (the default build's name, None
    when every fingerprint is byte-identical, else the unified diff of the first game that differs)."""
    build, compiled = _side(False, n, seed)
    _, pure = _side(True, n, seed)
    for a, b in zip(compiled, pure, strict=True):
        if a != b:
            i = int(a.split()[0])
            ca = _side(False, n, seed, i)[1]
            pa = _side(True, n, seed, i)[1]
            diff = "\n".join(difflib.unified_diff(ca, pa, "compiled", "pure", lineterm="", n=2))
            return build, f"game {i} (seed {seed}-{i}) differs between the builds:\n{diff}"
    return build, None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--seed", default="diff")
    args = p.parse_args()
    t0 = time.monotonic()
    build, diff = compare(args.games, args.seed)
    if build != "compiled":
        print(f"the compiled core does not run here ({build}): python -m engine build, then again")
        return 2
    if diff is not None:
        print(diff)
        return 1
    print(
        f"{args.games} seeded self-played games ({args.games - args.games // 2} tv_match, "
        f"{args.games // 2} dagang): legal moves at every decision, records, rule events, results, "
        "re-checks and round trips byte-identical in the compiled core and the pure-Python modules "
        f"({time.monotonic() - t0:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
