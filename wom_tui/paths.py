"""Where the app finds its stylesheets, both from a source checkout and from an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent

# The wheel force-includes the repo's top-level styles/ as wom_tui/styles (pyproject.toml);
# a source checkout or editable install has them one level up, beside the package.
_WHEEL_STYLES = _PACKAGE_DIR / "styles"
_REPO_STYLES = _PACKAGE_DIR.parent / "styles"

STYLES_DIR: Path = _WHEEL_STYLES if _WHEEL_STYLES.is_dir() else _REPO_STYLES
"""The folder holding every ``*.tcss`` stylesheet of the app."""


def stylesheets() -> list[Path]:
    """Every stylesheet in :data:`STYLES_DIR`, sorted by name so the cascade is the same everywhere."""
    return sorted(STYLES_DIR.glob("*.tcss"))
