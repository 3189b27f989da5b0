"""Files written whole or not at all, and one line for a person when the disk refuses them.

    with atomic_path(out) as tmp:        # write tmp however you like (openpyxl, Pillow, csv …)
        workbook.save(tmp)
    # out is now the new file; on any failure out is untouched and no ``.part`` is left behind

A failure whose cause is the disk (full, read-only, too large, I/O) becomes :class:`WriteFailed`, whose
text names the file and what to do, even when a library buried the ``OSError`` under its own error
(openpyxl's ``ValueError: I/O operation on closed file`` after a full disk).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from broadcast.errors import GoujiError

_ADVICE = {
    errno.ENOSPC: ("磁盘已满，腾出空间后重试", "the disk is full: free some space, then try again"),
    errno.EDQUOT: ("超出磁盘配额，腾出空间后重试", "over the disk quota: free some space, then try again"),
    errno.EFBIG: ("文件超过允许的大小", "the file is larger than this system allows"),
    errno.EROFS: ("磁盘只读，请写到别的位置", "the disk is read-only: write somewhere else"),
    errno.EACCES: ("没有写入权限，请写到别的位置", "no permission to write here: write somewhere else"),
    errno.EPERM: ("没有写入权限，请写到别的位置", "no permission to write here: write somewhere else"),
    errno.EIO: ("磁盘读写出错，检查磁盘后重试", "a disk I/O error: check the disk, then try again"),
    # making an output's folder where a file of that name is (mkdir's EEXIST), or under a file (ENOTDIR)
    errno.EEXIST: ("这里是一个文件，不是文件夹", "a file is there, not a folder: choose another folder"),
    errno.ENOTDIR: ("路径中有一段是文件，不是文件夹", "a part of the path is a file, not a folder"),
}


class WriteFailed(GoujiError):
    """A file could not be written: ``WriteFailed("write", zh, en, path=file, os_error=cause)``;
    ``str()`` is ``file: 中文 / English`` (what happened and what to do)."""

    rule = "write"
    show_rule = False

    def __init__(
        self,
        rule: str = "",
        zh: str = "",
        en: str = "",
        *,
        path: str | Path = "",
        os_error: OSError | None = None,
    ) -> None:
        self.path = str(path)
        self.os_error = os_error
        super().__init__(rule, zh, en, where=path)


def write_failed(path: str | Path, exc: OSError) -> WriteFailed:
    """The error for ``exc`` writing ``path``: what happened (中文 / English) and what to do."""
    zh, en = _ADVICE.get(exc.errno or 0, ("无法写入", f"cannot write it ({exc.strerror or exc})"))
    return WriteFailed("write", zh, en, path=path, os_error=exc)


def describe_os_error(path: str | Path, exc: OSError) -> str:
    """One line: the file, what happened (中文 / English) and what to do."""
    return str(write_failed(path, exc))


def os_error_in(exc: BaseException | None) -> OSError | None:
    """The ``OSError`` that caused ``exc`` (itself, or one in its cause/context chain), if any."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno is not None:
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; when the block ends without error it replaces ``path``
    (flushed to disk first), otherwise it is removed and ``path`` is left as it was."""
    out = Path(path)
    tmp = out.with_name(out.name + ".part")
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        tmp.replace(out)
    except BaseException as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        cause = os_error_in(exc)
        if cause is not None and not isinstance(exc, WriteFailed):
            raise write_failed(out, cause) from exc
        raise


def read_at_most(path: str | Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (more than ``limit`` = the file is over its limit, and the
    caller says so). Never reads further: a device or a pipe given as a file (``/dev/zero``: its size
    says 0, and ``read_bytes()[:limit]`` reads it for ever) is cut where a real file would be refused."""
    with open(path, "rb") as f:
        return f.read(limit + 1)


def write_text(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write a whole text file atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)
