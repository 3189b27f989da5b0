"""The engine's compiled core and its pure-Python fallback: which one runs, and the build.

The modules of :data:`COMPILED` are compiled with mypyc (``python -m engine build``, run by
``scripts/setup.sh`` where a C compiler and the Python headers are) into extension modules beside
their ``.py`` files, with one shared library (``engine/_native__mypyc…so``) and a stamp
(``engine/_native.json``: the digest of the ``.py`` files they were built from). Same package,
same API: the pure-Python modules are the fallback.

``engine/__init__.py`` calls :func:`select` before any core module loads. The compiled core runs only
when its stamp matches the sources as they are now: after an edit, a rebase or a checkout the build is
stale, and the engine runs the ``.py`` files (one warning line on stderr; ``scripts/setup.sh`` or
``python -m engine build`` rebuilds). ``GOUJI_PURE_PYTHON=1`` forces the pure-Python modules.
``python -m engine info`` says which one runs. The stamp, the extension modules and the build
directory are git-ignored.

This module is never compiled (it chooses), and reads nothing but the package's own files. Every process
that imports the engine runs :func:`select`; what only the build needs (``subprocess``, ``shutil``,
``tempfile``) is imported by the build's own functions, and the finder is a plain class
(``importlib.abc`` pulls in ``importlib.resources``): ~15 ms less in every command's start.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Final

PACKAGE: Final = "engine"
#: the modules compiled with mypyc (the rules core, records, the deal and the 胜率 play-out policy); the rest
#: stays Python (commands, presets, YAML, matches, words, results and the 胜率 evaluator, whose objects
#: are pickled)
COMPILED: Final = (
    "cards",
    "seats",
    "actions",
    "state",
    "rules",
    "messages",
    "turns",
    "results",
    "listing",
    "playout",
    "game",
    "deal",
    "gjn",
    "policy",
)
GROUP: Final = "_native"  # mypyc's shared library: engine/_native__mypyc<EXT_SUFFIX>
STAMP_NAME: Final = "_native.json"
PURE_ENV: Final = "GOUJI_PURE_PYTHON"
DIR: Final = Path(__file__).resolve().parent
EXT_SUFFIX: Final = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")

#: what select() decided: "compiled" or "pure", and why
BUILD = "pure"
REASON = "not selected yet"


def sources_digest(directory: Path = DIR) -> str:
    """sha256 of the compiled modules' ``.py`` files (name and bytes): what a build was made from. The
    modules left as Python are called through Python's own calls from the compiled ones, so an edit to
    them (the 胜率 evaluator, the commands, the presets) leaves the build current."""
    h = hashlib.sha256()
    for p in sorted(directory / f"{m}.py" for m in COMPILED):
        h.update(p.name.encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _artefacts(directory: Path = DIR) -> list[Path]:
    """The compiled files in the package (every extension module, the shared library included)."""
    return sorted(directory.glob(f"*{EXT_SUFFIX}"))


def read_stamp(directory: Path = DIR) -> dict[str, Any] | None:
    try:
        data = json.loads((directory / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _stale_reason(directory: Path = DIR) -> str | None:
    """Why the compiled build may not run (None when it may)."""
    stamp = read_stamp(directory)
    if stamp is None:
        return "it has no readable stamp (an interrupted build?)"
    if stamp.get("ext_suffix") != EXT_SUFFIX or stamp.get("modules") != list(COMPILED):
        return "it was built for another Python or another set of modules"
    missing = [m for m in (*COMPILED, GROUP + "__mypyc") if not (directory / f"{m}{EXT_SUFFIX}").is_file()]
    if missing:
        return f"{missing[0]}{EXT_SUFFIX} is missing"
    if stamp.get("digest") != sources_digest(directory):
        return "the sources changed since it was built"
    return None


class _PureFinder:  # a meta path finder (``find_spec`` is the whole protocol)
    """Loads every ``engine.*`` module from its ``.py`` file (the compiled files beside them ignored)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        pkg, _, name = fullname.partition(".")
        if pkg != PACKAGE or not name or "." in name:
            return None
        source = DIR / f"{name}.py"
        if not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def select() -> str:
    """Decide, once per process and before any core module is imported, which build runs."""
    global BUILD, REASON
    built = bool(_artefacts())
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        BUILD, REASON = "pure", f"{PURE_ENV}={os.environ[PURE_ENV]}"
    elif not built:
        BUILD, REASON = "pure", "no compiled build (scripts/setup.sh builds it where a C compiler is)"
    else:
        why = _stale_reason()
        if why is None:
            BUILD, REASON = "compiled", "its stamp matches the sources"
        else:
            BUILD, REASON = "pure", f"the compiled build is stale: {why}"
            print(
                f"engine: the compiled core is stale ({why}); running the pure-Python engine "
                "(scripts/setup.sh or python -m engine build rebuilds it)",
                file=sys.stderr,
            )
    if BUILD == "pure" and built and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())
    return BUILD


def info() -> dict[str, Any]:
    """Which build runs, why, and where its modules come from (``python -m engine info``)."""
    import importlib

    files = {m: str(getattr(importlib.import_module(f"{PACKAGE}.{m}"), "__file__", "")) for m in COMPILED}
    out: dict[str, Any] = {"build": BUILD, "reason": REASON, "python": sys.version.split()[0]}
    stamp = read_stamp()
    if stamp is not None:
        out["stamp"] = {k: stamp.get(k) for k in ("built", "mypy", "digest")}
    out["sources_digest"] = sources_digest()
    out["modules"] = files
    compiled = [m for m, f in files.items() if f.endswith(EXT_SUFFIX)]
    out["compiled_modules"] = len(compiled)
    return out


def format_info(data: dict[str, Any]) -> str:
    lines = [f"engine core: {data['build']} ({data['reason']}); Python {data['python']}"]
    stamp = data.get("stamp")
    if stamp:
        built, digest = stamp.get("built"), str(stamp.get("digest"))[:12]
        lines.append(f"  build: mypyc {stamp.get('mypy')}, {built}, sources {digest}")
    lines.append(f"  sources now: {data['sources_digest'][:12]}")
    lines.append(f"  modules compiled: {data['compiled_modules']} of {len(COMPILED)}")
    for m, f in data["modules"].items():
        lines.append(f"    {PACKAGE}.{m}: {f}")
    return "\n".join(lines)


# ---------------------------------------------------------------- the build


def compiler_missing() -> str | None:
    """Why nothing can be compiled here (None when a C compiler and the Python headers are)."""
    import shutil

    cc = str(sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None and shutil.which("cc") is None:
        return f"no C compiler ({cc})"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers ({include}/Python.h)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    return None


_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths = sys.argv[1].split(",")
setup(
    name="gouji-engine-native",
    ext_modules=mypycify(paths, opt_level="3", group_name=sys.argv[2], target_dir=sys.argv[3]),
    script_args=["build_ext", "--build-lib", sys.argv[4], "--build-temp", sys.argv[5], "-j", sys.argv[6]],
)
"""


def build(force: bool = False, log: Path | None = None) -> int:
    """Build the compiled core if it is missing or stale (``force``: always). 0 when the compiled core
    is up to date or nothing can be compiled here (said on stdout), 1 when the build failed."""
    missing = compiler_missing()
    if missing is not None:
        print(f"engine: {missing}: the pure-Python engine runs")
        return 0
    digest = sources_digest()
    cached = _cache_dir(digest)
    if not force and _artefacts() and _stale_reason() is None:
        if cached is not None and not _complete(cached):
            _keep(DIR, cached)  # for the other checkouts of these sources
        print("engine: the compiled core is up to date")
        return 0
    root = DIR.parent
    if not force and cached is not None and _complete(cached):
        _install(cached, digest)
        print(f"engine: compiled core installed from the build cache ({cached})")
        return 0
    import subprocess
    import tempfile

    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="engine-native-") as tmp:
        out = Path(tmp)
        paths = ",".join(f"{PACKAGE}/{m}.py" for m in COMPILED)
        cmd = [sys.executable, "-c", _SETUP, paths, f"{PACKAGE}.{GROUP}", str(out / "c"), str(out / "lib")]
        cmd += [str(out / "temp"), str(min(os.cpu_count() or 1, 4))]
        env = dict(os.environ, **{PURE_ENV: "1"})  # the build's own mypy run never loads the old core
        r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
        if log is not None:
            log.write_text(r.stdout + r.stderr, encoding="utf-8")
        if r.returncode != 0:
            tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-15:])
            print(f"engine: the mypyc build failed:\n{tail}", file=sys.stderr)
            return 1
        if sources_digest() != digest:
            print("engine: the sources changed during the build; run it again", file=sys.stderr)
            return 1
        _install(out / "lib" / PACKAGE, digest)
        if cached is not None:
            _keep(out / "lib" / PACKAGE, cached)
    print(f"engine: compiled core built ({len(COMPILED)} modules, {time.monotonic() - t0:.0f} s)")
    return 0


CACHE_ENV: Final = "GOUJI_ENGINE_CACHE"


def _cache_dir(digest: str) -> Path | None:
    """Where a build of these sources is kept for the other checkouts of this machine (worktrees, a
    fresh clone): ``$GOUJI_ENGINE_CACHE`` (``0``: no cache) or ``~/.cache/gouji-studio/engine-native``,
    one folder per sources digest, Python ABI and mypyc version (the files are relocatable)."""
    root = os.environ.get(CACHE_ENV, "")
    if root == "0":
        return None
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        root = os.path.join(base, "gouji-studio", "engine-native")
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        return None
    return Path(root) / f"{digest[:32]}-{EXT_SUFFIX.strip('.').replace('.', '-')}-mypyc{mypy_version}"


def _complete(folder: Path) -> bool:
    return all((folder / f"{m}{EXT_SUFFIX}").is_file() for m in (*COMPILED, GROUP + "__mypyc"))


def _keep(built: Path, folder: Path) -> None:
    """Copy a fresh build into the cache: into a temporary folder renamed into place (another build of
    the same sources finishing first wins; a cache that cannot be written is only said)."""
    import shutil
    import tempfile

    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".new-", dir=folder.parent))
        for m in (*COMPILED, GROUP + "__mypyc"):
            shutil.copyfile(built / f"{m}{EXT_SUFFIX}", tmp / f"{m}{EXT_SUFFIX}")
        try:
            os.rename(tmp, folder)
        except OSError:  # already there (a build of the same sources that finished first)
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError as e:
        print(f"engine: the build cache {folder.parent} cannot be written ({e.strerror}); no harm done")


def _install(built: Path, digest: str) -> None:
    """Put the new extension modules in place: the stamp goes first (so a process starting meanwhile
    runs the pure modules), each file replaces the old one atomically (a running process keeps the one
    it mapped), stray ones go, and the new stamp comes last."""
    import shutil

    (DIR / STAMP_NAME).unlink(missing_ok=True)
    names = {f"{m}{EXT_SUFFIX}" for m in (*COMPILED, GROUP + "__mypyc")}
    for old in _artefacts():
        if old.name not in names:
            old.unlink()
    for name in sorted(names):
        tmp = DIR / f".{name}.new"
        shutil.copyfile(built / name, tmp)
        os.replace(tmp, DIR / name)
    mypy_version = "?"
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:  # pragma: no cover - the build needed it
        pass
    stamp = {
        "digest": digest,
        "modules": list(COMPILED),
        "ext_suffix": EXT_SUFFIX,
        "mypy": mypy_version,
        "python": sys.version.split()[0],
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    tmp = DIR / f".{STAMP_NAME}.new"
    tmp.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, DIR / STAMP_NAME)


def clean() -> int:
    """Remove the compiled core (the pure-Python modules run)."""
    (DIR / STAMP_NAME).unlink(missing_ok=True)
    for p in _artefacts():
        p.unlink()
    print("engine: compiled core removed")
    return 0


def _main(argv: list[str]) -> int:
    """``python engine/native.py build [--force] | clean``: the build without importing the engine (so a
    stale core says nothing while it is rebuilt: scripts/setup.sh runs this)."""
    if argv[:1] == ["build"]:
        return build(force="--force" in argv[1:])
    if argv[:1] == ["clean"]:
        return clean()
    print("usage: python engine/native.py build [--force] | clean", file=sys.stderr)
    return 2


if __name__ == "__main__":
    if sys.path and Path(sys.path[0]).resolve() == DIR:  # run as a file: its neighbours are not top-level
        sys.path.pop(0)
    raise SystemExit(_main(sys.argv[1:]))
select()
