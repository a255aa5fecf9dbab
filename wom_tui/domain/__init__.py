"""The rules of World of Mastermind: pure Python, no Textual (docs/develop.md).

Import a name from the module that defines it (``from wom_tui.domain.codes import Ruleset``): the package
itself exports nothing, so a screen that needs one module of the rules loads only that one.
"""
