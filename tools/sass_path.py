#!/usr/bin/env python3
"""Count the SASS instructions one thread executes in a turn of a kernel's loop.

usage: tools/sass_path.py OBJECT KERNEL [TAKE...]

OBJECT is a CUDA object or cubin (built for one architecture, e.g. sm_90),
KERNEL a regular expression matched against the mangled function names
(the first match is taken: e.g. 'tb_k_sor_leanIfLb0ELi64E' for
tb_k_sor_lean<float, false, 64>). The loop is the function's widest
backward branch. The walk starts at its head and follows one path to the
back branch: unconditional branches are followed; a conditional branch
falls through (the guarded work is done) unless its address is in TAKE
(hexadecimal), it jumps over a slow-path call of at most three
instructions (the division's), or it jumps over a block of six or more
byte loads and no division (the SOR sweeps' per-face material lookups,
skipped on a uniform row). Prints the loop's addresses, the instructions
on the path and the local-memory (spill) instructions in the function.
Needs cuobjdump (and nvdisasm) from the CUDA toolkit on PATH.
"""
import re
import subprocess
import sys


def function(sass, pattern):
    """The instructions (address, text) of the first function matching pattern."""
    out, on = [], False
    for line in sass.splitlines():
        if 'Function :' in line:
            if on:
                break
            on = re.search(pattern, line) is not None
            continue
        m = re.match(r'\s+/\*([0-9a-f]+)\*/\s+(.*?)\s*;', line)
        if on and m:
            out.append((int(m.group(1), 16), m.group(2)))
    return out


def walk(ins, take):
    """The loop's head and back branch, and the instructions on the path."""
    at = {a: n for n, (a, _) in enumerate(ins)}
    loop = None
    for a, text in ins:
        m = re.search(r'BRA\s+(?:!?U?P\w+,\s*)?0x([0-9a-f]+)', text)
        if m and int(m.group(1), 16) < a and (loop is None or a - int(m.group(1), 16) >
                                              loop[1] - loop[0]):
            loop = (int(m.group(1), 16), a)
    if loop is None:
        sys.exit('no loop in the function')
    n, count = at[loop[0]], 0
    while True:
        a, text = ins[n]
        count += 1
        if a == loop[1]:
            return loop, count
        m = re.match(r'(@!?U?P\w+\s+)?BRA\s+(?:!?U?P\w+,\s*)?0x([0-9a-f]+)', text)
        if m:
            target = int(m.group(2), 16)
            body = [t for _, t in ins[n + 1:at[target]]]
            over_call = any('CALL' in t for t in body) and len(body) <= 3
            per_face = (target > a and sum('LDG.E.U8' in t for t in body) >= 6 and
                        not any('MUFU' in t for t in body))
            if m.group(1) is None or a in take or over_call or per_face:
                n = at[target]
                continue
        n += 1


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sass = subprocess.run(['cuobjdump', '-sass', sys.argv[1]], check=True,
                          capture_output=True, text=True).stdout
    ins = function(sass, sys.argv[2])
    if not ins:
        sys.exit('no function matches ' + sys.argv[2])
    loop, count = walk(ins, {int(x, 16) for x in sys.argv[3:]})
    spills = sum(1 for _, t in ins if re.match(r'(@!?P\w+\s+)?(LDL|STL)\b', t))
    print('loop %#x..%#x: %d instructions a turn; %d spill instructions in the function' %
          (loop[0], loop[1], count, spills))


if __name__ == '__main__':
    main()
