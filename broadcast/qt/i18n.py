"""Qt translation catalogs of the windows (console, producer): Chinese source strings (the default UI),
English catalogs (one per window, all installed together), and the one :func:`tr` for strings made
outside a QObject (``self.tr`` inside one).

The ``.ts`` sources live in ``broadcast/i18n/`` (edited with Qt Linguist, refreshed from the code with
``pyside6-lupdate``); the compiled ``.qm`` files are built by ``scripts/setup.sh`` or, when missing or
older than their source, here at first use with ``pyside6-lrelease``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

from broadcast import resources

I18N = resources.i18n_dir()
LANGUAGES = ("zh_CN", "en")
_installed: list[QTranslator] = []
_current = ["zh_CN"]  # the language last installed (texts made outside tr(), e.g. the checker's, follow it)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark ``text`` for translation under ``context`` (``pyside6-lupdate`` finds the call by this name)
    and return it unchanged, typed ``str`` (PySide6's own is typed ``object``); translate it where it
    is shown (:func:`tr` with the context, or :func:`translated`)."""
    return text


def tr(text: str, context: str = "", n: int = -1) -> str:
    """``text`` (a Chinese source string) in the UI language. A bare ``tr("…")`` call is filed by
    ``pyside6-lupdate`` under the empty context (the default here); strings marked elsewhere with
    ``QT_TRANSLATE_NOOP(context, …)`` are translated with their ``context``. A count is said with Qt's
    numerus forms: ``tr("已录 %n 步", "", n)`` ("1 move" / "2 moves" in English, never "move(s)");
    ``%n`` is replaced by ``n`` in every language."""
    return QCoreApplication.translate(context, text, None, n)


# a {field} of a text: shown as it is (a number), or (context, source) translated
Arg = str | int | tuple[str, str]


def translated(context: str, text: str, args: Mapping[str, Arg] | None = None) -> str:
    """``text`` (a source string marked with QT_TRANSLATE_NOOP) in the UI language, its {fields}
    filled from ``args``; a field given as ``(context, source)`` is translated too (a graphic's name)."""
    out = QCoreApplication.translate(context, text)
    if not args:
        return out
    values = {
        k: QCoreApplication.translate(v[0], v[1]) if isinstance(v, tuple) else str(v) for k, v in args.items()
    }
    return out.format(**values)


def current() -> str:
    """The UI language last asked for with :func:`install`: "zh_CN" (the default) or "en"."""
    return _current[0]


def lrelease() -> str | None:
    exe = Path(sys.executable).with_name("pyside6-lrelease")
    if exe.exists():
        return str(exe)
    return shutil.which("pyside6-lrelease") or shutil.which("lrelease")


def build(ts: Path) -> Path | None:
    """Compile ``ts`` to its ``.qm`` when missing or stale; returns the .qm (None if it cannot be built)."""
    qm = ts.with_suffix(".qm")
    if qm.exists() and qm.stat().st_mtime >= ts.stat().st_mtime:
        return qm
    tool = lrelease()
    if tool is None:
        return qm if qm.exists() else None
    try:
        subprocess.run(
            [tool, "-silent", str(ts), "-qm", str(qm)], check=True, capture_output=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return qm if qm.exists() else None
    return qm


def install(lang: str) -> bool:
    """Switch the application's UI language; returns False if the catalog could not be loaded (the
    Chinese source strings are then shown)."""
    app = QCoreApplication.instance()
    if app is None:
        return False
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    if lang not in LANGUAGES:
        lang = "zh_CN"
    _current[0] = lang
    qt_own = QTranslator(app)  # Qt's own words (OK, Cancel, Close, a line edit's menu) in the UI language
    path = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if lang != "en" and qt_own.load(f"qtbase_{lang}", path):
        app.installTranslator(qt_own)
        _installed.append(qt_own)
    if lang == "zh_CN":
        return True
    catalogs = sorted(I18N.glob(f"*_{lang}.ts"))  # the console's, the producer's …
    if not catalogs:
        return False
    ok = True
    for ts in catalogs:
        qm = build(ts)
        t = QTranslator(app)
        if qm is None or not t.load(str(qm)):
            ok = False
            continue
        app.installTranslator(t)
        _installed.append(t)
    return ok
