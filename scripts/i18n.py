#!/usr/bin/env python3
"""Refresh the windows' translation catalogs from the code: ``scripts/i18n.py [--check]``.

Runs ``pyside6-lupdate`` over ``broadcast/console`` and the shared Qt kit ``broadcast/qt`` into
``broadcast/i18n/console_en.ts`` and over ``broadcast/producer`` into ``broadcast/i18n/producer_en.ts``
(existing translations kept; new source strings marked unfinished for Qt Linguist) and compiles the
``.qm``. Both windows install every catalog, so the kit's strings are translated in either.
``--check`` changes nothing and exits 1 if a string of the code has no translation in the catalog (a
count, ``tr("… %n …", "", n)``, needs each of its numerus forms: "%n move" and "%n moves").
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# catalog → the packages whose strings it translates
CATALOGS = {
    ROOT / "broadcast" / "i18n" / "console_en.ts": ("console", "qt"),
    ROOT / "broadcast" / "i18n" / "producer_en.ts": ("producer",),
}


def sources(packages: tuple[str, ...]) -> list[str]:
    return [str(p) for package in packages for p in sorted((ROOT / "broadcast" / package).rglob("*.py"))]


def tool(name: str) -> str:
    exe = Path(sys.executable).with_name(name)
    return str(exe) if exe.exists() else (shutil.which(name) or name)


def untranslated(ts: Path) -> list[str]:
    root = ET.parse(ts).getroot()
    out = []
    for ctx in root.iter("context"):
        for m in ctx.iter("message"):
            tr = m.find("translation")
            # a count (numerus="yes": "%n") has a form per number (English: one, many), each filled in
            forms = [(f.text or "").strip() for f in tr.iter("numerusform")] if tr is not None else []
            said = (
                all(forms)
                if m.get("numerus") == "yes"
                else bool((tr.text or "").strip() if tr is not None else "")
            )
            if tr is None or tr.get("type") in ("unfinished", "obsolete", "vanished") or not said:
                out.append(f"{ctx.findtext('name')}: {m.findtext('source')}")
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for ts, package in CATALOGS.items():
        target = ts
        if check:
            tmp = Path(tempfile.mkdtemp()) / ts.name
            if ts.exists():
                shutil.copy(ts, tmp)
            target = tmp
        cmd = [tool("pyside6-lupdate"), *sources(package), "-no-obsolete", "-ts", str(target)]
        subprocess.run(cmd, check=True, capture_output=True)
        missing = untranslated(target)
        for m in missing:
            print(f"{ts.relative_to(ROOT)}: no translation for {m}")
        bad += len(missing)
        if not check:
            subprocess.run(
                [tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True
            )
    return 1 if bad and check else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
