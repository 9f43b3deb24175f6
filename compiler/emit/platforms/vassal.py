"""`chartc export GAME --to vassal`: the files of a VASSAL module extension (`.vmdx`).

VASSAL reads a module's component tree from `buildFile.xml`, one XML element per component, the
component's Java class as the element's name. The extension grafts onto any module
(`anyModule="true"`): for each page of the player aid (a group of its play order) a Chart Window
showing that page's charts as HTML tables (an HTML Chart, which VASSAL renders with Java's
HTML 3.2 viewer: tables, no style sheets), and for each chart read by dice a Dice Button whose
report names the row the natural roll selects (for each key value of a keyed chart), written as
one BeanShell expression in VASSAL's `{...}` report format. Both sets of buttons are gathered in
two toolbar menus. The element and attribute names are those of published modules
(tests/test_platform_vassal.py holds them to a module extension's `buildFile.xml`).

What a Dice Button cannot do is left to the chart window: DRMs (the report names the row of the
natural roll with no DRM, through the chart's steps: IA2 7.1.5's "subtract 3 ... from zero to 3"),
dice that keep the lower or higher die or subtract opposing dice (the report gives the dice and
refers to the chart), `roll ... when` alternatives.

Pure: model in, `{path: text}` out (the zip is written by `compiler/tools/platforms.py`).
"""

from __future__ import annotations

import hashlib
import html
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from compiler import model
from compiler.diagnostics.textsafe import printable
from compiler.emit.html.aid import play_order
from compiler.emit.html.wording import cell_text, describe_condition, dice_words, drm_rules, key_text, signed
from compiler.model.dice import Dice, DiceForm
from compiler.model.text import drm_amount_text, row_range_text

VASSAL_VERSION = "3.7.0"
MAX_KEYED_REPORTS = 6
"""The most key combinations a dice button's report names a row for (more: it names the roll)."""
CLASSES = {
    "extension": "VASSAL.build.module.ModuleExtension",
    "element": "VASSAL.build.module.ExtensionElement",
    "window": "VASSAL.build.module.ChartWindow",
    "html": "VASSAL.build.widget.HtmlChart",
    "dice": "VASSAL.build.module.DiceButton",
    "menu": "VASSAL.build.module.ToolbarMenu",
}


def name_text(text: str) -> str:
    """A component name VASSAL lists in a toolbar menu: one printable line, no `,` or `\\` (the
    menu's list separator and escape)."""
    return printable(text).replace(",", ";").replace("\\", "/")


def page_file(game: model.Game, index: int) -> str:
    return f"chartc-{game.id}-page{index + 1:02d}.html"


def emit_vassal(game: model.Game) -> dict[str, str]:
    """`buildFile.xml`, `extensiondata` and one HTML page per page of the player aid."""
    groups = play_order(game, game.aid_order)
    out: dict[str, str] = {}
    root = ET.Element(
        CLASSES["extension"],
        {
            "anyModule": "true",
            "description": name_text(f"{game.title}: charts and dice (chartc)"),
            "extensionId": hashlib.sha256(game.id.encode()).hexdigest()[:3],
            "module": "",
            "moduleVersion": "",
            "nextPieceSlotId": "0",
            "vassalVersion": VASSAL_VERSION,
            "version": "1.0",
        },
    )
    windows = []
    for index, group in enumerate(groups):
        title = name_text(group.heading or game.title)
        name = name_text(f"{game.id} {index + 1}: {title}")
        window = ET.SubElement(ET.SubElement(root, CLASSES["element"], {"target": ""}), CLASSES["window"], {
            "hotkey": "", "icon": "", "name": name, "text": name, "tooltip": name_text(title),
        })
        ET.SubElement(window, CLASSES["html"], {"chartName": title, "fileName": page_file(game, index)})
        out[page_file(game, index)] = page_html(game, group.heading or game.title, group.charts)
        windows.append(name)
    buttons = []
    for group in groups:
        for chart in group.charts:
            if chart.kind is model.ChartKind.ROLL and chart.dice is not None:
                button = dice_button(game, chart)
                ET.SubElement(ET.SubElement(root, CLASSES["element"], {"target": ""}), CLASSES["dice"], button)
                buttons.append(button["text"])
    for label, items in ((f"{game.id} charts", windows), (f"{game.id} dice", buttons)):
        if items:
            ET.SubElement(ET.SubElement(root, CLASSES["element"], {"target": ""}), CLASSES["menu"], {
                "canDisable": "false", "description": name_text(label), "disabledIcon": "",
                "hideWhenDisabled": "false", "hotkey": "", "icon": "", "menuItems": ",".join(items),
                "propertyGate": "", "text": name_text(label), "tooltip": name_text(label),
            })
    ET.indent(root, "  ")
    xml = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    out["buildFile.xml"] = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + xml + "\n"
    out["extensiondata"] = _extension_data(game)
    return dict(sorted(out.items()))


def _extension_data(game: model.Game) -> str:
    data = ET.Element("data", {"version": "1"})
    for tag, text in (("version", "1.0"), ("VassalVersion", VASSAL_VERSION), ("dateSaved", "0"),
                      ("description", name_text(f"{game.title}: charts and dice (chartc)")), ("universal", "true")):
        ET.SubElement(data, tag).text = text
    ET.indent(data, "  ")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(data, encoding="unicode") + "\n"


# ---- the dice button ---------------------------------------------------------------------------


def java_string(text: str) -> str:
    """`text` as a Java/BeanShell string literal that VASSAL's `$...$` and `{...}` never see into:
    hidden characters shown (`<U+000A>`), `"` and `\\` escaped, `$`, `{`, `}` and every non-ASCII
    character written as `\\uXXXX`."""
    out = []
    for ch in printable(text):
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "${}" or not ch.isascii():
            code = ord(ch)
            if code > 0xFFFF:
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
            else:
                out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _dice_settings(dice: Dice) -> tuple[dict[str, str], str | None]:
    """The button's dice and the BeanShell expression of the natural roll as the chart reads it
    (None: a form whose roll a Dice Button does not give)."""
    zero = dice.sides == 10 and dice.zero == 0
    base = {"nDice": str(dice.count), "nSides": str(dice.sides), "plus": "-1" if zero else "0", "addToTotal": "0"}
    match dice.form:
        case DiceForm.SUM:
            return base | {"reportTotal": "true"}, "result"
        case DiceForm.D66:
            digits = "Integer.parseInt(result.substring(0, 1)) * 10 + Integer.parseInt(result.substring(2, 3))"
            return {"nDice": "2", "nSides": "6", "plus": "0", "addToTotal": "0", "reportTotal": "false"}, digits
        case DiceForm.PERCENTILE:
            tens = "Integer.parseInt(result.substring(0, 1)) * 10 + Integer.parseInt(result.substring(2, 3))"
            read = f"(({tens}) == 0 ? 100 : ({tens}))"
            return {"nDice": "2", "nSides": "10", "plus": "-1", "addToTotal": "0", "reportTotal": "false"}, read
        case DiceForm.LOWER | DiceForm.HIGHER | DiceForm.HIGHEST | DiceForm.LOWEST | DiceForm.VERSUS | DiceForm.EXPLODE:
            return base | {"reportTotal": "false", "sortDice": "true"}, None
        case DiceForm.LOWER_TENS:  # both dice shown sorted: the lower is the tens, `00` is 100
            read = "(Integer.parseInt(result.substring(0, 1)) * 10 + Integer.parseInt(result.substring(2, 3)))"
            pair = {"nDice": "2", "nSides": "10", "plus": "-1", "addToTotal": "0", "reportTotal": "false"}
            return pair | {"sortDice": "true"}, f"({read} == 0 ? 100 : {read})"
    raise AssertionError(dice.form)


def _stepped(chart: model.Chart, roll: str) -> str:
    """The BeanShell expression of the roll after the chart's steps, with no DRM (IA2 7.1.5's
    `Math.min(Math.max(roll - 3, 0), 3)`); the roll itself for a chart without arithmetic."""
    for step in chart.arithmetic:
        match step.kind:
            case model.StepKind.ADD:
                roll = f"({roll} {'-' if step.amount < 0 else '+'} {abs(step.amount)})"
            case model.StepKind.TIMES:
                roll = f"({roll} * {step.amount})"
            case model.StepKind.HALVE:
                roll = f"Math.floorDiv({roll}, 2)" if step.rounding == "down" else f"(-Math.floorDiv(-{roll}, 2))"
            case model.StepKind.MINIMUM:
                roll = f"Math.max({roll}, {step.amount})"
            case model.StepKind.MAXIMUM:
                roll = f"Math.min({roll}, {step.amount})"
            case model.StepKind.DRMS:  # pragma: no cover - `arithmetic` leaves the DRM step out
                pass
    return roll


def _row_choice(game: model.Game, chart: model.Chart, combo: tuple[str, ...], roll: str) -> str:
    """A BeanShell expression naming the row `roll` selects for one key combination."""
    rows = [r for r in chart.rows_for(combo) if r.range is not None and not r.natural]
    expression = java_string("no row")
    for row in reversed(rows):
        assert row.range is not None
        tests = []
        if row.range.low is not None:
            tests.append(f"{roll} >= {row.range.low}")
        if row.range.high is not None:
            tests.append(f"{roll} <= {row.range.high}")
        text = java_string(_row_words(game, chart, row))
        expression = f"({' && '.join(tests) or 'true'} ? {text} : {expression})"
    return expression


def _row_words(game: model.Game, chart: model.Chart, row: model.Row) -> str:
    cells = [cell_text(game, col, v) for col, v in zip(chart.columns, row.values, strict=True)]
    if len(cells) == 1:
        return f"{row_range_text(row)} {cells[0]}"
    shown = "; ".join(f"{c.label}: {t}" for c, t in zip(chart.columns, cells, strict=True))
    return f"{row_range_text(row)} {shown}"


def button_label(chart: model.Chart) -> str:
    """A dice button's name and text: the chart's printed ID and title (VASSAL keeps its roll in
    the global property `<name>_result`)."""
    return name_text(f"{chart.chart_id} {chart.title}" if chart.chart_id else f"{chart.title} ({chart.address})")


def dice_button(game: model.Game, chart: model.Chart) -> dict[str, str]:
    """A Dice Button's attributes: the chart's dice, and a report naming the row."""
    assert chart.dice is not None
    settings, natural = _dice_settings(chart.dice)
    label = button_label(chart)
    head = java_string(f"{label} ({chart.dice.text}): ")
    combos = chart.key_combinations()
    if natural is None or len(combos) > MAX_KEYED_REPORTS:
        report = "{" + head + " + result + " + java_string(" - read it on the chart") + "}"
    else:
        roll = f"({natural})"
        parts = [java_string("roll ") + f" + {roll}"]
        for combo in combos:
            keys = ", ".join(key_text(k, m) for k, m in zip(chart.keys, combo, strict=True))
            read = _row_choice(game, chart, combo, _stepped(chart, roll))
            parts.append(java_string(f" / {keys}: " if keys else ": ") + f" + {read}")
        if chart.drms:
            parts.append(java_string(" (the natural roll: add the DRMs on the chart)"))
        report = "{" + head + " + " + " + ".join(parts) + "}"
    return {
        "addToTotal": settings["addToTotal"],
        "hotkey": "",
        "icon": "",
        "nDice": settings["nDice"],
        "nSides": settings["nSides"],
        "name": label,
        "plus": settings["plus"],
        "prompt": "false",
        "reportFormat": report,
        "reportTotal": settings["reportTotal"],
        "sortDice": settings.get("sortDice", "false"),
        "text": label,
        "tooltip": name_text(f"Roll {chart.dice.text} on {label}"),
    }


# ---- the aid's pages as HTML 3.2 ---------------------------------------------------------------


def _escape(text: str) -> str:
    """Chart text in the page: hidden characters shown (`<U+202E>`), then HTML-escaped with the
    decimal references Java's HTML 3.2 viewer reads."""
    return html.escape(printable(text)).replace("&#x27;", "&#39;")


def page_html(game: model.Game, heading: str, charts: Sequence[model.Chart]) -> str:
    """One page of the player aid as HTML Java's viewer shows: a table per chart, every text escaped."""
    e = _escape
    parts = [
        "<html><head><title>" + e(heading) + "</title></head><body>",
        f"<h1>{e(heading)}</h1>",
    ]
    for chart in charts:
        parts += chart_html(game, chart)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def chart_html(game: model.Game, chart: model.Chart) -> list[str]:
    e = _escape
    name = f"[{chart.chart_id}] {chart.title}" if chart.chart_id else chart.title
    cite = f" (rule {chart.rule})" if chart.rule else ""
    out = [f'<h2><a name="{e(chart.address)}">{e(name)}</a>{e(cite)}</h2>']
    if chart.kind is model.ChartKind.EXTERNAL:
        return [*out, "<p>Printed elsewhere; not transcribed.</p>"]
    if chart.dice is not None:
        times = f", {chart.repeat} times" if chart.repeat > 1 else ""
        out.append(f"<p>Roll {e(dice_words(chart, game))}{e(times)}.</p>")
    if chart.rows:
        head = [k.enum.label for k in chart.keys]
        head += ["Roll"] if chart.dice is not None else [chart.value_key.label] if chart.value_key else []
        head += [c.label for c in chart.columns]
        out.append('<table border="1" cellpadding="3" cellspacing="0">')
        out.append("<tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>")
        for row in chart.rows:
            cells = [key_text(k, m) for k, m in zip(chart.keys, row.keys, strict=True)]
            cells += [row_range_text(row)] if chart.dice is not None or chart.value_key is not None else []
            cells += [cell_text(game, c, v) for c, v in zip(chart.columns, row.values, strict=True)]
            out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
        out.append("</table>")
    if chart.drms:
        out.append("<p><b>DRMs</b></p><ul>")
        out += [
            f"<li>{e(d.label)} {e(signed(d.value) if d.per is None else drm_amount_text(chart, d))}"
            f" when {e(describe_condition(d.when, game))}</li>"
            for d in chart.drms
        ]
        out.append("</ul>")
    out += [f"<p>{e(r)}</p>" for r in drm_rules(game, chart)]
    out += [f"<p><i>{e(f'{f.mark}. {f.text}')}</i></p>" for f in chart.footnotes]
    out += [f"<p><i>{e(n)}</i></p>" for n in chart.notes]
    return out
