"""Emitters: pure functions from the resolved model to `{relative path: text}`; they read no files."""
