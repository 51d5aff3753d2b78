"""Static files are stored compressed with Brotli beside gzip (whitenoise, at ``collectstatic``): a phone
that takes Brotli gets the CSS in fewer bytes than gzip gives."""

from __future__ import annotations

import shutil
from pathlib import Path

from whitenoise.compress import Compressor

ROOT = Path(__file__).resolve().parents[2]


def test_collectstatic_writes_a_brotli_copy_smaller_than_the_gzip_one(tmp_path):
    css = tmp_path / "app.css"
    shutil.copy(ROOT / "static" / "css" / "app.css", css)
    list(Compressor(quiet=True).compress(str(css)))
    brotli_copy, gzip_copy = Path(f"{css}.br"), Path(f"{css}.gz")
    assert brotli_copy.exists() and gzip_copy.exists()
    assert brotli_copy.stat().st_size < gzip_copy.stat().st_size < css.stat().st_size
