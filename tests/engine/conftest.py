"""Engine tests: pure, no app, no clock. Helpers live in enginekit.py next to this file."""
import os
import sys

# The project runs pytest with --import-mode=importlib (no sys.path changes): make the
# helper module next to the tests importable as a plain module.
sys.path.insert(0, os.path.dirname(__file__))
