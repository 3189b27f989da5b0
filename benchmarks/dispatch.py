"""What one dispatch costs, part by part, against the way each part was done before, in the same run.

    .venv/bin/python benchmarks/dispatch.py [--games 6] [--seed 1]

``--games`` self-played tv_match games (seeded) are played move by move through ``game.play`` on a real
ShowStore (SQLite journal, schema validation on), after ``match.new``; every state the store produced is
kept with the sections that action changed. Then, over those same states, interleaved item by item
(so that the load of a shared machine falls on both sides alike):

* **validation**: the compiled schema check the store runs now (``StateSchema.validate`` of the changed
  sections, ``broadcast/core/compiled.py``) against ``jsonschema`` validating the same sections (what
  every dispatch ran before);
* **projection**: ``broadcast.game.projection.project`` as each play runs it now (the record's lines of the
  new moves only, the match decision computed once per distinct results) against the same projection
  from nothing (no line written before, the decision computed again: what each play cost before);
* **dispatch**: a whole ``game.play`` dispatch (reducer, validation, journal append with its commit,
  listeners), and the journal append alone, for scale.

Printed: median and p99 per side in ms and the ratio old / new (the figures the README quotes).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from broadcast.core.component import Context  # noqa: E402
from broadcast.game import live as live_mod  # noqa: E402
from broadcast.game import match as match_mod  # noqa: E402
from broadcast.game import projection  # noqa: E402
from broadcast.studio import open_store  # noqa: E402


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def _line(name: str, old: list[float], new: list[float], old_name: str, new_name: str) -> None:
    o50, n50 = statistics.median(old), statistics.median(new)
    o99, n99 = _q(old, 0.99), _q(new, 0.99)
    print(
        f"{name}: {new_name} median {n50 * 1000:.3f} ms, p99 {n99 * 1000:.3f} ms; {old_name} median "
        f"{o50 * 1000:.3f} ms, p99 {o99 * 1000:.3f} ms — {o50 / n50:.1f}× faster (median), "
        f"{o99 / n99:.1f}× (p99)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    games = []
    for k in range(args.games):
        g = engine.new_game("tv_match", seed=args.seed + k)
        engine.random_playout(g, seed=args.seed + k)
        games.append((g.leader, [str(a) for a in g.moves]))

    states: list[tuple[dict[str, Any], frozenset[str]]] = []
    plays: list[float] = []
    appends: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "dispatch.sqlite")
        journal = store.journal
        real_append = journal.append

        def timed_append(*a: Any, **kw: Any) -> int:
            t = time.perf_counter()
            try:
                return real_append(*a, **kw)
            finally:
                appends.append(time.perf_counter() - t)

        journal.append = timed_append  # type: ignore[method-assign]
        store.subscribe(lambda change: states.append((change.state, change.changed)))
        store.dispatch("match.new", {"names": list("甲乙丙丁戊己")})
        for game_no, (leader, lines) in enumerate(games, start=1):
            store.dispatch("game.new", {"leader": leader, "game_no": game_no})
            for line in lines:
                t = time.perf_counter()
                store.dispatch("game.play", {"line": line})
                plays.append(time.perf_counter() - t)
        sch = store.schema
        store.close()
    print(
        f"{len(plays)} decisions of {args.games} self-played games (seeds {args.seed}…"
        f"{args.seed + args.games - 1}) dispatched through a real store"
    )

    # validation: jsonschema (before) against the compiled check (now), the same sections of the same states
    jsonschema_t: list[float] = []
    compiled_t: list[float] = []
    for state, changed in states:
        sections = sorted(changed)
        t0 = time.perf_counter()
        for key in sections:
            errors = list(sch._section_validator(key).iter_errors(state[key]))
            assert not errors
        t1 = time.perf_counter()
        sch.validate(state, sections)
        t2 = time.perf_counter()
        jsonschema_t.append(t1 - t0)
        compiled_t.append(t2 - t1)
    _line("validation of the changed sections", jsonschema_t, compiled_t, "jsonschema", "compiled")

    # projection: incremental (as the plays run it) against from nothing, the same plays
    full_t: list[float] = []
    incr_t: list[float] = []
    ctx = Context(ts=0.0, seq=1, replaying=False, runtime={}, source="bench")
    for leader, lines in games:
        state = copy.deepcopy(states[0][0])
        state["game"].update({"leader": leader, "record": [], "seed": None, "hands": [], "counts": []})
        live = live_mod.live_game(state, ctx)
        for line in lines:
            live.game.push(engine.Action.parse(line))
            scratch = copy.deepcopy(state)
            t0 = time.perf_counter()
            projection.project(state, live)
            t1 = time.perf_counter()
            match_mod._decision.cache_clear()
            projection.project(scratch, live_mod.LiveGame(live.key, live.game))
            t2 = time.perf_counter()
            assert scratch == state
            incr_t.append(t1 - t0)
            full_t.append(t2 - t1)
    _line("projection per play", full_t, incr_t, "from nothing", "incremental")

    print(
        "game.play dispatch (validation on, journal synchronous=FULL): median "
        f"{statistics.median(plays) * 1000:.2f} ms, p99 {_q(plays, 0.99) * 1000:.2f} ms; "
        "of which the journal append median "
        f"{statistics.median(appends) * 1000:.2f} ms, p99 {_q(appends, 0.99) * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
