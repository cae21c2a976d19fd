-- Benchmark workload for scripts/bench-lua.sh: deterministic, self-contained, no I/O but the
-- final lines. A mix of table operations, string building, gsub/find/gmatch patterns,
-- closures, numeric loops and sorting. Prints one checksum per section and a total; every
-- build of the interpreter must print exactly the same lines.
--
--   lua workload.lua [SCALE]      (SCALE: a positive integer, default 1; the work grows linearly)
--
-- Determinism: no math.random (its default seed is random in 5.4), no os.time/os.clock, no
-- dependence on pairs() order (string hashes are seeded per run) except through commutative
-- integer sums, and checksums computed with integer (wrapping) arithmetic only.

local SCALE = math.tointeger(tonumber(arg and arg[1] or "1")) or 1
assert(SCALE >= 1, "SCALE must be a positive integer")

local MASK = 0xFFFFFFFF
local function mix(h, x) return (h * 31 + x) & MASK end
local function mixs(h, s)
  for i = 1, #s do h = (h * 131 + s:byte(i)) & MASK end
  return h
end

-- A small linear congruential generator (deterministic across runs and builds).
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
  return seed % n + 1
end

local results = {}

-- 1. Tables: arrays, integer and string keys, insert/remove, concat, nested records.
local function bench_tables(rounds)
  local h = 0
  for r = 1, rounds do
    local arr = {}
    for i = 1, 2000 do arr[i] = (i * r) % 977 end
    for i = 1, 40 do table.insert(arr, (i * 7) % 13 + 1, i) end
    for _ = 1, 30 do table.remove(arr, 1 + (#arr // 3)) end
    local sum = 0
    for i = 1, #arr do sum = sum + arr[i] end
    h = mix(h, sum)
    h = mix(h, #arr)

    local dict = {}
    for i = 1, 600 do dict["k" .. (i % 250)] = (dict["k" .. (i % 250)] or 0) + i end
    local dsum, dn = 0, 0
    for k, v in pairs(dict) do dsum = dsum + v + #k; dn = dn + 1 end
    h = mix(h, dsum)
    h = mix(h, dn)

    local sparse = {}
    for i = 1, 500 do sparse[i * 37 % 1009] = i end
    local ssum = 0
    for k, v in pairs(sparse) do ssum = ssum + k * v end
    h = mix(h, ssum & MASK)

    local recs = {}
    for i = 1, 300 do recs[i] = { id = i, name = "n" .. i, tags = { i % 3, i % 5 } } end
    local acc = 0
    for _, rec in ipairs(recs) do acc = acc + rec.id * rec.tags[1] + rec.tags[2] + #rec.name end
    h = mix(h, acc)
    h = mixs(h, table.concat(arr, ",", 1, 20))
  end
  return h
end

-- 2. String building: concatenation, string.format, rep, buffers with table.concat, upper/sub.
local function bench_strings(rounds)
  local h = 0
  for r = 1, rounds do
    local buf = {}
    for i = 1, 400 do
      buf[#buf + 1] = string.format("%05d:%s:%x;", i * r, ("ab"):rep(i % 4 + 1), i * 2654435761 & 0xFFFF)
    end
    local s = table.concat(buf)
    h = mixs(h, s:sub(1, 64))
    h = mix(h, #s)

    local t = ""
    for i = 1, 150 do t = t .. tostring(i % 10) end
    h = mixs(h, t:upper():sub(-20))

    local parts = {}
    for i = 1, 200 do parts[i] = string.char(97 + i % 26) .. (i * 3) end
    local joined = table.concat(parts, "-")
    h = mix(h, #joined)
    h = mixs(h, joined:reverse():sub(1, 30))
    h = mixs(h, string.format("%.3f|%g|%q", r / 7, r * 1.5, "x\ty"))
  end
  return h
end

-- 3. Patterns: gsub with strings, functions and tables; find with captures; gmatch.
local TEXT_WORDS = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
                     "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi" }
local function make_text(n)
  local w = {}
  for i = 1, n do
    local word = TEXT_WORDS[rand(#TEXT_WORDS)]
    if i % 7 == 0 then word = word .. "=" .. rand(10000) end
    if i % 11 == 0 then word = word:upper() end
    w[i] = word
  end
  return table.concat(w, " ")
end

local function bench_patterns(rounds)
  local h = 0
  local repl = { alpha = "A", beta = "B", gamma = "G" }
  for _ = 1, rounds do
    local text = make_text(600)
    local n1
    local s1
    s1, n1 = text:gsub("%a+", repl)
    h = mix(h, n1); h = mix(h, #s1)
    local s2, n2 = text:gsub("(%a+)=(%d+)", function(k, v) return v .. ":" .. #k end)
    h = mix(h, n2); h = mixs(h, s2:sub(1, 40))
    local s3 = text:gsub("%s+", "_"):gsub("[aeiou]", "")
    h = mix(h, #s3)

    local nums = 0
    for k, v in text:gmatch("(%a+)=(%d+)") do nums = nums + tonumber(v) + #k end
    h = mix(h, nums)

    local pos, found = 1, 0
    while true do
      local a, b, cap = text:find("(%u+)", pos)
      if not a then break end
      found = found + #cap
      pos = b + 1
    end
    h = mix(h, found)
    local plain = 0
    local p = 1
    while true do
      local a = text:find("eta", p, true)
      if not a then break end
      plain = plain + 1
      p = a + 1
    end
    h = mix(h, plain)
    h = mix(h, select(2, text:gsub("%f[%w]%w+", "")))
  end
  return h
end

-- 4. Closures: counters, map/filter/reduce, composition, memoization, varargs.
local function bench_closures(rounds)
  local h = 0
  local function counter(start, step)
    local n = start
    return function() n = n + step; return n end
  end
  local function map(f, t) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end
  local function filter(p, t) local r = {} for i = 1, #t do if p(t[i]) then r[#r + 1] = t[i] end end return r end
  local function reduce(f, acc, t) for i = 1, #t do acc = f(acc, t[i]) end return acc end
  local function compose(f, g) return function(...) return f(g(...)) end end
  local function memoize(f)
    local cache = {}
    return function(n)
      local v = cache[n]
      if v == nil then v = f(n); cache[n] = v end
      return v
    end
  end
  local nums = {}
  for i = 1, 500 do nums[i] = i end
  for r = 1, rounds do
    local c = counter(r, 3)
    local last = 0
    for _ = 1, 300 do last = c() end
    h = mix(h, last)
    local sq = map(function(x) return x * x + r end, filter(function(x) return x % 3 ~= 0 end, nums))
    h = mix(h, reduce(function(a, b) return (a + b) & MASK end, 0, sq))
    local f = compose(function(x) return x + 1 end, compose(function(x) return x * 2 end, math.abs))
    local s = 0
    for i = -100, 100 do s = s + f(i) end
    h = mix(h, s)
    local fib
    fib = memoize(function(n) if n < 2 then return n end return (fib(n - 1) + fib(n - 2)) & MASK end)
    h = mix(h, fib(80 + r % 10))
    local function va(...) return select("#", ...) + (select(1, ...) or 0) end
    local vs = 0
    for i = 1, 200 do vs = vs + va(i, i, i) + va() end
    h = mix(h, vs)
  end
  return h
end

-- 5. Numeric loops: sieve, integer recurrences, a small Mandelbrot (float arithmetic, integer
-- result), integer division and bit operations.
local function bench_numeric(rounds)
  local h = 0
  for r = 1, rounds do
    local n = 6000
    local comp = {}
    local primes = 0
    for i = 2, n do
      if not comp[i] then
        primes = primes + 1
        for j = i * i, n, i do comp[j] = true end
      end
    end
    h = mix(h, primes)

    local steps = 0
    for i = 1, 300 do
      local x = i + r
      while x ~= 1 do
        if x % 2 == 0 then x = x // 2 else x = 3 * x + 1 end
        steps = steps + 1
      end
    end
    h = mix(h, steps)

    local inside = 0
    for py = 0, 23 do
      for px = 0, 47 do
        local cr, ci = -2.0 + px * (2.6 / 48), -1.2 + py * (2.4 / 24)
        local zr, zi, k = 0.0, 0.0, 0
        while k < 40 and zr * zr + zi * zi < 4.0 do
          zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
          k = k + 1
        end
        inside = inside + k
      end
    end
    h = mix(h, inside)

    local bits = 0
    for i = 1, 3000 do bits = bits ~ ((i << (i % 13)) | (i >> 2)) end
    h = mix(h, bits & MASK)
  end
  return h
end

-- 6. Sorting: numbers, strings, records with a comparator (ties broken, so the order is total).
local function bench_sort(rounds)
  local h = 0
  for _ = 1, rounds do
    local a = {}
    for i = 1, 1500 do a[i] = rand(100000) end
    table.sort(a)
    h = mix(h, a[1]); h = mix(h, a[750]); h = mix(h, a[#a])

    local s = {}
    for i = 1, 600 do s[i] = TEXT_WORDS[rand(#TEXT_WORDS)] .. rand(1000) end
    table.sort(s)
    h = mixs(h, s[1] .. s[300] .. s[#s])

    local recs = {}
    for i = 1, 600 do recs[i] = { key = rand(50), id = i } end
    table.sort(recs, function(x, y)
      if x.key ~= y.key then return x.key > y.key end
      return x.id < y.id
    end)
    local acc = 0
    for i = 1, #recs, 37 do acc = mix(acc, recs[i].id) end
    h = mix(h, acc)
  end
  return h
end

local sections = {
  { "tables", bench_tables, 50 },
  { "strings", bench_strings, 160 },
  { "patterns", bench_patterns, 70 },
  { "closures", bench_closures, 500 },
  { "numeric", bench_numeric, 40 },
  { "sort", bench_sort, 45 },
}

local total = 0
for _, s in ipairs(sections) do
  local name, fn, rounds = s[1], s[2], s[3]
  local c = fn(rounds * SCALE)
  total = mix(total, c)
  results[#results + 1] = string.format("%-9s %10d", name, c)
end
for _, line in ipairs(results) do print(line) end
print(string.format("checksum  %10d", total))
