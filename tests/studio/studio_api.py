"""The studio's API through Starlette's test client, as its tests use it: a studio on a working
folder of its own (`studio`, and the `client` fixture of this folder's conftest.py), a small game
written there (`mini`)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

with warnings.catch_warnings():  # Starlette 1.x asks for the httpx2 fork; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.bundled import bundled
from interpreter.studio.app import make_app
from interpreter.web.limits import Limits
from small_games import MINI

GANJIFA = Path(os.path.realpath(bundled()["ganjifa/ganjifa"]))


def studio(tmp_path: Path, token: str | None = None, paths=()) -> TestClient:
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    app = make_app(list(paths), work, data=tmp_path / "data", token=token, bot_pause=0.0,
                   limits=Limits(bot_workers=0))
    return TestClient(app, base_url="http://127.0.0.1", headers={"X-Studio-Token": app.state.token})


def mini(client, name="mini.cards", text=MINI) -> str:
    p = client.work / name
    p.write_text(text, encoding="utf-8")
    return str(p)
