"""An OBS that is not there (or drops mid-command) is one line naming its address and exit 2, as every
bad input of a command (hostile2; it was exit 1, the code of a failed check, not of a refused input).
Dropped mid-provision on a real OBS (killed 0.85 s in) it says ``OBS 连接中断：SetSceneItemIndex:
connection lost`` through the same ``ObsError`` line."""

from __future__ import annotations

import socket

import pytest

from broadcast.__main__ import main as studio


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", [["status"], ["provision"], ["proof", "--out", "p.jpg"]])
def test_obs_commands_answer_an_absent_obs_in_one_line_with_exit_2(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    port = _closed_port()
    monkeypatch.setenv("GOUJI_OBS_HOST", "127.0.0.1")
    monkeypatch.setenv("GOUJI_OBS_PORT", str(port))
    monkeypatch.chdir(str(tmp_path))
    assert studio(["obs", *command]) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and f"127.0.0.1:{port}" in err[0] and "Traceback" not in err[0], err
    assert err[0].startswith(f"127.0.0.1:{port} 没有程序在监听") and "nothing is listening" in err[0]
