-- String manipulation: case, repetition, slicing, bytes, concatenation, utf8, string.format.
local s = "The quick brown fox jumps over the lazy dog"
print(#s, s:upper(), s:lower())
print(s:sub(5, 9), s:sub(-3), s:sub(-8, -5), s:reverse())
print(("ab"):rep(5), ("ab"):rep(3, "-"), ("x"):rep(0) == "")
print(s:byte(1), s:byte(-1), string.char(72, 105, 33))
local bytes = { s:byte(1, 10) }
print(table.concat(bytes, ","))

-- Caesar cipher over every letter, and back.
local function rot(str, k)
  return (str:gsub("%a", function(c)
    local base = c:match("%l") and 97 or 65
    return string.char((c:byte() - base + k) % 26 + base)
  end))
end
local enc = rot(s, 13)
print(enc, rot(enc, 13) == s)

-- Build a long string piece by piece and with table.concat; compare.
local parts, acc = {}, ""
for i = 1, 2000 do
  local piece = string.format("%04d;", i * 7 % 10000)
  parts[#parts + 1] = piece
  if i <= 300 then acc = acc .. piece end
end
local joined = table.concat(parts)
print(#joined, joined:sub(1, 40), joined:sub(1, #acc) == acc)

-- A simple checksum over the whole string.
local h = 0
for i = 1, #joined do h = (h * 31 + joined:byte(i)) % 4294967296 end
print("checksum", h)

-- string.format of every kind.
print(string.format("[%5d] [%-5d] [%05d] [%x] [%X] [%o] [%c]", 42, 42, 42, 255, 255, 8, 65))
print(string.format("[%10s] [%-10s] [%.3s] [%q]", "right", "left", "truncate", 'a "quoted"\n string'))
print(string.format("%.3f %.10g %e %g %g %a", math.pi, 1 / 3, 12345.678, 1e20, 0.1, 1.0))
print(string.format("%5.1f|%-8.2f|%+d|% d", 3.14159, 2.5, 7, 7))
print(string.format("%q", 1 / 0), string.format("%q", -1 / 0), string.format("%q", math.mininteger))

-- utf8
local u = "h\u{e9}llo w\u{f6}rld \u{4e16}\u{754c}"
print(#u, utf8.len(u), utf8.char(72, 228, 8364))
local cps = {}
for _, c in utf8.codes(u) do cps[#cps + 1] = c end
print(table.concat(cps, " "))
print(utf8.offset(u, 3), utf8.codepoint(u, 1, 3))

-- string.pack / unpack
local packed = string.pack("<i4 i8 d z", -2, 1 << 40, 2.5, "zero")
print(#packed, string.unpack("<i4 i8 d z", packed))

-- tostring / tonumber round trips
for _, v in ipairs({ "10", "0x1F", "1e3", "  7  ", "3.25", "abc", "5e-2", "0x.8p1" }) do
  io.write(tostring(tonumber(v)), " ")
end
print()
print(tonumber("z", 36), tonumber("777", 8), tonumber("11111111", 2), tostring(2^53), 2^63, -0.0)
