"""engine.yamlread, the one YAML reader: line numbers, typed scalars, and hostile input refused with one
``file:line:column`` error (issue 13: YAML nested 5,000 deep used to end in RecursionError)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import yamlread
from engine.yamlread import (
    MAX_DEPTH,
    MappingNode,
    Node,
    ScalarNode,
    YamlError,
    as_bool,
    as_float,
    as_int,
    compose,
    decode,
    load,
    read,
)

DEMO_PLACEMENTS = Path(__file__).resolve().parents[2] / "sponsor_assets" / "demo" / "placements.yaml"


def _refused(text: str) -> YamlError:
    with pytest.raises(YamlError) as ei:
        load(text, "f.yaml")
    return ei.value


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 5000 + "]" * 5000,  # flow sequences
        "{a: " * 5000 + "}" * 5000,  # flow mappings
        "".join("  " * i + "- k:\n" for i in range(2500)),  # block style, 5,000 levels
    ],
    ids=["flow-seq", "flow-map", "block"],
)
def test_nesting_5000_deep_is_one_error_not_recursion(text: str) -> None:
    e = _refused(text)
    assert str(e).startswith("f.yaml:") and "嵌套过深" in e.zh and "nested too deeply" in e.en
    assert e.line >= 1 and f"{MAX_DEPTH}" in e.en
    assert "\n" not in str(e)


def test_nesting_up_to_the_limit_is_read() -> None:
    lists = MAX_DEPTH - 1  # inside the top-level mapping: MAX_DEPTH collections in all
    data = load("a: " + "[" * lists + "1" + "]" * lists, "f.yaml")
    for _ in range(lists + 1):
        data = data["a"] if isinstance(data, dict) else data[0]
    assert data == 1
    assert "嵌套过深" in _refused("a: " + "[" * (lists + 1) + "1" + "]" * (lists + 1)).zh


@pytest.mark.parametrize(
    "text,line,column,words",
    [
        ("a: 1\nb: [1, 2\n", 3, 1, ("YAML 语法错误", "YAML syntax error")),
        ("a:\n\tb: 1\n", 2, 1, ("YAML 语法错误", "'\\t'")),
        ("a: 1\n---\nb: 2\n", 2, 1, ("single document",)),
        ("a: 1\nx: a\x00b\n", 2, 5, ("#x0000",)),
        ("a: &x [1, *x]\n", 1, 11, ("&x", "inside itself")),
        ("a: 1\nb: 2\na: 3\n", 3, 1, ("'a'", "line 1")),
        ("a: 1\nb: " + "9" * 5000 + "\n", 2, 4, ("integer",)),
        ("when: 2012-02-30\n", 1, 7, ("2012-02-30", "does not exist")),
        ("? [a]\n: 1\n", 1, 3, ("unhashable",)),
        ("a: !!python/object:os.system x\n", 1, 4, ("constructor",)),
    ],
    ids=[
        "unclosed",
        "tab",
        "two-documents",
        "nul",
        "self-anchor",
        "duplicate",
        "huge-int",
        "bad-date",
        "unhashable",
        "python-tag",
    ],
)
def test_malformed_yaml_names_line_and_column(
    text: str, line: int, column: int, words: tuple[str, ...]
) -> None:
    e = _refused(text)
    assert (e.file, e.line, e.column) == ("f.yaml", line, column), str(e)
    assert str(e).startswith(f"f.yaml:{line}:{column}: ")
    assert all(w in str(e) for w in words), str(e)
    assert e.zh and e.en


def test_bytes_that_are_not_utf8_name_their_line_and_a_bom_is_dropped() -> None:
    with pytest.raises(YamlError) as ei:
        decode("a: 1\nb: 好\n".encode("gbk"), "gbk.yaml")
    assert (ei.value.line, ei.value.column) == (2, 4) and "UTF-8" in str(ei.value)
    assert decode("\ufeffa: 1".encode(), "bom.yaml") == "a: 1"


def test_nodes_keep_their_lines_and_scalars_are_typed_by_yaml_rules() -> None:
    root = compose(
        "n: 12\nhex: 0x10\nsexa: 1:30\nbig: " + "9" * 5000 + "\nyes: on\nf: 2.5\ns: '12'\n", "t.yaml"
    )
    assert isinstance(root, MappingNode)
    nodes = {k.value: v for k, v in root.value}
    assert [k.start_mark.line + 1 for k, _ in root.value] == [1, 2, 3, 4, 5, 6, 7]
    assert (as_int(nodes["n"]), as_int(nodes["hex"]), as_int(nodes["sexa"])) == (12, 16, 90)
    assert as_int(nodes["big"]) is None  # too long to convert: None, not ValueError
    assert as_int(nodes["s"]) is None and as_int(nodes["f"]) is None
    assert as_bool(nodes["yes"]) is True and as_bool(nodes["n"]) is None
    assert as_float(nodes["f"]) == 2.5 and as_float(nodes["n"]) == 12.0
    assert compose("", "empty.yaml") is None and load("# only a comment\n", "c.yaml") is None


def test_load_gives_plain_data_with_aliases_and_merges() -> None:
    data = load("base: &b {x: 1, when: 2012-05-07}\nuse: *b\nmore:\n  <<: *b\n  y: 2\n", "m.yaml")
    assert data["use"] == {"x": 1, "when": dt.date(2012, 5, 7)}
    assert data["more"] == {"x": 1, "when": dt.date(2012, 5, 7), "y": 2}


# --------------------------------------------------------------- libyaml reads, the pure loader names
def _tree(node: Node | None) -> object:
    """Everything a caller can see of a node tree: kinds, tags, values, styles, marks; aliases as such."""
    seen: set[int] = set()

    def walk(n: Node) -> object:
        if id(n) in seen:
            return ("alias", n.start_mark.line, n.start_mark.column)
        seen.add(id(n))
        marks = (
            n.start_mark.line,
            n.start_mark.column,
            n.start_mark.index,
            n.end_mark.line,
            n.end_mark.column,
        )
        if isinstance(n, ScalarNode):
            return (n.tag, marks, n.style, n.value)
        if isinstance(n, MappingNode):
            return (n.tag, marks, bool(n.flow_style), [(walk(k), walk(v)) for k, v in n.value])
        return (n.tag, marks, bool(n.flow_style), [walk(v) for v in n.value])

    return None if node is None else walk(node)


def _outcome(fn: Callable[[str, str], Node | None], text: str) -> object:
    try:
        return _tree(fn(text, "p.yaml"))
    except YamlError as exc:
        return str(exc)


def test_the_demo_placements_are_composed_by_libyaml_not_the_pure_loader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The C loader reads a sound file (~9x less CPU: every command reads the placements); the tree is
    the pure loader's, node for node, mark for mark."""
    text = decode(read(DEMO_PLACEMENTS), "placements.yaml")
    pure = _tree(yamlread._pure_compose(text, "placements.yaml"))

    def refuse(text: str, file: str) -> None:
        raise AssertionError("the pure-Python loader read a sound file")

    monkeypatch.setattr(yamlread, "_pure_compose", refuse)
    assert _tree(compose(text, "placements.yaml")) == pure
    with pytest.raises(AssertionError, match="pure-Python loader"):  # what it falls back on, below
        compose(text + "a: [1, , 2]\n", "placements.yaml")


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1, *x]\n",  # an anchor inside itself: a cycle of nodes in libyaml's tree
        pytest.param("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", id="flow-51-deep"),
        pytest.param(
            "a:\n"
            + "".join(" " * (2 * i + 2) + f"k{i}:\n" for i in range(MAX_DEPTH + 1))
            + " " * 120
            + "v\n",
            id="block-52-deep",
        ),
        "a:\tb\n",  # libyaml takes the tab for a space
        "{a: ?b}\n",  # libyaml reads "?b" as text
        "a: x\x07\n",
        "a: 1\nb\ufeff: 2\n",
        "a: 1\n---\nb: 2\n",
        "a: *nothing\n",
        "a: 1\na: 2\n",  # composed fine, refused by load: both loaders give the same tree
        "[a, , b]\n",  # libyaml puts the empty entry one column apart
        "a: [1, 2]",  # no last line break: libyaml ends the root elsewhere
    ],
)
def test_what_libyaml_reads_differently_or_refuses_is_read_by_the_pure_loader(text: str) -> None:
    assert _outcome(compose, text) == _outcome(yamlread._pure_compose, text)


def test_libyaml_and_the_pure_loader_agree_on_damaged_placements() -> None:
    """Random edits of the demo placements' first 80 lines (comments, block and flow mappings, dates,
    CJK; deleted runs, inserted indicators, tabs, anchors, flow punctuation, control characters): each
    gives the same tree or the same file:line:column error both ways (5 x 500 such edits of the whole
    file agreed when this was written; 120 here keep it quick)."""
    lines = decode(read(DEMO_PLACEMENTS), "placements.yaml").splitlines(keepends=True)
    base = "".join(lines[:80])
    pieces = [
        "\n",
        "x",
        "[a, , b]",
        "{a: , }",
        ", ,",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "- ",
        "- - ",
        "\n- ",
        "\n  ",
        "&x ",
        "*x",
        "&b [*b]",
        "~",
        "!!str ",
        "!!int ",
        "!foo ",
        "\\",
        "\\u4e2d",
        '"',
        "'",
        "#",
        "---\n",
        "...\n",
        "%YAML 1.1\n",
        "?",
        "|",
        ">",
        "\t",
        "\r",
        "\x07",
        "\ufeff",
        "中",
        "@",
        "`",
    ]
    rnd = random.Random(21)
    differ, read_ok = [], 0
    for i in range(120):
        text = base
        for _ in range(rnd.randint(1, 3)):
            k = rnd.randrange(len(text))
            if rnd.random() < 0.3:
                text = text[:k] + text[k + rnd.randint(1, 20) :]
            else:
                text = text[:k] + rnd.choice(pieces) + text[k:]
        fast, pure = _outcome(compose, text), _outcome(yamlread._pure_compose, text)
        read_ok += not isinstance(pure, str)
        if fast != pure:
            differ.append(i)
    assert differ == []
    assert 25 < read_ok < 95  # both sound and refused texts were tried
