# The load bench is not a test: keep pytest from collecting anything here,
# even when someone runs ``pytest bench`` or ``pytest .`` by hand.
collect_ignore_glob = ["*.py"]
