"""World of Mastermind: a Mastermind game for the terminal, locally or over SSH."""

__version__ = "0.1.0"
