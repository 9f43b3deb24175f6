"""`python -m compiler.cli`: the same as the `chartc` console script."""

from compiler.cli import main

main()
