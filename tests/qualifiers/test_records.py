"""Reading qualifier sources: files, folders, archives, JSON lines — bounded, and damage named."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from broadcast.qualifiers import records, synthetic
from broadcast.qualifiers.records import RECORD_MAX, SourceError
from engine import gjn


def _texts(pool: synthetic.Pool, roster: list[synthetic.Player], n: int) -> list[str]:
    return [synthetic.gjn_file(t, s) for t, s, _ in synthetic.records(pool, n, roster, illegal=0.0)]


def test_folder_zip_tar_and_jsonl_read_every_record_once(
    tmp_path: Path, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    texts = _texts(pool, roster, 9)
    folder = tmp_path / "games"
    (folder / "b").mkdir(parents=True)
    for i, t in enumerate(texts[:3]):
        (folder / ("b" if i else "") / f"g{i}.gjn").write_text(t, encoding="utf-8")
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "games.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for i, t in enumerate(texts[3:6]):
            z.writestr(f"day1/g{i}.gjn", t)
    with tarfile.open(tmp_path / "games.tar.gz", "w:gz") as tf:
        for i, t in enumerate(texts[6:]):
            data = t.encode()
            info = tarfile.TarInfo(f"g{i}.gjn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    seen = []
    for src in ("games", "games.zip", "games.tar.gz"):
        seen += list(records.read(tmp_path / src))
    assert len(seen) == 9 and all(r.refusal is None and r.kind == "gjn" for r in seen)
    assert sorted(r.text for r in seen) == sorted(texts)
    assert len({r.key for r in seen}) == 9
    assert any(r.where.endswith("games.zip!day1/g0.gjn") for r in seen)
    assert any(r.where.endswith("games.tar.gz!g2.gjn") for r in seen)
    # the same bytes read again are the same record
    again = list(records.read(tmp_path / "games.zip"))
    assert {r.key for r in again} <= {r.key for r in seen}


def test_jsonl_plain_and_gzipped_name_their_lines(tmp_path: Path) -> None:
    lines = ['{"a": 1}', "", '{"b": 2}']
    (tmp_path / "x.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with gzip.open(tmp_path / "y.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    for name in ("x.jsonl", "y.jsonl.gz"):
        got = list(records.read(tmp_path / name))
        assert [r.where for r in got] == [f"{tmp_path / name}:1", f"{tmp_path / name}:3"]
        assert [r.kind for r in got] == ["jsonl", "jsonl"]


def test_a_record_over_one_megabyte_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.gjn"
    with big.open("wb") as f:  # sparse: 2 MB that take no room
        f.truncate(2 * RECORD_MAX)
    (raw,) = records.read(big)
    assert raw.refusal is not None and raw.refusal.rule == "size"
    assert RECORD_MAX == gjn.MAX_BYTES  # the engine's limit, one constant
    assert (
        f"at most {gjn.MAX_BYTES:,} bytes" in raw.refusal.en
        and f"最多 {gjn.MAX_BYTES:,} 字节" in raw.refusal.zh
    )
    assert f"{2 * RECORD_MAX:,} bytes" in raw.refusal.en  # the file's size, read from the directory
    with zipfile.ZipFile(tmp_path / "big.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("big.gjn", b"1 pass\n" * (RECORD_MAX // 7 + 10))
    (raw,) = records.read(tmp_path / "big.zip")
    assert raw.refusal is not None and raw.refusal.rule == "size" and raw.where.endswith("big.zip!big.gjn")


def test_a_line_too_long_is_skipped_to_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "LINE_MAX", 100)
    (tmp_path / "x.jsonl").write_text('{"a": 1}\n' + "x" * 5000 + "\n" + '{"b": 2}\n', encoding="utf-8")
    got = list(records.read(tmp_path / "x.jsonl"))
    assert [r.where.rsplit(":", 1)[1] for r in got] == ["1", "2", "3"]
    assert got[1].refusal is not None and got[1].refusal.rule == "size"
    assert got[0].refusal is None and got[2].text == '{"b": 2}'


def test_not_utf8_is_a_refusal_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "bad.gjn").write_bytes(b'[Rules "tv_match"]\n[Seat1 "\xff\xfe"]\n')
    (raw,) = records.read(tmp_path / "bad.gjn")
    assert raw.refusal is not None and (raw.refusal.rule, raw.refusal.line) == ("encoding", 2)


def test_a_damaged_zip_is_one_error_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.zip"
    bad.write_bytes(b"PK\x03\x04" + b"\x00" * 64)
    with pytest.raises(SourceError) as e:
        list(records.read(bad))
    assert str(e.value).startswith(f"{bad}:1:") and "zip" in str(e.value)


def test_a_cut_tar_gz_gives_what_came_before_then_names_the_damage(
    tmp_path: Path, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    texts = _texts(pool, roster, 6)
    whole = tmp_path / "whole.tar.gz"
    with tarfile.open(whole, "w:gz") as tf:
        for i, t in enumerate(texts):
            data = t.encode()
            info = tarfile.TarInfo(f"g{i}.gjn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 2 // 3])
    got = []
    with pytest.raises(SourceError) as e:
        for r in records.read(cut):
            got.append(r)
    assert 0 < len(got) < 6 and all(r.refusal is None for r in got)
    assert f"{cut}:1:" in str(e.value) and "tar" in str(e.value)


def test_a_damaged_zip_member_is_a_refusal_of_that_record(
    tmp_path: Path, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    texts = _texts(pool, roster, 2)
    path = tmp_path / "crc.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("a.gjn", texts[0])
        z.writestr("b.gjn", texts[1])
    data = bytearray(path.read_bytes())
    at = data.find(texts[0][:40].encode())
    data[at + 5] ^= 0x20  # one byte of a.gjn's stored data: its CRC no longer matches
    path.write_bytes(bytes(data))
    a, b = records.read(path)
    assert a.refusal is not None and a.refusal.rule == "archive" and a.where.endswith("crc.zip!a.gjn")
    assert b.refusal is None and b.text == texts[1]


def test_records_differing_only_at_their_end_are_two_records(tmp_path: Path, pool: synthetic.Pool) -> None:
    """The identity is the whole record's: a record and its copy with another last line are two."""
    text = pool.legal[0]
    other = text.rstrip("\n") + " ; the platform's note\n"
    (tmp_path / "a.gjn").write_text(text, encoding="utf-8")
    (tmp_path / "b.gjn").write_text(other, encoding="utf-8")
    (tmp_path / "c.gjn").write_bytes(text.replace("\n", "\r\n").encode())  # CRLF: the same record
    a, b, c = (next(iter(records.read(tmp_path / n))) for n in ("a.gjn", "b.gjn", "c.gjn"))
    assert a.key != b.key and a.key == c.key
