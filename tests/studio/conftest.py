"""The studio's tests' fixture: `client`, the studio's API on a working folder of the test's own."""

from __future__ import annotations

import pytest

from studio_api import studio


@pytest.fixture
def client(tmp_path):
    with studio(tmp_path) as c:
        c.work = tmp_path / "work"
        yield c
