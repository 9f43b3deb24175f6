"""Every diagnostic code chartc reports, each a module constant passed to `Sink.emit`. Codes are
stable and never reused: add new ones at the end of their block, and to `REGISTRY` in
`compiler.diagnostics.registry`. A typo in a code name fails at import or type-check time, not as a
crash on the rare path that emits it. `docs/diagnostics.md` documents each (from `tests/cases`).
"""

from __future__ import annotations

from typing import Final

from compiler.diagnostics.code_type import Severity
from compiler.diagnostics.code_type import make_code as _code
from compiler.diagnostics.codes_constructs import INVALID_TURN as INVALID_TURN
from compiler.diagnostics.codes_constructs import OVERLAY_NEVER as OVERLAY_NEVER
from compiler.diagnostics.codes_constructs import OVERLAY_OUTSIDE as OVERLAY_OUTSIDE
from compiler.diagnostics.codes_constructs import OVERLAY_OVERLAP as OVERLAY_OVERLAP
from compiler.diagnostics.codes_constructs import TURN_OUTSIDE_TRACK as TURN_OUTSIDE_TRACK
from compiler.diagnostics.codes_errata import ERRATA_CONFLICT as ERRATA_CONFLICT
from compiler.diagnostics.codes_errata import ERRATA_DATE as ERRATA_DATE
from compiler.diagnostics.codes_errata import ERRATA_NO_EFFECT as ERRATA_NO_EFFECT
from compiler.diagnostics.codes_errata import ERRATA_TARGET_MISSING as ERRATA_TARGET_MISSING
from compiler.diagnostics.codes_import import DATE_FOR_RANGE as DATE_FOR_RANGE
from compiler.diagnostics.codes_import import FOREIGN_DASH as FOREIGN_DASH
from compiler.diagnostics.codes_import import NOT_A_RANGE as NOT_A_RANGE
from compiler.diagnostics.codes_import import TIME_FOR_ODDS as TIME_FOR_ODDS
from compiler.diagnostics.codes_import import UNKNOWN_DICE as UNKNOWN_DICE
from compiler.diagnostics.codes_import import ZERO_FOR_DOUBLE_ZERO as ZERO_FOR_DOUBLE_ZERO
from compiler.diagnostics.codes_rules import FINDING_KEPT as FINDING_KEPT
from compiler.diagnostics.codes_rules import FORBIDDEN_ALLOWED as FORBIDDEN_ALLOWED
from compiler.diagnostics.codes_rules import KEPT_UNMATCHED as KEPT_UNMATCHED

# 1xx: reading and syntax
SYNTAX_ERROR: Final = _code(
    "C101", "syntax-error", Severity.ERROR, "the text does not follow the chart language's grammar",
    "Correct the text at the caret; the help names what the grammar expected there. Every independent error "
    "of a file is reported (its line read as if deleted), none caused only by an earlier one.",
)
UNREADABLE_FILE: Final = _code(
    "C102", "unreadable-file", Severity.ERROR,
    "a chart file could not be read or is not UTF-8",
    "Save the file as UTF-8 (any editor's \"Save with encoding\"), or fix its permissions.",
)
REPEATED_STATEMENT: Final = _code(
    "C103", "repeated-statement", Severity.ERROR,
    "a statement that may appear once in a chart appears twice",
    "Keep one of the repeated statements (`rule`, `roll`, `value`, `combine`, `partial`) and delete the others.",
)
# 2xx: names
UNKNOWN_NAME: Final = _code(
    "C201", "unknown-name", Severity.ERROR,
    "a name refers to nothing declared (enum value, period, context variable, type)",
    "Correct the spelling (the help line suggests the closest declared name), "
    "or declare the missing enum value, period or context variable.",
)
DUPLICATE_NAME: Final = _code(
    "C202", "duplicate-name", Severity.ERROR,
    "two declarations share a name or chart ID where names must be unique",
    "Give each chart its own printed ID or slug, and each enum, member, period and context variable its own name.",
)
GAME_HEADER: Final = _code(
    "C203", "game-header", Severity.ERROR,
    "a game folder has no `game` header, several, or one whose id is not the folder's name, or the id "
    "cannot name its generated Python module (a keyword, or a standard library module it would hide)",
    "Write exactly one `game ID { ... }` header per game folder, with ID equal to the folder's name; "
    "choose an ID that is neither a Python keyword nor a standard library module's name (`random`, `fractions`).",
)
# 3xx: ranges and domains
OVERLAPPING_RANGES: Final = _code(
    "C301", "overlapping-ranges", Severity.ERROR,
    "two rows for the same keys select the same roll or value",
    "Shorten one of the two ranges so that every roll selects exactly one row for each key combination.",
)
GAP: Final = _code(
    "C302", "gap", Severity.ERROR,
    "a roll or value selects no row and the chart is not declared partial",
    "Add a row for the missing rolls; if the print itself leaves them out, declare the chart `partial \"why\"`.",
)
RANGE_OUTSIDE_FACES: Final = _code(
    "C303", "range-outside-faces", Severity.ERROR,
    "a range includes results the chart's dice cannot roll even with its DRMs",
    "Correct the range to the dice's faces (plus the declared DRM span), or correct the `roll` statement.",
)
REVERSED_RANGE: Final = _code(
    "C304", "reversed-range", Severity.ERROR,
    "a range's low end is above its high end",
    "Write the low end first: `2-5`, not `5-2` (and `combine sum clamp -2 to +3`, low before high).",
)
MODIFIED_ROLL_OFF_TABLE: Final = _code(
    "C305", "modified-roll-off-table", Severity.WARNING,
    "a modified roll within the chart's declared DRMs falls off the end of the table",
    "Make the last (or first) row open-ended (`5+`, `2-`), "
    "or, if the print really stops there, silence it with `allow C305 \"why\"`.",
)
UNREACHABLE_ROW: Final = _code(
    "C306", "unreachable-row", Severity.ERROR,
    "no natural or modified roll can ever select this row",
    "Delete the row or correct its range; if a DRM should make it reachable, declare that `drm`.",
)
INVALID_RANGE: Final = _code(
    "C307", "invalid-range", Severity.ERROR,
    "a printed range cannot be read for this chart's dice (e.g. `00` on a d6)",
    "Write the range in the dice's own notation: `01-08` and `00` only on percentile rolls, `9-0` only on a d10.",
)
PARTIAL_CHART: Final = _code(
    "C308", "partial-chart", Severity.NOTE,
    "a chart declared partial leaves these rolls without a row",
    "Nothing to fix: this note lists what a chart declared `partial` leaves uncovered; "
    "add the rows once the print is found.",
)
PARTIAL_BUT_COMPLETE: Final = _code(
    "C309", "partial-but-complete", Severity.WARNING,
    "a chart is declared partial but every roll selects a row",
    "Delete the `partial` statement: the transcription is complete.",
)
MODIFIED_GAP: Final = _code(
    "C310", "modified-gap", Severity.WARNING, "a modified roll only a DRM reaches falls in a hole between two rows",
    "Widen the row next to the hole to cover it (`7-8` for `8-9`), or add a row; an open end would not help.",
)
ROWS_OUT_OF_ORDER: Final = _code(
    "C311", "rows-out-of-order", Severity.WARNING, "a table's rows for the same keys are out of their ranges' order",
    "Write the rows in the order the print does, lowest range first (or highest first throughout).",
)
# 34x: dice forms and faces
ZERO_FACE_UNSTATED: Final = _code(
    "C340", "zero-face-unstated", Severity.ERROR,
    "a d10 chart prints a row from `0` without saying how it reads the 0 face",
    "Say how the die reads: `zero reads 0` for a die printed 0-9, `zero reads 10` for 1-10 (where `0` is 10).",
)
INVALID_ZERO_READS: Final = _code(
    "C341", "invalid-zero-reads", Severity.ERROR,
    "a `zero reads` statement on a chart without a d10, or reading the 0 face as other than 0 or 10",
    "Write `zero reads 0` or `zero reads 10`, and only on a chart rolled with d10s (not percentile).",
)
INVALID_REPEAT: Final = _code(
    "C342", "invalid-repeat", Severity.ERROR,
    "a `repeat` statement on a chart not read by dice, or repeating the roll fewer than 2 or more than 10 times",
    "Write `repeat N` with N from 2 to 10, on a chart with a `roll` statement.",
)
INVALID_ROLL_STEP: Final = _code(
    "C343", "invalid-roll-step", Severity.ERROR,
    "a step of a roll's arithmetic makes no sense: arithmetic on a d66 or percentile roll, a step that "
    "changes nothing or everything, halving rounded to nearest, the DRMs added twice, a minimum above a "
    "maximum, or steps on a `roll ... when` alternative",
    "Write the steps the rule states, once, on the chart's own `roll`: `roll 1d6 then drms then minus 3 "
    "then minimum 0 then maximum 3`; halve `round down` or `round up` as printed; a minimum at or below the "
    "maximum; no arithmetic on a roll read digit by digit.",
)
WEIGHTS_FILL: Final = _code(
    "C344", "weights-fill", Severity.ERROR, "a table printed as weights (`3 in 6`) does not fill its one die",
    "Correct the weights so they add up to the die's faces, each out of that many (`3 in 6`, `2 in 6`, `1 in 6`).",
)
# ---- the modified roll: DRM forms and which totals can happen (C330-C339)
DRM_GROUP_OVERLAP: Final = _code(
    "C330", "drm-group-overlap", Severity.WARNING,
    "two DRMs of a `one` group, of which the rules say only one can apply, can apply together",
    "Make the members' conditions exclusive, or say which applies: `best` or `worst` instead of `one`.",
)
PER_STEP_DOMAIN: Final = _code(
    "C331", "per-step-domain", Severity.ERROR,
    "a per-N DRM (`-1 per 10 kills`) counts a variable that is not an int with a declared range, or a step below 1",
    "Count an int context variable with its range declared (`context kills: int \"Kills\" 0-300`), "
    "in steps of 1 or more.",
)
CONTEXT_DOMAIN: Final = _code(
    "C332", "context-domain", Severity.ERROR,
    "a context variable's or record field's range is not whole numbers lowest first, or is given to a non-int",
    "Declare a range only on an int context variable, lowest first: `context kills: int \"Kills\" 0-300`.",
)
REACH_APPROXIMATED: Final = _code(
    "C333", "reach-approximated", Severity.NOTE,
    "a chart's DRM conditions combine too many values to decide exactly which totals can happen",
    "The checker assumed every DRM independent (reaching more totals than the rules allow); "
    "split the chart's DRMs or narrow the int ranges they test.",
)
# ---- `chartc import`: what a spreadsheet or a PDF did to a table's cells (C360-C369): in codes_import.py
# 4xx: shapes and types
GRID_SHAPE: Final = _code(
    "C401", "grid-shape", Severity.ERROR,
    "a grid row has more or fewer cells than the grid has columns",
    "Give the grid row one cell per grid column (`-` for a result the column cannot produce).",
)
TYPE_MISMATCH: Final = _code(
    "C402", "type-mismatch", Severity.ERROR,
    "a value does not match its column's declared type",
    "Write the value in its column's type: a whole number for `int`, a quoted string for `text`, a member for an enum.",
)
ROW_SHAPE: Final = _code(
    "C403", "row-shape", Severity.ERROR,
    "a row gives the wrong number of keys or output values",
    "Give the row one key value per `key` (or `*`), then `:` and one value per `column`.",
)
CHART_SHAPE: Final = _code(
    "C404", "chart-shape", Severity.ERROR,
    "a chart lacks something it needs (a roll or key, columns, an ID or slug)",
    "Add what the chart lacks: a `roll`, `value` or `key` to read it by, a `column`, rows, or a printed ID or slug.",
)
INVALID_DICE: Final = _code(
    "C405", "invalid-dice", Severity.ERROR,
    "a dice expression cannot be rolled (e.g. `0d6` or `1d1`)",
    "Roll real dice: 1 to 30 dice of 2 to 100 faces with at most 1,000 different results (`1d6`, `2d6`, `1d20`), "
    "`d66`, `percentile`, `lower of 2d10`; an exploding die rolls again 1 to 10 times (`exploding 2d6 depth 3`).",
)
INVALID_MONTH: Final = _code(
    "C406", "invalid-month", Severity.ERROR,
    "a month is not a real `YYYY-MM` month, or a period or calendar runs backwards",
    "Write months as `YYYY-MM` with a month 01-12, and periods and calendars from first to last.",
)
INVALID_CONDITION: Final = _code(
    "C407", "invalid-condition", Severity.ERROR,
    "a DRM condition compares a context variable with a value of the wrong kind",
    "Compare a context variable with a value of its own kind: "
    "months with `1944-12`, ints with numbers, enums with their members.",
)
THRESHOLD_ORDER: Final = _code(
    "C408", "threshold-order", Severity.ERROR,
    "a threshold list (`-/8/9/11`) is not non-decreasing",
    "List the minimum roll for 1, 2, 3... results in non-decreasing order; `-` where that many cannot be scored.",
)
MONTH_OUTSIDE_CALENDAR: Final = _code(
    "C409", "month-outside-calendar", Severity.ERROR,
    "a month lies outside the game's calendar",
    "Check the month, or widen the game's `calendar`.",
)
COLUMN_ORDER: Final = _code(
    "C410", "column-order", Severity.ERROR,
    "grid or availability columns are duplicated or out of calendar order",
    "Head each column with a different key value; print month and odds columns in ascending order.",
)
PERIOD_COVERAGE: Final = _code(
    "C411", "period-coverage", Severity.WARNING,
    "the game's periods overlap or leave months of the calendar uncovered",
    "Make the periods meet end to end, or correct the print in an errata if it leaves a month out.",
)
BEFORE_AVAILABLE: Final = _code(
    "C412", "before-available", Severity.WARNING,
    "a chart or record offers an item in a month before the item's `available` month",
    "Write `-` for the months before the item is available, or correct the record's `available` month.",
)
DRM_ON_DIGIT_ROLL: Final = _code(
    "C413", "drm-on-digit-roll", Severity.ERROR,
    "a DRM on a d66 or percentile roll without a `drm_meaning` statement saying what it means",
    'Say what the DRM does to a two-digit roll: `drm_meaning "the DRM is added to the two-digit result"`.',
)
INVARIANT_VIOLATED: Final = _code(
    "C414", "invariant-violated", Severity.WARNING,
    "the data breaks an `invariant` the rules state",
    "Correct the data (or the invariant) so the rule the invariant states holds.",
)
CHART_TOO_LARGE: Final = _code(
    "C415", "chart-too-large", Severity.ERROR,
    "a chart exceeds the size chartc checks exactly (rows, key combinations, DRMs or DRM span)",
    "Split the chart into smaller charts, or look for a typo such as `+100` for `+1`.",
)
AID_ORDER: Final = _code(
    "C416", "aid-order", Severity.ERROR,
    "a game's `aid.order` file names a chart that does not exist, one chart twice, or starts the rules reference twice",
    "List each chart of the game once, by its printed ID or slug (`R4`, `extended_burst`), and one"
    " `--- Rules reference` line.",
)
FACTS_DISAGREE: Final = _code(
    "C417", "facts-disagree", Severity.WARNING,
    "two facts a `same` invariant says state the same thing (a chart's cell, a record's field, a count) "
    "differ, or one of them cannot be read",
    "Compare both places with the rulebook and correct the transcription. If the rulebook itself prints "
    "both differently, keep both as printed and say why in the invariant: `same A as B kept \"why\"` (C418).",
)
FACTS_KEPT: Final = _code(
    "C418", "facts-disagree-kept", Severity.NOTE,
    "two facts a `same` invariant holds equal differ, and the invariant keeps the print (`kept \"why\"`)",
    "Nothing to do while the reason holds; the note keeps the book's disagreement in every report.",
)
ODDS_BETWEEN: Final = _code(
    "C420", "odds-between", Severity.ERROR,
    "an odds rule's columns leave odds between two columns (non-unit ratios, or gaps) and it does not say "
    "which they read",
    "Add `between columns lower` (odds between two columns read the lower, the defender's favour) "
    "or `between columns higher`, as the rulebook states.",
)
ODDS_FORM_CONFLICT: Final = _code(
    "C421", "odds-form-conflict", Severity.ERROR,
    "an odds rule has a statement its column form does not use",
    "Delete the statement: differential and strength columns and exact ratios (`between columns`) do not round "
    "a quotient, and only `form strength` has a `domain`.",
)
ODDS_DOMAIN: Final = _code(
    "C422", "odds-domain", Severity.ERROR,
    "a strength-keyed odds rule has no `domain`, or a column outside it",
    "Declare the strengths the CRT reads (`domain 1 to 40`, or `domain 1+`) and keep every column inside it.",
)
# 43x: combat results tables (CRT) — result codes, design analysis, the classic printed grid
CRT_DOMINANCE: Final = _code(
    "C430", "crt-dominance", Severity.WARNING,
    "a higher odds column of a CRT gives the attacker a worse result than a lower column at the same roll",
    "Check both cells against the printed CRT: a transcription slip is the usual cause. If the print "
    "really is so, keep it as printed and `allow C430 \"why\"` in the chart.",
)
CRT_MONOTONIC: Final = _code(
    "C431", "crt-monotonic-rows", Severity.WARNING,
    "down a CRT column the results do not move one way as the roll rises, or move against the "
    "direction its DRMs favour",
    "Check both cells against the printed CRT; if the result order is wrong, reorder the enum's "
    "`order`. A print that really is so is kept, with `allow C431 \"why\"`.",
)
RESULT_ORDER: Final = _code(
    "C432", "result-order", Severity.ERROR,
    "an enum's result `order` repeats a value, leaves one out, or uses a comparison other than `<`",
    "List every value of the enum once, worst result for the attacker first: `order AE < AR < EX < DR < DE`.",
)
CRT_TOO_WIDE: Final = _code(
    "C433", "crt-too-wide", Severity.WARNING,
    "a CRT has too many columns to print as a classic grid across an A4 or US Letter portrait page at 8 pt",
    "Split the CRT into two charts (low and high odds), or shorten the column labels.",
)
RESULT_CODE_UNUSED: Final = _code(
    "C434", "result-code-unused", Severity.WARNING, "a CRT result code is given by no cell of the charts that use it",
    "Check the cells against the print (a code typed as another); delete a code no table of the game prints.",
)
SHIFT_TARGET: Final = _code(
    "C423", "shift-target", Severity.ERROR,
    "a chart declares column shifts but is not keyed by an odds rule that says when shifts apply",
    "Key the CRT by its odds rule (`key odds: crt_odds`) and say in the rule whether shifts apply before or "
    "after its table edge (`shift after clamp`); a modifier of the roll is a `drm`.",
)
SHIFT_GROUP: Final = _code(
    "C424", "shift-group", Severity.ERROR,
    "a `shift_group` holds no shift, or a shift cap runs backwards",
    "Put the group's shifts inside it (`shift_group terrain \"Terrain\" worst { shift ... }`) and write the cap "
    "low to high (`shift_cap -2 to +2`).",
)
SHIFT_SOURCE: Final = _code(
    "C425", "shift-source", Severity.ERROR,
    "a shift read `from` a chart cannot be: the chart is not keyed by the context variable's enum alone, "
    "lacks the int column, or a member has no row",
    "Read shifts from a terrain effects chart keyed by the enum the `by` variable holds, with an int column and "
    "a row for every member (0 for no shift).",
)
SHIFT_GROUP_OVERLAP: Final = _code(
    "C426", "shift-group-overlap", Severity.WARNING, "two column shifts of a `one` group can apply together",
    "Make the members' conditions exclusive, or say which applies: `best` or `worst` instead of `one`.",
)
# C440-C449: cells and records that say nothing
EMPTY_CELL: Final = _code(
    "C440", "empty-cell", Severity.WARNING, "a table's cell is an empty string (`\"\"`)",
    "Write what the print shows: its text, or `-` where the row gives no result in that column.",
)
RECORD_FIELD_MISSING: Final = _code(
    "C441", "record-field-missing", Severity.NOTE, "a field most of an enum's records write is missing from a few",
    "Give the field in each record that lacks it, as printed, or `-` where the print gives none.",
)
# C450-C459: chained results (a cell that sends the reader to another chart or to a roll)
CHAIN_KEY: Final = _code(
    "C450", "chain-key", Severity.ERROR,
    "a chained result gives a key its target chart does not have, or a value that key cannot take",
    "Give only keys the target chart is read by, with one of their values (`-> [B6] (interceptor=jet)`); "
    "`-> again` takes no key (it keeps this roll's keys).",
)
CHAIN_DRM: Final = _code(
    "C451", "chain-drm", Severity.ERROR,
    "a chained result carries a DRM to a chart without a modified roll",
    "Carry a DRM only to a chart read by dice (not by a value or its keys alone), and to a d66 or percentile "
    "chart only when it states its `drm_meaning`; otherwise delete the DRM.",
)
CHAIN_CYCLE: Final = _code(
    "C452", "chain-cycle", Severity.ERROR,
    "chained results form a loop that can never end: no roll on the charts in it leads out",
    "Give some row on the loop a result that ends it (a row that does not send the reader on), as a printed "
    "'roll again' chart does; a loop with such an exit is fine and its chances are exact.",
)
CHAIN_TARGET: Final = _code(
    "C453", "chain-target", Severity.ERROR,
    "a chained result sends the reader to a chart that cannot be rolled on",
    "Send the reader to a chart read by dice or by keys (or an `external` chart); a DRM list, an odds rule or a "
    "chart read by a value has no roll to make, and `-> again` needs a chart read by dice.",
)
CHAIN_ROLL: Final = _code(
    "C454", "chain-roll", Severity.ERROR,
    "a roll inside a cell does not give exactly one outcome for each result of its dice",
    "Write one range per outcome so that every result of the dice is in exactly one range "
    "(`-> 1d6 { 1-4: fw190a6; 5-6: fw190a7 }`).",
)
CHOICE_SHAPE: Final = _code(
    "C455", "choice-shape", Severity.ERROR,
    "a choice (`one of [...]`) offers fewer than two outcomes, repeats one, or holds a chained result",
    "List two or more plain values of the column (`one of [a, b]`); a rolled result is a roll in the cell.",
)
# C460-C469: worked examples (a rulebook's example held against the charts)
EXAMPLE_CONTRADICTED: Final = _code(
    "C460", "example-contradicted", Severity.ERROR,
    "the charts give another result than a worked example of the rulebook states",
    "Check the example against the book and the chart against the book: fix the one transcribed wrongly; where "
    "the book itself disagrees, keep both as printed and say why with `contradicts \"...\"` in the example (or "
    "correct the chart in an errata block).",
)
EXAMPLE_KEPT: Final = _code(
    "C461", "example-contradiction-kept", Severity.NOTE,
    "a worked example disagrees with the charts, as its `contradicts` line declares",
    "Nothing to do while the reason holds; the note keeps the book's disagreement in every report.",
)
EXAMPLE_AGREES: Final = _code(
    "C462", "example-agrees", Severity.WARNING,
    "an example declares that it `contradicts` the charts, but they give what it states",
    "Delete the `contradicts` line: the charts (or their errata) now agree with the book's example.",
)
EXAMPLE_UNREADABLE: Final = _code(
    "C463", "example-unreadable", Severity.ERROR,
    "a worked example cannot be read: no chart, rule or `expect`, an expectation the chart cannot have, or "
    "inputs `chartc lookup` would refuse",
    "Give the chart, the rule section and at least one `expect`; write the inputs as `chartc lookup` takes them "
    "(a roll the dice can make, the chart's keys and context variables).",
)
# C470-C479: computed values (formulas)
FORMULA_NOT_WHOLE: Final = _code(
    "C470", "formula-not-whole", Severity.ERROR,
    "a formula's result can be a fraction: `/` divides exactly, and nothing rounds the result",
    "Round where the rule rounds: `floor(n / 3)` for \"remainders are rounded down\", `ceil(...)` for up, "
    "`round(...)` for half up.",
)
FORMULA_UNDEFINED: Final = _code(
    "C471", "formula-undefined", Severity.ERROR,
    "a formula can have no value: a divisor can be 0, an exponent can be negative or fractional, or the "
    "formula uses itself",
    "Declare the input's range so that the divisor cannot be 0 (`context n: int \"...\" 1-99`), or guard it with "
    "`if n > 0 then ... else ...`; a formula may use other formulas, never itself.",
)
FORMULA_ARGUMENTS: Final = _code(
    "C472", "formula-shape", Severity.ERROR,
    "a formula lacks its `rule` or `result`, gives a function the wrong number of values, or has a backwards domain",
    "Cite the rule, give the result; floor/ceil/round take one value, min/max two or more; domains lowest first.",
)
OUTSIDE_DOMAIN: Final = _code(
    "C475", "outside-domain", Severity.WARNING,
    "a formula's result over its inputs' ranges, or a record's field, lies outside its declared domain",
    "Round, cap or guard the formula as the rule does (`min(18, ...)`, `requires a >= b`) or correct the record; "
    "where the book gives such values, keep the print with `kept \"why\"` in the formula (C476).",
)
OUTSIDE_DOMAIN_KEPT: Final = _code(
    "C476", "outside-domain-kept", Severity.NOTE,
    "a formula's result can leave its domain, and the formula keeps the book's gap (`kept \"why\"`)",
    "Nothing to do while the reason holds; the note keeps the book's gap in every report.",
)
# C480-C491: the book's own inconsistencies declared as data, warnings kept as printed; limits
BOOK_INCONSISTENCY: Final = _code(
    "C480", "book-inconsistency", Severity.WARNING,
    "the book says two things (`conflict`) or prints what reads two ways (`ambiguous`), and nothing says what is kept",
    "Decide what the data keeps and say why with `kept \"why\"` (a note then, C481), or correct it by errata.",
)
BOOK_INCONSISTENCY_KEPT: Final = _code(
    "C481", "book-inconsistency-kept", Severity.NOTE,
    "the book says two things, or prints what reads two ways; the transcription keeps the print, and says why",
    "Nothing to do while the reason holds; the note cites every place in every report.",
)
INCONSISTENCY_RESOLVED: Final = _code(
    "C482", "inconsistency-not-in-data", Severity.WARNING,
    "a `conflict`'s places now agree, or the charts hold none of an `ambiguous` print's readings",
    "Delete a conflict whose places agree; transcribe an ambiguous cell as one of its declared readings.",
)
INCONSISTENCY_SHAPE: Final = _code(
    "C483", "inconsistency-shape", Severity.ERROR,
    "a `conflict` with fewer than two places or values of two types; `ambiguous` readings that differ in cells",
    "Cite every place (`place \"4.6\" \"...\" is 36`); give every reading the same cells, and two readings or more.",
)
LIMIT_SHAPE: Final = _code(
    "C490", "limit-shape", Severity.ERROR,
    "a limit cites no rule, has no case, a case after one without `when` (never applies), or a backwards range",
    "State the bound (`at most 4`, `at least 1`, `exactly 8`, `2 to 6`, `unlimited`); conditional cases first.",
)
# C484-C485 (warnings kept as printed) and C492 (a forbidden case a chart allows): in codes_rules.py
OUTSIDE_LIMIT: Final = _code(
    "C491", "outside-limit", Severity.WARNING,
    "a range checked `within` a limit (a context variable's, a value key's, a formula's domain) disagrees with it",
    "Make the range what the limit allows (`at most 6`: up to 6; `2 to 6`: 2-6), or correct the limit.",
)
# 5xx: suppressions
UNUSED_SUPPRESSION: Final = _code(
    "C501", "unused-suppression", Severity.WARNING,
    "an `allow` statement silences nothing in its chart",
    "Delete the `allow` line: the finding it was written for is gone.", suppressible=False,
)
INVALID_SUPPRESSION: Final = _code(
    "C502", "invalid-suppression", Severity.WARNING,
    "an `allow` statement names an unknown code or one that cannot be silenced",
    "Name an existing warning or note code (`chartc explain CODE`); "
    "errors and syntax errors cannot be silenced, fix them instead.",
    suppressible=False,
)
