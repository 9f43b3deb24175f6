"""A SARIF 2.1.0 log for GitHub code scanning."""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from compiler.diagnostics.code_type import Code, Severity
from compiler.diagnostics.core import Diagnostic, Suppressed
from compiler.diagnostics.fixes import Fix
from compiler.diagnostics.registry import REGISTRY
from compiler.diagnostics.textsafe import json_text
from dsl.shared import Span

SarifObject = dict[str, Any]  # a SARIF JSON object

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def _sarif_region(span: Span) -> SarifObject:
    return {
        "startLine": span.line,
        "startColumn": max(1, span.col),
        "endLine": max(span.line, span.end_line),
        "endColumn": max(1, span.end_col),
    }


def _sarif_location(span: Span, message: str | None = None) -> SarifObject:
    region = _sarif_region(span)
    loc: SarifObject = {"physicalLocation": {"artifactLocation": _sarif_artifact(span.file), "region": region}}
    if message is not None:
        loc["message"] = {"text": message}
    return loc


def _sarif_artifact(path: str) -> SarifObject:
    """A repo-relative URI against %SRCROOT% (stable across checkouts); absolute paths as file URIs."""
    if PurePosixPath(path).is_absolute():
        return {"uri": PurePosixPath(path).as_uri()}
    return {"uri": quote(path), "uriBaseId": "%SRCROOT%"}


def _sarif_rule(code: Code) -> SarifObject:
    return {
        "id": code.code,
        "name": code.name,
        "shortDescription": {"text": code.name},
        "fullDescription": {"text": code.summary},
        "defaultConfiguration": {"level": _SARIF_LEVEL[code.severity]},
        "help": {"text": f"{code.summary}; run `chartc explain {code.code}` or see docs/diagnostics.md"},
    }


def _sarif_result(d: Diagnostic, rule_index: dict[str, int], suppression: Suppressed | None = None) -> SarifObject:
    result: SarifObject = {
        "ruleId": d.code,
        "ruleIndex": rule_index[d.code],
        "level": _SARIF_LEVEL[d.severity],
        "message": {"text": d.message + (f" (help: {d.help})" if d.help else "")},
        "locations": [_sarif_location(d.span)],
        "partialFingerprints": {"chartcFinding/v1": f"{d.code}:{d.span.file}:{d.message}"},
    }
    if d.labels:
        result["relatedLocations"] = [dict(_sarif_location(lb.span, lb.message), id=i) for i, lb in enumerate(d.labels)]
    if suppression is not None:
        result["suppressions"] = [{"kind": "inSource", "justification": suppression.reason}]
    if d.fix is not None:
        result["fixes"] = [_sarif_fix(d.fix)]
    return result


def _sarif_fix(fix: Fix) -> SarifObject:
    """A SARIF fix: per file, the regions deleted and the text inserted there (an insertion is an
    empty region); chartc's applicability (safe, unsafe, display-only) as a property."""
    files: dict[str, list[SarifObject]] = {}
    for edit in fix.edits:
        replacement: SarifObject = {"deletedRegion": _sarif_region(edit.span)}
        if edit.text:
            replacement["insertedContent"] = {"text": edit.text}
        files.setdefault(edit.span.file, []).append(replacement)
    return {
        "description": {"text": fix.message},
        "artifactChanges": [
            {"artifactLocation": _sarif_artifact(path), "replacements": replacements}
            for path, replacements in files.items()
        ],
        "properties": {"applicability": fix.applicability.value},
    }


def render_sarif(diagnostics: list[Diagnostic], suppressed: list[Suppressed] | None = None, version: str = "0") -> str:
    """A SARIF 2.1.0 log for GitHub code scanning; silenced findings carry an in-source suppression."""
    rules = [_sarif_rule(c) for c in REGISTRY]
    rule_index = {c.code: i for i, c in enumerate(REGISTRY)}
    results = [_sarif_result(d, rule_index) for d in diagnostics]
    results += [_sarif_result(s.diagnostic, rule_index, s) for s in suppressed or []]
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "chartc", "semanticVersion": version, "rules": rules}},
                "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the folder chartc ran in"}}},
                "columnKind": "unicodeCodePoints",  # chartc counts characters: `𝔄` is one column
                "results": results,
            }
        ],
    }
    return json_text(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"  # see compiler.diagnostics.textsafe
