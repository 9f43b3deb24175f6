// The player aid's engine: how the interactive table reads a chart, as pure functions (no DOM, no
// global state, nothing random). compiler/emit/templates/interactive.js.j2 includes this file inside
// the page's closure; tests/test_aid_engine.py evaluates it in a bare V8 (mini-racer) and holds
// every answer to the Python engine's (`chartc vectors`). It reads the charts as
// compiler/emit/html/interactive.py writes them (the game JSON's chart documents, without chances).
//
// What it implements, each as compiler/engine does: keys (members, month spans), DRMs (conditions,
// per-N steps and their rounding, exclusive groups, the chart's clamp; engine/drms.py), the modified
// roll through the roll's steps (runtime/roll.py), `natural` rows first, then the first row holding
// the modified roll (engine/lookup.py), `roll ... when` alternatives, overlays (engine/overlays.py), the chance of each row
// exactly with BigInt fractions over the dice outcomes (engine/chances.py), CRT column shifts
// (engine/shifts.py) and odds columns (engine/odds.py), and a natural roll and an int context value
// as typed (engine/lookup.py read_roll, engine/context.py), and formulas (engine/formulas.py).
// Kept free of Jinja2's delimiters (a brace followed by a brace, a percent sign or a hash): the page
// template includes it as a template.
"use strict";

// ---- exact fractions ----------------------------------------------------------------------
function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { [a, b] = [b, a % b]; } return a; }
function frac(n, d) { const g = gcd(n, d) || 1n; return { n: n / g, d: d / g }; }
function parseFrac(t) { const [n, d] = t.split("/"); return frac(BigInt(n), BigInt(d || "1")); }
function add(a, b) { return frac(a.n * b.d + b.n * a.d, a.d * b.d); }
function fracText(p) { return p.d === 1n ? String(p.n) : p.n + "/" + p.d; }
function percentText(p) {
  const n = p.n * 100n;
  if (n % p.d === 0n) { return String(n / p.d) + "%"; }
  return (Number(n) / Number(p.d)).toFixed(1) + "%";  // as compiler.engine.chances.percent_text
}
const ZERO = { n: 0n, d: 1n };

// ---- conditions and DRMs (compiler/engine/drms.py) -------------------------------------------
function compare(given, op, value) {
  if (op === "==") { return given === value; }
  if (op === "!=") { return given !== value; }
  const c = given < value ? -1 : given > value ? 1 : 0;  // ints, or months "YYYY-MM" as text
  return { ">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0 }[op];
}
function holds(cond, ctx) {
  switch (cond.op) {
    case "flag": return Boolean(ctx[cond.var]);
    case "in": { const g = ctx[cond.var]; return g === undefined || g === null ? null : cond.values.includes(g); }
    case "not": { const h = holds(cond.of, ctx); return h === null ? null : !h; }
    case "all": { const f = cond.of.map((p) => holds(p, ctx)); return f.includes(false) ? false : f.includes(null) ? null : true; }
    case "any": { const f = cond.of.map((p) => holds(p, ctx)); return f.includes(true) ? true : f.includes(null) ? null : false; }
    default: { const g = ctx[cond.var]; return g === undefined || g === null ? null : compare(g, cond.op, cond.value); }
  }
}
function steps(per, given) {
  const whole = Math.floor(given / per.step), rest = given - whole * per.step;  // Python divmod
  if (per.rounding === "up") { return rest ? whole + 1 : whole; }
  if (per.rounding === "nearest") { return 2 * rest >= per.step ? whole + 1 : whole; }
  return whole;
}
function applied(drm, ctx) {
  if (drm.when && holds(drm.when, ctx) !== true) { return null; }
  if (!drm.per) { return { drm: drm, value: drm.value, steps: null }; }
  const given = ctx[drm.per.var];
  if (typeof given !== "number") { return null; }
  const n = steps(drm.per, given);
  return n ? { drm: drm, value: drm.value * n, steps: n } : null;
}
function clampTo(range, v) { return range ? Math.max(range[0], Math.min(range[1], v)) : v; }
// `asPrinted`: the DRMs before the errata (`printed_drms`, written where an errata changed, added or removed one)
function evaluate(chart, ctx, asPrinted) {
  const drms = asPrinted && chart.printed_drms ? chart.printed_drms : chart.drms;
  const found = drms.map((d) => applied(d, ctx)).filter((a) => a);
  const kept = new Set();
  for (const g of chart.drm_groups || []) {
    const members = found.filter((a) => a.drm.group === g.id);
    if (!members.length) { continue; }
    let pick = members[0];
    for (const a of members) {
      if ((g.mode === "best" && a.value > pick.value) || (g.mode === "worst" && a.value < pick.value)) { pick = a; }
    }
    kept.add(pick);
  }
  const items = found.filter((a) => !a.drm.group || kept.has(a));
  const sum = items.reduce((s, a) => s + a.value, 0);
  return { items: items, sum: sum, total: clampTo(chart.combine.clamp, sum) };
}

// ---- CRT column shifts (compiler/engine/shifts.py) and odds (compiler/engine/odds.py) ----------------
function shiftTerms(rules, ctx) {
  const values = rules.items.map((s) => {
    if (s.source) { const g = ctx[s.source.by]; return g === undefined || g === null ? 0 : (s.source.values[g] || 0); }
    return !s.when || holds(s.when, ctx) === true ? s.value : 0;
  });
  const applying = rules.items.map((s, i) => [i, s, values[i]]).filter((t) => t[2]);
  const kept = [];
  for (const [i, s, v] of applying) {
    if (s.group !== null && s.group !== undefined) {
      const rivals = applying.filter((t) => t[1].group === s.group).map((t) => [t[2], t[0]]);
      const mode = rules.groups[s.group];
      let chosen = rivals[0];
      for (const r of rivals) {
        if (mode === "best" && r[0] > chosen[0]) { chosen = r; }
        if (mode === "worst" && r[0] < chosen[0]) { chosen = r; }
      }
      if (chosen[1] !== i) { continue; }
    }
    kept.push([s.label, v]);
  }
  const total = kept.reduce((a, t) => a + t[1], 0);
  return { items: kept, total: rules.cap ? clampTo(rules.cap, total) : total };
}
function cmp(a, b) { const l = a.n * b.d, r = b.n * a.d; return l < r ? -1 : l > r ? 1 : 0; }
function floorDiv(a, b) { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; }
function ratioLabel(p) { return p.d === 1n || p.n !== 1n ? p.n + ":" + p.d : "1:" + p.d; }
function oddsPosition(a, d) { return d === 1 ? a - 1 : -(d - 1); }
function positionLabel(p) { return p >= 0 ? (p + 1) + ":1" : "1:" + (1 - p); }
function roundQ(num, den, how) {
  if (how === "down") { return Number(floorDiv(num, den)); }
  if (how === "up") { return -Number(floorDiv(-num, den)); }
  return Number(floorDiv(2n * num + den, 2n * den));
}
function parseRatio(label) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(label);
  if (!m) { return null; }
  const dec = (t) => { const [w, f = ""] = t.split("."); return frac(BigInt(w + f), 10n ** BigInt(f.length)); };
  const a = dec(m[1]), b = dec(m[2]);
  return a.n > 0n && b.n > 0n ? frac(a.n * b.d, a.d * b.n) : null;
}
function parseBand(label) {
  const m = /^\s*([+-]?\d+)(?:([-+])|\s*[/-]\s*([+-]?\d+))?\s*$/.exec(label);
  if (!m) { return [null, null]; }
  const first = parseInt(m[1], 10);
  if (m[2] === "-") { return [null, first]; }
  if (m[2] === "+") { return [first, null]; }
  const last = m[3] === undefined ? first : parseInt(m[3], 10);
  return first <= last ? [first, last] : [null, null];
}
function fractionPosition(v) {
  if (cmp(v, { n: 1n, d: 1n }) >= 0) { return Number(floorDiv(v.n, v.d)) - 1; }
  return -(Number(-floorDiv(-v.d, v.n)) - 1);
}
function bandIndex(rule, v) {
  const bands = rule.form === "ratio"
    ? rule.columns.map((c) => { const p = parseRatio(c) || { n: 1n, d: 1n }; return [p, p]; })
    : rule.columns.map((c) => parseBand(c).map((x) => (x === null ? null : { n: BigInt(x), d: 1n })));
  const stepsPast = (beyond, edge) => rule.form === "ratio"
    ? Math.max(1, Math.abs(fractionPosition(beyond) - fractionPosition(edge)))
    : Math.max(1, Math.abs(Number(beyond.n - edge.n)));  // differentials and strengths are whole
  const firstLow = bands[0][0], lastHigh = bands[bands.length - 1][1];
  if (firstLow !== null && cmp(v, firstLow) < 0) { return -stepsPast(v, firstLow); }
  if (lastHigh !== null && cmp(v, lastHigh) > 0) { return bands.length - 1 + stepsPast(v, lastHigh); }
  for (let i = 0; i < bands.length; i++) {
    const [lo, hi] = bands[i];
    if ((lo === null || cmp(lo, v) <= 0) && (hi === null || cmp(v, hi) <= 0)) { return i; }
  }
  let below = -1;
  bands.forEach((b, i) => { if (b[1] !== null && cmp(b[1], v) < 0) { below = i; } });
  return rule.between === "lower" ? below : below + 1;
}
// The column an odds rule reads for these factors and shift, or {error}: compiler.engine.odds.read.
function oddsRead(rule, attack, defense, shift) {
  if (shift && rule.shift === null) { return { error: "the rule does not say whether column shifts come before or after the table edge" }; }
  let index, formed;
  if (rule.form === "ratio" && rule.between === null) {
    if (attack < 1 || defense < 1) { return { error: "odds need factors on both sides" }; }
    let ratio = [1, 1];
    if (attack > defense) { ratio = [Math.max(1, roundQ(BigInt(attack), BigInt(defense), rule.attacker_high)), 1]; }
    if (attack < defense) { ratio = [1, Math.max(1, roundQ(BigInt(defense), BigInt(attack), rule.defender_high))]; }
    const position = oddsPosition(ratio[0], ratio[1]);
    formed = positionLabel(position);
    if (!rule.columns.length) { return { formed: formed, column: positionLabel(position + shift), clamped: false }; }
    const positions = rule.columns.map((c) => {
      const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(c);
      return m ? oddsPosition(parseInt(m[1], 10), parseInt(m[2], 10)) : 0;
    });
    if (position < positions[0]) { index = -(positions[0] - position); }
    else if (position > positions[positions.length - 1]) { index = positions.length - 1 + (position - positions[positions.length - 1]); }
    else { index = Math.max(...positions.map((p, i) => (p <= position ? i : -1))); }
  } else {
    let value;
    if (rule.form === "strength") {
      const lo = rule.domain ? rule.domain.min : 0, hi = rule.domain ? rule.domain.max : null;
      if (attack < lo || (hi !== null && attack > hi)) { return { error: "strength " + attack + " is outside the rule's domain" }; }
      value = { n: BigInt(attack), d: 1n }; formed = String(attack);
    } else if (rule.form === "differential") {
      if (attack < 0 || defense < 0) { return { error: "combat factors cannot be negative" }; }
      value = { n: BigInt(attack - defense), d: 1n };
      formed = attack === defense ? "0" : (attack > defense ? "+" : "") + (attack - defense);
    } else {
      if (attack < 1 || defense < 1) { return { error: "odds need factors on both sides" }; }
      value = frac(BigInt(attack), BigInt(defense)); formed = ratioLabel(value);
    }
    index = bandIndex(rule, value);
  }
  const last = rule.columns.length - 1;
  if (rule.shift === "before") { index += shift; }
  if (rule.beyond === "error" && !(index >= 0 && index <= last)) {
    return { error: formed + " is off the table (" + rule.columns[0] + " to " + rule.columns[last] + ")" };
  }
  const clamped = !(index >= 0 && index <= last);
  index = Math.max(0, Math.min(last, index));
  if (rule.shift === "after") { index = Math.max(0, Math.min(last, index + shift)); }
  return { formed: formed, column: rule.columns[index], clamped: clamped };
}

// ---- rows and the roll (compiler/engine/lookup.py, compiler/engine/chances.py) ----------------------
// `members`: the key's values in order ([id, label]); turns of a track compare by their place in it
function keyMatches(rowKey, given, members) {
  if (rowKey === null || rowKey === undefined) { return true; }
  if (typeof rowKey === "object" && rowKey.turns) {
    const ids = (members || []).map((m) => m[0]);
    const at = ids.indexOf(given), first = ids.indexOf(rowKey.turns.first);
    const last = rowKey.turns.last === null ? ids.length - 1 : ids.indexOf(rowKey.turns.last);
    return at >= 0 && first >= 0 && first <= at && at <= last;
  }
  if (typeof rowKey === "object") { const m = rowKey.months; return m.first <= given && (m.last === null || given <= m.last); }
  return rowKey === given;
}
function contains(lo, hi, v) { return (lo === null || v >= lo) && (hi === null || v <= hi); }
// The rows as the page reads them: [{index, min, max, natural, range, cells, amended, at}]; as
// printed (before the errata), in the print's order (`at`, set where an errata removed a row).
function tableRows(chart, asPrinted) {
  const out = [];
  chart.rows.forEach((r, i) => {
    if (!r.range) { return; }
    if (asPrinted && r.errata && r.printed === null) { return; }  // added by an errata
    const p = asPrinted && r.printed ? r.printed : null;
    out.push({
      index: i, keys: r.keys, natural: Boolean(r.natural), amended: Boolean(r.errata), at: r.printed_at,
      min: p ? p.min : r.range.min, max: p ? p.max : r.range.max,
      range: p ? p.range : r.range.printed, cells: p ? p.cells : r.cells,
    });
  });
  if (asPrinted && chart.errata) {
    chart.errata.removed_rows.forEach((r, i) => {
      if (r.range) { out.push({ index: "removed-" + i, keys: r.keys, natural: Boolean(r.natural), amended: true, at: r.printed_at, min: r.range.min, max: r.range.max, range: r.range.printed, cells: r.cells }); }
    });
    // rows read in the print's order (a removed row where it was printed): the first holding a roll is read
    if (chart.errata.removed_rows.length) { out.sort((a, b) => a.at - b.at); }
  }
  return out;
}
// The rows of each overlay whose condition holds in `ctx`, in order, read before the chart's own
// (compiler/engine/overlays.py); numbered on after the chart's rows, overlay by overlay, as the
// vectors number them (compiler/tools/vectors.py `row_numbers`).
function overlayRows(chart, ctx) {
  const out = [];
  let next = chart.rows.length;
  for (const o of chart.overlays || []) {
    const on = holds(o.when, ctx) === true;
    o.rows.forEach((r, i) => {
      if (on && r.range) { out.push({ index: next + i, keys: r.keys, natural: false, amended: false, overlay: o.label || o.id, min: r.range.min, max: r.range.max, range: r.range.printed, cells: r.cells }); }
    });
    next += o.rows.length;
  }
  return out;
}
function forKeys(chart, rows, keys) {
  const members = chart.key_members || {};
  return rows.filter((r) => chart.keys.every((k) => keyMatches(r.keys[k.id], keys[k.id], members[k.id])));
}
// The roll's steps, each with the roll after it (compiler/engine/runtime/roll.py `_roll_steps`):
// the chart's `pipeline` in order, the DRM total at its `drms` step; no pipeline, the DRMs alone.
function rollSteps(chart, natural, drm) {
  let roll = natural;
  return (chart.pipeline || [{ step: "drms" }]).map((s) => {
    if (s.step === "drms") { roll += drm; }
    else if (s.step === "add") { roll += s.amount; }
    else if (s.step === "times") { roll *= s.amount; }
    else if (s.step === "halve") { roll = s.rounding === "up" ? -Math.floor(-roll / 2) : Math.floor(roll / 2); }
    else if (s.step === "minimum") { roll = Math.max(roll, s.amount); }
    else if (s.step === "maximum") { roll = Math.min(roll, s.amount); }
    else { throw new Error("unknown step of a roll: " + s.step); }
    return { step: s, roll: roll };
  });
}
function modifiedRoll(chart, natural, drm) { const made = rollSteps(chart, natural, drm); return made[made.length - 1].roll; }
// A step as the panel shows it: `+1 DRM`, `−3`, `×2`, `halved, rounded down`, `minimum 0`.
function stepText(s, drm) {
  const what = { drms: signed(drm) + " DRM", add: signed(s.amount), times: "\u00d7" + s.amount, halve: "halved, rounded " + s.rounding };
  return what[s.step] || s.step + " " + s.amount;
}
function select(rows, natural, modified) {
  return rows.find((r) => r.natural && contains(r.min, r.max, natural)) || rows.find((r) => !r.natural && contains(r.min, r.max, modified)) || null;
}
function diceFor(chart, ctx) {
  for (const alt of chart.dice.alternatives || []) { if (holds(alt.when, ctx) === true) { return alt.dice; } }
  return chart.dice;
}
function digitRead(dice) { return dice.form === "d66" || dice.form === "percentile" || dice.form === "lower_tens"; }
// A natural roll as typed, read with the chart's own dice as `chartc lookup` reads it (read_roll and
// Dice.read_number): ASCII digits with an optional minus; a d10's 0 face is 10 (or 0 under `zero
// reads 0`) where the result is one die's face, a percentile 00 is 100, a leading zero is read
// past. null: not a number, or no dice of the chart can show it.
function readRoll(chart, typed) {
  const dice = chart.dice;
  let text = typed.trim();
  // `percentile lower as tens`: the two d10 as they fell (`7,3`) read lower first (engine/lookup.py lower_tens_reading)
  const pair = /^([0-9])\s*[,/ ]\s*([0-9])$/.exec(text);
  if (pair && dice.form === "lower_tens") { text = [pair[1], pair[2]].sort().join(""); }
  if (!/^-?[0-9]{1,30}$/.test(text)) { return null; }
  let n;
  if (text[0] === "-") { n = 0 - parseInt(text.slice(1), 10); }
  else if (dice.sides === 10 && text === "0" && dice.zero_reads === 0) { n = 0; }
  else if (dice.sides === 10 && text === "0" && (dice.form === "lower" || dice.form === "higher" || (dice.form === "sum" && dice.count === 1))) { n = 10; }
  else if ((dice.form === "percentile" || dice.form === "lower_tens") && text === "00") { n = 100; }
  else { n = parseInt(text, 10); }
  const all = [dice].concat((dice.alternatives || []).map((a) => a.dice));
  return all.some((d) => d.outcomes.some((o) => o.roll === n)) ? n : null;
}
// Everything the panel shows for one state: the DRMs, the dice, each row's chance, the roll's row.
function answer(chart, state) {
  const ctx = Object.assign({}, state.context, state.keys);
  const breakdown = evaluate(chart, ctx, state.asPrinted);
  // the chart's DRMs (capped), plus a DRM given on top (`state.extra`: `chartc lookup --drm`)
  const drm = breakdown.total + (state.extra || 0);
  const dice = diceFor(chart, ctx);
  const rows = forKeys(chart, overlayRows(chart, ctx).concat(tableRows(chart, state.asPrinted)), state.keys);
  const out = { breakdown: breakdown, drm: drm, dice: dice, rows: rows, refused: false, chances: new Map(), noRow: ZERO, natural: state.natural, row: null, modified: null };
  if (drm && digitRead(dice) && !chart.drm_meaning) { out.refused = true; return out; }
  for (const o of dice.outcomes) {
    const p = parseFrac(o.probability.exact);
    if (!p.n) { continue; }
    const hit = select(rows, o.roll, modifiedRoll(chart, o.roll, drm));
    if (hit) { out.chances.set(hit.index, add(out.chances.get(hit.index) || ZERO, p)); } else { out.noRow = add(out.noRow, p); }
  }
  if (state.natural !== null && dice.outcomes.some((o) => o.roll === state.natural)) {
    Object.assign(out, rollOn(chart, rows, state.natural, drm));
  } else { out.natural = null; }
  return out;
}
// What a natural roll the dice can show reads on these rows at this DRM: {modified, row}.
function rollOn(chart, rows, natural, drm) {
  const modified = modifiedRoll(chart, natural, drm);
  return { modified: modified, row: select(rows, natural, modified) };
}

// An int context value as typed: {value} (null when left empty) or {error} as `chartc lookup
// --set` words it (compiler.engine.context): a whole number, a U+2212 minus read as "-", within
// the variable's declared range.
function intValue(v, typed) {
  const text = typed.trim().replace(/^\u2212/, "-");
  if (text === "") { return { value: null }; }
  if (!/^[+-]?[0-9]{1,15}$/.test(text)) { return { error: v.label + ": \u201c" + typed.trim() + "\u201d is not a whole number" }; }
  const n = parseInt(text, 10);
  const low = v.min !== null && v.min !== undefined ? v.min : null, high = v.max !== null && v.max !== undefined ? v.max : null;
  if ((low !== null && n < low) || (high !== null && n > high)) {
    return { error: v.label + ": " + n + " is outside its declared range " + (low !== null ? low : "") + "-" + (high !== null ? high : "") };
  }
  return { value: n };
}
// ---- computed values (compiler/engine/formulas.py) ---------------------------------------------
// A formula's value in a context: {value} (a whole number), or {error} when an input is missing,
// the result is not whole, or a `requires` does not hold ({requires: title} names the formula
// whose rule does not apply). Exact: BigInt fractions until floor, ceil or round makes them
// whole, each formula it uses computed once, its `requires` checked when it is computed.
function q(n, d) { return d < 0n ? frac(-n, -d) : frac(n, d); }
function formulaValue(formulas, id, ctx) {
  const byId = new Map(formulas.map((f) => [f.id, f]));
  const values = new Map();
  const fail = (what) => { const e = new Error(what.error || "requires"); e.problem = what; throw e; };
  function value(e) {
    if ("number" in e) { return q(BigInt(e.number), 1n); }
    if ("var" in e) {
      const g = ctx[e.var];
      if (typeof g !== "number") { fail({ error: "an input is missing" }); }
      return q(BigInt(g), 1n);
    }
    if ("formula" in e) { return computed(e.formula); }
    if ("neg" in e) { const v = value(e.neg); return q(-v.n, v.d); }
    if ("if" in e) { return value(holds(e.if, ctx) === true ? e.then : e.else); }
    if ("call" in e) {
      const args = e.args.map(value);
      if (e.call === "floor") { return q(floorDiv(args[0].n, args[0].d), 1n); }
      if (e.call === "ceil") { return q(-floorDiv(-args[0].n, args[0].d), 1n); }
      if (e.call === "round") { return q(floorDiv(2n * args[0].n + args[0].d, 2n * args[0].d), 1n); }
      return args.reduce((a, b) => ((e.call === "min" ? cmp(b, a) < 0 : cmp(b, a) > 0) ? b : a));
    }
    const a = value(e.left), b = value(e.right);
    if (e.op === "+") { return q(a.n * b.d + b.n * a.d, a.d * b.d); }
    if (e.op === "-") { return q(a.n * b.d - b.n * a.d, a.d * b.d); }
    if (e.op === "*") { return q(a.n * b.n, a.d * b.d); }
    if (e.op === "/") {
      if (b.n === 0n) { fail({ error: "a division by zero" }); }
      return q(a.n * b.d, a.d * b.n);
    }
    if (b.d !== 1n || b.n < 0n || b.n > 64n) { fail({ error: "an exponent outside 0 to 64" }); }
    return q(a.n ** b.n, a.d ** b.n);
  }
  function computed(ref) {
    if (values.has(ref)) { return values.get(ref); }
    const f = byId.get(ref);
    const v = value(f.expression);
    values.set(ref, v);
    const r = f.requires;
    if (r) {
      const c = cmp(value(r.left), value(r.right));
      const ok = { "==": c === 0, "!=": c !== 0, ">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0 }[r.op];
      if (!ok) { fail({ requires: f.title, applies: f.applies }); }
    }
    return v;
  }
  try {
    const v = computed(id);
    return v.d === 1n ? { value: Number(v.n) } : { error: "the result " + fracText(v) + " is not a whole number" };
  } catch (e) {
    if (e.problem) { return e.problem; }
    throw e;
  }
}
function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00b1") + Math.abs(n); }
function facesText(dice, natural) {
  if (dice.form === "percentile") { const v = natural % 100; return "tens " + Math.floor(v / 10) + ", ones " + (v % 10) + (natural === 100 ? " (00 = 100)" : ""); }
  if (dice.form === "d66") { return "tens " + Math.floor(natural / 10) + ", ones " + (natural % 10); }
  if (dice.form === "lower_tens") { const v = natural % 100; return "lower die " + Math.floor(v / 10) + " (tens), other " + (v % 10) + " (ones)" + (natural === 100 ? " (00 = 100)" : ""); }
  return null;
}
