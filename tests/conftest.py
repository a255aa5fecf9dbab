"""Settings for the whole suite."""

from hypothesis import settings

# Timing is measured in bench/, never asserted: no per-example deadline, so a busy machine cannot fail a test.
settings.register_profile("wom", deadline=None)
settings.load_profile("wom")
