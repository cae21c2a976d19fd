-- Reading its own source with io.lines, io.write, string buffers, and garbage-collector load.
local lines, words, chars, longest = 0, 0, 0, ""
for line in io.lines(arg[0]) do
  lines = lines + 1
  chars = chars + #line + 1
  for _ in line:gmatch("%S+") do words = words + 1 end
  if #line > #longest then longest = line end
end
print("self", lines, words, chars)
print("longest", #longest)

-- Allocation-heavy workload: build and drop many small tables and strings.
local keep = {}
for round = 1, 20 do
  local tmp = {}
  for i = 1, 2000 do
    tmp[i] = { i, tostring(i), { round } }
  end
  keep[round] = tmp[round * 50][2] .. ":" .. #tmp
end
collectgarbage("collect")
print(table.concat(keep, " "))
print(collectgarbage("isrunning"), collectgarbage("step", 0) ~= nil)

-- A binary tree (the classic benchmark, small depth).
local function bottom_up(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottom_up(depth), bottom_up(depth) }
end
local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end
for depth = 4, 12, 4 do
  local iters = 1 << (12 - depth + 4)
  local sum = 0
  for _ = 1, iters do sum = sum + check(bottom_up(depth)) end
  print(iters, "trees of depth", depth, "check", sum)
end

-- Write to a temporary file and read it back.
local name = os.tmpname()
local f = assert(io.open(name, "w"))
for i = 1, 500 do f:write(i, "\t", i * i, "\n") end
f:close()
local total = 0
for a, b in io.lines(name, "n", "n") do total = total + a + b end
os.remove(name)
print("file total", total)

io.write(string.format("%s %d %.2f\n", "formatted", 12, 3.14159))
io.write("no newline at the end")
