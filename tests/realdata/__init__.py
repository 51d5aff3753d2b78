"""End-to-end tests on published results (shared/realdata), converted to archives inside the tests."""

from pathlib import Path

import pytest

REALDATA = Path(__file__).resolve().parents[2].parent / "shared" / "realdata"


def data_dir(name: str) -> Path:
    """The folder of one published data set; the test is skipped, saying why, when it is absent."""
    folder = REALDATA / name
    if not folder.is_dir():
        pytest.skip(f"the published results {name} are not at {folder} (the shared/ folder is absent)")
    return folder
