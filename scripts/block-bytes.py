#!/usr/bin/env python3
"""Where an instrumented unit's code goes: bytes of machine code per kind of block.

sampler-cc -S keeps, beside each block's label, the name of the IR block it came from
(`.LBB4_77:  # %site.observe80.slow`). The pass names what it adds: `site.*` (a site's
cold code: the d = 1 test, the draw and the observation; `site.cont*` is the program's code
after a site), `sampler.*` (checks, ways to the instrumented
copy, fresh draws, payments), `*.slow` (the instrumented copy), `*.chunk`, `*.tail` and
`*.reserve` (the loop passes' copies); every other block is the fast copy, the program's own
code. Bytes are those llvm-mc-19 encodes for each instruction; a block without a name
counts with the block before it.

usage: block-bytes.py FILE.s [FUNCTION]
  FILE.s     the output of `sampler-cc -O2 -S` (or of clang-19 -O2 -S, whose blocks are
             all "fast": its total is the baseline's size)
  FUNCTION   also show how far FUNCTION's fast code is spread: its fast bytes, the bytes
             from its start to the end of its last fast block (every other block between
             them included), and the number of runs of fast and other blocks
"""
import itertools
import re
import subprocess
import sys
import tempfile

LABEL = re.compile(r'^(\.LBB\S+|# %bb\.\d+):\s*#\s*%(\S+)')
FUNC_LABEL = re.compile(r'^([\w.$]+):\s*(#.*)?$')
ENCODING = re.compile(r'# encoding: \[(.*)\]')
MARK = re.compile(r'^\.Lblockbytes(\d+):')


def kind(name):
    """The kind of a block, from its IR name."""
    if name.startswith('site.cont'):  # the program's code after a site
        return 'slow' if '.slow' in name else 'fast'
    if name.startswith('site.') or '.site.' in name:
        return 'site'
    if name.startswith('sampler.'):
        return 'sampler.' + name.split('.')[1].rstrip('0123456789')
    for part in ('slow', 'chunk', 'tail', 'reserve'):
        if '.' + part in name:
            return part
    return 'fast'


def encoded_blocks(lines):
    """(function, kind) and bytes of each block, in layout order."""
    out, marks, func = [], [], None
    for line in lines:
        m = FUNC_LABEL.match(line)
        if m and not m.group(1).startswith('.L'):
            func = m.group(1)
            out.append(line)
            marks.append((func, 'fast'))
            out.append('.Lblockbytes%d:' % (len(marks) - 1))
            continue
        m = LABEL.match(line)
        if m and func:
            marks.append((func, kind(m.group(2))))
            out.append('.Lblockbytes%d:' % (len(marks) - 1))
        out.append(line)
    with tempfile.NamedTemporaryFile('w', suffix='.s') as f:
        f.write('\n'.join(out) + '\n')
        f.flush()
        asm = subprocess.run(['llvm-mc-19', '-show-encoding', f.name], check=True,
                             capture_output=True, text=True).stdout
    blocks, cur = [], None
    for line in asm.splitlines():
        m = MARK.match(line)
        if m:
            cur = marks[int(m.group(1))]
            blocks.append([cur, 0])
            continue
        m = ENCODING.search(line)
        if m and cur:
            blocks[-1][1] += len(m.group(1).split(','))
    return blocks


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit('usage: block-bytes.py FILE.s [FUNCTION]')
    try:
        lines = open(argv[1]).read().splitlines()
    except OSError as e:
        sys.exit('block-bytes.py: %s' % e)
    blocks = encoded_blocks(lines)
    total = {}
    for (func, k), n in blocks:
        total[k] = total.get(k, 0) + n
    everything = sum(total.values())
    for k, n in sorted(total.items(), key=lambda kv: -kv[1]):
        print('%-18s %9d %6.1f%%' % (k, n, 100.0 * n / everything))
    print('%-18s %9d' % ('total', everything))
    if len(argv) == 3:
        mine = [('fast' if k == 'fast' else 'other', n)
                for (func, k), n in blocks if func == argv[2]]
        if not mine:
            sys.exit('block-bytes.py: no function %s in %s' % (argv[2], argv[1]))
        runs = [(k, sum(n for _, n in g)) for k, g in itertools.groupby(mine, key=lambda b: b[0])]
        pos = span = 0
        for k, n in runs:
            pos += n
            if k == 'fast':
                span = pos
        print('%s: fast %d bytes, spread over %d; other %d bytes; %d runs' % (
            argv[2], sum(n for k, n in runs if k == 'fast'), span,
            sum(n for k, n in runs if k != 'fast'), len(runs)))


if __name__ == '__main__':
    main(sys.argv)
