"""Production's static files storage (config/staticstorage.py) answers whitenoise's addresses, each worked
out once per process."""

from __future__ import annotations

import json

from whitenoise.storage import CompressedManifestStaticFilesStorage

from config.staticstorage import StaticFilesStorage


def _manifest(folder, paths: dict[str, str]) -> None:
    (folder / "staticfiles.json").write_text(json.dumps({"paths": paths, "version": "1.1", "hash": "h"}))


def test_the_same_addresses_as_whitenoise_s_each_worked_out_once(tmp_path, monkeypatch):
    _manifest(tmp_path, {"css/app.css": "css/app.0123abcd.css", "js/a b.js": "js/a b.4567ef01.js"})
    ours = StaticFilesStorage(location=str(tmp_path), base_url="/static/")
    theirs = CompressedManifestStaticFilesStorage(location=str(tmp_path), base_url="/static/")
    for name in ("css/app.css", "js/a b.js"):
        assert ours.url(name) == theirs.url(name)
    assert ours.url("css/app.css") == "/static/css/app.0123abcd.css"
    assert ours.url("js/a b.js") == "/static/js/a b.4567ef01.js"  # as whitenoise writes it

    asked = []
    original = CompressedManifestStaticFilesStorage.url
    monkeypatch.setattr(
        CompressedManifestStaticFilesStorage,
        "url",
        lambda self, *a, **k: asked.append(a) or original(self, *a, **k),
    )
    for _ in range(3):
        assert ours.url("css/app.css") == "/static/css/app.0123abcd.css"
    assert asked == []  # kept from the first time
    ours.url("css/app.css", force=True)
    assert len(asked) == 1  # a forced address is always worked out again


def test_a_file_missing_from_the_manifest_is_refused_every_time(tmp_path):
    _manifest(tmp_path, {"css/app.css": "css/app.0123abcd.css"})
    storage = StaticFilesStorage(location=str(tmp_path), base_url="/static/")
    for _ in range(2):
        try:
            storage.url("css/missing.css")
        except ValueError as error:
            assert "css/missing.css" in str(error)
        else:
            raise AssertionError("a file missing from the manifest was given an address")
