#!/usr/bin/env python3
"""Deterministic input data for scripts/bench.sh (zlib, bzip2, ccrypt workloads).

    bench/make-data.py OUTDIR

Writes, the same bytes on every machine (a fixed 64-bit linear congruential generator):
  text.txt   4 MiB of pseudo-random English-like lines (compressible about 4:1)
  big.txt   16 MiB: text.txt four times, each copy with its lines in another order
The files are made at run time (into BUILD_DIR/bench/data/), not committed.
"""
import os
import sys

state = 20240607


def rnd():
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return state >> 33


WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at "
         "which but have an they you were her she there been one all we their has would when if "
         "sampler report branch predicate instrumentation countdown sparsity statistical debugging "
         "zlib bzip2 deflate inflate huffman block sort cipher rijndael arbitrary precision "
         "benchmark overhead instruction density geometric bernoulli observation site").split()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    lines, line, size = [], [], 0
    while size < 4 * 1024 * 1024:
        w = WORDS[rnd() % len(WORDS)]
        if rnd() % 17 == 0:
            w = w.capitalize() + ("," if rnd() % 2 else ".")
        if rnd() % 29 == 0:
            w = str(rnd() % 100000)
        line.append(w)
        if len(line) >= 8 + rnd() % 8:
            s = " ".join(line) + "\n"
            lines.append(s)
            size += len(s)
            line = []
    text = "".join(lines)
    with open(os.path.join(out, "text.txt"), "w") as f:
        f.write(text)
    parts = [text]
    for _ in range(3):
        shuffled = lines[:]
        for i in range(len(shuffled) - 1, 0, -1):   # Fisher-Yates with our generator
            j = rnd() % (i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        parts.append("".join(shuffled))
    with open(os.path.join(out, "big.txt"), "w") as f:
        f.write("".join(parts))


if __name__ == "__main__":
    main()
