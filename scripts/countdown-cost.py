#!/usr/bin/env python3
"""How many of an instrumented program's executed instructions are its countdown checks.

With sampling off, an instrumented program runs its fast copies only: the original code
plus a check at every function entry, loop back edge and heavy loop entry (docs/sampling.md).
This splits the instructions it executes into the checks themselves and everything else
(what the optimiser did differently around them: registers, layout, inlining). It counts,
per instruction, from a callgrind profile of the binary:

  * every instruction that touches the thread-local countdown (`%fs:`: the checks on the
    thread-local, `subq $W, %fs:__sampler_countdown; js`, and the loads and stores of
    loops that carry it in a register), with the branch that follows it;
  * `addq $-W, (%reg)` or `decq (%reg)` followed by `js`/`jns`: a check through the
    countdown's address held in a register (lib/IndirectTLS.cpp, since d8afa03; a program's
    own decrement of memory through a pointer, tested for its sign, would be counted too:
    the baseline's count shows how much);
  * `addq $-W, %reg` followed by `js`/`jns`: a check on a countdown carried in a register
    (a 64-bit register decremented by a constant and tested for its sign; program code
    that does the same on a 64-bit counter would be counted too, and so would the
    program's own thread-locals reached through `%fs:`: no baseline build of the corpus
    has either, which the script shows when given one).

usage: countdown-cost.py BINARY CALLGRIND_OUT [N | --function NAME | --entry N | --twins N]
  BINARY         the instrumented program, without DWARF 5 debug info (valgrind 3.19 cannot
                 read clang-19's: `llvm-strip-19 --strip-debug`)
  CALLGRIND_OUT  from `valgrind --tool=callgrind --dump-instr=yes --dump-line=no
                 --compress-pos=no --compress-strings=no --callgrind-out-file=F BINARY ...`
  N              how many functions to list (default 10)
  --function NAME  instead, every instruction of the function NAME with its count (the
                 profile of one loop: how many times it ran, and what each iteration costs)
  --entry N      instead, the entry checks executed (a check among a function's first 40
                 instructions, before any jump, call or return: what each call pays), in
                 all and for the N functions that run most
  --twins N      instead, the functions with an entry twin (F.sampler.twin, lib/EntryTwin.cpp)
                 that still push registers before their entry check, where the twin was
                 meant to let shrink-wrapping save them after the early returns: their
                 calls and the pushes those calls ran, in all and for the N that run most
Prints the binary's own instructions, the checks' share of them, the functions whose
checks execute most, and how many pushes and pops of general-purpose registers it executed
(compare with the baseline's: the callee-saved registers cloned functions save). Used for
docs/benchmarks.md ("How much of the cost is the checks").
"""
import collections
import os
import re
import subprocess
import sys


def die(msg):
    print(f"countdown-cost.py: {msg}", file=sys.stderr)
    sys.exit(1)


def read_profile(path, binary_name):
    """Self cost per instruction address of the binary's own code, and its function."""
    cost, function_of = collections.Counter(), {}
    obj = fn = None
    after_calls = False
    positions = 1  # "positions: instr" (--dump-line=no), 2 for "positions: instr line"
    try:
        lines = open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    with lines:
        for line in lines:
            if line.startswith("positions:"):
                positions = len(line.split()) - 1
                continue
            if line.startswith(("ob=", "fn=")):
                key, _, value = line.rstrip("\n").partition("=")
                if key == "ob":
                    obj = value
                else:
                    fn = value
                continue
            if line.startswith("calls="):
                after_calls = True  # the next cost line is the call's inclusive cost
                continue
            if not line.startswith("0x"):
                continue
            if after_calls:
                after_calls = False
                continue
            if obj is None or os.path.basename(obj) != binary_name:
                continue
            fields = line.split()
            if len(fields) <= positions:
                continue
            address = int(fields[0], 16)
            cost[address] += int(fields[positions])  # the first event (Ir)
            function_of[address] = re.sub(r"'\d+$", "", fn or "?")
    if not cost:
        die(f"{path}: no instructions of {binary_name} (a callgrind profile of another "
            "program, or without --dump-instr=yes --compress-pos=no --compress-strings=no?)")
    return cost, function_of


def disassemble(binary):
    """The binary's instructions, (address, text), and where its functions begin: (the
    index of their first instruction, their name)."""
    try:
        out = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn", binary],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die(f"cannot disassemble {binary}: {e}")
    code, starts = [], []
    for m in re.finditer(r"^(?:[0-9a-f]+ <(.*)>:|\s*([0-9a-f]+):\s+(.*))$", out, re.M):
        if m.group(2) is None:
            starts.append((len(code), m.group(1)))
        else:
            code.append((int(m.group(2), 16), m.group(3)))
    return code, starts


def is_check(text, nxt):
    """Whether an instruction and the next are a check (the module's docstring)."""
    in_register = (re.match(r"addq\s+\$-0x[0-9a-f]+, %r[a-z0-9]+$", text)
                   and re.match(r"jn?s\s", nxt))
    in_memory = (re.match(r"(addq\s+\$-0x[0-9a-f]+,|decq)\s+"
                          r"(%fs:\S+|(-?0x[0-9a-f]+)?\(%r[a-z0-9]+\))$", text)
                 and re.match(r"jn?s\s", nxt))  # through the held address, or %fs:
    return bool(in_register or in_memory)


def opening(code, starts, k):
    """Function k's first instructions (at most 40) before its first check or its first
    jump, call or return, as indices into code, and the index of that check (None if a
    jump, call or return came first)."""
    first = starts[k][0]
    end = min(starts[k + 1][0] if k + 1 < len(starts) else len(code), first + 40)
    for i in range(first, end):
        text = code[i][1]
        nxt = code[i + 1][1] if i + 1 < len(code) else ""
        if is_check(text, nxt):
            return range(first, i), i
        if re.match(r"(j|call|ret)", text):
            return range(first, i), None
    return range(first, end), None


def entry_checks(code, starts, cost, base):
    """How many times each function ran the check it makes before any branch, call or
    return of its own (its entry check, in most functions with sites: what each call into
    them pays), by function name."""
    per = collections.Counter()
    for k, (_, name) in enumerate(starts):
        check = opening(code, starts, k)[1]
        if check is not None:
            per[name] += cost.get(code[check][0] + base, 0)
    return per


def unshrunk_twins(code, starts, cost, base):
    """For each function with an entry twin whose first instructions push registers before
    its entry check: (calls, pushes before the check). Such a function saves its registers
    on every call, early returns included, as it would without the twin."""
    names = {name for _, name in starts}
    found = {}
    for k, (first, name) in enumerate(starts):
        if name + ".sampler.twin" not in names:
            continue
        before = opening(code, starts, k)[0]
        pushes = sum(1 for i in before if re.match(r"pushq\s+%r", code[i][1]))
        if pushes:
            found[name] = (cost.get(code[first][0] + base, 0), pushes)
    return found


def main():
    usage = ("usage: countdown-cost.py BINARY CALLGRIND_OUT "
             "[N | --function NAME | --entry N | --twins N]")
    if len(sys.argv) not in (3, 4, 5):
        die(usage)
    binary, profile = sys.argv[1], sys.argv[2]
    function, top, mode = None, 10, None
    if len(sys.argv) == 5:
        if sys.argv[3] not in ("--function", "--entry", "--twins"):
            die(usage)
        if sys.argv[3] == "--function":
            function = sys.argv[4]
        else:
            mode = sys.argv[3]
            try:
                top = int(sys.argv[4])
            except ValueError:
                die(f"N must be a number, got '{sys.argv[4]}'")
    elif len(sys.argv) == 4:
        try:
            top = int(sys.argv[3])
        except ValueError:
            die(f"N must be a number, got '{sys.argv[3]}'")
    cost, function_of = read_profile(profile, os.path.basename(binary))
    code, fn_starts = disassemble(binary)
    # valgrind maps a position-independent executable at 0x108000: take the load address
    # under which the profile's addresses are instructions of the binary.
    starts = {a for a, _ in code}
    matched = {b: sum(1 for a in cost if a - b in starts) for b in (0, 0x108000)}
    base = max(matched, key=matched.get)
    if matched[base] < 0.99 * len(cost):
        die(f"{profile} does not profile {binary}: {len(cost) - matched[base]} of its "
            f"{len(cost)} addresses are not instructions of it")
    if function is not None:
        ran = [a for a, _ in code if function_of.get(a + base) == function]
        if not ran:
            die(f"{profile}: no instruction of {function} ran")
        # Every instruction from the first to the last that ran, with its count.
        for address, text in code:
            if ran[0] <= address <= ran[-1]:
                n = cost.get(address + base, 0)
                print(f"{n if n else '':>13}  {address:x}: {text}")
        return
    if mode == "--twins":
        twins = sum(1 for _, name in fn_starts if name.endswith(".sampler.twin"))
        found = unshrunk_twins(code, fn_starts, cost, base)
        calls = sum(c for c, _ in found.values())
        pushes = sum(c * p for c, p in found.values())
        print(f"{twins} entry twins; {len(found)} of their functions push registers before "
              f"the entry check: {calls} calls, {pushes} pushes (and as many pops)")
        for name, (c, p) in sorted(found.items(), key=lambda x: -x[1][0] * x[1][1])[:top]:
            print(f"  {c:>13} calls {p} pushes {name}")
        return
    if mode == "--entry":
        per = entry_checks(code, fn_starts, cost, base)
        print(f"{sum(per.values())} entry checks executed (a check before any branch, call "
              "or return of its function)")
        for name, n in per.most_common(top):
            print(f"  {n:>13} {name}")
        return
    checks = collections.Counter()
    saves = 0  # pushes and pops of general-purpose registers: mostly callee-saved ones
    for i, (address, text) in enumerate(code):
        if re.match(r"(push|pop)q\s+%r", text):
            saves += cost.get(address + base, 0)
        nxt = code[i + 1][1] if i + 1 < len(code) else ""
        if "%fs:" not in text and not is_check(text, nxt):
            continue
        own = cost.get(address + base, 0)
        if re.match(r"j", nxt):
            own += cost.get(code[i + 1][0] + base, 0)
        if own:
            checks[function_of.get(address + base, "?")] += own
    total, spent = sum(cost.values()), sum(checks.values())
    print(f"{binary}: {total} instructions of its own, {spent} in countdown checks "
          f"({100.0 * spent / total:.2f}%)")
    for fn, n in checks.most_common(top):
        print(f"  {n:>13} {fn}")
    # The registers a function saves on entry and restores on return: compared with the
    # baseline's, what the instrumented copy's registers cost the fast path.
    print(f"{binary}: {saves} pushes and pops of general-purpose registers")


if __name__ == "__main__":
    main()
