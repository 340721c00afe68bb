"""Option tests: one file per table option; they deal chosen cards with the roles' kit."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "roles"))
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
