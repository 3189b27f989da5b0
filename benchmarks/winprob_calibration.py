"""Is the 胜率 calibrated? The evaluator's prediction at every 20th decision of self-played games of the
policy, against how each game ended: Brier score and a reliability diagram, beside naive baselines.

    nice .venv/bin/python benchmarks/winprob_calibration.py [--games 2000] [--every 20] [--playouts 50]
        [--rules tv_match] [--workers 2] [--minutes 90] [--png docs/img/winprob_reliability.png]

Bounded: no game is started after ``--minutes`` (default 90); the figures are then of the games finished,
and the first line of the result says how many of the ``--games`` asked for that is. Progress every 100
games with the time to go. The work's CPU seconds are printed at the end (on two quiet cores the run takes
about half of them: see the README for the figures of a run).

The games: ``--games`` seeded deals played out by the policy (engine/policy.py). At decision 0, 20,
40 … of each, the probability that the odd seats score more points than the even seats (a level game
is a loss for both: the event predicted is "odd wins") is predicted

* by the evaluator with the hands known (the console with the hands entered: the true deal played out),
* by the evaluator with no hands entered (each play-out deals the unseen cards afresh, consistent with
  what was seen), and
* by two baselines that look only at the cards left per team (报牌 and the table's counts): the even
  team's share of the cards still held, and a logistic curve of the difference fitted on the other
  half of the games (two-fold, so a game never predicts itself).

Brier score = mean (p − outcome)²; lower is better (0.25 is a constant 50 %). The evaluator's figure
carries its own Monte-Carlo noise: with n play-outs it is higher than the exact one by about the mean
p(1 − p)/n (printed). The reliability diagram (PNG): predictions in ten bins, the observed frequency of
"odd wins" in each against the bin's mean prediction, the diagonal being perfect calibration.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, new_game  # noqa: E402
from engine.actions import action_of  # noqa: E402
from engine.policy import Policy, play_out  # noqa: E402
from engine.results import result  # noqa: E402
from engine.seats import SEATS  # noqa: E402
from engine.winprob import evaluate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
Row = tuple[int, int, float, float | None, int, int]  # game, decision, known p, sampled p, odd/even left


def one_game(args: tuple[str, int, int, int]) -> tuple[list[Row], int]:
    """One self-played game: its rows (game, decision, p known, p sampled, cards left odd, even) and
    its outcome (1: odd won)."""
    rules, i, every, playouts = args
    seed = f"calibration:{rules}:{i}"
    g = new_game(rules, seed=seed)
    full = g.copy()
    play_out(full, random.Random(seed), Policy(), record=True)
    pts = result(full).team_points
    outcome = 1 if pts["odd"] > pts["even"] else 0
    hidden: Game | None = Game(g.preset, leader=g.leader)
    rows: list[Row] = []
    for k, code in enumerate(full._codes):
        if k % every == 0:
            known = evaluate(g, playouts)["win"]["odd"]
            sampled = None if hidden is None else evaluate(hidden, playouts)["win"]["odd"]
            odd = sum(g.cards_left(s) for s in SEATS if s % 2 and g.in_play(s))
            even = sum(g.cards_left(s) for s in SEATS if s % 2 == 0 and g.in_play(s))
            rows.append((i, k, known, sampled, odd, even))
        a = action_of(code)
        g.push(a)
        if hidden is not None:
            if any(e.name == "men" for e in g.events()):
                hidden = None  # G9.2: past a 闷 the record does not replay without the hands
            else:
                hidden.push(a)
    return rows, outcome


def fit_logistic(xs: list[float], ys: list[int]) -> tuple[float, float]:
    """p = 1 / (1 + exp(-(a + b x))) by Newton's method on the log-likelihood."""
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, a + b * x))))
            ga += y - p
            gb += (y - p) * x
            w = p * (1 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def brier(ps: list[float], ys: list[int]) -> float:
    return sum((p - y) ** 2 for p, y in zip(ps, ys, strict=True)) / len(ps)


def reliability(ps: list[float], ys: list[int], bins: int = 10) -> list[tuple[float, float, int]]:
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        sel = [(p, y) for p, y in zip(ps, ys, strict=True) if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if sel:
            out.append((sum(p for p, _ in sel) / len(sel), sum(y for _, y in sel) / len(sel), len(sel)))
    return out


def draw(series: dict[str, tuple[list[float], list[int], str]], path: Path, title: str) -> None:
    """The reliability diagram as a PNG (Pillow; the CJK font where fonts-noto-cjk put it)."""
    from PIL import Image, ImageDraw, ImageFont

    w, h, m = 900, 900, 110
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 22)
        small = ImageFont.truetype("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 18)
    except OSError:
        font = small = ImageFont.load_default()
    x0, y0, x1, y1 = m, h - m, w - 40, 80
    d.rectangle((x0, y1, x1, y0), outline="black")
    for t in range(11):
        x = x0 + (x1 - x0) * t / 10
        y = y0 - (y0 - y1) * t / 10
        d.line((x, y0, x, y0 + 6), fill="black")
        d.line((x0 - 6, y, x0, y), fill="black")
        d.text((x - 14, y0 + 10), f"{t / 10:.1f}", fill="black", font=small)
        d.text((x0 - 52, y - 10), f"{t / 10:.1f}", fill="black", font=small)
        d.line((x, y1, x, y0), fill="#e6e6e6")
        d.line((x0, y, x1, y), fill="#e6e6e6")
    d.line((x0, y0, x1, y1), fill="#888888", width=2)
    d.text((x0, 20), title, fill="black", font=font)
    d.text((x0 + 150, h - 50), "predicted P(odd wins) / 预测单号队胜率", fill="black", font=small)
    label = Image.new("RGB", (360, 30), "white")
    ImageDraw.Draw(label).text((0, 0), "observed / 实际单号队胜出", fill="black", font=small)
    rotated = label.rotate(90, expand=True)
    img.paste(rotated, (8, (y0 + y1) // 2 - rotated.height // 2))
    ly = y1 + 10
    for name, (ps, ys, color) in series.items():
        pts = reliability(ps, ys)
        xy = [(x0 + (x1 - x0) * p, y0 - (y0 - y1) * f) for p, f, _ in pts]
        if len(xy) > 1:
            d.line(xy, fill=color, width=3)
        for (x, y), (_, _, n) in zip(xy, pts, strict=True):
            r = 4 + min(8, int(math.log10(max(n, 1)) * 2.5))
            d.ellipse((x - r, y - r, x + r, y + r), fill=color)
        d.rectangle((x0 + 20, ly + 6, x0 + 40, ly + 18), fill=color)
        d.text((x0 + 50, ly), f"{name}  Brier {brier(ps, ys):.4f}", fill="black", font=small)
        ly += 28
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--every", type=int, default=20)
    p.add_argument("--playouts", type=int, default=50)
    p.add_argument("--rules", default="tv_match")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--minutes", type=float, default=90.0, help="no game started after this")
    p.add_argument("--png", default=str(ROOT / "docs" / "img" / "winprob_reliability.png"))
    a = p.parse_args()
    print(
        f"calibration: {a.games} {a.rules} games of the policy, a prediction every {a.every} decisions, "
        f"{a.playouts} play-outs each; load average at the start {os.getloadavg()[0]:.1f} (shared machine)",
        flush=True,
    )
    t0 = time.perf_counter()
    deadline = t0 + 60 * a.minutes
    todo = [(a.rules, i, a.every, a.playouts) for i in range(a.games)]
    todo.reverse()
    rows: list[Row] = []
    outcome: dict[int, int] = {}
    with ProcessPoolExecutor(max_workers=a.workers) as ex:
        running: set[Future[tuple[list[Row], int]]] = set()
        while todo or running:
            while todo and len(running) < 2 * a.workers and time.perf_counter() < deadline:
                running.add(ex.submit(one_game, todo.pop()))
            if not running:
                break  # the time is up: no new game
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                got, y = f.result()
                rows += got
                outcome[got[0][0]] = y
                n = len(outcome)
                if n % 100 == 0:
                    spent = time.perf_counter() - t0
                    print(
                        f"  {n} games, {spent:.0f} s, about {spent / n * (a.games - n) / 60:.0f} min to go, "
                        f"load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = cpu.ru_utime + cpu.ru_stime
    if len(outcome) < a.games:
        print(
            f"STOPPED at {a.minutes} min: {len(outcome)} of the {a.games} games asked for (figures of those)"
        )
    ys = [outcome[r[0]] for r in rows]
    known = [r[2] for r in rows]
    share = [r[5] / (r[4] + r[5]) if r[4] + r[5] else 0.5 for r in rows]
    diff = [float(r[5] - r[4]) for r in rows]
    fitted = [0.0] * len(rows)
    for fold in (0, 1):
        train = [j for j, r in enumerate(rows) if r[0] % 2 != fold]
        a_, b_ = fit_logistic([diff[j] for j in train], [ys[j] for j in train])
        for j, r in enumerate(rows):
            if r[0] % 2 == fold:
                fitted[j] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, a_ + b_ * diff[j]))))
    sampled_idx = [j for j, r in enumerate(rows) if r[3] is not None]
    sampled = [float(rows[j][3] or 0.0) for j in sampled_idx]
    ys_s = [ys[j] for j in sampled_idx]
    noise_k = sum(x * (1 - x) for x in known) / len(known) / a.playouts
    noise_s = sum(x * (1 - x) for x in sampled) / max(1, len(sampled)) / a.playouts
    base = sum(ys) / len(ys)
    print(f"{len(rows)} predictions from {len(outcome)} games (odd won {base:.3f} of them)")
    print(
        f"  evaluator, hands known    Brier {brier(known, ys):.4f}  (Monte-Carlo noise in it ≈ {noise_k:.4f})"
    )
    print(
        f"  evaluator, hands sampled  Brier {brier(sampled, ys_s):.4f}  (noise ≈ {noise_s:.4f}; "
        f"{len(sampled)} predictions: none past a 闷)"
    )
    print(f"  baseline, cards-left share        Brier {brier(share, ys):.4f}")
    print(f"  baseline, logistic on cards left  Brier {brier(fitted, ys):.4f}  (fitted on the other half)")
    print(f"  constant {base:.3f}                    Brier {brier([base] * len(ys), ys):.4f}")
    # the goal: each evaluator against the best baseline on the same predictions
    best_all = min(brier(share, ys), brier(fitted, ys))
    best_s = min(brier([share[j] for j in sampled_idx], ys_s), brier([fitted[j] for j in sampled_idx], ys_s))
    for name, mine, base_b in (
        ("hands known", brier(known, ys), best_all),
        ("hands sampled", brier(sampled, ys_s), best_s),
    ):
        print(
            f"  goal ({name}): Brier {mine:.4f} against the best baseline's {base_b:.4f} on the same "
            f"predictions (× {mine / base_b:.2f}): {'met' if mine < base_b else 'NOT met'}"
        )
    for name, ps, yy in (("known", known, ys), ("sampled", sampled, ys_s), ("logistic", fitted, ys)):
        bins = ", ".join(f"{p:.2f}→{f:.2f} ({n})" for p, f, n in reliability(ps, yy))
        print(f"  reliability {name}: {bins}")
    draw(
        {
            "evaluator, hands known / 手牌已知": (known, ys, "#c8372d"),
            "evaluator, hands sampled / 手牌抽样": (sampled, ys_s, "#1f5fbf"),
            "baseline: cards left (logistic) / 余牌基线": (fitted, ys, "#999999"),
        },
        Path(a.png),
        f"胜率 reliability: {len(outcome)} {a.rules} games, every {a.every}th decision",
    )
    print(
        f"reliability diagram: {a.png}  [{time.perf_counter() - t0:.0f} s wall, {cpu_s:.0f} CPU s in the "
        f"workers, load {os.getloadavg()[0]:.1f}]"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
