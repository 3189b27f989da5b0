"""``python -m broadcast serve`` and ``rehearse`` as an operator runs them (real subprocesses)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from broadcast.studio import open_store
from tests.overlay.conftest import run_async, wait_rendered

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"program : (http://\S+)")


def _start(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "broadcast", *args],
        cwd=ROOT,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _program_url(proc: subprocess.Popen[str], timeout: float = 60) -> tuple[str, list[str]]:
    """The program page's address the command prints; the command is killed if it prints none in
    ``timeout`` seconds (a kill ends the blocking read, so this never hangs)."""
    assert proc.stdout is not None
    lines: list[str] = []
    killer = threading.Timer(timeout, proc.kill)
    killer.daemon = True
    killer.start()
    try:
        for line in proc.stdout:
            lines.append(line)
            m = URL.search(line)
            if m:
                return m.group(1), lines
    finally:
        killer.cancel()
    proc.kill()
    raise AssertionError(f"no program URL printed: {lines!r} {proc.stderr.read() if proc.stderr else ''}")


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "broadcast", *args]
    return subprocess.run(cmd, cwd=ROOT, text=True, capture_output=True, timeout=timeout)


def _stop(
    proc: subprocess.Popen[str], sig: int = signal.SIGINT, timeout: float = 120
) -> tuple[int, str, str]:
    """Send ``sig`` and collect the output; a command that does not stop is killed and the test fails
    (``timeout``, like the commands' below, guards against a hang on a loaded machine: at load 20 a
    command refusing its input took over 30 s to start; it is no speed requirement)."""
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"did not stop within {timeout} s of signal {sig}: {err[-2000:]}") from None
    return proc.returncode, out, err


def test_serve_demo_prints_urls_serves_and_stops_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOUJI_OVERLAY_TOKEN", "abc")
    proc = _start("serve", "--demo", "--port", "0")
    try:
        shown, _ = _program_url(proc)
        assert "bus=program" in shown and "token=…" in shown and shown.startswith("http://127.0.0.1:")
        assert "abc" not in shown  # the token is never printed
        url = shown.replace("token=…", "token=abc")
        with urllib.request.urlopen(url, timeout=20) as resp:
            assert resp.status == 200 and b"js/page.js" in resp.read()
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(url.replace("token=abc", "token=abd"), timeout=20)
        assert err.value.code == 403
    finally:
        rc, out, err = _stop(proc)
    assert rc == 0, err
    assert "Traceback" not in err and "stopped" in out


@pytest.mark.parametrize(
    "args, expect",
    [
        (["serve", "--db", "no/such.sqlite"], r"no/such\.sqlite:0: .*no such database file"),
        (
            ["serve", "--demo", "--on", "scoreboard,hologram"],
            r"unknown graphic: hologram",
        ),  # one: "graphic", not "graphic(s)"
        (["serve"], r"choose one of --demo or --db"),
        (["serve", "--demo", "--token-file", "no/such/token"], r"no/such/token:0: .*cannot read"),
        (["rehearse", "--games", "no/such.gjn"], r"no/such\.gjn:0: .*cannot read the record"),
        (["rehearse", "--pace", "-1"], r"--pace .*negative"),
        (
            ["serve", "--demo", "--token", "s3cret"],
            r"shows in ps: use --token-file FILE or GOUJI_OVERLAY_TOKEN",
        ),
        (["serve", "--demo", "--host", "0.0.0.0", "--port", "0"], r"--host 0\.0\.0\.0 .*a token is required"),
        (
            ["run", "--host", "192.0.2.7", "--port", "0", "--no-obs"],
            r"--host 192\.0\.2\.7 .*a token is required",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], expect: str) -> None:
    r = _run(*args, timeout=120)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and re.search(expect, lines[0]), lines


def test_bad_gjn_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gjn"
    bad.write_text('[Rules "tv_match"]\n[Leader "1"]\n1 TTTTT\n2 TTTTX\n', encoding="utf-8")
    r = _run("rehearse", "--games", str(bad), "--port", "0", timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert re.match(rf"{re.escape(str(bad))}:4: ", r.stderr.strip()), r.stderr
    illegal = tmp_path / "illegal.gjn"
    illegal.write_text('[Rules "tv_match"]\n[Leader "1"]\n1 TTTTT\n2 JJJJJ\n', encoding="utf-8")
    r = _run("rehearse", "--games", str(illegal), "--port", "0", timeout=120)
    assert r.returncode == 2 and re.match(rf"{re.escape(str(illegal))}:4: .*G", r.stderr.strip()), r.stderr


def test_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = _run("serve", "--demo", "--port", str(port), timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"127.0.0.1:{port}" in r.stderr and "--port 0" in r.stderr


def test_serve_db_follows_the_journal(db_path: Path) -> None:
    store = open_store(db_path)
    store.dispatch("match.new", {"names": ["甲", "乙", "丙", "丁", "戊", "己"]})
    proc = _start("serve", "--db", str(db_path), "--port", "0", "--poll", "0.1")
    try:
        url, _ = _program_url(proc)
        ws_url = url.replace("http://", "ws://").split("/overlay/")[0] + "/ws?bus=program"

        async def follow() -> tuple[str, str]:
            async with aiohttp.ClientSession() as s, s.ws_connect(ws_url) as ws:
                snap = await ws.receive_json(timeout=20)
                first = snap["state"]["table"]["seats"][0]["name"]
                await asyncio.get_running_loop().run_in_executor(
                    None, lambda: store.dispatch("match.update", {"names": {"1": "新甲"}})
                )
                while True:
                    msg = await ws.receive_json(timeout=20)
                    if msg["type"] in ("patch", "snapshot"):
                        table = (msg.get("set") or msg.get("state") or {}).get("table")
                        if table:
                            return first, table["seats"][0]["name"]

        assert run_async(follow()) == ("甲", "新甲")
    finally:
        rc, _, err = _stop(proc, signal.SIGTERM)
        store.close()
    assert rc == 0 and "Traceback" not in err


@pytest.mark.browser
def test_rehearsal_plays_a_match_through_the_pages(page: Any, tmp_path: Path) -> None:
    db = tmp_path / "rehearsal.sqlite"
    proc = _start(
        "rehearse",
        "--quick",
        "--pace",
        "0.005",
        "--port",
        "0",
        "--exit-when-done",
        "--db",
        str(db),
        "--seed",
        "4",  # the shortest match of seeds 1–60 (514 plays; seed 5's: 660): no tie, three games
    )
    try:
        url, _ = _program_url(proc)
        page.goto(url)
        wait_rendered(page, 0)
        # the scoreboard comes on air and cards go down as the engine's records are replayed
        page.wait_for_function(
            "() => { const s = document.querySelector('.scoreboard');"
            " return s && s.classList.contains('on') &&"
            " [...s.querySelectorAll('.cards')].some(e => e.textContent !== '' &&"
            " Number(e.textContent) < 30); }",
            timeout=30000,
        )
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert out.count("—— 第") == 3 and "比赛结束" in out and "彩排完成" in out
    store = open_store(db)  # the rehearsal went through the journal like a recording
    try:
        t = store.state["table"]
        assert [r["game_no"] for r in t["results"]] == [1, 2, 3]
        assert t["teams"]["odd"]["points"] + t["teams"]["even"]["points"] == sum(
            r["odd"] + r["even"] for r in t["results"]
        )
        assert store.state["graphics"]["program"]["credits"]["on"] is False
    finally:
        store.close()


def _wait_line(proc: subprocess.Popen[str], text: str, timeout: float = 60) -> str:
    """The next line of the command's output holding ``text``; killed (and the test failed) when none
    comes in ``timeout`` seconds."""
    assert proc.stdout is not None
    killer = threading.Timer(timeout, proc.kill)
    killer.daemon = True
    killer.start()
    try:
        for line in proc.stdout:
            if text in line:
                return line
    finally:
        killer.cancel()
    raise AssertionError(f"no line with {text!r} before the command ended")


def test_rehearsal_stops_cleanly_on_ctrl_c() -> None:
    """Ctrl-C while the show's opening airs (its bumper line out: past the first hold, actions under way
    — waited on, where a fixed 2.5 s sleep landed there on a quiet machine only)."""
    proc = _start("rehearse", "--quick", "--port", "0", "--pace", "0.5")  # games of minutes even so
    try:
        _program_url(proc)
        _wait_line(proc, "片头 bumper")
    finally:
        rc, out, err = _stop(proc)
    assert rc == 0 and "Traceback" not in err, err
    assert "已停止" in out


def test_rehearsal_replays_gjn_files(tmp_path: Path) -> None:
    from engine import first_leader, gjn, new_game

    files = []
    for i in range(2):
        g = new_game("tv_match", seed=100 + i, leader=first_leader(100 + i))
        import random

        g.play_randomly(random.Random(i))
        f = tmp_path / f"g{i}.gjn"
        f.write_text(gjn.write(gjn.from_game(g, [("Seat1", "老张")])), encoding="utf-8")
        files.append(str(f))
    db = tmp_path / "r.sqlite"
    r = _run(
        "rehearse",
        "--games",
        *files,
        "--quick",
        "--pace",
        "0",
        "--port",
        "0",
        "--exit-when-done",
        "--db",
        str(db),
        timeout=90,
    )
    assert r.returncode == 0, r.stderr
    store = open_store(db)
    try:
        assert store.state["table"]["seats"][0]["name"] == "老张"
        assert [x["game_no"] for x in store.state["table"]["results"]] == [1, 2]
    finally:
        store.close()


def _first_tied_match(rules: str = "tv_match") -> tuple[int, dict[str, int]]:
    """The first seed whose three rehearsal games tie (G11.2), and the totals: the very games
    ``rehearse --seed N`` plays (``selfplay_records``), replayed by the engine and added to its ``Match`` —
    found from the engine's outcome, so a change of its play cannot leave the test without a tie."""
    from broadcast.rehearsal import selfplay_records
    from engine import Action, Game
    from engine.match import Match

    for seed in range(1, 500):
        match = Match(rules, seed=seed)
        for rec in selfplay_records(seed, rules):
            g = Game(rec.rules, hands=dict(enumerate(rec.hands, start=1)), leader=rec.leader)
            for line in rec.moves:
                g.push(Action.parse(line))
            match.add_game(g.result())
        if match.needs_extra_game:
            return seed, match.totals
    raise AssertionError("no seed under 500 gives a tied match: the engine's self-play never ties?")


def test_rehearsal_plays_an_extra_game_on_a_tie(tmp_path: Path) -> None:
    """A seed whose three games tie: one more game (G11.2), then the engine's Match decides. The
    rehearsal ``rehearse --seed N`` runs (its games, its words, the journal), in this process with its
    holds taken out (they change no state; the command itself, its seed and its holds are the test
    above, the whole match through the pages)."""
    from broadcast.rehearsal import DEMO_PLACEMENTS, Rehearsal, selfplay_records

    seed, totals = _first_tied_match()
    store = open_store(tmp_path / "tie.sqlite")
    said: list[str] = []
    try:
        r = Rehearsal(store, 0.0, True, threading.Event(), said.append)
        r.wait = lambda _s: None  # type: ignore[method-assign]
        records = selfplay_records(seed, "tv_match")
        r.setup(str(DEMO_PLACEMENTS), records)
        r.opening()
        match = r.play_match(records, seed)
        t = store.state["table"]
        assert f"总分相同 {totals['odd']}:{totals['even']}，加赛一局（G11.2）" in said, (seed, said[-8:])
        assert len(t["results"]) >= 4 and t["results"][3]["game_no"] == 4
        assert sum(line.startswith("—— 第") for line in said) == len(t["results"])
        assert match.winner is not None and match.decided_by == "extra_game"
        assert t["message"].startswith("本场胜者：") and "（加赛决出）" in t["message"]
    finally:
        store.close()
