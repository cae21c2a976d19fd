-- Tables: arrays, records, insertion/removal, sorting with comparators, matrices.
-- A fixed linear congruential generator keeps every run identical.
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return (seed >> 16) % n + 1
end

local a = {}
for i = 1, 5000 do a[i] = rand(100000) end
table.sort(a)
local ok = true
for i = 2, #a do if a[i - 1] > a[i] then ok = false end end
print("sorted ascending", ok, a[1], a[2500], a[#a])

table.sort(a, function(x, y) return x > y end)
print("sorted descending", a[1], a[#a])

-- Records sorted by two keys.
local names = { "ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo" }
local people = {}
for i = 1, 200 do
  people[i] = { name = names[rand(#names)], age = rand(90), id = i }
end
table.sort(people, function(p, q)
  if p.name ~= q.name then return p.name < q.name end
  if p.age ~= q.age then return p.age < q.age end
  return p.id < q.id
end)
for i = 1, 200, 25 do
  local p = people[i]
  print(i, p.name, p.age, p.id)
end

-- Counting with a table; keys sorted before printing (pairs order is not defined).
local count = {}
for _, p in ipairs(people) do count[p.name] = (count[p.name] or 0) + 1 end
local keys = {}
for k in pairs(count) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", count[k], " ") end
print()

-- insert / remove / move / unpack
local t = { 1, 2, 3 }
table.insert(t, 4)
table.insert(t, 1, 0)
print(table.concat(t, " "), table.remove(t), table.remove(t, 1), table.concat(t, " "))
local m = table.move({ 1, 2, 3, 4, 5 }, 2, 4, 1, {})
print(table.concat(m, ","), select("#", table.unpack({ 1, 2, nil, 4 }, 1, 4)), table.pack(1, nil, 3).n)

-- Matrix multiplication and a determinant by Gaussian elimination.
local function matrix(n, f)
  local r = {}
  for i = 1, n do
    r[i] = {}
    for j = 1, n do r[i][j] = f(i, j) end
  end
  return r
end
local function mul(x, y)
  local n = #x
  return matrix(n, function(i, j)
    local s = 0
    for k = 1, n do s = s + x[i][k] * y[k][j] end
    return s
  end)
end
local A = matrix(30, function(i, j) return (i * j) % 7 - 3 end)
local B = matrix(30, function(i, j) return (i + 2 * j) % 5 end)
local C = mul(A, B)
local trace = 0
for i = 1, 30 do trace = trace + C[i][i] end
print("trace", trace, C[1][1], C[30][30], C[7][19])

local function det(M)
  local n = #M
  local X = matrix(n, function(i, j) return M[i][j] + 0.0 end)
  local d = 1.0
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(X[r][c]) > math.abs(X[p][c]) then p = r end end
    if X[p][c] == 0 then return 0.0 end
    if p ~= c then X[p], X[c] = X[c], X[p]; d = -d end
    d = d * X[c][c]
    for r = c + 1, n do
      local f = X[r][c] / X[c][c]
      for k = c, n do X[r][k] = X[r][k] - f * X[c][k] end
    end
  end
  return d
end
print(string.format("det %.6f", det(matrix(6, function(i, j) return 1 / (i + j - 1) end)) * 1e18))
print(string.format("det %.6f", det(matrix(8, function(i, j) return ((i * 3 + j * 5) % 11) - 5 end))))

-- Length of tables with holes filled in order, and # after removals.
local big = {}
for i = 1, 10000 do big[i] = i * i end
for i = 10000, 5001, -1 do big[i] = nil end
print(#big, big[#big])
