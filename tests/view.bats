#!/usr/bin/env bats
# rft-view: a stream as text, TSV, CSV or JSON; its header; its statistics;
# filters by kind, slice, kernel, wavefront and cycles; output failures.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    D="$FIX/decode"
    T="$D/basic.tsv"
    rft-decode "$T" > s.rft
    VERSION=$(sed -n 's/^#define RFT_VERSION "\(.*\)"/\1/p' "$TOP/lib/rft.h")
}

# expect CMD... : the filter's output equals what awk picks from basic.tsv
# (awk program in $AWK, run on the canonical text)
same_as_awk() {
    awk -F '\t' "$1" "$T" > want.tsv
    shift
    "$@" s.rft > got.tsv
    cmp got.tsv want.tsv
}

# a stream of N writes (64 lanes, values that do not repeat much)
big_stream() {
    awk -v n="$1" 'BEGIN { print "K\t0\tbig"; print "B\t0\t0\t0\t0\t16\tbig\t0"
        for (i = 0; i < n; i++) { printf "W\t%d\t0\t0\t0\t%d\tffffffffffffffff", i, i % 16
            for (l = 0; l < 64; l++) printf "\t%08x", (i * 7919 + l * 104729) % 2147483647
            printf "\n" }
        printf "E\t%d\t0\t0\t0\n", n }' | rft-decode > "$2"
}

# ---- the records ------------------------------------------------------------------

@test "default output is the canonical text" {
    rft-view s.rft > out.tsv
    cmp out.tsv "$T"
}

@test "--format text and --format tsv are the canonical text too" {
    rft-view --format text s.rft > a.tsv
    rft-view --format tsv s.rft > b.tsv
    cmp a.tsv "$T"
    cmp b.tsv "$T"
}

@test "--format csv is the canonical text with commas" {
    rft-view --format csv s.rft > out.csv
    tr '\t' , < "$T" > want.csv
    cmp out.csv want.csv
}

@test "--format json: one valid object per record, values in decimal" {
    rft-view --format json s.rft > out.json
    run -0 python3 -c '
import json, sys
recs = [json.loads(l) for l in open("out.json")]
kinds = "".join(r["kind"] for r in recs)
print(len(recs), kinds)
w = [r for r in recs if r["kind"] == "W"][0]
print(w["cycle"], w["cu"], w["simd"], w["wf"], w["vreg"], w["mask"], w["values"][:3], len(w["values"]))
last = recs[-1]
print(last["cycle"], last["cu"], last["simd"], last["wf"])
k = [r for r in recs if r["kind"] == "K"]
print([(r["index"], r["name"]) for r in k])'
    assert_line --index 0 "32 KBBWWRWWWRREBKBWRWEEEKBWBEEKBWRE"
    assert_line --index 1 "101 0 0 0 0 ffffffffffffffff [0, 1, 2] 64"
    assert_line --index 2 "18446744073709551615 65535 65535 4294967294"
    assert_line --index 3 "[(0, 'vecadd'), (1, 'scale'), (2, 'newk'), (3, 'last')]"
}

@test "--format json escapes kernel names" {
    printf 'K\t1\ta"b\\c\n' > k.tsv
    rft-decode k.tsv > k.rft
    run -0 rft-view --format json k.rft
    assert_output '{"kind": "K", "cycle": 1, "index": 0, "name": "a\"b\\c"}'
    run -0 python3 -c 'import json, sys; print(json.loads(sys.argv[1])["name"])' "$output"
    assert_output 'a"b\c'
}

@test "--format json carries the annotations of later stages" {
    rft-decode "$D/annotated.tsv" > a.rft
    run -0 pipe "rft-view --format json --kind W a.rft | head -1"
    assert_output --partial '"phys": 0, "class": "single-delta", "bs": 16, "c0": 0, "de": 1, "db": 16, "wc": "delta1", "on_bits": 2048}'
}

@test "an unknown record kind is skipped by length, shown as a comment" {
    python3 -c '
import struct
def s(b): return struct.pack("<H", len(b)) + b
body = struct.pack("<IIII", 64, 256, 16, 32) + s(b"test") + s(b"0") + struct.pack("<H", 0)
raw = b"RFTS\x01\x07" + struct.pack("<HI", 0x0102, len(body)) + body
raw += struct.pack("<BI", 0x40, 5) + b"hello"
raw += struct.pack("<BI", 1, 16) + struct.pack("<QIBH", 3, 0, 0, 1) + b"k"
raw += struct.pack("<BIQ", 0, 8, 2)
open("unknown.raw", "wb").write(raw)'
    zstd -q -c unknown.raw > u.rft
    run -0 rft-view u.rft
    assert_equal "${#lines[@]}" 2
    assert_line --index 0 $'# record kind 0x40\t5 bytes'
    assert_line --index 1 $'K\t3\tk'
    run -0 rft-view --kind K u.rft
    assert_output $'K\t3\tk'
    run -0 rft-view --stats --format tsv u.rft
    assert_line $'other_records\t1'
    assert_line $'records\t2'
    run -0 rft-view -H --format tsv u.rft
    assert_line $'format\t1.7'
    # the text goes back through rft-decode: the comment is dropped
    run -0 pipe 'rft-view u.rft | rft-decode | rft-view'
    assert_output $'K\t3\tk'
}

# ---- filters ------------------------------------------------------------------------

@test "--kind W" {
    same_as_awk '$1 == "W"' rft-view --kind W
}

@test "--kind K,B,E and --kind KBE" {
    same_as_awk '$1 ~ /^[KBE]$/' rft-view --kind K,B,E
    same_as_awk '$1 ~ /^[KBE]$/' rft-view --kind KBE
}

@test "--slice CU:SIMD" {
    same_as_awk '$1 != "K" && $3 == 1 && $4 == 3' rft-view --slice 1:3
    same_as_awk '$1 != "K" && $3 == 65535 && $4 == 65535' rft-view --slice 65535:65535
}

@test "--slice of a slice that is not in the stream: nothing" {
    run -0 rft-view --slice 9:9 s.rft
    assert_output ""
}

@test "--wf ID" {
    same_as_awk '$1 != "K" && $5 == 7' rft-view --wf 7
    same_as_awk '$1 != "K" && $5 == 4294967294' rft-view --wf 4294967294
}

@test "--slice and --wf together" {
    same_as_awk '$1 != "K" && $3 == 0 && $4 == 1 && $5 == 1' rft-view --slice 0:1 --wf 1
}

@test "--cycles FROM:TO, :TO and FROM: (inclusive)" {
    same_as_awk '$2 >= 110 && $2 <= 113' rft-view --cycles 110:113
    same_as_awk '$2 <= 101' rft-view --cycles :101
    same_as_awk '$2 >= 140' rft-view --cycles 140:
    same_as_awk '$2 == "18446744073709551615"' rft-view --cycles 18446744073709551615:
}

@test "--kernel NAME and --kernel INDEX pick the same records" {
    rft-view --kernel scale s.rft > name.tsv
    rft-view --kernel 1 s.rft > index.tsv
    cmp name.tsv index.tsv
    run -0 cat name.tsv
    assert_equal "${#lines[@]}" 5
    assert_line --index 0 $'K\t112\tscale'
    assert_line --index 1 $'B\t112\t1\t3\t8\t2\tscale'
    assert_line --index 4 $'E\t122\t1\t3\t8'
}

@test "--kernel of a kernel named only by a B line" {
    run -0 rft-view --kernel newk s.rft
    assert_equal "${#lines[@]}" 3
    assert_line --index 0 $'B\t130\t2\t0\t9\t4\tnewk\t5'
}

@test "work-group 0 beginning when the kernel's wavefronts have ended: the kernel launched again" {
    # ids restart at every launch, a launch waits for the one before: wg 0's
    # second wavefront at cycle 5 (the first still running) is the same
    # launch, wg 0 at cycle 20 (none running) a second one (its own kernel
    # index, an implicit K record)
    printf 'B\t0\t0\t0\t1\t4\tk\t0\nB\t5\t0\t1\t2\t4\tk\t0\nB\t6\t0\t2\t3\t4\tk\t1\n' > t.tsv
    printf 'E\t9\t0\t0\t1\nE\t9\t0\t1\t2\nE\t9\t0\t2\t3\n' >> t.tsv
    printf 'B\t20\t0\t0\t4\t4\tk\t0\nB\t21\t0\t1\t5\t4\tk\t1\nE\t29\t0\t0\t4\nE\t29\t0\t1\t5\n' >> t.tsv
    rft-decode t.tsv > l.rft
    run -0 rft-view --kernel 0 --kind B l.rft
    assert_equal "${#lines[@]}" 3
    run -0 rft-view --kernel 1 --kind B l.rft
    assert_equal "${#lines[@]}" 2
    assert_line --index 0 $'B\t20\t0\t0\t4\t4\tk\t0'
    # the text round trip gives the same launches
    rft-view l.rft | rft-decode | rft-view --kernel 1 --kind B > again.tsv
    run -0 cat again.tsv
    assert_equal "${#lines[@]}" 2
}

@test "--kernel: a B line without a kernel belongs to the current kernel" {
    run -0 rft-view --kernel vecadd --kind B s.rft
    assert_equal "${#lines[@]}" 4
    assert_line --index 2 $'B\t111\t1\t2\t7\t8'
}

@test "--kernel that does not exist: nothing" {
    run -0 rft-view --kernel nosuch s.rft
    assert_output ""
}

@test "filters combine" {
    run -0 rft-view --kernel vecadd --kind W --cycles 101:103 s.rft
    assert_equal "${#lines[@]}" 3
    run -0 rft-view --kind R --slice 0:1 --format csv s.rft
    assert_output $'R,105,0,1,1,3\nR,105,0,1,1,2'
}

@test "filters apply to --stats" {
    run -0 rft-view --stats --format tsv --kind W --slice 0:1 s.rft
    assert_line $'writes\t3'
    assert_line $'records\t3'
    assert_line $'kernels\t0'
}

# ---- header and statistics ------------------------------------------------------------

@test "-H: the header as key/value pairs" {
    run -0 rft-view -H --format tsv s.rft
    assert_output "key	value
format	1.0
producer	rft-decode
version	$VERSION
lanes	64
entries	256
block_lanes	16
lane_bits	32
source	$T
decoder	text"
}

@test "-H: a table for people, CSV and JSON for scripts" {
    run -0 rft-view -H s.rft
    assert_line --index 0 --regexp '^key +value$'
    assert_line --regexp '^producer +rft-decode$'
    run -0 rft-view -H --format csv s.rft
    assert_line --index 0 'key,value'
    assert_line 'lanes,64'
    run -0 rft-view -H --format json s.rft
    assert_line '{"key": "lanes", "value": "64"}'
    assert_line '{"key": "producer", "value": "rft-decode"}'
}

@test "-H reads only the header: a truncated stream still shows it" {
    printf 'K\t1\tk\nX\n' > bad.tsv
    rft-decode bad.tsv > part.rft || true
    run -0 rft-view -H --format tsv part.rft
    assert_line $'producer\trft-decode'
}

@test "--stats counts records, slices and cycles" {
    run -0 rft-view --stats --format tsv s.rft
    assert_output "statistic	value
kernels	4
wavefronts	7
wavefront_ends	7
writes	9
reads	5
bundles	0
other_records	0
records	32
slices	6
annotated_writes	0
first_cycle	100
last_cycle	18446744073709551615
cycle_span	18446744073709551515"
}

@test "--stats as a table, CSV and JSON" {
    run -0 rft-view --stats s.rft
    assert_line --index 0 --regexp '^statistic +value$'
    assert_line --regexp '^writes +9$'
    run -0 rft-view --stats --format csv s.rft
    assert_line 'writes,9'
    run -0 rft-view --stats --format json s.rft
    assert_line '{"statistic": "writes", "value": 9}'
    assert_line '{"statistic": "last_cycle", "value": 18446744073709551615}'
}

@test "--stats of an empty stream" {
    : > e.tsv
    rft-decode e.tsv > e.rft
    run -0 rft-view --stats --format tsv e.rft
    assert_line $'records\t0'
    assert_line $'cycle_span\t0'
}

# ---- VLIW bundles (A lines, rft(5) kind 0x06) ----------------------------------------------

@test "A lines: rft-view | rft-decode round trip, text and bytes" {
    local B="$FIX/bundle/bundles.tsv"
    grep -v '^#' "$B" > want.tsv
    rft-decode "$B" > a.rft
    rft-view a.rft > got.tsv
    cmp got.tsv want.tsv
    # the stream decoded from rft-view's output is the same bytes
    rft-decode < want.tsv > b.rft
    rft-view b.rft | rft-decode > c.rft
    cmp <(zstd -qdc b.rft) <(zstd -qdc c.rft)
    # CSV both ways
    rft-view --format csv a.rft > got.csv
    cmp got.csv <(tr '\t' , < want.tsv)
    rft-decode --input-format csv got.csv | rft-view > back.tsv
    cmp back.tsv want.tsv
}

@test "A lines: JSON names the slots, flags and exec mask" {
    rft-decode "$FIX/bundle/bundles.tsv" > a.rft
    run -0 pipe "rft-view --format json --kind A a.rft | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r[\"cycle\"], r[\"cu\"], r[\"wf\"], repr(r[\"slots\"]), r[\"trans\"], r[\"vector\"], r[\"mask\"])'"
    assert_output "4 0 0 'XZT' 1 0 ffffffffffffffff
8 0 0 'X' 0 0 00000000ffffffff
8 1 1 'XYZW' 0 1 ffffffffffffffff
12 1 1 'XYZWT' 1 1 7fffffffffffffff
12 1 1 '' 0 0 0000000000000000
20 1 1 'YW' 0 0 8000000000000001"
}

@test "A lines: the filters and --stats count bundles" {
    rft-decode "$FIX/bundle/bundles.tsv" > a.rft
    run -0 pipe "rft-view --kind A a.rft | cut -f1-6"
    assert_output "A	4	0	0	0	XZT
A	8	0	0	0	X
A	8	1	0	1	XYZW
A	12	1	0	1	XYZWT
A	12	1	0	1	-
A	20	1	0	1	YW"
    run -0 pipe "rft-view --kind W,A --slice 0:0 a.rft | cut -f1,2"
    assert_output "$(printf 'A\t4\nW\t4\nA\t8')"
    run -0 pipe "rft-view --wf 1 --cycles 10:20 a.rft | cut -f1,2,6"
    assert_output "$(printf 'A\t12\tXYZWT\nA\t12\t-\nA\t20\tYW')"
    run -0 pipe "rft-view --kind BE a.rft | cut -f1 | tr -d '\n'"
    assert_output "BBEE"
    run -0 rft-view --stats --format tsv a.rft
    assert_line $'bundles\t6'
    assert_line $'records\t13'
    assert_line $'last_cycle\t24'
    run -2 --separate-stderr rft-view --kind Q a.rft
    assert_equal "${stderr_lines[0]}" "rft-view: --kind: 'Q' is not one of K, B, W, R, E, A, U (see rft-view --help)"
}

@test "A lines that break the grammar: one line naming the field, status 1" {
    local -A want=(
        ["A 4 0 0 0 ZX ff"]="bad slots 'ZX' (letters of XYZWT in that order, or -)"
        ["A 4 0 0 0 XX ff"]="bad slots 'XX' (letters of XYZWT in that order, or -)"
        ["A 4 0 0 0 xz ff"]="bad slots 'xz' (letters of XYZWT in that order, or -)"
        ["A 4 0 0 0 X ff trans"]="'trans' without slot T"
        ["A 4 0 0 0 T ff vector"]="'vector' without any of the slots X, Y, Z, W"
        ["A 4 0 0 0 XT ff trans trans"]="unexpected field 'trans' (trans and vector, each at most once)"
        ["A 4 0 0 0 XT ff fast"]="unexpected field 'fast' (trans and vector, each at most once)"
        ["A 4 0 0 0 X"]="A line has 6 fields, expected 7 to 9"
        ["A 4 0 0 0 X 1g"]="bad hex exec mask '1g'"
        ["A 4 0 0 0 X 1ffffffffffffffff"]="exec mask '1ffffffffffffffff' is wider than 64 lanes"
        ["A 4 0 0 9 X ff"]="A for wavefront 9 on slice (0,0), which has not begun"
        ["A 1 0 0 0 X ff"]="cycle 1 goes backwards (previous 2)"
    )
    local k bad=0
    for k in "${!want[@]}"; do
        printf 'B 2 0 0 0 4\n%s\n' "$k" > bad.txt
        run -1 --separate-stderr bash -c 'rft-decode bad.txt > part.rft'
        if [[ $stderr != "rft-decode: bad.txt:2: ${want[$k]}" ]]; then
            echo "$k: got '$stderr', want '${want[$k]}'"
            bad=1
        fi
    done
    return $bad
}

# ---- bad input --------------------------------------------------------------------------

@test "a truncated stream: the records before it, then one line and status 1" {
    printf 'K\t1\tk\nB\t2\t0\t0\t0\t4\nE\t3\t0\t0\t0\nX\n' > bad.tsv
    run -1 bash -c 'rft-decode bad.tsv > part.rft'
    run -1 --separate-stderr rft-view part.rft
    assert_equal "$stderr" "rft-view: part.rft: record 4: stream ends without an end record (truncated)"
    assert_equal "${#lines[@]}" 3
}

@test "two streams concatenated are not one stream" {
    run -1 --separate-stderr pipe 'cat s.rft s.rft | rft-view > out.tsv'
    assert_equal "$stderr" "rft-view: -: record 33: data after the end record"
}

@test "a corrupt stream on stdin is named '-'" {
    run -1 --separate-stderr bash -c "rft-view < '$FIX/corrupt/bad-magic.rft'"
    assert_equal "$stderr" "rft-view: -: not an rft stream (bad magic)"
}

@test "a missing file" {
    run -1 --separate-stderr rft-view nosuch.rft
    assert_equal "$stderr" "rft-view: nosuch.rft: No such file or directory"
}

@test "a text file given to rft-view" {
    run -1 --separate-stderr rft-view "$T"
    assert_equal "$stderr" "rft-view: $T: text, not an rft stream: a trace is decoded first (rft-decode FILE | ...)"
}

@test "usage errors exit 2 and print nothing on stdout" {
    local a
    for a in "--kind X" "--slice 1" "--slice a:b" "--slice 1:65536" "--format xml" \
             "--wf -1" "--wf 4294967295" "--cycles 5" "--cycles x:5" "--bogus" "s.rft s.rft"; do
        run -2 --separate-stderr rft-view $a s.rft
        [[ "$stderr" == "rft-view: "* ]]
        assert_output ""
    done
}

@test "--help and --version" {
    run -0 rft-view --help
    assert_line --index 0 --partial 'rft-view [-o FILE] [-H]'
    run -0 rft-view --version
    assert_output "rft-view (rftrace) $VERSION"
}

# ---- output: full disk, reader gone, locale -------------------------------------------------

@test "writing records to a full disk is an error" {
    run -1 --separate-stderr bash -c 'rft-view s.rft > /dev/full'
    assert_equal "$stderr" "rft-view: standard output: No space left on device"
}

@test "writing a large output to a full disk is an error" {
    big_stream 3000 big.rft
    run -1 --separate-stderr bash -c 'rft-view big.rft > /dev/full'
    assert_equal "$stderr" "rft-view: standard output: No space left on device"
}

@test "writing -H, --stats and --help to a full disk is an error" {
    local a
    for a in -H --stats --help; do
        run -1 --separate-stderr bash -c "rft-view $a s.rft > /dev/full"
        assert_equal "$stderr" "rft-view: standard output: No space left on device"
    done
}

@test "rft-view | head -1 ends quietly" {
    big_stream 3000 big.rft
    run --separate-stderr pipe 'rft-view big.rft | head -1'
    assert_equal "$stderr" ""
    assert_output $'K\t0\tbig'
    [[ $status -eq 0 || $status -eq 141 ]]
}

@test "rft-view | head -1 ends quietly even when the parent ignores SIGPIPE" {
    big_stream 3000 big.rft
    run --separate-stderr bash -c "trap '' PIPE; set -o pipefail; rft-view --format json big.rft | head -1"
    assert_equal "$stderr" ""
    assert_output '{"kind": "K", "cycle": 0, "index": 0, "name": "big"}'
    [[ $status -eq 0 || $status -eq 141 ]]
}

@test "the producer's own status after head -1 is 0 or 141, never an error" {
    big_stream 3000 big.rft
    run --separate-stderr bash -c 'rft-view big.rft | head -1 > /dev/null; echo "${PIPESTATUS[0]}"'
    assert_equal "$stderr" ""
    [[ $output == 0 || $output == 141 ]]
}

@test "output is the same under another locale" {
    local loc
    loc=$(locale -a 2>/dev/null | grep -i -m1 -E '^(de_DE|fr_FR|ru_RU).*utf-?8$' || true)
    [[ -n $loc ]] || loc=$(locale -a 2>/dev/null | grep -i -m1 -E '^C\.utf-?8$' || true)
    [[ -n $loc ]] || skip "no locale other than C installed"
    local a
    for a in "" "--format json" "--format csv" "--stats" "--stats --format json" "-H"; do
        LC_ALL=C rft-view $a s.rft > c.out
        LC_ALL=$loc rft-view $a s.rft > l.out
        cmp c.out l.out
    done
    LC_ALL=C rft-decode "$T" > c.rft
    LC_ALL=$loc rft-decode "$T" > l.rft
    cmp c.rft l.rft
    # messages too
    run -1 --separate-stderr env LC_ALL="$loc" rft-view nosuch.rft
    assert_equal "$stderr" "rft-view: nosuch.rft: No such file or directory"
}
