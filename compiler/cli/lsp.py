"""`chartc lsp`: the language server on stdin and stdout, for editors (`compiler.lsp`)."""

from __future__ import annotations

import click

from compiler.cli.common import EXIT_USAGE


@click.command()
def lsp_command() -> None:
    """Run the language server for `.chart` files on stdin and stdout (the VS Code extension in
    editors/vscode starts it). Needs the optional extra: pip install 'chartc[lsp]'."""
    try:
        # lazy: pygls and lsprotocol, optional dependencies (the `lsp` extra)
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as exc:
        click.echo(f"chartc lsp needs the `lsp` extra ({exc.name} is not installed): pip install 'chartc[lsp]'",
                   err=True)
        raise SystemExit(EXIT_USAGE) from None
    from compiler.lsp.server import main  # lazy: it imports pygls, an optional dependency (the `lsp` extra)

    main()
