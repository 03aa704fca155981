#!/usr/bin/env bats
# Results in Python: examples/rft_reader.py reads duty maps, counters, fault
# maps and DC-Patch placements as the C programs print them, loads tables
# into pandas, and examples/duty_figure.py redraws seed 002 Fig. 12 from the
# arrays with matplotlib.  NumPy, pandas and matplotlib (Debian
# python3-numpy, python3-pandas, python3-matplotlib) are installed when
# missing if we are root; a test whose module cannot be had is skipped, and
# says why.
load test_helper

READER="$TOP/examples/rft_reader.py"
FIGURE="$TOP/examples/duty_figure.py"

# the first Python 3 that imports every module named (Debian's python3-*
# modules are for /usr/bin/python3, which another python3 on PATH may hide),
# after installing the missing Debian packages when root
python_with() {
    local py deb="" m
    for py in python3 /usr/bin/python3; do
        "$py" -c "import $(IFS=,; echo "$*")" 2>/dev/null && { echo "$py"; return 0; }
    done
    for m in "$@"; do deb+=" python3-$m"; done
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends $deb) >/dev/null 2>&1
        /usr/bin/python3 -c "import $(IFS=,; echo "$*")" 2>/dev/null &&
            { echo /usr/bin/python3; return 0; }
    fi
    echo "cannot import $* (Debian:$deb)" >&2
    return 1
}

# PY: a Python with the modules, or skip with the reason
need() { PY=$(python_with "$@" 2>&1) || skip "$PY"; }

setup_file() {
    local d=$BATS_FILE_TMPDIR
    # a small register file: 1 CU, 2 SIMDs, 16 lanes (512 cells an entry)
    rft-synth --writes 3000 --cus 1 --simds 2 --lanes 16 -o "$d/t.rft"
    rft-alloc "$d/t.rft" | rft-duty -o "$d/base.rft"
    rft-alloc "$d/t.rft" | rft-gate --scheme rc | rft-duty -o "$d/rc.rft"
    rft-faultmap --scenario common -o "$d/fm.rft" "$d/t.rft"
    rft-alloc "$d/fm.rft" | rft-classify | rft-dcpatch -o "$d/dcp.rft" 2>/dev/null
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    D=$BATS_FILE_TMPDIR
}

@test "duty_arrays: every cell's '0', '1' and off cycles as rft-vth --by cells prints them" {
    need numpy
    rft-vth --by cells --format tsv "$D/rc.rft" | tail -n +2 | cut -f2-9 > vth.tsv
    "$PY" - "$TOP/examples" "$D/rc.rft" > py.tsv <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
d = rft_reader.duty_arrays(sys.argv[2])
assert d.t0.shape == (2, 256, 16, 32) and d.span == "slice", (d.t0.shape, d.span)
assert (d.t0 + d.t1 + d.off == d.cycles[:, :, None, None]).all()
for i, (cu, simd) in enumerate(d.slices):
    for e in range(d.t0.shape[1]):
        cells = [(int(a), int(b), int(c)) for a, b, c in zip(
            d.t0[i, e].ravel(), d.t1[i, e].ravel(), d.off[i, e].ravel())]
        start = 0
        for b in range(1, len(cells) + 1):      # runs of equal cells, as rft-vth
            if b == len(cells) or cells[b] != cells[start]:
                print("%d:%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d" % (cu, simd, e, start, b - 1,
                      *cells[start], d.cycles[i, e]))
                start = b
EOF
    run -0 diff vth.tsv py.tsv
    [ "$(wc -l < py.tsv)" -gt 512 ]
}

@test "the records themselves: a duty entry without NumPy is tuples in cell order, the same numbers" {
    need numpy
    run -0 "$PY" - "$TOP/examples" "$D/base.rft" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
plain = [r for r in rft_reader.open_stream(sys.argv[2]) if r.kind == "duty"]
arr = [r for r in rft_reader.open_stream(sys.argv[2], arrays=True) if r.kind == "duty"]
assert len(plain) == len(arr) == 512
for p, a in zip(plain, arr):
    assert len(p.t1) == 512 and a.t1.shape == (16, 32)
    assert list(p.t0) == a.t0.ravel().tolist() and list(p.t1) == a.t1.ravel().tolist()
    assert list(p.off) == a.off.ravel().tolist()
print("ok", plain[0].cu, plain[0].simd, plain[0].entry, plain[0].span)
EOF
    assert_output "ok 0 0 0 slice"
}

@test "rft_reader.py on a duty map: each slice's averages and longest cells as rft-vth --per-slice" {
    need numpy
    run -0 "$PY" "$READER" "$D/rc.rft"
    assert_line --index 0 $'duty\t512'
    assert_line $'slice\tentries_used\tavg_0%\tavg_1%\tavg_off%\tlongest_0%\tlongest_1%'
    rft-vth --per-slice --format tsv "$D/rc.rft" |
        awk -F '\t' '$1 != "all" && $2 ~ /^(entries_used|avg_0%|avg_1%|avg_off%|longest_0%|longest_1%)$/ {
            row[$1] = row[$1] "\t" $3; if (!seen[$1]++) order[++n] = $1 }
            END { for (i = 1; i <= n; i++) print order[i] row[order[i]] }' > vth.tsv
    [ "$(wc -l < vth.tsv)" = 2 ]
    echo "$output" | sed -n '/^slice/,/^stage/p' | grep -v -e '^slice' -e '^stage' > py.tsv
    run -0 diff vth.tsv py.tsv
}

@test "counters: rft-gate's counters of each slice, their writes those of the trace" {
    run -0 python3 - "$TOP/examples" "$D/rc.rft" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
c = rft_reader.counters(sys.argv[2])
print(sorted(c))
print(sum(v["writes"] for (stage, scope), v in c.items() if scope.startswith("slice")))
EOF
    assert_line --index 0 "[('rft-gate', 'slice 0:0'), ('rft-gate', 'slice 0:1'), ('rft-gate', 'total')]"
    assert_line --index 1 "$(rft-view --stats --format tsv "$D/t.rft" | awk -F '\t' '$1 == "writes" { print $2 }')"
    run -0 python3 "$READER" "$D/rc.rft"
    assert_line --regexp $'^rft-gate\tslice 0:1\tswitch_offs\t[0-9]+$'
}

@test "fault maps: the faulty bits of every block as rft-faultmap --csv prints them" {
    need numpy
    rft-faultmap --csv "$D/fm.rft" | tail -n +2 > csv.txt
    "$PY" - "$TOP/examples" "$D/fm.rft" > py.txt <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
for (cu, simd), bits in sorted(rft_reader.fault_maps(sys.argv[2]).items()):
    for e in range(bits.shape[0]):
        for b in range(bits.shape[1]):
            print("%d,%d,%d,%d,%d" % (cu, simd, e, b, bits[e, b]))
EOF
    run -0 diff csv.txt py.txt
    run -0 python3 "$READER" "$D/fm.rft"
    faulty=$(rft-faultmap --stats --format tsv "$D/fm.rft" | awk -F '\t' '$1 == "0:1" { print 256 - $11 "\t" $13 }')
    assert_line $'0:1\tcommon\t256\t'"$faulty"
}

@test "DC-Patch placements: one a write, in entries, blocks or the LDS" {
    need numpy
    writes=$(rft-view --stats --format tsv "$D/dcp.rft" | awk -F '\t' '$1 == "writes" { print $2 }')
    run -0 "$PY" - "$TOP/examples" "$D/dcp.rft" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
p = rft_reader.patch_arrays(sys.argv[2])
n = len(p["place"])
assert (p["block"][p["place"] == 1] == 0xffff).all()
assert ((p["place"] == 3) == (p["entry"] == 0xffff)).all()
assert (p["block"][p["place"] == 2] < 1).all()          # 16 lanes: one block an entry
print(n, *[int((p["place"] == k).sum()) for k in (1, 2, 3)])
EOF
    read -r n e b l <<< "$output"
    [ "$n" = "$writes" ] && [ $((e + b + l)) = "$writes" ] && [ "$b" -gt 0 ]
    run -0 python3 "$READER" "$D/dcp.rft"
    assert_line $'entry\t'"$e"
    assert_line $'block\t'"$b"
}

@test "a corrupt duty record is refused with its record number" {
    need numpy
    zstd -qdc "$D/base.rft" > m.bin
    # the first record (after the 12-byte prefix and the header): its planes byte
    "$PY" - m.bin <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
hlen = struct.unpack_from("<I", b, 8)[0]
rec = 12 + hlen
assert b[rec] == 0x10
b[rec + 5 + 3] += 1                     # one plane more than the record holds
open(sys.argv[1], "wb").write(b)
EOF
    run -1 --separate-stderr "$PY" "$READER" m.bin
    [[ $stderr == "rft_reader.py: m.bin: record 1: duty record of "*" bytes (expected "*")" ]]
}

@test "read_table: any table into pandas, its '#' lines as notes, numbers as numbers" {
    need pandas
    rft-synth --arch evergreen --bundles 2000 -o e.rft
    rft-heal --scheme sc e.rft > summary.txt
    rft-heal --report units --format tsv e.rft > units.tsv
    rft-vth --format csv "$D/rc.rft" > vth.csv
    run -0 "$PY" - "$TOP/examples" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import rft_reader
t = rft_reader.read_table("units.tsv")
print(list(t.columns)[:3], t["unit"].tolist()[-1], t["dvth_reduction%"].dtype)
v = rft_reader.read_table("vth.csv")
print(v.shape[1], v[v.metric == "cycles"].iloc[0, 2])
s = rft_reader.read_tables("summary.txt")       # rft-heal's summary: four tables
p = s[0].set_index("unit")
print(len(s), s[0].attrs["notes"][0].split(":")[0], s[0].attrs["notes"][1])
print(p.loc["SC_0"].isna().tolist()[:2], p.loc["PE_X", "busy%"] > 0, s[3]["healed_cus"].iloc[0])
EOF
    assert_line --index 0 "['unit', 'role', 'busy_naive%'] PE_max float64"
    assert_line --index 1 --regexp '^3 [0-9]+$'
    assert_line --index 2 "4 # e.rft # stress profile: share of ALU instructions and busy cycles of each unit"
    assert_line --index 3 "[True, False] True all"
}

@test "duty_figure.py redraws seed 002 Fig. 12 from the arrays, the numbers of rft-vth --by bit" {
    need numpy matplotlib
    run -0 "$PY" "$FIGURE" -o fig12.png --data fig12.tsv base="$D/base.rft" rc="$D/rc.rft"
    [ "$(head -c 8 fig12.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
    # each map alone (side by side, rft-vth averages the entries either uses)
    for m in base rc; do
        rft-vth --by bit --format tsv "$D/$m.rft" | awk -F '\t' -v m=$m '!/^#/ && h++ { print m "\t" $1 "\t" $2 "\t" $3 "\t" $4 }'
    done > vth.tsv
    [ "$(wc -l < vth.tsv)" = 1024 ]
    run -0 diff vth.tsv <(tail -n +2 fig12.tsv)
}

@test "duty_figure.py: usage and a stream without a duty map" {
    need numpy
    run -2 --separate-stderr "$PY" "$FIGURE"
    [[ $stderr == usage:* ]]
    run -1 --separate-stderr "$PY" "$FIGURE" -o x.png "$D/t.rft"
    [ "$stderr" = "duty_figure.py: $D/t.rft: no duty map records (rft-duty(1) writes them)" ]
}
