"""One list of Debian packages for bin/setup and the image; no non-commercial model in the image."""

from __future__ import annotations

from tests.conftest import ROOT

ROLES = {"python", "run", "build", "dev"}


def _packages() -> dict[str, str]:
    rows = {}
    for line in (ROOT / "debian-packages.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, role, *_why = line.split()
            rows[name] = role
    return rows


def test_every_debian_package_has_a_known_role():
    packages = _packages()
    assert set(packages.values()) <= ROLES
    assert packages["tesseract-ocr-ces"] == "run" and packages["chromium"] == "dev"


def test_setup_and_the_image_install_from_the_one_list():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    setup = (ROOT / "bin" / "setup").read_text(encoding="utf-8")
    assert dockerfile.count("debian-packages.txt") >= 2 and "debian-packages.txt" in setup
    installs = [line for line in dockerfile.splitlines() if "apt-get install" in line or line.startswith("       ")]
    for name in _packages():  # apt installs name no package themselves: the list does
        assert all(f" {name} " not in f" {line} " for line in installs), name
    assert "FROM debian:bookworm-slim" in dockerfile
    pip_lines = [line for line in dockerfile.splitlines() if "pip install" in line]
    assert pip_lines and not any("requirements-nc" in line or "cs_core" in line for line in pip_lines)
