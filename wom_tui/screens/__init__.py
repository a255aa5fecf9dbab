"""The app's screens: one module per screen; the modes' setup screens are listed in ``wom_tui.modes``."""
