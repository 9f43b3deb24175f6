"""Layout of the generated Python: lines of at most `LINE` characters where chart text allows, and
docstrings that hold chart text inertly."""

from __future__ import annotations

LINE = 120  # the longest line the emitter lays out on purpose
INDENT = "    "


def fill(head: str, items: list[str], tail: str, indent: str = "") -> list[str]:
    """`head` + items joined by ", " + `tail` on one line, or the items packed into lines of at most
    `LINE` characters between `head` and `tail`."""
    one = indent + head + ", ".join(items) + tail
    if len(one) <= LINE or not items:
        return [one]
    lines = [indent + head]
    inner = indent + INDENT
    current = ""
    for item in items:
        piece = item + ","
        if current and len(inner) + len(current) + 1 + len(piece) > LINE:
            lines.append(inner + current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    lines.append(inner + current)
    lines.append(indent + tail)
    return lines


def docstring(text: str, indent: str = "") -> str:
    """A docstring literal that holds `text` inertly (escapes, no closing quotes, no controls);
    a multi-line docstring closes on a line of its own."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\n")
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
    width = LINE - len(indent) - len('"""')
    lines = [wrapped for line in "".join(out).split("\n") for wrapped in _wrap(line, width)]
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""'
    body = [lines[0]] + [indent + line if line.strip() else "" for line in lines[1:]]
    return indent + '"""' + "\n".join(body) + "\n" + indent + '"""'


def _wrap(line: str, width: int) -> list[str]:
    """A docstring line broken at spaces into lines of at most `width` characters where it can be;
    continuation lines are indented four more than the first."""
    if len(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    out: list[str] = []
    current = ""
    for word in line[len(lead) :].split(" "):
        prefix = lead if not out else lead + INDENT
        if current and len(prefix) + len(current) + 1 + len(word) > width:
            out.append(prefix + current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    out.append((lead if not out else lead + INDENT) + current)
    return out


def tuple_display(items: list[str]) -> str:
    """A tuple display: `()`, `(a,)`, `(a, b)`."""
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def tuple_lines(head: str, items: list[str], indent: str = "") -> list[str]:
    """A tuple display after `head` (which ends with its open parenthesis): a one-item tuple keeps
    its comma on one line (`(a,)`), and items packed into lines end with theirs."""
    lines = fill(head, items, ",)" if len(items) == 1 else ")", indent)
    if len(lines) > 1:
        lines[-1] = indent + ")"
    return lines
