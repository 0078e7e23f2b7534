"""The page's vendored three.js: served as JavaScript, named by the import map, in the wheel."""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import check_install  # noqa: E402
import vendor_web  # noqa: E402

PAGE_FILES = ("three.module.js", "three.core.js", "addons/controls/OrbitControls.js")


def test_the_vendored_files_follow_the_imports_and_carry_the_licence() -> None:
    targets = set(vendor_web.vendored_files().values())
    assert set(PAGE_FILES) | {"LICENSE"} <= targets
    for target in targets:
        assert (vendor_web.VENDOR / target).is_file(), f"run tools/vendor_web.py: {target}"


def test_the_pinned_version_is_the_one_vendored() -> None:
    package = (ROOT / "package.json").read_text(encoding="utf-8")
    assert '"three": "0.187.0"' in package
    module = (vendor_web.VENDOR / "three.core.js").read_text(encoding="utf-8")
    assert re.search(r"REVISION = '187'", module)


@pytest.mark.parametrize("name", PAGE_FILES)
def test_the_three_files_are_served_as_javascript(client: TestClient, name: str) -> None:
    reply = client.get(f"/static/vendor/three/{name}")
    assert reply.status_code == 200
    assert "javascript" in reply.headers["content-type"]
    assert "export" in reply.text


def test_the_import_map_names_the_vendored_files(client: TestClient) -> None:
    page = client.get("/").text
    found = re.search(r'<script type="importmap">(.*?)</script>', page, re.S)
    assert found is not None
    assert '"three": "/static/vendor/three/three.module.js"' in found.group(1)
    assert '"three/addons/": "/static/vendor/three/addons/"' in found.group(1)
    assert page.index("importmap") < page.index('src="/static/main.js"')


def test_the_wheel_check_catches_a_wheel_without_them(tmp_path: Path) -> None:
    files = vendor_web.vendored_files()
    full = tmp_path / "full.whl"
    short = tmp_path / "short.whl"
    with zipfile.ZipFile(full, "w") as whole, zipfile.ZipFile(short, "w") as part:
        for source, target in files.items():
            data = (vendor_web.NODE / source).read_bytes()
            whole.writestr(check_install.VENDOR_IN_WHEEL + target, data)
            if target != "three.core.js":
                part.writestr(check_install.VENDOR_IN_WHEEL + target, data)
    assert check_install.vendor_missing(full) == []
    assert check_install.vendor_missing(short) == [check_install.VENDOR_IN_WHEEL + "three.core.js"]


def test_the_page_files_are_compressed_and_nothing_else(client: TestClient) -> None:
    gzip = {"Accept-Encoding": "gzip"}
    big = client.get("/static/vendor/three/three.core.js", headers=gzip)
    assert big.status_code == 200
    assert big.headers["content-encoding"] == "gzip"
    assert big.content == (vendor_web.VENDOR / "three.core.js").read_bytes()  # the same bytes
    plain = client.get(
        "/static/vendor/three/three.core.js", headers={"Accept-Encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers
    # An answer holding a seat's secret is never compressed (nothing to guess it by its size).
    created = client.post("/api/matches", json={"mode": "network"}, headers=gzip)
    assert created.status_code == 200
    assert "content-encoding" not in created.headers
