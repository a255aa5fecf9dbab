"""The domain stays free of the UI: importing it must not import Textual (STYLE.md)."""

import subprocess
import sys


def test_domain_imports_no_textual():
    code = (
        "import sys, wom_tui.domain, wom_tui.domain.strategies;"
        "import pkgutil, importlib;"
        "[importlib.import_module(m.name) for m in pkgutil.walk_packages(wom_tui.domain.__path__, 'wom_tui.domain.')];"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith(('textual.', 'wom_tui.app', 'wom_tui.screens', 'wom_tui.widgets')));"
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"wom_tui.domain pulled in UI modules: {result.stdout} {result.stderr}"
