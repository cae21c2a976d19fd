# count-shrinks.py - what LLVM's register coalescer shrinks, counted under gdb.
#
# A breakpoint on llvm::LiveIntervals::shrinkToUses(LiveInterval *, ...) records, at each
# call, the interval's register (the unsigned at offset 112 of the LiveInterval, LLVM 19)
# and its number of segments (offset 8) before the shrink, and lets the program go on.
# At exit it prints the number of calls, the segments walked, and the ten registers that
# cost the most (virtual register numbers, as -stop-before=register-coalescer prints them).
# docs/benchmarks.md ("Compile time: a site's cold code in one block", "Compile time: one
# edge a check") quotes its counts.
#
# Usage (the release libLLVM has the exported symbol, which is all it needs):
#   gdb -q -batch -x scripts/count-shrinks.py --args llc-19 -O2 -relocation-model=pic \
#       F.bc -stop-after=register-coalescer -o /dev/null
import collections

import gdb

calls = 0
segments = 0
by_reg = collections.Counter()
calls_by_reg = collections.Counter()


class ShrinkToUses(gdb.Breakpoint):
    def stop(self):
        global calls, segments
        li = int(gdb.parse_and_eval("$rsi"))  # the LiveInterval (rdi is `this`)
        reg = int(gdb.parse_and_eval("*(unsigned *)(%d + 112)" % li))
        n = int(gdb.parse_and_eval("*(unsigned *)(%d + 8)" % li))
        calls += 1
        segments += n
        by_reg[reg] += n
        calls_by_reg[reg] += 1
        return False


def report(_event):
    print("CALLS", calls, "SEGMENTS", segments)
    for reg, n in by_reg.most_common(10):
        print("reg", reg & 0x7FFFFFFF, "segments", n, "calls", calls_by_reg[reg])


gdb.execute("set breakpoint pending on")
ShrinkToUses("llvm::LiveIntervals::shrinkToUses(llvm::LiveInterval*, "
             "llvm::SmallVectorImpl<llvm::MachineInstr*>*)")
gdb.events.exited.connect(report)
gdb.execute("run")
