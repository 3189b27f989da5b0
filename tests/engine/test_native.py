"""The compiled core and its pure-Python fallback (engine/native.py): which one runs and why, a stale build
never runs, and the two builds write the same records (issue 24)."""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import native

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, *, pythonpath: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, PYTHONPATH=str(pythonpath), **env)
    full.pop(native.PURE_ENV, None)
    full.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=120, cwd=pythonpath
    )


def _info(pythonpath: Path = ROOT, **env: str) -> tuple[dict[str, object], str]:
    r = _run("from engine import native, cli; cli.main(['info', '--json'])", pythonpath=pythonpath, **env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), r.stderr


def test_GOUJI_PURE_PYTHON_forces_the_pure_python_modules_and_info_says_so() -> None:
    data, err = _info(GOUJI_PURE_PYTHON="1")
    assert err == ""
    assert data["build"] == "pure" and data["reason"] == "GOUJI_PURE_PYTHON=1"
    modules = data["modules"]
    assert isinstance(modules, dict) and set(modules) == {f"{m}" for m in native.COMPILED}
    assert all(str(f).endswith(".py") for f in modules.values())
    assert data["compiled_modules"] == 0


def test_info_names_the_build_that_runs_and_where_each_module_comes_from() -> None:
    data, _err = _info()
    modules = data["modules"]
    assert isinstance(modules, dict)
    compiled = [f for f in modules.values() if str(f).endswith(native.EXT_SUFFIX)]
    if data["build"] == "compiled":
        assert len(compiled) == len(native.COMPILED) and data["reason"] == "its stamp matches the sources"
    else:
        assert compiled == []
    r = _run("from engine import cli; cli.main(['info'])")
    assert r.stdout.startswith(f"engine core: {data['build']} (")


def test_under_the_test_command_the_compiled_core_runs_where_it_can_be_built() -> None:
    """scripts/test.sh runs scripts/setup.sh, which builds the core where a compiler is; its second pass
    over tests/engine sets GOUJI_PURE_PYTHON=1."""
    if os.environ.get("GOUJI_NO_SKIP") != "1" or native.compiler_missing() is not None:
        assert native.BUILD in ("compiled", "pure")
        return
    want = "pure" if os.environ.get(native.PURE_ENV, "") not in ("", "0") else "compiled"
    assert native.BUILD == want, native.REASON


def _copy_package(tmp_path: Path) -> Path:
    pkg = tmp_path / "engine"
    shutil.copytree(native.DIR, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so", "_native.json"))
    return pkg


def _fake_build(pkg: Path, digest: str) -> None:
    """Extension modules that cannot load (garbage) and a stamp: if the engine ever tried one of them,
    the import would fail."""
    for m in (*native.COMPILED, native.GROUP + "__mypyc"):
        (pkg / f"{m}{native.EXT_SUFFIX}").write_bytes(b"not an extension module")
    stamp = {"digest": digest, "modules": list(native.COMPILED), "ext_suffix": native.EXT_SUFFIX}
    (pkg / native.STAMP_NAME).write_text(json.dumps(stamp), encoding="utf-8")


def test_a_stale_build_never_runs_the_sources_beside_it_do_with_one_warning_line(tmp_path: Path) -> None:
    pkg = _copy_package(tmp_path)
    _fake_build(pkg, native.sources_digest(pkg))
    with (pkg / "rules.py").open("a", encoding="utf-8") as f:
        f.write("\n# an edit after the build (a rebase, a checkout)\n")
    data, err = _info(pythonpath=tmp_path)
    assert data["build"] == "pure" and "the sources changed since it was built" in str(data["reason"])
    assert err.count("\n") == 1 and err.startswith("engine: the compiled core is stale")
    assert "python -m engine build" in err
    modules = data["modules"]
    assert isinstance(modules, dict) and all(str(f).endswith(".py") for f in modules.values())
    # the play goes on, from the .py files
    r = _run(
        "from engine import new_game; g = new_game('tv_match', seed=1); print(g.pending_seat)",
        pythonpath=tmp_path,
    )
    assert r.returncode == 0 and r.stdout.strip() in "123456", r.stderr


@pytest.mark.parametrize("damage", ["no stamp", "a module missing", "another module set"])
def test_an_incomplete_build_never_runs(tmp_path: Path, damage: str) -> None:
    pkg = _copy_package(tmp_path)
    _fake_build(pkg, native.sources_digest(pkg))
    if damage == "no stamp":
        (pkg / native.STAMP_NAME).unlink()
    elif damage == "a module missing":
        (pkg / f"turns{native.EXT_SUFFIX}").unlink()
    else:
        stamp = json.loads((pkg / native.STAMP_NAME).read_text(encoding="utf-8"))
        stamp["modules"] = stamp["modules"][:-1]
        (pkg / native.STAMP_NAME).write_text(json.dumps(stamp), encoding="utf-8")
    data, err = _info(pythonpath=tmp_path)
    assert data["build"] == "pure" and err.count("\n") == 1 and "stale" in err
    # the same with GOUJI_PURE_PYTHON=1: silent
    data, err = _info(pythonpath=tmp_path, GOUJI_PURE_PYTHON="1")
    assert data["build"] == "pure" and err == ""


def test_without_a_build_the_pure_python_engine_runs_silently(tmp_path: Path) -> None:
    _copy_package(tmp_path)
    data, err = _info(pythonpath=tmp_path)
    assert data["build"] == "pure" and "no compiled build" in str(data["reason"]) and err == ""


@pytest.mark.long  # 200 games in fresh interpreters on both builds (35-39 s loaded): first in the full
# run, out of --fast's edit loop (scripts/test.sh), where it was a third of the engine's time
def test_both_builds_agree_on_seeded_self_play() -> None:
    """The in-suite share of benchmarks/engine_differential.py (10,000 games there): 200 seeded games, each
    played in a fresh interpreter on the build that runs here (the compiled core under the test command)
    and on the pure-Python modules — legal moves at every decision, records, rule events, results,
    re-checks and GJN round trips byte-identical."""
    bench = runpy.run_path(str(ROOT / "benchmarks" / "engine_differential.py"))
    build, diff = bench["compare"](200, "suite")
    assert diff is None, diff
    # the default side runs without GOUJI_PURE_PYTHON: the compiled core wherever an up-to-date build is
    # installed, even when this process itself was asked for the pure-Python modules
    default = "compiled" if native._artefacts() and native._stale_reason() is None else "pure"
    assert build == default


def test_the_fingerprint_sees_a_difference() -> None:
    """The comparison can fail: two different games (or the same game under the other preset) give
    different fingerprints, and a game's fingerprint holds its legal moves and its round trip."""
    fingerprint = runpy.run_path(str(ROOT / "benchmarks" / "engine_differential.py"))["fingerprint"]
    a, b = fingerprint(0, "suite"), fingerprint(1, "suite")
    assert a != b and a == fingerprint(0, "suite") and a != fingerprint(0, "other")
    assert "round trip True True True" in a and '[Rules "tv_match"]' in a and '[Rules "dagang"]' in b


def test_a_build_of_the_same_sources_is_taken_from_the_machine_s_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another checkout of the same sources (a worktree, a fresh clone) installs the build kept in the
    cache instead of compiling for minutes; the stamp comes last, so the build then counts as current."""
    pkg = _copy_package(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.setenv(native.CACHE_ENV, str(cache))
    folder = native._cache_dir(native.sources_digest(pkg))
    names = [f"{m}{native.EXT_SUFFIX}" for m in (*native.COMPILED, native.GROUP + "__mypyc")]
    if folder is not None:
        folder.mkdir(parents=True)
        for name in names:
            (folder / name).write_bytes(f"kept {name}".encode())
    r = subprocess.run(
        [sys.executable, str(pkg / "native.py"), "build"],
        env=dict(os.environ, **{native.CACHE_ENV: str(cache)}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if native.compiler_missing() is not None:  # a machine without a compiler: nothing built, nothing taken
        assert r.returncode == 0 and "the pure-Python engine runs" in r.stdout, r.stdout + r.stderr
        assert not list(pkg.glob(f"*{native.EXT_SUFFIX}"))
        return
    assert folder is not None
    assert r.returncode == 0 and "installed from the build cache" in r.stdout, r.stdout + r.stderr
    assert all((pkg / n).read_bytes() == f"kept {n}".encode() for n in names)
    assert native._stale_reason(pkg) is None  # the stamp names these sources: the build is current
    (folder / names[0]).unlink()  # an incomplete cache entry is never used: it would compile
    assert not native._complete(folder)
