#!/usr/bin/env bats
# rft-classify: patterns (seed 002 Figs. 5-6, 5.1.1), speculation, divergence,
# WC, the summary, --bs auto, --sweep and bad input.

load test_helper

setup() {
    T=$BATS_TEST_TMPDIR
    rft-decode "$FIX/classify/patterns.txt" -o "$T/p.rft"
}

# vreg and annotation of every write
annotations() { rft-view --kind W "$1" | cut -f6,72-; }

@test "the seed examples are classified with BS 8 and the hardware rule" {
    rft-classify "$T/p.rft" -o "$T/c.rft"
    run annotations "$T/c.rft"
    assert_success
    # v0 ids, v1 4-byte array, v2 worked example (C0 2, De 2 = 2^1, Db 8 = 2^3),
    # v3 8x8 tile of a 16x16 matrix, v4 sliding window (not BS 8), v5 constant,
    # v6 random, v7 ids broken at lane 20 (misprediction), then v0 divergent
    # while compressed (MOV), v6 divergent, v0 again (no MOV: it was left
    # uncompressed by the divergent write)
    assert_output - <<'EOF'
0	cls=single	bs=8	c0=00000000	de=00000001	db=00000008	wc=delta1	flags=fb
1	cls=single	bs=8	c0=00001000	de=00000004	db=00000020	wc=delta2	flags=fb
2	cls=double	bs=8	c0=00000002	de=00000002	db=00000008	wc=delta1	flags=fb
3	cls=double	bs=8	c0=00008000	de=00000004	db=00000040	wc=delta2	flags=fb
4	cls=other	bs=8	c0=00004000	de=00000002	db=00000008	wc=delta1
5	cls=const	bs=8	c0=00000020	de=00000000	db=00000000	wc=base	flags=fb
6	cls=other	bs=8	c0=f4bea973	de=e8361226	db=e12497b1	wc=uncomp
7	cls=other	bs=8	c0=00000000	de=00000001	db=00000008	wc=uncomp	flags=fb
0	cls=single	bs=8	c0=00000000	de=00000001	db=00000008	wc=delta1	flags=fb+div+mov
6	cls=other	bs=8	c0=f4bea973	de=e8361226	db=e12497b1	wc=uncomp	flags=div
0	cls=single	bs=8	c0=00000000	de=00000001	db=00000008	wc=delta1	flags=fb
EOF
}

@test "--bs 4: the 1x4 sliding window of Fig. 6b is double-delta, De 2, Db 4" {
    run pipe "rft-classify --bs 4 '$T/p.rft' | rft-view --kind W | cut -f6,72- | sed -n 5p"
    assert_success
    assert_output $'4\tcls=double\tbs=4\tc0=00004000\tde=00000002\tdb=00000004\twc=delta1\tflags=fb'
}

@test "--max-delta and --deltas any change what fits" {
    # the 8x8 tile has Db 64: not with --max-delta 32; the random register never fits
    run pipe "rft-classify --max-delta 32 '$T/p.rft' | rft-view --kind W | cut -f6,72 | sed -n 4p"
    assert_output $'3\tcls=other'
    run pipe "rft-classify --deltas any --summary --counts -f tsv '$T/p.rft' | tail -1 | cut -f1-7"
    assert_output $'total\t8\t11\t1\t4\t2\t4'
}

@test "records other than writes pass through unchanged" {
    rft-classify "$T/p.rft" -o "$T/c.rft"
    diff <(rft-view "$T/p.rft") <(rft-view "$T/c.rft" | sed 's/\tcls=.*//')
    rft-view -H --format tsv "$T/c.rft" | grep -qx $'classify\tbs=8 deltas=pow2 max-delta=64'
}

@test "unknown record kinds pass through" {
    python3 - "$T/u.raw" <<'PY'
import struct, sys
def s(b): return struct.pack('<H', len(b)) + b
body = struct.pack('<IIII', 64, 256, 16, 32) + s(b't') + s(b'0') + struct.pack('<H', 0)
head = b'RFTS' + bytes([1, 0]) + struct.pack('<HI', 0x0102, len(body)) + body
def rec(kind, p): return struct.pack('<BI', kind, len(p)) + p
recs = [rec(1, struct.pack('<QIBH', 1, 0, 0, 1) + b'k'),
        rec(0x30, b'opaque payload'),
        rec(2, struct.pack('<QHHIHBII', 1, 0, 0, 0, 4, 1, 0xffffffff, 0)),
        rec(4, struct.pack('<QHHIHHBBBBIIII', 2, 0, 0, 0, 0, 0xffff, 0, 0, 0, 0, 0, 0, 0,
                           0xffffffff) + b'\xff' * 8 + struct.pack('<64I', *range(64)))]
open(sys.argv[1], 'wb').write(head + b''.join(recs) + rec(0, struct.pack('<Q', len(recs))))
PY
    zstd -q -c "$T/u.raw" > "$T/u.rft"
    rft-classify "$T/u.rft" -o "$T/uc.rft"
    zstd -dc "$T/uc.rft" | grep -aq $'\x30\x0e\x00\x00\x00opaque payload'
    run rft-view --kind W "$T/uc.rft"
    assert_output --partial $'\tcls=single\tbs=8\tc0=00000000\tde=00000001\tdb=00000008\t'
}

@test "--summary counts classes, speculation, divergence, MOVs and WC" {
    run rft-classify --summary --counts --format tsv "$T/p.rft"
    assert_success
    no_notes
    assert_output - <<'EOF'
kernel	bs	writes	const	single	double	other	compr	mispred	diverg	mov	wc_base	wc_d1	wc_d2	wc_unc	wc_on_bits
demo	8	11	1	4	2	4	6	1	2	1	1	5	2	3	10936
total	8	11	1	4	2	4	6	1	2	1	1	5	2	3	10936
EOF
}

@test "--summary in percent, as a table, CSV and JSON" {
    run rft-classify --summary "$T/p.rft"
    assert_line --index 0 --regexp '^kernel +bs +writes +const% +single% +double% +other% +compr%'
    assert_line --index 2 --regexp '^total +8 +11 +9\.09 +36\.36 +18\.18 +36\.36 +54\.55 +9\.09 +18\.18 +9\.09 '
    run rft-classify --summary -f csv "$T/p.rft"
    no_notes
    assert_line --index 2 'total,8,11,9.09,36.36,18.18,36.36,54.55,9.09,18.18,9.09,9.09,45.45,18.18,27.27,48.54'
    run pipe "rft-classify --summary -f json '$T/p.rft' | python3 -c 'import json, sys; r = [json.loads(l) for l in sys.stdin][1:]; print(r[1][\"kernel\"], r[1][\"double%\"], r[1][\"mov%\"])'"
    assert_output 'total 18.18 9.09'
}

@test "--by reg: one row per logical register, then the kernel's" {
    run pipe "rft-classify --summary --by reg --counts -f tsv '$T/p.rft' | cut -f1,2,4,11,12"
    assert_success
    no_notes
    assert_line --index 0 $'kernel\treg\twrites\tdiverg\tmov'
    assert_line --index 1 $'demo\t0\t3\t1\t1'
    assert_line --index 7 $'demo\t6\t2\t1\t0'
    assert_line --index 9 $'demo\tall\t11\t2\t1'
    assert_line --index 10 $'total\tall\t11\t2\t1'
}

@test "the stream and the summary go to different places" {
    # --summary alone: summary on stdout, no stream
    run rft-classify --summary -f tsv "$T/p.rft"
    no_notes
    assert_line --index 0 --partial $'kernel\tbs'
    # -o FILE: the stream there too
    rft-classify --summary -f tsv -o "$T/c.rft" "$T/p.rft" > "$T/s.tsv"
    rft-view --stats "$T/c.rft" | grep -q 'annotated_writes  *11'
    # --summary=FILE and -s FILE: the stream on stdout, the summary in FILE
    rft-classify --summary="$T/s1.tsv" -f tsv "$T/p.rft" > "$T/c1.rft"
    rft-classify -s "$T/s2.tsv" -f tsv < "$T/p.rft" > "$T/c2.rft"
    cmp "$T/s.tsv" "$T/s1.tsv"
    cmp "$T/s.tsv" "$T/s2.tsv"
    cmp <(rft-view "$T/c.rft") <(rft-view "$T/c2.rft")
}

@test "a pipeline from text to annotated text" {
    run pipe "rft-decode '$FIX/classify/patterns.txt' | rft-classify | rft-view --kind W | cut -f72 | sort | uniq -c | tr -s ' '"
    assert_success
    assert_output - <<'EOF'
 1 cls=const
 2 cls=double
 4 cls=other
 4 cls=single
EOF
}

@test "--bs auto picks the block size of each kernel, from a file or stdin" {
    rft-decode "$FIX/classify/auto.txt" -o "$T/a.rft"
    run pipe "rft-classify --bs auto --summary -f tsv '$T/a.rft' | cut -f1-3,6"
    assert_success
    no_notes
    assert_output - <<'EOF'
kernel	bs	writes	double%
tile16	16	3	100.00
rows8	8	2	50.00
flat	8	1	0.00
total	0	6	66.67
EOF
    run pipe "rft-classify --bs auto < '$T/a.rft' | rft-view --kind W | cut -f73 | tr '\n' ' '"
    assert_output 'bs=16 bs=16 bs=16 bs=8 bs=8 bs=8 '
}

@test "--sweep shows the coverage of every BS under both rules" {
    rft-decode "$FIX/classify/auto.txt" -o "$T/a.rft"
    run rft-classify --sweep -f tsv "$T/a.rft"
    assert_success
    no_notes
    assert_line --index 0 $'kernel\tbs\twrites\tpow2%\tany%'
    assert_line $'tile16\t16\t3\t100.00\t100.00'
    assert_line $'tile16\t8\t3\t0.00\t0.00'
    assert_line $'total\t64\t6\t33.33\t33.33'
    [ "${#lines[@]}" -eq $((1 + 4 * 64)) ]
}

@test "an annotated stream is classified again, with a warning" {
    rft-classify --bs 4 "$T/p.rft" -o "$T/c4.rft"
    run --separate-stderr rft-classify "$T/c4.rft" -o "$T/c8.rft"
    assert_success
    [ "$stderr" = "rft-classify: warning: $T/c4.rft: re-classifying writes classified with bs=4 deltas=pow2 max-delta=64" ]
    rft-classify "$T/p.rft" -o "$T/c.rft"
    cmp <(rft-view "$T/c.rft") <(rft-view "$T/c8.rft")
}

@test "32 lanes: WC bits follow the lane count" {
    printf 'B\t1\t0\t0\t0\t2\tk\nW\t2\t0\t0\t0\t0\tffffffff\t%s\n' "$(lanes_linear 0 1 32)" |
        rft-decode --lanes 32 -o "$T/l.rft"
    run pipe "rft-classify --summary --counts -f tsv '$T/l.rft' | tail -1"
    assert_output $'total\t8\t1\t0\t1\t0\t0\t1\t0\t0\t0\t0\t1\t0\t0\t280'
}

@test "usage errors: exit 2 and one line naming the problem" {
    for args in "--bs 0" "--bs 65" "--bs x" "--max-delta 3" "--max-delta 0" "--deltas some" \
        "--deltas any --max-delta 16" "--level 0" "--by wf --summary" "--by reg" "--counts" \
        "--sweep --bs 8" "--sweep --summary" "--summary -o -" "--nope" "a b"; do
        run --separate-stderr rft-classify $args "$T/p.rft"
        [ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
        [[ "${stderr%%$'\n'*}" == "rft-classify: "* ]] || { echo "$args: $stderr"; false; }
        [ -z "$output" ]
    done
    run --separate-stderr rft-classify --bs 65
    assert_equal "${stderr%%$'\n'*}" "rft-classify: --bs: 65 is out of range 1..64 (see rft-classify --help)"
    run --separate-stderr rft-classify --max-delta 3
    assert_equal "${stderr%%$'\n'*}" "rft-classify: --max-delta: 3 is not a power of two (see rft-classify --help)"
}

@test "bad data: exit 1 and one line" {
    head -c 300 "$T/p.rft" > "$T/cut.rft"
    for f in "$T/cut.rft" "$FIX"/corrupt/*.rft; do
        run --separate-stderr rft-classify --summary "$f"
        [ "$status" -eq 1 ] || { echo "$f: status $status"; false; }
        [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || { echo "$f: $stderr"; false; }
        [[ "$stderr" == "rft-classify: $f: "* ]] || { echo "$stderr"; false; }
    done
}

@test "a failed run leaves no output file and no end record on stdout" {
    # a valid zstd frame whose content stops inside the sixth write
    zstd -dc "$T/p.rft" | head -c 2000 | zstd -q -c > "$T/cut.rft"
    run -1 rft-classify "$T/cut.rft" -o "$T/out.rft"
    [ ! -e "$T/out.rft" ]
    run -1 pipe "rft-classify < '$T/cut.rft' > '$T/out.rft'"
    [ -s "$T/out.rft" ]
    run -1 rft-view "$T/out.rft"
    [ "${#lines[@]}" -ge 3 ]
}

@test "a full disk is an error" {
    run -1 pipe "rft-classify '$T/p.rft' > /dev/full"
    run -1 pipe "rft-classify --summary '$T/p.rft' > /dev/full"
}

@test "numbers do not follow the locale" {
    run pipe "LC_ALL=C.UTF-8 LC_NUMERIC=de_DE.UTF-8 rft-classify --summary -f csv '$T/p.rft' | tail -1"
    assert_output --partial 'total,8,11,9.09,'
}
