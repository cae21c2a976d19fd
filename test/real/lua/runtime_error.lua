-- expect-exit: 1
-- An uncaught runtime error: the interpreter prints a traceback on stderr and exits with 1.
local function check(depth)
  if depth == 0 then
    local t = {}
    return t.missing.field -- attempt to index a nil value
  end
  return check(depth - 1) + 1
end
print("before the error")
io.stdout:flush()
print(check(20))
print("never printed")
