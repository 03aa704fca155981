#!/usr/bin/env bats
# The NumPy reader of duty maps (issue 35): examples/rft_reader.py's
# duty_arrays() reads the records block by block into arrays of the
# narrowest type, one slice when asked; its arrays are the cells that
# rft-vth --by cells prints, whatever the block size, through
# python3-zstandard or the zstd program, compressed or not.  Skipped, with
# the reason, where NumPy is not installed.
load test_helper

READER_DIR="$TOP/examples"

# PY: the first Python 3 that imports NumPy (Debian's python3-numpy is for
# /usr/bin/python3, which another python3 on PATH may hide), or skip
need_numpy() {
    local py
    for py in python3 /usr/bin/python3; do
        "$py" -c "import numpy" 2>/dev/null && { PY=$py; return 0; }
    done
    skip "NumPy is not installed for python3 nor /usr/bin/python3 (Debian: python3-numpy)"
}

setup_file() {
    local d=$BATS_FILE_TMPDIR
    # a small register file: 1 CU, 2 SIMDs, 16 lanes (512 cells an entry);
    # rft-gate's map ends with counters records, which the reader skips
    rft-synth --quiet --writes 3000 --cus 1 --simds 2 --lanes 16 -o "$d/t.rft"
    rft-alloc "$d/t.rft" | rft-gate --scheme rc | rft-duty -o "$d/rc.rft"
    zstd -qdc "$d/rc.rft" > "$d/rc.raw"
    rft-vth --by cells --format tsv "$d/rc.rft" > "$d/cells.tsv"
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    D=$BATS_FILE_TMPDIR
}

# compare.py DIR CELLS PATH:BLOCK[:program]... [CU:SIMD]...: reads CELLS
# (rft-vth --by cells: runs of equal cells, in order of slice, entry and
# bit) into arrays and checks duty_arrays(PATH) against them for each
# PATH:BLOCK, read in blocks of BLOCK bytes, through the zstd program if
# asked, of the slices CU:SIMD only if any; a line each
compare_py() {
    cat > compare.py <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import rft_reader

cells = sys.argv[2]
runs = [a.split(":") for a in sys.argv[3:] if not a[0].isdigit()]
want = [tuple(map(int, a.split(":"))) for a in sys.argv[3:] if a[0].isdigit()]
rows = [l.rstrip("\n").split("\t") for l in open(cells)][1:]
if want:
    rows = [r for r in rows if tuple(map(int, r[1].split(":"))) in want]
slices = sorted({tuple(map(int, r[1].split(":"))) for r in rows})
n, entries = len(slices), len({r[2] for r in rows})
col = {k: np.array([int(r[c]) for r in rows], np.uint64)
       for k, c in (("from", 3), ("to", 4), ("t0", 5), ("t1", 6), ("off", 7),
                    ("cycles", 8), ("first", 10), ("last", 11))}
width = (col["to"] - col["from"] + 1).astype(np.int64)
exp = {k: np.repeat(col[k], width).reshape(n, entries, -1) for k in ("t0", "t1", "off")}
head = col["from"] == 0                 # the first row of each entry
cyc, first, last = (col[k][head].reshape(n, entries) for k in ("cycles", "first", "last"))
used = np.array([r[12] == "used" for r in rows])[head].reshape(n, entries)
for path, block, *how in runs:
    if how == ["program"]:
        sys.modules["zstandard"] = None     # the zstd program, not the module
    rft_reader.CHUNK = 100 if how == ["chunk100"] else 1 << 16
    rft_reader.BLOCK = int(block)
    d = rft_reader.duty_arrays(path, slices=want or None)
    assert d.slices == slices, (d.slices, slices)
    assert d.t0.shape == (n, entries, exp["t0"].shape[2] // 32, 32), d.t0.shape
    for k in ("t0", "t1", "off"):
        assert (getattr(d, k).reshape(n, entries, -1) == exp[k]).all(), k
    assert (d.cycles == cyc).all() and (d.first == first).all() and (d.last == last).all()
    assert (d.used == used).all() and d.span == rows[-1][9]
    print(d.t0.dtype, d.t0.shape, int(d.t1.sum(dtype=np.uint64)), int(d.off.sum(dtype=np.uint64)))
EOF
}

@test "duty_arrays: every cell as rft-vth --by cells prints it, whatever the block size" {
    need_numpy
    compare_py
    # blocks of 1000, 777 and 4099 bytes: records cut between blocks, the
    # counters records at the end read one by one; the content not
    # compressed; through the zstd program; blocks of 300 bytes read 100
    # bytes at a time, shorter than a record (about 1 KB)
    run -0 "$PY" compare.py "$READER_DIR" "$D/cells.tsv" "$D/rc.rft:4194304" "$D/rc.rft:1000" \
        "$D/rc.raw:777" "$D/rc.rft:4099:program" "$D/rc.raw:300:chunk100"
    [[ ${lines[0]} == "uint16 (2, 256, 16, 32) "* ]]
    [ "${#lines[@]}" = 5 ] && [ "$(printf '%s\n' "${lines[@]}" | sort -u | wc -l)" = 1 ]
}

@test "duty_arrays: one slice read alone, the same cells, the memory of one slice" {
    need_numpy
    compare_py
    run -0 "$PY" compare.py "$READER_DIR" "$D/cells.tsv" "$D/rc.rft:1000" 0:1
    [[ $output == "uint16 (1, 256, 16, 32) "* ]]
    run -0 "$PY" - "$READER_DIR" "$D/rc.rft" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
a = rft_reader.duty_arrays(sys.argv[2])
b = rft_reader.duty_arrays(sys.argv[2], slices=[(0, 1)])
assert b.slices == [(0, 1)] and b.slice_index == {(0, 1): 0}
assert (b.t1[0] == a.t1[1]).all() and (b.off[0] == a.off[1]).all() and (b.cycles[0] == a.cycles[1]).all()
print(b.t0.nbytes, b.t0.nbytes * 2 == a.t0.nbytes)
print(len(rft_reader.duty_arrays(sys.argv[2], slices=[(5, 5)]).slices))
EOF
    assert_output $'262144 True\n0'          # 256 x 512 cells of 2 bytes
}

@test "duty_arrays: the narrowest type, dtype= asked for, an entry found again added up" {
    need_numpy
    run -0 "$PY" - "$READER_DIR" "$D/rc.rft" "$D/rc.raw" <<'EOF'
import struct, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import rft_reader
a = rft_reader.duty_arrays(sys.argv[2])
assert a.cycles.max() < 1 << 16 and a.t0.dtype == np.uint16
b = rft_reader.duty_arrays(sys.argv[2], dtype=np.uint64)
assert b.t0.dtype == np.uint64 and (b.t0 == a.t0).all() and (b.t1 == a.t1).all()
try:
    rft_reader.duty_arrays(sys.argv[2], dtype=np.uint8)
except rft_reader.Bad as e:
    print(e)
# a map whose every duty record comes three times (maps not merged): the
# sums, in uint32 once the third pushes an entry past 65535 cycles, the
# window the same; small blocks, so that uint16 is widened midway
raw = open(sys.argv[3], "rb").read()
hlen = struct.unpack_from("<I", raw, 8)[0]
pos, duty, other = 12 + hlen, [], []
while raw[pos] != 0:
    n = struct.unpack_from("<I", raw, pos + 1)[0]
    (duty if raw[pos] == 0x10 else other).append(raw[pos:pos + 5 + n])
    pos += 5 + n
recs = duty * 3 + other
with open("thrice.raw", "wb") as f:
    f.write(raw[:12 + hlen] + b"".join(recs) + b"\0" + struct.pack("<IQ", 8, len(recs)))
rft_reader.BLOCK = 5000
t = rft_reader.duty_arrays("thrice.raw")
assert t.t0.dtype == np.uint32, t.t0.dtype
for k in ("t0", "t1", "off", "cycles"):
    assert (getattr(t, k) == 3 * getattr(a, k).astype(np.uint64)).all(), k
assert (t.first == a.first).all() and (t.last == a.last).all() and (t.used == a.used).all()
print("thrice ok")
EOF
    assert_line --index 0 --regexp '^record 1: an entry of [0-9]+ cycles \(more than uint8 holds\)$'
    assert_line --index 1 "thrice ok"
}

@test "duty_arrays: a corrupt or cut map is refused with the record, as the record reader does" {
    need_numpy
    cp "$D/rc.raw" m.raw
    # the second record: one plane more than it holds
    "$PY" - m.raw <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
rec = 12 + struct.unpack_from("<I", b, 8)[0]
rec += 5 + struct.unpack_from("<I", b, rec + 1)[0]
assert b[rec] == 0x10
b[rec + 5 + 3] += 1
open(sys.argv[1], "wb").write(b)
EOF
    head -c 30000 "$D/rc.raw" > cut.raw
    head -c -13 "$D/rc.raw" > noend.raw         # without its end record
    { cat "$D/rc.raw"; echo; } > trail.raw
    run -0 "$PY" - "$READER_DIR" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
for path in ("m.raw", "cut.raw", "noend.raw", "trail.raw"):
    for read in (lambda: rft_reader.duty_arrays(path), lambda: list(rft_reader.records_of(path, "duty"))):
        try:
            read()
        except rft_reader.Bad as e:
            print(e)
EOF
    assert_line --index 0 --regexp '^record 2: duty record of [0-9]+ bytes \(expected [0-9]+\)$'
    assert_line --index 1 "${lines[0]}"
    assert_line --index 2 --regexp '^record [0-9]+: stream ends inside the record \(truncated\)$'
    assert_line --index 3 "${lines[2]}"
    assert_line --index 4 --regexp '^record [0-9]+: stream ends without an end record \(truncated\)$'
    assert_line --index 5 "${lines[4]}"
    assert_line --index 6 --regexp '^record [0-9]+: data after the end record$'
    assert_line --index 7 "${lines[6]}"
}

@test "duty_arrays without NumPy names the interpreter" {
    run -1 python3 - "$READER_DIR" "$D/rc.rft" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
sys.modules["numpy"] = None
import rft_reader
try:
    rft_reader.duty_arrays(sys.argv[2])
except rft_reader.Bad as e:
    print(e)
    sys.exit(1)
EOF
    exe=$(python3 -c 'import sys; print(sys.executable)')
    assert_output "NumPy is not installed for $exe (Debian: apt-get install python3-numpy; else: $exe -m pip install numpy)"
}

@test "read_tables: a study script's tables for people refused, naming --format tsv; its TSV read" {
    rft-synth --quiet --writes 2000 -o u.rft
    sh "$TOP/examples/undervolt.sh" --quiet u.rft > people.txt
    sh "$TOP/examples/undervolt.sh" --quiet --format tsv u.rft > tables.tsv
    # the refusal comes before pandas is needed: any python3
    run -1 python3 - "$READER_DIR" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
try:
    rft_reader.read_tables("people.txt")
except rft_reader.Bad as e:
    print(e)
    sys.exit(1)
EOF
    assert_output "people.txt: text output for people ('$(head -1 people.txt | cut -c1-60)'): run the script with --format tsv"
    for py in python3 /usr/bin/python3 ""; do
        [ -n "$py" ] || skip "pandas is not installed (Debian: python3-pandas): the TSV not read"
        "$py" -c "import pandas" 2>/dev/null && break
    done
    run -0 "$py" - "$READER_DIR" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
t = rft_reader.read_tables("tables.tsv")
print(len(t), list(t[0].columns[:2]), t[0]["writes"].tolist(), list(t[1].columns[:2]))
EOF
    w=$(rft-view --stats --format tsv u.rft | awk -F '\t' '$1 == "writes" { print $2 }')
    assert_output "2 ['scenario', 'writes'] [$w, $w, $w] ['scheme', 'vdd_mV']"
}

@test "write_arrays: every write as rft-view prints it, whatever the block size" {
    need_numpy
    rft-view "$D/t.rft" | grep '^W' > view.txt
    [ "$(wc -l < view.txt)" -gt 1000 ]
    run -0 "$PY" - "$READER_DIR" "$D/t.rft" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
for block in (4 << 20, 1000, 333):
    rft_reader.BLOCK = block
    c = rft_reader.write_arrays(sys.argv[2])
    lanes = c["values"].shape[1]
    with open("py%d.txt" % block, "w") as f:
        for i in range(len(c["cycle"])):
            mask = sum(1 << b for b in range(lanes) if c["mask"][i, b])
            f.write("W\t%d\t%d\t%d\t%d\t%d\t%0*x\t%s\n" % (
                c["cycle"][i], c["cu"][i], c["simd"][i], c["wf"][i], c["vreg"][i],
                (lanes + 3) // 4, mask, "\t".join("%08x" % v for v in c["values"][i])))
EOF
    for b in 4194304 1000 333; do
        run -0 cmp view.txt "py$b.txt"
    done
}
