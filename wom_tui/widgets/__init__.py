"""Widgets shared by every screen: pegs, the peg input, the message log, peg displays.

Import a widget from the module that defines it (``from wom_tui.widgets.peg_input import PegInput``): the
package itself exports nothing, so a screen loads only the widgets it uses.
"""
