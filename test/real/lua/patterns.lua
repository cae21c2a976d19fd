-- Pattern matching: find, match, gmatch, gsub with strings, functions and tables.
local text = [[
Lua 5.4 was released in 2020. Version 5.3 came out in 2015, and 5.2 in 2011.
Contact: alice@example.org, bob.smith@mail.example.com; visit http://www.lua.org/manual/5.4/
The quick brown fox -- jumps (over (the) lazy) dog!  Numbers: -12, 3.75, 1e3, 0x1F.
key1 = value1
key2=value two
  key3   =   3
]]

print(text:find("Lua"), text:find("5.4", 1, true), text:find("%d%d%d%d"), text:find("xyz"))
print(text:match("(%d+)%.(%d+)"), text:match("released in (%d+)"))
print(text:match("%((%b())"), text:match("%b()"))
print(text:match("(%w+)@(%w+)%.(%a+)"))

local years = {}
for y in text:gmatch("%f[%d]%d%d%d%d%f[%D]") do years[#years + 1] = y end
print("years", table.concat(years, ","))

local emails = {}
for user, host in text:gmatch("([%w%.]+)@([%w%.]+%a)") do emails[#emails + 1] = user .. " at " .. host end
print(table.concat(emails, " | "))

local kv = {}
for k, v in text:gmatch("(%w+)%s*=%s*([^\n]-)%s*\n") do kv[#kv + 1] = k .. "->[" .. v .. "]" end
print(table.concat(kv, " "))

local nums = {}
for num in text:gmatch("[-+]?%d+%.?%d*[eE]?%d*") do nums[#nums + 1] = num end
print(#nums, table.concat(nums, " "))

-- gsub: counts, anchors, captures, function and table replacements.
print(("hello world"):gsub("o", "0"))
print(("hello world"):gsub("o", "0", 1))
print(("hello world"):gsub("(%w+) (%w+)", "%2 %1"))
print(("abc"):gsub("", "-"))
print(("  trim me  "):gsub("^%s*(.-)%s*$", "%1"))
print(("$name is $age years"):gsub("%$(%w+)", { name = "Ada", age = 36 }))
print(("1 2 3 4 5"):gsub("%d", function(d) return tonumber(d) * tonumber(d) end))
print(("CamelCaseStringHere"):gsub("(%u)", function(c) return "_" .. c:lower() end))
print(("x = 1, y = 2"):gsub("(%w+) = (%w+)", "%0 [%1:%2]"))
print(pcall(string.gsub, "abc", "(", "x"))

-- Word frequencies, printed in a defined order.
local freq = {}
for w in text:lower():gmatch("%a+") do freq[w] = (freq[w] or 0) + 1 end
local words = {}
for w, n in pairs(freq) do words[#words + 1] = { w = w, n = n } end
table.sort(words, function(a, b) if a.n ~= b.n then return a.n > b.n end return a.w < b.w end)
for i = 1, 8 do io.write(words[i].w, ":", words[i].n, " ") end
print()

-- A tiny CSV parser with quoted fields.
local function parse_csv(line)
  local res, pos = {}, 1
  while true do
    if line:sub(pos, pos) == '"' then
      local txt, i = "", pos + 1
      while true do
        local a, b = line:find('"', i, true)
        txt = txt .. line:sub(i, a - 1)
        if line:sub(b + 1, b + 1) == '"' then txt = txt .. '"'; i = b + 2 else pos = b + 2; break end
      end
      res[#res + 1] = txt
    else
      local a = line:find(",", pos, true)
      if a then res[#res + 1] = line:sub(pos, a - 1); pos = a + 1
      else res[#res + 1] = line:sub(pos); break end
    end
    if pos > #line + 1 then break end
  end
  return res
end
local row = parse_csv('1,"two, with comma","say ""hi""",,last')
print(#row, table.concat(row, "|"))

-- Repeated substitution workload.
local s = string.rep("the cat sat on the mat. ", 400)
local total = 0
for _ = 1, 20 do
  local r, n = s:gsub("(%a)at", "%1og")
  total = total + n + #r
end
print("gsub total", total)
