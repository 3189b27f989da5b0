"""Inputs read only up to their limit, and JSON nested thousands deep refused in one line (hostile2).
Before: ``--token-file /dev/zero`` (or a wrong file of 300 MB) was read whole into memory and a token of
NULs or two lines served; ``verify-receipt /dev/zero`` and ``--key /dev/zero`` read for ever (their
limits were checked on ``stat``'s size, which is 0 for a device); a receipt or an OBS settings ``.json``
nested 30,000 deep was an internal error (RecursionError), exit 1."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from broadcast.__main__ import main as studio
from broadcast.core.signing import PublicKey, SigningError
from broadcast.overlay.cli import resolve_token

DEEP = "[" * 30000 + "]" * 30000


def _token(path: Path | str) -> str | None:
    return resolve_token(argparse.Namespace(token_file=str(path), host="127.0.0.1"))


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as f:
        f.truncate(size)
    return path


TOKENS = {  # file content (or a device) → what the one line says
    "dev-zero": ("/dev/zero", ":0: 令牌文件太大（超过 4096 字节）"),
    "huge": (b"", ":0: 令牌文件太大"),  # a 300 MB file of NULs (sparse)
    "two-lines": (b"s3cret\nother\n", ":1: 令牌里有空白、换行或控制字符 U+000A"),
    "space": (b"\n\ns3 cret\n", ":3: 令牌里有空白、换行或控制字符 U+0020"),
    "nul": (b"s3cret\0\n", ":1: 令牌里有空白、换行或控制字符 U+0000"),
}


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_a_token_file_is_read_up_to_its_limit_and_must_be_one_visible_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, said = TOKENS[kind]
    if isinstance(content, str):
        path = Path(content)
    elif kind == "huge":
        path = _sparse(tmp_path / "token", 300 << 20)
    else:
        path = tmp_path / "token"
        path.write_bytes(content)
    with pytest.raises(SystemExit) as exc:
        _token(path)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}{said}"), err
    assert " / " in err[0] or "the token" in err[0]


def test_a_good_token_file_still_gives_its_token(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("\n  s3cret-令牌  \n\n", encoding="utf-8")
    assert _token(tmp_path / "token") == "s3cret-令牌"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["verify-receipt", "RECEIPT", "--db", "DB"],
            "不是回执（JSON 嵌套过深） / not valid JSON (nested too deeply)",
        ),
        (
            ["verify-receipt", "/dev/zero", "--db", "DB"],
            "回执过大（超过 65536 字节） / too large (over 65536 bytes)",
        ),
        (["obs", "status", "--settings", "SETTINGS"], "obs.json:1: invalid JSON: nested too deeply"),
    ],
    ids=["receipt-deep", "receipt-dev-zero", "obs-settings-deep"],
)
def test_json_files_nested_deep_or_endless_are_one_line(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "RECEIPT": tmp_path / "第1期.json",
        "SETTINGS": tmp_path / "obs.json",
        "DB": tmp_path / "x.sqlite",
    }
    files["RECEIPT"].write_text(DEEP, encoding="utf-8")
    files["SETTINGS"].write_text('{"obs": ' + DEEP + "}", encoding="utf-8")
    argv = [str(files[a]) if a in files else a for a in argv]
    assert studio(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and "内部错误" not in err[0], err
    named = next(a for a in argv if a.startswith(str(tmp_path)) or a == "/dev/zero")
    assert named in err[0]


def test_a_public_key_file_that_never_ends_is_refused_at_its_limit() -> None:
    with pytest.raises(SigningError, match="/dev/zero"):
        PublicKey.load("/dev/zero")
