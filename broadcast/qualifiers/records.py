"""Qualifier records from their sources, one at a time (never a list of them).

A SOURCE is a GJN file, a folder (walked in name order: ``.gjn`` files, JSON-lines exports and archives
in it), a zip or tar archive (``.tar``, ``.tar.gz``/``.tgz``, ``.tar.bz2``, ``.tar.xz``; its ``.gjn`` and
``.jsonl`` members) or a JSON-lines export (``.jsonl``, ``.ndjson``, ``.jsonl.gz``; format in
docs/qualifiers.md). Each record comes out as a :class:`Raw`: where it is (``file``, ``archive!member``
or ``export.jsonl:LINE``), its identity (a 16-byte BLAKE2b of its bytes: the same record read again is
recognised) and its text — or, when it cannot even be read (over the size limit, not UTF-8, a damaged
member), the refusal. A source that cannot be read at all (missing, not an archive, damaged past a
point) raises :class:`SourceError` naming ``file:line`` after the records read before the damage.

Reading is bounded: a record over :data:`RECORD_MAX` (the engine's ``gjn.MAX_BYTES``, 1 MiB) is refused
unread, as the engine's GJN reader refuses it; a JSON line over :data:`LINE_MAX` is skipped to its end
without being held, a tar archive is read as a stream (its member list is dropped as it goes). A zip
archive's central directory is read whole (about 0.4 KB a member).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NamedTuple

from broadcast.errors import GoujiError
from engine.gjn import MAX_BYTES

#: the engine's GJN size limit (engine.gjn.MAX_BYTES, 1 MiB): a record over it is refused here unread
RECORD_MAX = MAX_BYTES
#: a JSON line holds a record and its players: the record's limit and 64 KiB for the rest
LINE_MAX = RECORD_MAX + (64 << 10)

GJN_SUFFIXES = (".gjn",)
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
ZIP_SUFFIXES = (".zip",)
#: JSON lines are read in runs of whole lines of about this many bytes (a run is cut into tasks)
CHUNK = 4 << 20
BOM = b"\xef\xbb\xbf"


class Refusal(NamedTuple):
    """Why a record is not counted: the clause (``G4.2``) or a code (``GJN``, ``size``, ``json`` …),
    both languages, and where in the record (move number, line, seat) when known."""

    rule: str
    zh: str
    en: str
    move: int | None = None
    line: int | None = None
    seat: int | None = None


class SourceError(GoujiError):
    """A source that cannot be read (or not past a point): ``SourceError(zh, en, where="file:line")``."""

    rule = "source"

    def __init__(self, zh: str, en: str, *, where: str) -> None:
        super().__init__("source", zh, en, where=where)


@dataclass(slots=True)
class Raw:
    """One record as read: ``kind`` ``"gjn"`` (the text) or ``"jsonl"`` (the JSON line's text), or a
    ``refusal`` when it could not be read."""

    where: str
    key: bytes
    kind: str
    text: str
    refusal: Refusal | None = None


@dataclass(slots=True)
class Lines:
    """A run of whole lines of a JSON-lines source, as split (no line ends): line ``first_line`` onwards,
    starting at byte ``start`` of the file at ``path`` — ``path`` is ``None`` where the lines cannot be
    read again from a file (a compressed export, an archive's member)."""

    source: str
    first_line: int
    lines: list[bytes]
    path: str | None
    start: int
    body: bytes  # the run's bytes as read (the lines joined, with their line ends)


def cuts(run: Lines, batch: int) -> Iterator[tuple[int, int, int, int]]:
    """A run cut into shards of at most ``batch`` lines: (index of the first line, index after the
    last, byte offsets of their start and end in the run's body)."""
    lines, end, a = run.lines, len(run.body), 0
    for i0 in range(0, len(lines), batch):
        i1 = min(i0 + batch, len(lines))
        b = min(a + sum(map(len, lines[i0:i1])) + (i1 - i0), end)
        yield i0, i1, a, b
        a = b


def line_text(line: bytes) -> bytes | None:
    """A JSON line as its record's bytes (a CR before the line end and a BOM dropped), ``None`` for a
    blank line. The identity of a JSON-lines record is taken from these bytes."""
    line = line.rstrip(b"\r\n")
    if not line.strip():
        return None
    return line[3:] if line.startswith(BOM) else line


def line_key(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16, person=b"jsonl").digest()


def line_too_long(where: str) -> Raw:
    """A JSON line over :data:`LINE_MAX`: refused, never held."""
    return Raw(
        where,
        identity("size", where.encode()),
        "jsonl",
        "",
        Refusal(
            "size",
            f"这一行太长（超过 {LINE_MAX >> 10} KB），牌谱最多 1 MB，未读取",
            f"line too long (over {LINE_MAX >> 10} KB): a GJN record is at most 1 MB; not read",
        ),
    )


class Meter:
    """How far the reading has come, in bytes of the sources (for the progress bar)."""

    def __init__(self) -> None:
        self.total = 0
        self.finished = 0
        self._file: IO[bytes] | None = None

    def start(self, f: IO[bytes]) -> None:
        self._file = f

    def finish(self, size: int) -> None:
        self._file = None
        self.finished += size

    def poll(self) -> int:
        pos = 0
        if self._file is not None:
            try:
                pos = self._file.tell()
            except (OSError, ValueError):
                pass
        return self.finished + pos


def identity(kind: str, data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16, person=kind.encode()).digest()


def kind_of(name: str) -> str:
    low = name.lower()
    for kind, suffixes in (
        ("jsonl", JSONL_SUFFIXES),
        ("tar", TAR_SUFFIXES),
        ("zip", ZIP_SUFFIXES),
        ("gjn", GJN_SUFFIXES),
    ):
        if low.endswith(suffixes):
            return kind
    return ""


def _sniff(path: Path) -> str:
    """A file named otherwise: a zip, a (compressed) tar, JSON lines or a GJN record by its content."""
    try:
        with path.open("rb") as f:
            head = f.read(512)
    except OSError:
        return "gjn"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if (
        head[:2] == b"\x1f\x8b"
        or head[:3] == b"BZh"
        or head[:6] == b"\xfd7zXZ\x00"
        or head[257:262] == b"ustar"
    ):
        return "tar"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return "jsonl"
    return "gjn"


def total_size(paths: list[Path]) -> int:
    """The bytes the sources hold (folders walked), for the progress bar."""
    total = 0
    for p in paths:
        if p.is_dir():
            for _dirpath, _dirs, files in os.walk(p):
                for name in files:
                    try:
                        total += os.stat(os.path.join(_dirpath, name)).st_size
                    except OSError:
                        pass
        else:
            try:
                total += p.stat().st_size
            except OSError:
                pass
    return total


def read(path: Path, meter: Meter | None = None) -> Iterator[Raw]:
    """Every record of one source, in order; :class:`SourceError` when it cannot be read further."""
    for unit in units(path, meter):
        if isinstance(unit, Lines):
            yield from expand(unit)
        else:
            yield unit


def expand(run: Lines) -> Iterator[Raw]:
    """A run's records one at a time (its blank lines left out)."""
    for i, line in enumerate(run.lines):
        where = f"{run.source}:{run.first_line + i}"
        if len(line) > LINE_MAX:
            yield line_too_long(where)
            continue
        data = line_text(line)
        if data is not None:
            yield _decoded(where, "jsonl", data)


def units(path: Path, meter: Meter | None = None) -> Iterator[Raw | Lines]:
    """One source's records in order: a GJN record (or a refusal) as a :class:`Raw`, JSON lines in
    runs (:class:`Lines`: read whole, each line's record made by whoever checks it);
    :class:`SourceError` when the source cannot be read further."""
    meter = meter or Meter()
    if not path.exists():
        raise SourceError("找不到这个文件或目录", "no such file or folder", where=str(path))
    if path.is_dir():
        yield from _folder(path, meter)
        return
    kind = kind_of(path.name) or _sniff(path)
    try:
        size = path.stat().st_size
    except OSError as e:
        raise SourceError(
            f"无法读取（{e.strerror}）", f"cannot read it ({e.strerror})", where=str(path)
        ) from None
    if kind == "gjn":
        yield _gjn_file(path, size)
        meter.finish(size)
        return
    try:
        f = path.open("rb")
    except OSError as e:
        raise SourceError(
            f"无法读取（{e.strerror}）", f"cannot read it ({e.strerror})", where=str(path)
        ) from None
    with f:
        meter.start(f)
        if kind == "jsonl":
            gz = path.name.lower().endswith(".gz")
            yield from _jsonl(f, str(path), gz=gz, path=None if gz else str(path))
        elif kind == "zip":
            yield from _zip(f, str(path))
        else:
            yield from _tar(f, str(path))
        meter.finish(size)


def _folder(root: Path, meter: Meter) -> Iterator[Raw | Lines]:
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not kind_of(name):
                continue
            yield from units(Path(dirpath) / name, meter)


def too_large(where: str, size: int) -> Raw:
    mb = size / (1 << 20)
    return Raw(
        where,
        identity("size", where.encode()),
        "gjn",
        "",
        Refusal(
            "size",
            f"记录太大（{size:,} 字节，{mb:.1f} MiB），牌谱最多 {RECORD_MAX:,} 字节"
            "（规则引擎的上限），未读取",
            f"record too large ({size:,} bytes, {mb:.1f} MiB): a GJN record is at most {RECORD_MAX:,} bytes "
            "(the engine's limit); not read",
        ),
    )


def _decoded(where: str, kind: str, data: bytes) -> Raw:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    key = identity(kind, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return Raw(
            where,
            key,
            kind,
            "",
            Refusal("encoding", f"第{line}行不是 UTF-8 文字", f"line {line} is not UTF-8 text", line=line),
        )
    return Raw(where, key, kind, text)


def _gjn_file(path: Path, size: int) -> Raw:
    where = str(path)
    if size > RECORD_MAX:
        return too_large(where, size)
    try:
        with path.open("rb") as f:
            data = f.read(RECORD_MAX + 1)
    except OSError as e:
        return Raw(
            where,
            identity("unreadable", where.encode()),
            "gjn",
            "",
            Refusal("source", f"无法读取（{e.strerror}）", f"cannot read it ({e.strerror})"),
        )
    if len(data) > RECORD_MAX:
        return too_large(where, len(data))
    return _decoded(where, "gjn", data)


def _jsonl(f: IO[bytes], name: str, *, gz: bool = False, path: str | None = None) -> Iterator[Raw | Lines]:
    """A JSON-lines stream in runs of whole lines of about :data:`CHUNK` bytes; a line over
    :data:`LINE_MAX` that does not fit in a run is refused and skipped to its end without being held.
    ``path``: the file the runs can be read from again (the stream is that file, uncompressed)."""
    stream: IO[bytes] = gzip.GzipFile(fileobj=f, mode="rb") if gz else f  # type: ignore[assignment]
    lineno = 1  # the number of the first line in buf
    pos = 0  # where buf starts in the stream
    buf = b""
    try:
        while True:
            more = stream.read(CHUNK)
            buf = buf + more if buf else more
            if not more:  # the end: what is left is the last line, without its line end
                if buf:
                    yield _run(name, lineno, buf, path, pos)
                return
            cut = buf.rfind(b"\n") + 1
            if cut == 0:
                if len(buf) <= LINE_MAX:
                    continue
                yield line_too_long(f"{name}:{lineno}")
                skipped, buf = len(buf), b""
                while True:  # the rest of the line, a chunk at a time, dropped
                    more = stream.read(CHUNK)
                    end = more.find(b"\n")
                    if not more or end >= 0:
                        buf = more[end + 1 :] if more else b""
                        skipped += end + 1 if more else 0
                        break
                    skipped += len(more)
                lineno += 1
                pos += skipped
                continue
            run = _run(name, lineno, buf[:cut], path, pos)
            yield run
            lineno += len(run.lines)
            pos += cut
            buf = buf[cut:]
    except (OSError, EOFError, zlib.error) as e:
        raise SourceError(
            f"压缩文件损坏，第{lineno}行起无法读取（{e}）",
            f"damaged compressed file: cannot read from line {lineno} on ({e})",
            where=f"{name}:{lineno}",
        ) from None


def _run(name: str, lineno: int, body: bytes, path: str | None, pos: int) -> Lines:
    lines = body.split(b"\n")
    if body.endswith(b"\n"):
        lines.pop()
    return Lines(name, lineno, lines, path, pos, body)


def _member(where: str, name: str, size: int, data: IO[bytes] | None) -> Iterator[Raw | Lines]:
    kind = kind_of(name)
    if kind == "jsonl":
        if data is not None:
            yield from _jsonl(data, where, gz=name.lower().endswith(".gz"))
        return
    if size > RECORD_MAX:
        yield too_large(where, size)
        return
    assert data is not None
    raw = data.read(RECORD_MAX + 1)
    if len(raw) > RECORD_MAX:
        yield too_large(where, len(raw))
        return
    yield _decoded(where, "gjn", raw)


def _zip(f: IO[bytes], name: str) -> Iterator[Raw | Lines]:
    try:
        zf = zipfile.ZipFile(f)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
        raise SourceError(
            f"不是完好的 zip 压缩包（{e}）", f"not a sound zip archive ({e})", where=f"{name}:1"
        ) from None
    with zf:
        for info in zf.infolist():
            if info.is_dir() or kind_of(info.filename) not in ("gjn", "jsonl"):
                continue
            where = f"{name}!{info.filename}"
            if kind_of(info.filename) == "gjn" and info.file_size > RECORD_MAX:
                yield too_large(where, info.file_size)
                continue
            try:
                with zf.open(info) as member:
                    yield from _member(where, info.filename, info.file_size, member)
            except (
                zipfile.BadZipFile,
                OSError,
                EOFError,
                zlib.error,
                RuntimeError,
                NotImplementedError,
            ) as e:
                yield Raw(
                    where,
                    identity("damaged", where.encode()),
                    "gjn",
                    "",
                    Refusal("archive", f"压缩包里的这个文件已损坏（{e}）", f"damaged archive member ({e})"),
                )


def _tar(f: IO[bytes], name: str) -> Iterator[Raw | Lines]:
    last = ""
    try:
        tf = tarfile.open(fileobj=f, mode="r|*")
    except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
        raise SourceError(
            f"不是完好的 tar 压缩包（{e}）", f"not a sound tar archive ({e})", where=f"{name}:1"
        ) from None
    with tf:
        try:
            while True:
                info = tf.next()
                if info is None:
                    break
                tf.members = []  # type: ignore[attr-defined]  # a stream of a million members: keep none
                if not info.isfile() or kind_of(info.name) not in ("gjn", "jsonl"):
                    continue
                last = info.name
                where = f"{name}!{info.name}"
                if kind_of(info.name) == "gjn" and info.size > RECORD_MAX:
                    yield too_large(where, info.size)
                    continue
                member = tf.extractfile(info)
                data: IO[bytes] = member if member is not None else io.BytesIO()
                yield from _member(where, info.name, info.size, data)
        except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
            after = f"（在 {last} 之后）" if last else ""
            after_en = f" (after {last})" if last else ""
            raise SourceError(
                f"tar 压缩包损坏，无法继续读取{after}：{e}",
                f"damaged tar archive: cannot read on{after_en}: {e}",
                where=f"{name}:1",
            ) from None
