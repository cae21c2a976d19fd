-- The alternative workload of scripts/bench.sh (BENCH_WORKLOAD=alt): Lua code unlike
-- workload.lua's, to measure a build whose feedback was trained on workload.lua on work it did
-- not see. Where workload.lua builds tables, strings and patterns, this one compiles code at
-- run time (load: the lexer, parser and code generator), runs coroutines, calls metamethods
-- (objects, vectors, proxies), raises and catches errors, formats and reads floats, and
-- walks a small JSON-like encoder and decoder character by character. Prints one checksum per
-- section and a total; every build of the interpreter must print exactly the same lines.
--
--   lua alt.lua [SCALE]      (SCALE: a positive integer, default 1; the work grows linearly)
--
-- Determinism as in workload.lua: no math.random, no clocks, no dependence on pairs() order
-- except through commutative integer sums; checksums in wrapping integer arithmetic. The
-- helpers below are workload.lua's, written again rather than shared: workload.lua stays
-- byte for byte the file every earlier figure of docs/benchmarks.md ran.

local SCALE = math.tointeger(tonumber(arg and arg[1] or "1")) or 1
assert(SCALE >= 1, "SCALE must be a positive integer")

local MASK = 0xFFFFFFFF
local function mix(h, x) return (h * 31 + x) & MASK end
local function mixs(h, s)
  for i = 1, #s do h = (h * 131 + s:byte(i)) & MASK end
  return h
end

local seed = 987654321
local function rand(n)
  seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
  return seed % n + 1
end

local results = {}

-- 1. Compiling: generate small functions as source text, load them, call them.
local function bench_compile(rounds)
  local h = 0
  local ops = { "+", "-", "*", "//", "%", "&", "|", "~" }
  for r = 1, rounds do
    local parts = { "local a, b, c = ... local t = {} " }
    for i = 1, 12 do
      local op = ops[rand(#ops)]
      parts[#parts + 1] = string.format(
        "if a %s %d > b then t[%d] = (a %s %d) + c else t[%d] = b - %d end ",
        op, rand(50), i, op, rand(9), i, rand(20))
      parts[#parts + 1] = string.format("for k = 1, %d do c = c + k * %d end ", rand(6), i)
    end
    parts[#parts + 1] = "local s = 0 for i = 1, #t do s = s + t[i] end return s + c"
    local src = table.concat(parts)
    local f = assert(load(src, "=gen" .. r))
    for k = 1, 4 do h = mix(h, f(r + k, r * k % 97 + 1, k) & MASK) end
    h = mixs(h, string.format("%d", #src))
  end
  return h
end

-- 2. Coroutines: generators, a producer/filter/consumer pipeline, wrap and resume.
local function bench_coroutines(rounds)
  local h = 0
  local function gen(n)
    return coroutine.wrap(function()
      for i = 1, n do coroutine.yield(i * 7 % 101) end
    end)
  end
  local function filter(src, m)
    return coroutine.wrap(function()
      for v in src do if v % m ~= 0 then coroutine.yield(v) end end
    end)
  end
  for r = 1, rounds do
    for v in filter(gen(200), 2 + r % 5) do h = mix(h, v) end
    local co = coroutine.create(function(a)
      local s = a
      while true do
        local x = coroutine.yield(s)
        if x == nil then return s end
        s = (s + x * 3) & MASK
      end
    end)
    local _, s = coroutine.resume(co, r)
    for i = 1, 50 do _, s = coroutine.resume(co, i) end
    _, s = coroutine.resume(co)
    h = mix(h, s)
    h = mix(h, coroutine.status(co) == "dead" and 1 or 0)
  end
  return h
end

-- 3. Metamethods: a class with inheritance, 2-D vectors with arithmetic and comparison
-- metamethods, a proxy table with __index/__newindex, __call, __len, __concat, __tostring.
local function bench_metatables(rounds)
  local h = 0
  local Vec = {}
  Vec.__index = Vec
  local function vec(x, y) return setmetatable({ x = x, y = y }, Vec) end
  Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
  Vec.__sub = function(a, b) return vec(a.x - b.x, a.y - b.y) end
  Vec.__mul = function(a, k) return vec(a.x * k, a.y * k) end
  Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
  Vec.__lt = function(a, b) return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y end
  Vec.__le = function(a, b) return not (b < a) end
  Vec.__len = function(a) return math.abs(a.x) + math.abs(a.y) end
  Vec.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
  Vec.__concat = function(a, b) return tostring(a) .. tostring(b) end
  function Vec:dot(o) return self.x * o.x + self.y * o.y end

  local Shape = {}
  Shape.__index = Shape
  function Shape.new(kind, n) return setmetatable({ kind = kind, n = n }, Shape) end
  function Shape:area() return self.n * self.n end
  function Shape:name() return self.kind .. self.n end
  local Circle = setmetatable({}, { __index = Shape })
  Circle.__index = Circle
  function Circle.new(n) local o = Shape.new("circle", n) return setmetatable(o, Circle) end
  function Circle:area() return 3 * self.n * self.n end

  for r = 1, rounds do
    local acc = vec(0, 0)
    for i = 1, 60 do
      local v = vec(rand(21) - 11, rand(21) - 11)
      acc = acc + v * 2 - vec(1, -1)
      if v < acc then h = mix(h, 1) end
      if v <= acc then h = mix(h, 2) end
      if v == vec(v.x, v.y) then h = mix(h, #v) end
      h = mix(h, acc:dot(v) & MASK)
    end
    h = mixs(h, acc .. vec(r, -r))
    local shapes = {}
    for i = 1, 30 do
      shapes[i] = (i % 3 == 0) and Circle.new(i) or Shape.new("square", i)
    end
    for _, s in ipairs(shapes) do h = mix(h, s:area()); h = mixs(h, s:name()) end
    local log = {}
    local store = {}
    local proxy = setmetatable({}, {
      __index = function(_, k) log[#log + 1] = k; return store[k] end,
      __newindex = function(_, k, v) store[k] = v and v * 2 end,
      __call = function(_, a, b) return a * b + #log end,
    })
    for i = 1, 40 do proxy[i] = i end
    for i = 1, 40 do h = mix(h, proxy[i] + proxy(i, r)) end
  end
  return h
end

-- 4. Errors: error with strings and tables, pcall, xpcall with a handler, assert, select.
local function bench_errors(rounds)
  local h = 0
  local function risky(n)
    if n % 7 == 0 then error({ code = n }) end
    if n % 5 == 0 then error("bad " .. n, 0) end
    if n % 11 == 0 then local t = nil; return t.field end
    return n * 2
  end
  local function count(...) return select("#", ...), (select(2, ...)) end
  for r = 1, rounds do
    for n = 1, 60 do
      local ok, e = pcall(risky, n + r)
      if ok then h = mix(h, e)
      elseif type(e) == "table" then h = mix(h, e.code)
      else h = mixs(h, (tostring(e):gsub("^.-:%d+: ", ""))) end
    end
    local ok, msg = xpcall(function() assert(r < 0, "negative expected") end,
      function(m) return "handled: " .. m end)
    h = mixs(h, (ok and "ok" or "") .. msg:gsub("^.-:%d+: ", ""))
    local n, second = count(r, r + 1, nil, r + 3)
    h = mix(h, n + second)
  end
  return h
end

-- 5. Floats: arithmetic, math library, formatting and reading back (lobject's number
-- conversions), integer/float conversions.
local function bench_floats(rounds)
  local h = 0
  for r = 1, rounds do
    local x = r / 7
    for i = 1, 80 do
      x = math.sin(x) * 3.5 + math.sqrt(i) - math.floor(x / 3) + (i % 4) * 0.25
      local s = string.format("%.6f", x)
      local y = tonumber(s)
      h = mix(h, math.floor(y * 1000) & MASK)
      h = mixs(h, string.format("%g|%5.2e|%d", y, y * 1e5, math.tointeger(math.floor(y)) or 0))
    end
    local t = {}
    for i = 1, 40 do t[i] = tostring(i / 8) end
    h = mixs(h, table.concat(t, ","))
    h = mix(h, (math.ult(r, 100) and 1 or 0) + math.fmod(r, 7) // 1)
  end
  return h
end

-- 6. A JSON-like encoder and decoder, character by character (string.sub, byte, char).
local function encode(v, out)
  local t = type(v)
  if t == "number" then out[#out + 1] = string.format("%d", v)
  elseif t == "string" then out[#out + 1] = '"' .. v:gsub('[%c"\\]', function(c)
      return string.format("\\u%04x", c:byte()) end) .. '"'
  elseif t == "boolean" then out[#out + 1] = tostring(v)
  elseif v[1] ~= nil or next(v) == nil then
    out[#out + 1] = "["
    for i = 1, #v do if i > 1 then out[#out + 1] = "," end encode(v[i], out) end
    out[#out + 1] = "]"
  else
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = "," end
      encode(k, out); out[#out + 1] = ":"; encode(v[k], out)
    end
    out[#out + 1] = "}"
  end
end

local function decode(s)
  local pos = 1
  local function ws() while true do
    local c = s:sub(pos, pos)
    if c == " " or c == "\n" then pos = pos + 1 else return end
  end end
  local value
  local function str()
    pos = pos + 1
    local buf = {}
    while true do
      local c = s:sub(pos, pos)
      if c == '"' then pos = pos + 1; return table.concat(buf) end
      if c == "\\" then
        buf[#buf + 1] = string.char(tonumber(s:sub(pos + 2, pos + 5), 16)); pos = pos + 6
      else buf[#buf + 1] = c; pos = pos + 1 end
    end
  end
  function value()
    ws()
    local c = s:sub(pos, pos)
    if c == "{" then
      local o = {}
      pos = pos + 1; ws()
      if s:sub(pos, pos) == "}" then pos = pos + 1; return o end
      while true do
        ws(); local k = str(); ws(); pos = pos + 1
        o[k] = value(); ws()
        local d = s:sub(pos, pos); pos = pos + 1
        if d == "}" then return o end
      end
    elseif c == "[" then
      local a = {}
      pos = pos + 1; ws()
      if s:sub(pos, pos) == "]" then pos = pos + 1; return a end
      while true do
        a[#a + 1] = value(); ws()
        local d = s:sub(pos, pos); pos = pos + 1
        if d == "]" then return a end
      end
    elseif c == '"' then return str()
    elseif s:sub(pos, pos + 3) == "true" then pos = pos + 4; return true
    elseif s:sub(pos, pos + 4) == "false" then pos = pos + 5; return false
    else
      local start = pos
      if c == "-" then pos = pos + 1 end
      while s:sub(pos, pos):match("%d") do pos = pos + 1 end
      return math.tointeger(tonumber(s:sub(start, pos - 1)))
    end
  end
  return value()
end

local function bench_json(rounds)
  local h = 0
  for r = 1, rounds do
    local doc = { id = r, name = "item\t" .. r, tags = {}, ok = r % 2 == 0, parts = {} }
    for i = 1, 8 do doc.tags[i] = "t" .. rand(100) end
    for i = 1, 6 do doc.parts[i] = { n = rand(1000) - 500, label = "p\"" .. i, sub = { i, i * i } } end
    local out = {}
    encode(doc, out)
    local text = table.concat(out)
    local back = decode(text)
    local out2 = {}
    encode(back, out2)
    local text2 = table.concat(out2)
    assert(text == text2, "round trip")
    h = mixs(h, text2)
  end
  return h
end

local sections = {
  { "compile", bench_compile, 170 },
  { "coroutines", bench_coroutines, 260 },
  { "metatables", bench_metatables, 130 },
  { "errors", bench_errors, 500 },
  { "floats", bench_floats, 160 },
  { "json", bench_json, 320 },
}
local total = 0
for _, s in ipairs(sections) do
  local v = s[2](s[3] * SCALE)
  results[#results + 1] = string.format("%-12s %10d", s[1], v)
  total = mix(total, v)
end
for _, line in ipairs(results) do print(line) end
print(string.format("%-12s %10d", "total", total))
