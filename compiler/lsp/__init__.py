"""`chartc lsp`: the language server for `.chart` files.

`positions` converts chartc's spans to the protocol's positions, `workspace` checks a game folder
with the editor's unsaved buffers, `index` answers hover, definition, references, completion,
symbols and code actions from that check, and `server` is the one module that imports pygls.
Everything but `server` is plain Python over chartc's own pipeline and is tested without an editor.
"""
