"""What the tests share beyond fixtures: the test clock, and the secrecy audit's oracle
and random player (``audit``), also run at length by bench/audit.py."""
