"""One error vocabulary: every error a person may see is a GoujiError(rule, zh, en), constructed one way."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import broadcast
import engine
from broadcast.core import ActionRefused
from broadcast.errors import GoujiError
from broadcast.studio import open_store
from engine import IllegalAction, new_game
from engine.cards import CardError, parse_counts

# exceptions used for control flow, never shown to a person
INTERNAL = {"Stopped", "_DryRun", "PathRefused", "_Refused", "_NotCompiled"}


def _project_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for pkg in (engine, broadcast):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if info.name.startswith("broadcast.console") or info.name.endswith("__main__"):
                continue  # Qt; the command-line entry point
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if (
                    inspect.isclass(obj)
                    and issubclass(obj, BaseException)
                    and obj.__module__ == module.__name__
                ):
                    found[f"{obj.__module__}.{name}"] = obj
    return found


def test_every_error_of_the_project_is_a_gouji_error() -> None:
    found = _project_exceptions()
    assert "broadcast.core.store.ActionRefused" in found and "engine.errors.IllegalAction" in found
    outside = sorted(
        name
        for name, cls in found.items()
        if not issubclass(cls, GoujiError) and name.rsplit(".", 1)[1] not in INTERNAL
    )
    assert outside == []


def test_constructed_one_way_with_rule_chinese_english() -> None:
    e = GoujiError("G4.2", "要比上家大", "must beat the top play", where="a.gjn:3")
    assert (e.rule, e.zh, e.en, e.where) == ("G4.2", "要比上家大", "must beat the top play", "a.gjn:3")
    assert (e.message_zh, e.message_en) == (e.zh, e.en)
    assert str(e) == "a.gjn:3: [G4.2] 要比上家大 / must beat the top play"
    assert str(GoujiError("bus", "没有这个通道")) == "[bus] 没有这个通道"  # English defaults to Chinese
    with pytest.raises(TypeError, match="rule must be a clause id"):
        GoujiError("没有这个通道：'air'（应为 preview 或 program）", "bus")  # the old (message, rule) order
    with pytest.raises(TypeError, match="Chinese message comes second"):
        IllegalAction("G4.2", "must beat the top play", "要比上家大")  # the old (rule, en, zh) order


def test_the_engines_refusal_and_the_stores_say_the_same(tmp_path: Path) -> None:
    g = new_game("tv_match", seed=3)
    leader = g.pending_seat
    other = leader % 6 + 1
    with pytest.raises(IllegalAction) as engine_err:
        g.push(engine.Action.parse(f"{other} 3"))
    assert isinstance(engine_err.value, GoujiError) and engine_err.value.rule.startswith("G")
    with open_store(tmp_path / "s.sqlite") as store:
        store.dispatch("game.new", {"seed": 3})
        with pytest.raises(ActionRefused) as refused:
            store.dispatch("game.play", {"line": f"{other} 3"})
    got = refused.value
    assert (got.rule, got.zh, got.en) == (engine_err.value.rule, engine_err.value.zh, engine_err.value.en)
    assert str(got) == f"[{got.rule}] {got.zh}"  # what the operator sees


def test_obs_errors_keep_their_english_line_and_give_the_operator_chinese() -> None:
    from broadcast.obs.errors import ObsAuthError, ObsNotConnected, ObsTimeout
    from broadcast.obs.settings import SettingsError

    e = ObsNotConnected(en="not provisioned")
    assert (e.rule, e.zh, str(e)) == ("obs.not_connected", "OBS 未连接", "not provisioned")
    a = ObsAuthError(4009, "Authentication failed.")
    assert a.rule == "obs.auth" and "密码错误" in a.message_zh and a.cause == "auth_failed"
    t = ObsTimeout("GetStats", 2.0)
    assert t.rule == "obs.timeout" and "GetStats" in t.zh and str(t).startswith("no answer from OBS")
    s = SettingsError("obs.settings", "YAML 格式错误", "invalid YAML (x)", where="bad.yaml:3")
    assert str(s) == "bad.yaml:3: invalid YAML (x)" and isinstance(s, ValueError)


def test_card_errors_name_the_column_in_both_languages() -> None:
    with pytest.raises(CardError) as err:
        parse_counts("TTZ")
    assert (err.value.rule, err.value.column) == ("G2.4", 3)
    assert "第 3 列" in err.value.zh and "column 3" in err.value.en
    assert str(err.value) == err.value.en  # the GJN tools' English line is unchanged
