#!/usr/bin/env python3
"""Deterministic input data for scripts/bench.sh (zlib, bzip2, ccrypt workloads).

    bench/make-data.py OUTDIR

Writes, the same bytes on every machine (a fixed 64-bit linear congruential generator):
  text.txt   4 MiB of pseudo-random English-like lines (compressible about 4:1)
  big.txt   16 MiB: text.txt four times, each copy with its lines in another order
  records.bin  3 MiB of binary data unlike the text, for the alternative workloads
             (scripts/bench.sh, BENCH_WORKLOAD=alt): 64 KiB chunks of fixed-size records
             (a sensor log: small deltas), of a short pattern repeated (bzip2's block sort
             falls back from its main sort on these), of random bytes (incompressible) and
             of runs of one byte
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
    # After big.txt: the generator's stream for the text files is the one it always was.
    with open(os.path.join(out, "records.bin"), "wb") as f:
        f.write(records(3 * 1024 * 1024))


def records(size):
    """size bytes of binary chunks of four kinds (see the docstring)."""
    out = bytearray()
    stamp, value = 0, 0
    chunk = 64 * 1024
    while len(out) < size:
        kind = rnd() % 20
        part = bytearray()
        if kind < 10:      # records of 16 bytes: time, sensor, flags, value, zero padding
            while len(part) < chunk:
                stamp += rnd() % 50
                value += rnd() % 201 - 100
                part += (stamp & 0xFFFFFFFF).to_bytes(4, "little")
                part += (rnd() % 12).to_bytes(2, "little")
                part += (1 << (rnd() % 3)).to_bytes(2, "little")
                part += (value & 0xFFFFFFFF).to_bytes(4, "little")
                part += bytes(4)
        elif kind < 14:    # a short pattern repeated
            pattern = bytes(rnd() % 256 for _ in range(1 + rnd() % 200))
            part = bytearray(pattern * (chunk // len(pattern) + 1))
        elif kind < 17:    # random bytes
            part = bytearray(rnd() & 0xFF for _ in range(chunk))
        else:              # runs of one byte
            while len(part) < chunk:
                part += bytes([rnd() % 256]) * (1 + rnd() % 300)
        out += part[:chunk]
    return bytes(out[:size])


if __name__ == "__main__":
    main()
