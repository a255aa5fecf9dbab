"""Line mode (docs/play.md, *Line mode*): World of Mastermind one line at a time, in words, for screen readers
and braille displays, over any front end (a terminal's standard input and output, an SSH channel, a web page).

:class:`~.engine.LineSession` is the engine a front end drives; :mod:`.words` the wording every line goes
through. This floor sits beside the app: it imports the domain, the store's role protocols and the settings,
never Textual, Rich or a screen. Importing the package loads neither module: the server loads the engine (and
the rules' solvers with it) when its first line session starts.
"""
