-- The runtime's CRT odds (USAAF 15.1-15.2), as compiler/engine/runtime/odds.py reads them: exact
-- ratios as whole numerators and denominators. Exported after tts_runtime.lua, whose locals it uses.

-- ---- CRT odds --------------------------------------------------------------------------------

local function frac(n, d)
  local g = gcd(n, d)
  if g == 0 then g = 1 end
  if d < 0 then n, d = -n, -d end
  return { floordiv(n, g), floordiv(d, g) }
end

local function cmp(a, b)
  local l, r = a[1] * b[2], b[1] * a[2]
  if l < r then return -1 elseif l > r then return 1 end
  return 0
end

local function round_ratio(n, d, how)
  if how == "down" then return floordiv(n, d) end
  if how == "up" then return -floordiv(-n, d) end
  return floordiv(2 * n + d, 2 * d)
end

local function odds_position(a, d)
  if d == 1 then return a - 1 end
  return -(d - 1)
end

local function position_label(p)
  if p >= 0 then return tostring(p + 1) .. ":1" end
  return "1:" .. tostring(1 - p)
end

local function fraction_position(v)
  if cmp(v, { 1, 1 }) >= 0 then return floordiv(v[1], v[2]) - 1 end
  return -(-floordiv(-v[2], v[1]) - 1)
end

local function fraction_label(v)
  if v[2] == 1 or v[1] ~= 1 then return tostring(v[1]) .. ":" .. tostring(v[2]) end
  return "1:" .. tostring(v[2])
end

local function steps_past(rule, beyond, edge)
  if rule.form == "ratio" then
    return math.max(1, math.abs(fraction_position(beyond) - fraction_position(edge)))
  end
  local diff = beyond[1] * edge[2] - edge[1] * beyond[2]
  local d = beyond[2] * edge[2]
  return math.max(1, floordiv(math.abs(diff), d))
end

local function band_index(rule, value)
  local bands = rule.bands
  local first_low, last_high = bands[1].low, bands[#bands].high
  if first_low ~= nil and cmp(value, first_low) < 0 then return -steps_past(rule, value, first_low) end
  if last_high ~= nil and cmp(value, last_high) > 0 then return #bands - 1 + steps_past(rule, value, last_high) end
  for i, band in ipairs(bands) do
    if (band.low == nil or cmp(band.low, value) <= 0) and (band.high == nil or cmp(value, band.high) <= 0) then
      return i - 1
    end
  end
  local below = -1
  for i, band in ipairs(bands) do
    if band.high ~= nil and cmp(band.high, value) < 0 then below = i - 1 end
  end
  if rule.between == "lower" then return below end
  return below + 1
end

-- The CRT column an odds rule reads for these combat factors and column shift (+ toward the
-- attacker): {formed, column, clamped}, or nil and a message (bad factors, off the table).
function M.odds(address, attack, defense, shift)
  local rule = M.odds_rules[address]
  if rule == nil then return nil, "no odds rule `" .. tostring(address) .. "` in " .. M.game end
  shift = shift or 0
  for _, number in ipairs({ attack, shift }) do
    if not whole(number) then return nil, rule.id .. ": factors and shifts are whole numbers" end
  end
  if defense ~= nil and not whole(defense) then return nil, rule.id .. ": factors are whole numbers" end
  if shift ~= 0 and rule.shift_order == nil then
    return nil, "odds rule `" .. rule.id .. "` does not say whether column shifts apply before or after the table edge"
  end
  local index, formed
  if rule.form == "ratio" and rule.between == nil then
    if defense == nil then return nil, "odds rule `" .. rule.id .. "` needs both attack and defense" end
    if attack < 1 or defense < 1 then return nil, "odds need factors on both sides" end
    local ratio = { 1, 1 }
    if attack > defense then ratio = { math.max(1, round_ratio(attack, defense, rule.attacker_round)), 1 } end
    if attack < defense then ratio = { 1, math.max(1, round_ratio(defense, attack, rule.defender_round)) } end
    local position = odds_position(ratio[1], ratio[2])
    formed = position_label(position)
    if #rule.columns == 0 then
      return { formed = formed, column = position_label(position + shift), clamped = false }
    end
    local positions = rule.positions
    if position < positions[1] then
      index = -(positions[1] - position)
    elseif position > positions[#positions] then
      index = #positions - 1 + (position - positions[#positions])
    else
      index = 0
      for i, p in ipairs(positions) do
        if p <= position then index = i - 1 end
      end
    end
  else
    local value
    if rule.form == "strength" then
      if defense ~= nil then return nil, "odds rule `" .. rule.id .. "` reads the attack strength alone" end
      local low, high = rule.domain_low or 0, rule.domain_high
      if attack < low or (high ~= nil and attack > high) then
        return nil, "strength " .. attack .. " is outside the domain of `" .. rule.id .. "`"
      end
      value, formed = { attack, 1 }, tostring(attack)
    else
      if defense == nil then return nil, "odds rule `" .. rule.id .. "` needs both attack and defense" end
      if rule.form == "differential" then
        if attack < 0 or defense < 0 then return nil, "combat factors cannot be negative" end
        value = { attack - defense, 1 }
        if attack == defense then formed = "0"
        elseif attack > defense then formed = "+" .. tostring(attack - defense)
        else formed = tostring(attack - defense) end
      else
        if attack < 1 or defense < 1 then return nil, "odds need factors on both sides" end
        value = frac(attack, defense)
        formed = fraction_label(value)
      end
    end
    index = band_index(rule, value)
  end
  local last = #rule.columns - 1
  if rule.shift_order == "before" then index = index + shift end
  if rule.beyond == "error" and not (index >= 0 and index <= last) then
    return nil, formed .. " is off the table (" .. rule.columns[1] .. " to " .. rule.columns[last + 1] .. ")"
  end
  local clamped = not (index >= 0 and index <= last)
  index = clamp(index, { 0, last })
  if rule.shift_order == "after" then index = clamp(index + shift, { 0, last }) end
  return { formed = formed, column = rule.columns[index + 1], clamped = clamped }
end
