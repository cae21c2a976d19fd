-- Closures, upvalues, varargs, coroutines (generators, producer/consumer, wrap, status).
local function counter(start, step)
  local n = start
  return function() n = n + step; return n end
end
local c1, c2 = counter(0, 1), counter(100, -3)
for _ = 1, 5 do io.write(c1(), " ", c2(), " ") end
print()

-- Closures capturing loop variables: each iteration has its own.
local fs = {}
for i = 1, 5 do fs[i] = function() return i * i end end
for i = 1, 5 do io.write(fs[i](), " ") end
print()

-- Higher-order functions.
local function map(f, t) local r = {} for i, v in ipairs(t) do r[i] = f(v) end return r end
local function filter(p, t) local r = {} for _, v in ipairs(t) do if p(v) then r[#r + 1] = v end end return r end
local function reduce(f, acc, t) for _, v in ipairs(t) do acc = f(acc, v) end return acc end
local nums = {}
for i = 1, 100 do nums[i] = i end
local evensq = map(function(x) return x * x end, filter(function(x) return x % 2 == 0 end, nums))
print(#evensq, evensq[1], evensq[50], reduce(function(a, b) return a + b end, 0, evensq))

local function compose(...)
  local fns = table.pack(...)
  return function(x)
    for i = fns.n, 1, -1 do x = fns[i](x) end
    return x
  end
end
print(compose(function(x) return x + 1 end, function(x) return x * 2 end, math.abs)(-5))

local function varargs(...)
  return select("#", ...), (select(2, ...)), ...
end
print(varargs(10, nil, 30))

-- Memoized function via closure over a cache.
local function memoize(f)
  local cache = {}
  return function(n)
    local v = cache[n]
    if v == nil then v = f(n); cache[n] = v end
    return v
  end
end
local slow_calls = 0
local sq = memoize(function(n) slow_calls = slow_calls + 1; return n * n end)
for i = 1, 1000 do sq(i % 37) end
print("memo calls", slow_calls)

-- Coroutine generator: permutations of {1,2,3,4}.
local function permgen(a, n)
  n = n or #a
  if n <= 1 then coroutine.yield(a) else
    for i = 1, n do
      a[n], a[i] = a[i], a[n]
      permgen(a, n - 1)
      a[n], a[i] = a[i], a[n]
    end
  end
end
local count, first, last = 0, nil, nil
for p in coroutine.wrap(function() permgen({ 1, 2, 3, 4 }) end) do
  count = count + 1
  local s = table.concat(p)
  first = first or s
  last = s
end
print("permutations", count, first, last)

-- Producer / filter / consumer.
local function producer()
  return coroutine.create(function()
    for i = 1, 50 do coroutine.yield(i) end
    return "eof"
  end)
end
local function filtered(prod)
  return coroutine.create(function()
    while true do
      local ok, v = coroutine.resume(prod)
      if type(v) ~= "number" then return v end
      if v % 3 == 0 then coroutine.yield(v * 10) end
    end
  end)
end
local co = filtered(producer())
local got = {}
while true do
  local ok, v = coroutine.resume(co)
  if coroutine.status(co) == "dead" then print("final", ok, v) break end
  got[#got + 1] = v
end
print(#got, table.concat(got, " "))

-- Passing values in and out of resume/yield; errors inside coroutines.
local acc = coroutine.create(function(a)
  local sum = a
  while true do
    local x = coroutine.yield(sum)
    if x == nil then break end
    sum = sum + x
  end
  error("stopped at " .. sum)
end)
local _, s = coroutine.resume(acc, 1)
for i = 2, 10 do _, s = coroutine.resume(acc, i) end
print("sum", s)
print(coroutine.resume(acc))
print(coroutine.status(acc), coroutine.isyieldable(), coroutine.running() ~= nil)
print(coroutine.close(coroutine.create(function() end)))
