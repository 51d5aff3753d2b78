"""End-to-end tests on published results (tests/data/realdata), converted to archives inside the tests."""

from pathlib import Path

REALDATA = Path(__file__).resolve().parents[1] / "data" / "realdata"


def data_dir(name: str) -> Path:
    """The folder of one published data set, kept inside the project."""
    folder = REALDATA / name
    assert folder.is_dir(), f"the published results {name} are missing from {folder}"
    return folder
