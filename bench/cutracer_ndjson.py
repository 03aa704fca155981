#!/usr/bin/env python3
"""A large CUTracer reg_trace NDJSON for timing rft-decode --input-format
cutracer (bench/README would list it): N records of a loop kernel over
256 warps (64 CTAs of 4), in CUTracer's current form (kernel_metadata with
the instruction table, active_mask, regs_indices).

    python3 bench/cutracer_ndjson.py 1000000 | zstd -q -o big.ndjson.zst
    time zstd -dc big.ndjson.zst > /dev/null
    time rft-decode big.ndjson.zst -o /dev/null
"""
import json
import sys

PROG = [("S2R R0, SR_TID.X ;", [0]), ("S2R R3, SR_CTAID.X ;", [3]),
        ("IMAD R0, R3, 0x80, R0 ;", [0, 3, 0]), ("IADD3 R2, R0, 0x100, RZ ;", [2, 0, 255]),
        ("LDG.E R5, [R2.64] ;", [5, 2]), ("FFMA R6, R5, R5, R6 ;", [6, 5, 5, 6]),
        ("IADD3 R2, R2, 0x4, RZ ;", [2, 2, 255]),
        ("ISETP.LT.AND P0, PT, R2, 0x100000, PT ;", [2]), ("@P0 BRA 0x40 ;", []),
        ("STG.E [R2.64], R6 ;", [2, 6]), ("EXIT ;", [])]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
CTAS, WPC = 64, 4
WARPS = CTAS * WPC
ITERS = max(1, (N // WARPS - 6) // 5)
out = sys.stdout
meta = {"type": "kernel_metadata", "mangled_name": "_Z4loopPf", "unmangled_name": "loop(float*)",
        "nregs": 8, "grid": [CTAS, 1, 1], "block": [32 * WPC, 1, 1],
        "instructions": {str(i): ({"sass": s, "regs": r} if r else {"sass": s})
                         for i, (s, r) in enumerate(PROG)}}
out.write(json.dumps(meta, separators=(",", ":")) + "\n")
regs = [[[0] * 32 for _ in range(8)] for _ in range(WARPS)]
RZ = [0] * 32
trace = [0]


def record(w, op):
    r = regs[w]
    vals = ",".join("[" + ",".join(map(str, RZ if i == 255 else r[i])) + "]" for i in PROG[op][1])
    out.write('{"active_mask":"0xffffffff","cta":[%d,0,0],"ctx":"0x5a1100","grid_launch_id":0,'
              '"opcode_id":%d,"pc":"0x%x","regs":[%s],"regs_indices":[%s],"timestamp":%d,'
              '"trace_index":%d,"type":"reg_trace","warp":%d}\n'
              % (w // WPC, op, op * 16, vals, ",".join(map(str, PROG[op][1])),
                 1763069214784647489 + trace[0], trace[0], w))
    trace[0] += 1
    if op == 0:
        r[0] = [(w % WPC) * 32 + t for t in range(32)]
    elif op == 1:
        r[3] = [w // WPC] * 32
    elif op == 2:
        r[0] = [c * 128 + t for c, t in zip(r[3], r[0])]
    elif op == 3:
        r[2] = [(g * 4 + 0x100) & 0xffffffff for g in r[0]]
    elif op == 4:
        r[5] = [(a * 2654435761) & 0xffffffff for a in r[2]]
    elif op == 5:
        r[6] = [(x + y) & 0xffffffff for x, y in zip(r[5], r[6])]
    elif op == 6:
        r[2] = [(a + 4) & 0xffffffff for a in r[2]]


for op in range(4):
    for w in range(WARPS):
        record(w, op)
for _ in range(ITERS):
    for op in range(4, 9):
        for w in range(WARPS):
            record(w, op)
for op in (9, 10):
    for w in range(WARPS):
        record(w, op)
