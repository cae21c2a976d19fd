-- Integer and float arithmetic, recursion (fib), math library, conversions.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(27))

local function fib_iter(n)
  local a, b = 0, 1
  for _ = 1, n do a, b = b, a + b end
  return a
end
print("fib_iter", fib_iter(90), fib_iter(92), fib_iter(93)) -- the last one wraps around

-- Integer division and modulo with negative operands, for integers and floats.
for _, p in ipairs({ { 7, 3 }, { -7, 3 }, { 7, -3 }, { -7, -3 } }) do
  local x, y = p[1], p[2]
  print(x, y, x // y, x % y, x / y, (x + 0.0) // y, math.fmod(x, y), (x + 0.5) % y)
end

-- Bitwise operations and integer wrap-around.
print(0xFF & 0x0F, 0xF0 | 0x0F, 0xFF ~ 0x0F, ~0, 1 << 62, 1 << 63, 1 << 64, -1 >> 1, 5 >> -1)
print(math.maxinteger + 1 == math.mininteger, math.maxinteger * 2, math.mininteger // -1)
print(math.ult(1, -1), math.tointeger(3.0), math.tointeger(3.5), math.type(1), math.type(1.0), math.type("1"))

-- Floats: formatting is the C library's, identical for both builds.
print(0.1 + 0.2, 0.1 + 0.2 == 0.3, 1e308 * 10, -1e308 * 10, 2^-1074, 1 / 3)
print(string.format("%.17g %.17g %.17g", math.pi, math.exp(1), math.sqrt(2)))
print(math.floor(-3.5), math.ceil(-3.5), math.floor(3.7), math.abs(-2^63), math.huge, -math.huge)
print(string.format("%.12f %.12f %.12f %.12f", math.sin(1), math.cos(1), math.tan(1), math.atan(1, 2)))
print(string.format("%.12f %.12f %.12f", math.log(10), math.log(8, 2), math.log(100, 10)))
print(3 == 3.0, math.max(1, 2.5, -1), math.min(4, 2, 8), 7 // 0.0, -7 // 0.0, 0/0 ~= 0/0)
print(pcall(function() return 1 // 0 end))
print(pcall(function() return 1 % 0 end))

-- Numeric for loops with float steps and overflow-safe integer bounds.
local n, s = 0, 0.0
for x = 0, 1, 0.125 do n = n + 1; s = s + x end
print(n, s)
n = 0
for _ = math.maxinteger - 2, math.maxinteger do n = n + 1 end
print(n)

-- Prime sieve and a sum of digits.
local N = 20000
local sieve, primes = {}, 0
for i = 2, N do sieve[i] = true end
for i = 2, N do
  if sieve[i] then
    primes = primes + 1
    for j = i * i, N, i do sieve[j] = false end
  end
end
print("primes below", N, primes)
local function digitsum(x) local t = 0 while x > 0 do t = t + x % 10; x = x // 10 end return t end
local ds = 0
for i = 1, 50000 do ds = ds + digitsum(i) end
print("digit sum", ds)

-- Newton's method and a numeric integral (Simpson's rule).
local function newton_sqrt(x) local g = x / 2 for _ = 1, 30 do g = (g + x / g) / 2 end return g end
print(string.format("%.15f %.15f", newton_sqrt(2), newton_sqrt(1e10)))
local function simpson(f, a, b, k)
  local h = (b - a) / k
  local sum = f(a) + f(b)
  for i = 1, k - 1 do sum = sum + f(a + i * h) * ((i % 2 == 1) and 4 or 2) end
  return sum * h / 3
end
print(string.format("%.12f", simpson(math.sin, 0, math.pi, 1000)))

-- math.random with a fixed seed is deterministic (xoshiro256**).
math.randomseed(42)
local r = {}
for i = 1, 8 do r[i] = math.random(1, 1000) end
print(table.concat(r, " "), string.format("%.10f", math.random()))
