"""chartc's exit codes, in a module of their own: `chartc --help` and `--version` import them
without `compiler.cli.common`, which imports the diagnostics (did-you-mean, printable text)."""

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
