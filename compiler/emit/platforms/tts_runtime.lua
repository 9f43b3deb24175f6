-- The runtime of a chartc Lua module (Lua 5.2, as Tabletop Simulator's MoonSharp runs it): the
-- steps of a roll as compiler/engine/runtime/ writes them in Python, over the chart data below it.
-- Whole numbers only ever come from the dice, the data and `floordiv`: no `//`, no bitwise
-- operators, no integer subtype. Chart text is data, never code.

local M = {}

-- A cell the chart prints as `-` (impossible, not available): JSON's null.
M.null = setmetatable({}, { __tostring = function() return "null" end })

local function floordiv(a, b)
  -- Python's a // b for whole numbers held as doubles, corrected where a / b rounds
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end
M.floordiv = floordiv

local function whole(x)
  return type(x) == "number" and x == math.floor(x) and x > -2 ^ 53 and x < 2 ^ 53
end

local function clamp(value, bounds)
  if bounds == nil then return value end
  return math.max(bounds[1], math.min(bounds[2], value))
end

local function gcd(a, b)
  a, b = math.abs(a), math.abs(b)
  while b ~= 0 do a, b = b, a - floordiv(a, b) * b end
  return a
end

-- ---- conditions: three-valued (true, false, nil for unknown) ---------------------------------

local function compare(given, op, value)
  if op == "==" then return given == value end
  if op == "!=" then return given ~= value end
  if type(given) ~= type(value) then error("cannot compare " .. tostring(given) .. " " .. op .. " " .. tostring(value)) end
  if op == ">=" then return given >= value end
  if op == "<=" then return given <= value end
  if op == ">" then return given > value end
  return given < value
end

local function holds(cond, context)
  local op = cond.op
  if op == "flag" then return context[cond.var] == true end
  if op == "not" then
    local inner = holds(cond.inner, context)
    if inner == nil then return nil end
    return not inner
  end
  if op == "all" or op == "any" then
    local unknown = false
    for _, part in ipairs(cond.parts) do
      local h = holds(part, context)
      if h == nil then unknown = true
      elseif h == (op == "any") then return h end
    end
    if unknown then return nil end
    return op == "all"
  end
  local given = context[cond.var]
  if given == nil then return nil end
  if op == "in" then
    for _, v in ipairs(cond.values) do
      if v == given then return true end
    end
    return false
  end
  return compare(given, op, cond.value)
end
M.holds = holds

-- ---- DRMs and column shifts ------------------------------------------------------------------

local function per_steps(per, given)
  local steps = floordiv(given, per.step)
  local rest = given - steps * per.step
  if rest ~= 0 and (per.rounding == "up" or (per.rounding == "nearest" and 2 * rest >= per.step)) then
    steps = steps + 1
  end
  return steps
end

local function applied(drm, context)
  if drm.when ~= nil and holds(drm.when, context) ~= true then return nil end
  if drm.per == nil then return drm.value end
  local given = context[drm.per.var]
  if type(given) ~= "number" then return nil end
  local steps = per_steps(drm.per, given)
  if steps == 0 then return nil end
  return drm.value * steps
end

-- Of an exclusive group's members that apply one counts: the highest (`best`), the lowest
-- (`worst`) or the first (`one`); found holds {position, group, amount} in declaration order.
local function exclusive(found, groups)
  local modes, chosen = {}, {}
  for _, g in ipairs(groups or {}) do modes[g[1]] = g[2] end
  for _, f in ipairs(found) do
    local group, amount = f[2], f[3]
    if group ~= nil and modes[group] ~= nil then
      local held, mode = chosen[group], modes[group]
      if held == nil or (mode == "best" and amount > held[2]) or (mode == "worst" and amount < held[2]) then
        chosen[group] = { f[1], amount }
      end
    end
  end
  local kept = {}
  for _, f in ipairs(found) do
    local group = f[2]
    if group == nil or (chosen[group] ~= nil and chosen[group][1] == f[1]) then
      kept[#kept + 1] = { f[1], f[3] }
    end
  end
  return kept
end

local function chart_of(address)
  local chart = M.charts[address]
  if chart == nil then error("no chart `" .. tostring(address) .. "` in " .. M.game) end
  return chart
end

local function merged(chart, keys, context)
  local out = {}
  for k, v in pairs(M.canonical_keys(chart, keys or {})) do out[k] = v end
  for k, v in pairs(context or {}) do out[k] = v end
  return out
end

-- The DRM total of a chart in a context (its keys count too, for DRMs that test them), after the
-- chart's `combine sum clamp`, and the DRMs that apply as {label, amount}.
function M.drm(address, keys, context)
  local chart = chart_of(address)
  local ctx = merged(chart, keys, context)
  local found = {}
  for position, drm in ipairs(chart.drms) do
    local amount = applied(drm, ctx)
    if amount ~= nil then found[#found + 1] = { position, drm.group, amount } end
  end
  local total, terms = 0, {}
  for _, term in ipairs(exclusive(found, chart.groups)) do
    total = total + term[2]
    terms[#terms + 1] = { chart.drms[term[1]].label, term[2] }
  end
  return clamp(total, chart.clamp), terms
end

-- A CRT's column shift total in a context (held inside its cap) and the shifts that apply.
function M.shift(address, context)
  local chart = chart_of(address)
  if chart.shifts == nil then return 0, {} end
  local ctx = context or {}
  local found = {}
  for position, s in ipairs(chart.shifts.items) do
    local value
    if s.var ~= nil then
      local given = ctx[s.var]
      value = (given ~= nil and s.table[tostring(given)]) or 0
    elseif s.when == nil or holds(s.when, ctx) == true then
      value = s.value
    else
      value = 0
    end
    if value ~= 0 then found[#found + 1] = { position, s.group, value } end
  end
  local total, terms = 0, {}
  for _, term in ipairs(exclusive(found, chart.shifts.groups)) do
    total = total + term[2]
    terms[#terms + 1] = { chart.shifts.items[term[1]].label, term[2] }
  end
  return clamp(total, chart.shifts.cap), terms
end

-- ---- dice ------------------------------------------------------------------------------------

local function throw(randint, count, sides, zero)
  local low = 1
  if sides == 10 and zero == 0 then low = 0 end
  local faces = {}
  for i = 1, count do faces[i] = randint(low, sides - 1 + low) end
  return faces
end

local function sum(list, first, last)
  local total = 0
  for i = first or 1, last or #list do total = total + list[i] end
  return total
end

-- A natural roll of `dice`, read as the chart reads it; `randint(low, high)` draws one face.
function M.throw(dice, randint)
  randint = randint or math.random
  local form = dice.form
  if form == "d66" then
    local tens = randint(1, 6)
    return tens * 10 + randint(1, 6)
  end
  if form == "percentile" then
    local tens = randint(0, 9)
    local roll = tens * 10 + randint(0, 9)
    if roll == 0 then return 100 end
    return roll
  end
  if form == "lower_tens" then
    local one, other = randint(0, 9), randint(0, 9)
    local roll = math.min(one, other) * 10 + math.max(one, other)
    if roll == 0 then return 100 end
    return roll
  end
  local faces = throw(randint, dice.number, dice.sides, dice.zero)
  table.sort(faces)
  if form == "lower" then return faces[1] end
  if form == "higher" then return faces[#faces] end
  if form == "highest" then return sum(faces, dice.number - dice.keep + 1) end
  if form == "lowest" then return sum(faces, 1, dice.keep) end
  if form == "versus" then
    return sum(faces) - sum(throw(randint, dice.versus[1], dice.versus[2], dice.zero))
  end
  if form == "explode" then
    -- a die showing its top face rolls again and adds, at most `depth` times a die
    local top = dice.sides
    if dice.sides == 10 and dice.zero == 0 then top = 9 end
    local total = 0
    for _, face in ipairs(faces) do
      local again = 0
      while face == top and again < dice.depth do
        total = total + face
        face = throw(randint, 1, dice.sides, dice.zero)[1]
        again = again + 1
      end
      total = total + face
    end
    return total
  end
  return sum(faces)
end

-- The dice a chart rolls in a context: the first `roll ... when` alternative that holds.
function M.dice_for(address, keys, context)
  local chart = chart_of(address)
  local ctx = merged(chart, keys, context)
  for _, alt in ipairs(chart.alternatives) do
    if holds(alt.when, ctx) == true then return alt.dice end
  end
  return chart.dice
end

-- ---- keys and rows ---------------------------------------------------------------------------

-- A chart's key values by id or printed label (any case), as member ids.
function M.canonical_keys(chart, keys)
  local out = {}
  for k, v in pairs(keys) do out[k] = v end
  for key, members in pairs(chart.members) do
    local given = out[key]
    if type(given) == "string" and members[given] == nil then
      local folded = string.lower(given)
      for id, label in pairs(members) do
        if string.lower(id) == folded or string.lower(label) == folded then out[key] = id end
      end
    end
  end
  return out
end

-- A turn 'YYYY-MM-DD HALF' as its day and the half's place in `halves` (play order), or nil.
local function turn_at(halves, turn)
  local day, half = string.match(turn, "^(%d%d%d%d%-%d%d%-%d%d) (.+)$")
  if day == nil then return nil end
  for i, h in ipairs(halves) do
    if h == half then return day, i end
  end
  return nil
end

-- Whether turn a comes no later than turn b on a track of these halves.
local function turn_le(halves, a, b)
  local day_a, at_a = turn_at(halves, a)
  local day_b, at_b = turn_at(halves, b)
  if day_a == nil or day_b == nil then return false end
  return day_a < day_b or (day_a == day_b and at_a <= at_b)
end

local function key_matches(key, given)
  if key == false or key == given then return true end
  if type(key) ~= "table" or type(given) ~= "string" then return false end
  if key.halves ~= nil then  -- turns of a track of days split into halves
    local open = key.last == nil or key.last == M.null
    return turn_le(key.halves, key.first, given) and (open or turn_le(key.halves, given, key.last))
  end
  return key.first <= given and (key.last == nil or given <= key.last)
end

local function row_keys_match(chart, row, keys)
  for i, key in ipairs(chart.keys) do
    if not key_matches(row.keys[i], keys[key]) then return false end
  end
  return true
end

local function in_range(low, high, roll)
  return (low == nil or roll >= low) and (high == nil or roll <= high)
end

-- The row a natural roll and a modified roll select: a `natural` row holding the natural roll
-- first, then the first row whose range holds the modified roll (nil: no row).
local function row_for(chart, keys, natural, modified)
  if natural ~= nil then
    for index, row in ipairs(chart.rows) do
      if row.natural and in_range(row.low, row.high, natural) and row_keys_match(chart, row, keys) then
        return index
      end
    end
  end
  for index, row in ipairs(chart.rows) do
    if not row.natural and (modified == nil or in_range(row.low, row.high, modified))
      and row_keys_match(chart, row, keys) then
      return index
    end
  end
  return nil
end

-- The modified roll: the natural roll through the chart's steps in order (compiler/engine/
-- runtime/roll.py `_modified`: the DRM total at its `drms` step, minus 3 as {"add", -3}, halving
-- rounded down or up, a minimum, a maximum), or plus the DRM total when it has none.
local function modified_roll(chart, natural, drm)
  if chart.steps == nil then return natural + drm end
  local roll = natural
  for _, step in ipairs(chart.steps) do
    local kind, amount = step[1], step[2]
    if kind == "drms" then roll = roll + drm
    elseif kind == "add" then roll = roll + amount
    elseif kind == "times" then roll = roll * amount
    elseif kind == "halve_down" then roll = floordiv(roll, 2)
    elseif kind == "halve_up" then roll = -floordiv(-roll, 2)
    elseif kind == "minimum" then roll = math.max(roll, amount)
    elseif kind == "maximum" then roll = math.min(roll, amount)
    else error("unknown step of a roll: " .. tostring(kind)) end
  end
  return roll
end

local function check_keys(chart, keys)
  for _, key in ipairs(chart.keys) do
    if keys[key] == nil then return "chart `" .. chart.address .. "` needs key `" .. key .. "`" end
  end
  return nil
end

local function refused_drm(chart, drm)
  if drm ~= 0 and chart.digit_read then
    return "chart `" .. chart.address .. "` is read by " .. chart.dice.text
      .. " digit by digit and does not say what a DRM means there"
  end
  return nil
end

local function is_outcome(chart, natural)
  local dice = { chart.dice }
  for _, alt in ipairs(chart.alternatives) do dice[#dice + 1] = alt.dice end
  for _, d in ipairs(dice) do
    for _, outcome in ipairs(d.outcomes) do
      if outcome[1] == natural then return true end
    end
  end
  return false
end

-- The row of a chart: a roll chart by its natural roll and DRM total, a value chart by its
-- value, a reference chart by its keys alone (`roll` nil). Returns the row's values (by column
-- id), its position in the chart's rows, and the modified roll; nil and a message when the
-- arguments cannot occur or no row is selected.
function M.lookup(address, roll, keys, drm)
  local chart = chart_of(address)
  keys = M.canonical_keys(chart, keys or {})
  drm = drm or 0
  local problem = check_keys(chart, keys)
  if problem then return nil, problem end
  if not whole(drm) then return nil, "the DRM must be a whole number" end
  local natural, modified = nil, nil
  if chart.kind == "roll" then
    if not whole(roll) or not is_outcome(chart, roll) then
      return nil, tostring(roll) .. " cannot be rolled on " .. chart.dice.text
    end
    problem = refused_drm(chart, drm)
    if problem then return nil, problem end
    natural, modified = roll, modified_roll(chart, roll, drm)
  elseif chart.kind == "value" then
    local domain = chart.value_key
    if not whole(roll) or (domain.low ~= nil and roll < domain.low) or (domain.high ~= nil and roll > domain.high) then
      return nil, tostring(roll) .. " is outside the domain of " .. chart.address
    end
    modified = roll
  elseif roll ~= nil or drm ~= 0 then
    return nil, "chart `" .. chart.address .. "` is read by its keys only"
  end
  local index = row_for(chart, keys, natural, modified)
  if index == nil then
    return nil, "no row of " .. chart.address .. (modified and (" for modified roll " .. modified) or "")
  end
  return chart.rows[index].values, index, modified
end

-- A roll on a chart: the dice of the context thrown with `randint` (default math.random), the
-- context's DRMs plus `extra`, the row. Returns {natural, drm, modified, values, row}, or nil and
-- a message when no row is selected.
function M.roll(address, keys, context, randint, extra)
  local chart = chart_of(address)
  if chart.kind ~= "roll" then return nil, "chart `" .. address .. "` is not read by dice" end
  local dice = M.dice_for(address, keys, context)
  local natural = M.throw(dice, randint)
  local drm = M.drm(address, keys, context) + (extra or 0)
  local values, index, modified = M.lookup(address, natural, keys, drm)
  if values == nil then return nil, index end
  return { natural = natural, drm = drm, modified = modified, values = values, row = index }
end

local function fraction_text(n, d)
  if n == 0 then return "0" end
  local g = gcd(n, d)
  n, d = floordiv(n, g), floordiv(d, g)
  if d == 1 then return tostring(n) end
  return tostring(n) .. "/" .. tostring(d)
end
M.fraction_text = fraction_text

-- The exact chance of each row for these keys and DRM total, with the dice of the context: a
-- table row position -> "n/d" (rows with no chance left out), and the chance of no row.
function M.chances(address, keys, drm, context)
  local chart = chart_of(address)
  keys = M.canonical_keys(chart, keys or {})
  drm = drm or 0
  local problem = check_keys(chart, keys) or refused_drm(chart, drm)
  if problem then return nil, problem end
  local dice = M.dice_for(address, keys, context)
  local weights, missed = {}, 0
  for _, outcome in ipairs(dice.outcomes) do
    local index = row_for(chart, keys, outcome[1], modified_roll(chart, outcome[1], drm))
    if index == nil then missed = missed + outcome[2]
    else weights[index] = (weights[index] or 0) + outcome[2] end
  end
  local out = {}
  for index, weight in pairs(weights) do out[index] = fraction_text(weight, dice.total) end
  return out, fraction_text(missed, dice.total)
end

-- ---- chained results -------------------------------------------------------------------------

local function steppable(chart)
  return (chart.kind == "roll" and #chart.alternatives == 0) or chart.kind == "reference"
end

local function cell_value(value, rolls, randint)
  while type(value) == "table" and value.roll ~= nil do
    local natural = sum(throw(randint, value.roll.count, value.roll.sides, 10))
    rolls[#rolls + 1] = natural
    local found = nil
    for _, outcome in ipairs(value.roll.outcomes) do
      if in_range(outcome.min, outcome.max, natural) then found = outcome.value break end
    end
    value = found
  end
  return value
end

local function next_key(key, sources)
  for _, source in ipairs(sources) do
    local value = source[key]
    if type(value) == "string" and value ~= "" then return value end
  end
  return nil
end

-- Roll on a chart and follow its chained results to the end (at most `limit` steps, 100 by
-- default), as `chartc lookup --follow` does: each step {chart, natural, drm, modified, values,
-- cell_rolls}. A step rolls with the DRM the reference carries (the first: `drm`).
function M.follow(address, keys, drm, randint, limit)
  randint = randint or math.random
  limit = limit or 100
  local given = keys or {}
  local steps = {}
  drm = drm or 0
  while #steps < limit do
    local chart = chart_of(address)
    local natural, modified, values, problem = nil, nil, nil, nil
    if chart.kind == "roll" then
      natural = M.throw(chart.dice, randint)
      values, problem, modified = M.lookup(address, natural, keys, drm)
    else
      values, problem = M.lookup(address, nil, keys, 0)
    end
    if values == nil then return nil, problem end
    local rolls, made, move = {}, {}, nil
    for _, column in ipairs(chart.columns) do
      made[column] = cell_value(values[column], rolls, randint)
    end
    steps[#steps + 1] = { chart = address, natural = natural, drm = drm, modified = modified, values = made, cell_rolls = rolls }
    for _, column in ipairs(chart.columns) do
      local v = made[column]
      if move == nil and type(v) == "table" and (v.chart ~= nil or v.again ~= nil) then move = v end
    end
    if move == nil or (move.chart ~= nil and (M.charts[move.chart] == nil or not steppable(M.charts[move.chart]))) then
      return steps
    end
    drm = move.drm or 0
    if move.chart ~= nil then
      local target = M.charts[move.chart]
      local next_keys = {}
      for _, key in ipairs(target.keys) do
        local value = next_key(key, { move.keys or {}, keys or {}, made, given })
        if value == nil then return nil, move.chart .. ": no step of the chain gives key `" .. key .. "`" end
        next_keys[key] = value
      end
      address, keys = move.chart, next_keys
    end
  end
  return nil, "the chain did not end within " .. limit .. " steps"
end

