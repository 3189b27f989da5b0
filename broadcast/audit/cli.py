"""``python -m broadcast audit EPISODE [--obs]``: play a whole rehearsed episode through the program page
in headless Chromium (and, with ``--obs``, a real OBS) and report what a viewer would notice.

    python -m broadcast audit 第16期 --out test-artifacts/audit/after
    python -m broadcast audit 第16期 --obs --obs-settings obs.yaml

It builds a new database of its own (the demo season, whose 15 episodes are played) and plays episode
EPISODE in it: a rehearsal, never mixed with real air records. At every change a viewer could see it
waits until the program page has drawn it and its animations have ended, then measures every visible
graphic and text (``probe``): graphics drawn over each other or outside their zone, a text outside its
box or cut with …, a line broken inside a term, a label that disagrees with the state. With ``--obs`` an
independent poller of OBS (every 50 ms) counts the frames of the game scene shown between two items.
It writes ``report.json``, ``report.html`` and a screenshot of each finding to ``--out`` and exits 1 on
any finding (2 on bad input).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from broadcast.audit.episode import episode_number


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("episode", help="期数，例如 第16期 / the episode, e.g. 第16期")
    parser.add_argument("--out", default="audit-report", help="报告目录 / where the report goes")
    parser.add_argument("--placements", default="", help="赞助排期 YAML（默认：演示排期）/ placements")
    parser.add_argument("--seed", type=int, default=16, help="自动对局的种子 / the games' seed")
    parser.add_argument("--shots", choices=("findings", "all"), default="findings", help="截图 / screenshots")
    parser.add_argument("--obs", action="store_true", help="同时在真实 OBS 中播出并检查 / also on a real OBS")
    parser.add_argument("--obs-settings", default="", help="OBS 设置 YAML（或 GOUJI_OBS_*）/ OBS settings")


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    raise SystemExit(2)


def main(args: argparse.Namespace) -> int:

    from broadcast.resources import demo_placements
    from broadcast.sponsors.placements import PlacementError, load_placements

    try:
        number = episode_number(args.episode)
    except ValueError:
        fail(f"audit: 期数 {args.episode!r} 无效（例如 第16期）/ bad episode {args.episode!r} (e.g. 第16期)")
    placements_path = Path(args.placements) if args.placements else demo_placements()
    try:
        placements = load_placements(placements_path)
    except PlacementError as exc:
        fail(str(exc))  # each error names its own file:line:col (a ":0:" before it named the file twice)
    if args.obs:
        return run_with_obs(args, number, placements)
    from broadcast.audit.studio import finish, run_pages

    out = Path(args.out)
    moments = run_pages(number, placements, out, seed=args.seed, shots=args.shots)
    meta = {"episode": f"第{number}期", "placements": str(placements_path), "seed": args.seed, "obs": False}
    return finish(out, moments, meta)


def run_with_obs(args: Any, number: int, placements: Any) -> int:
    """The command with ``--obs``: OBS from ``--obs-settings`` or the environment (as ``run``)."""
    from broadcast.audit.obsrun import run_obs
    from broadcast.audit.studio import finish
    from broadcast.obs.errors import ObsError
    from broadcast.obs.settings import ObsSettings, SettingsError

    try:
        settings = ObsSettings.load(args.obs_settings or None)
    except SettingsError as exc:
        fail(str(exc))  # names its own file:line
    except (ObsError, ValueError) as exc:
        fail(f"{args.obs_settings or 'OBS settings'}:0: {exc}")
    out = Path(args.out)
    try:
        moments, found, seen = run_obs(
            number, placements, out, settings=settings, seed=args.seed, shots=args.shots
        )
    except (ObsError, RuntimeError) as exc:
        fail(f"audit --obs: OBS {settings.host}:{settings.port}: {exc}")
    for h in found:
        print(f"  ✗ {h.text()}", flush=True)
    for f in seen["films_short"]:
        print(f"  ✗ 片子没有播完 a film cut short: {f}", flush=True)
    for f in seen["films_missing"]:
        print(f"  ✗ 片子没有播出 a film that never aired: {f}", flush=True)
    meta = {
        "episode": f"第{number}期",
        "seed": args.seed,
        "obs": f"{settings.host}:{settings.port}",
        "game_scene_frames": sum(h.looks for h in found),
        "holes": [h.text() for h in found],
        **seen,
    }
    return finish(out, moments, meta)
