-- expect-exit: 3
-- Errors (error/pcall/xpcall/assert), metatables and metamethods, goto, to-be-closed
-- variables, and a non-zero exit status through os.exit.
print(pcall(error, "plain message"))
print(select("#", pcall(error, { code = 42 })), select(2, pcall(error, { code = 42 })).code)
print(select(2, pcall(error, "no position", 0)))
print(pcall(function() local t = nil; return t.x end))
print(pcall(function() return 1 + {} end))
print(pcall(function() return #5 end))
print(pcall(assert, false, "assertion text"))
print(pcall(assert, 1 == 1, "unused"))
print(xpcall(function() error("deep") end, function(m) return "handled: " .. m end))
local ok, e = pcall(function() error(setmetatable({}, { __tostring = function() return "custom error object" end })) end)
print(ok, tostring(e))

-- Nested pcall and error rethrow.
local function level3() error("level3 failed") end
local function level2() local ok, err = pcall(level3); error("level2 saw: " .. err, 0) end
print(pcall(level2))

-- Vectors with arithmetic metamethods.
local V = {}
V.__index = V
local function vec(x, y) return setmetatable({ x = x, y = y }, V) end
V.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
V.__mul = function(a, k) return vec(a.x * k, a.y * k) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a:len2() < b:len2() end
V.__le = function(a, b) return a:len2() <= b:len2() end
V.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
V.__concat = function(a, b) return tostring(a) .. tostring(b) end
V.__len = function() return 2 end
V.__call = function(a, k) return a.x * k end
V.__unm = function(a) return vec(-a.x, -a.y) end
function V:len2() return self.x * self.x + self.y * self.y end
local p, q = vec(1, 2), vec(3, 4)
print(tostring(p + q), tostring(p * 3), p == vec(1, 2), p < q, q <= p, p .. q, #p, p(10), tostring(-p))

-- __index / __newindex proxies with a read-only table and a default.
local log = {}
local function readonly(t)
  return setmetatable({}, {
    __index = t,
    __newindex = function(_, k) log[#log + 1] = "blocked " .. tostring(k) end,
  })
end
local ro = readonly({ a = 1 })
ro.b = 2
ro.c = 3
print(ro.a, ro.b, rawget(ro, "a"), table.concat(log, "; "))
local defaults = setmetatable({}, { __index = function(_, k) return k .. "?" end })
print(defaults.foo, defaults[1])

-- Inheritance.
local Animal = {}
Animal.__index = Animal
function Animal.new(name, sound) return setmetatable({ name = name, sound = sound }, Animal) end
function Animal:speak() return self.name .. " says " .. self.sound end
local Dog = setmetatable({}, { __index = Animal })
Dog.__index = Dog
function Dog.new(name) local d = Animal.new(name, "woof"); return setmetatable(d, Dog) end
function Dog:fetch() return self.name .. " fetches" end
local d = Dog.new("rex")
print(d:speak(), d:fetch(), getmetatable(d) == Dog)

-- goto and to-be-closed variables.
local out = {}
for i = 1, 10 do
  if i % 3 == 0 then goto continue end
  out[#out + 1] = i
  ::continue::
end
print(table.concat(out, " "))
do
  local closed = {}
  do
    local a <close> = setmetatable({}, { __close = function() closed[#closed + 1] = "a" end })
    local b <close> = setmetatable({}, { __close = function() closed[#closed + 1] = "b" end })
  end
  print("closed in order", table.concat(closed, ","))
end

-- Weak tables and explicit collection (only counts that do not depend on addresses).
local weak = setmetatable({}, { __mode = "k" })
for i = 1, 100 do weak[{}] = i end
collectgarbage()
local left = 0
for _ in pairs(weak) do left = left + 1 end
print("weak entries after gc", left)

-- String coercions and their errors.
print("10" + 5, "3" * "4", 10 .. 20, pcall(function() return "abc" + 1 end))
io.stdout:flush()
os.exit(3)
