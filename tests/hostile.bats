#!/usr/bin/env bats
# Hostile and unlucky input (issue 11): NUL bytes where record types and
# names go, values longer than the buffers that used to cut them, and
# secondary outputs that fail: a failing run never leaves a stream with its
# end record, nor an -o file other than it was.  Library-level cases (lines
# passed by length with nothing after them) are in tests/unit/test_hostile.c.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    H="$FIX/hostile"
}

# exit status 1, the one message, and no -o file
decode_refuses() {
    local input=$1 msg=$2
    shift 2
    run --separate-stderr -1 rft-decode -o out.rft "$@" "$input"
    [ "$stderr" = "$msg" ]
    [ ! -e out.rft ]
}

@test "a NUL byte as a record type: a crash's NUL tail, and a line with many fields" {
    decode_refuses "$H/nul-tail.txt" "rft-decode: $H/nul-tail.txt:4: unknown record type ''"
    decode_refuses "$H/nul-type-fields.txt" \
        "rft-decode: $H/nul-type-fields.txt:2: unknown record type ''"
    # CSV: the same field, and a row of empty fields (the SAN build aborted)
    run --separate-stderr -1 bash -c "printf '\\0,1,0,0,0\\n' | rft-decode --input-format csv"
    [ "$stderr" = "rft-decode: -:1: unknown record type ''" ]
    run --separate-stderr -1 bash -c "printf ',\\n' | rft-decode --input-format csv"
    [ "$stderr" = "rft-decode: -:1: unknown record type ''" ]
}

@test "a kernel name holding NUL bytes is refused: text, CSV, columns, NVBit" {
    decode_refuses "$H/nul-kernel.txt" "rft-decode: $H/nul-kernel.txt:1: kernel name contains a NUL byte"
    printf 'B,0,0,0,0,4,a\0b\n' > b.csv
    decode_refuses b.csv "rft-decode: b.csv:1: kernel name contains a NUL byte"
    printf 'kind,cycle,cu,simd,wf,vreg,kernel,lane,value\nK,0,0,0,0,,\0,,\n' > k.csv
    decode_refuses k.csv "rft-decode: k.csv:2: kernel name contains a NUL byte" --input-format columns
    printf 'Kernel a\0 - grid size 1,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0\n' > k.nvbit
    decode_refuses k.nvbit "rft-decode: k.nvbit:1: kernel name contains a NUL byte" --input-format nvbit
}

@test "NVBit: a kernel name longer than 4095 bytes is refused, one of 4095 is whole" {
    local tail=" - grid size 1,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0"
    local name
    name=$(printf 'k%.0s' {1..4096})
    printf 'Kernel %s%s\n' "$name" "$tail" > long.nvbit
    decode_refuses long.nvbit "rft-decode: long.nvbit:1: kernel name longer than 4095 bytes" --input-format nvbit
    printf 'Kernel %s%s\n' "${name:1}" "$tail" > ok.nvbit
    rft-decode --input-format nvbit -o ok.rft ok.nvbit
    run rft-view ok.rft
    assert_success
    assert_line --index 0 "K	0	${name:1}"
}

@test "columns: a quoted blank kind is refused, not dropped" {
    decode_refuses "$H/blank-kind.csv" "rft-decode: $H/blank-kind.csv:3: unknown kind ' '" \
        --input-format columns
}

@test "fault-map CSV: 31 zeros then x is not a number (no cut to 31 zeros)" {
    run --separate-stderr -1 rft-faultmap --entries 1 --blocks 1 --map "$H/bits-31x.csv" --csv
    [ "$stderr" = "rft-faultmap: $H/bits-31x.csv: line 2: bits '0000000000000000000000000000000...' (32 bytes) is not a number" ]
    [ -z "$output" ]
}

@test "the energy parameter loader: 1e200 is derived and printed whole" {
    run rft-energy --show-params --params seed001-28nm --set slice.conv.read_pj=1e200 -f tsv
    assert_success
    local want
    want=$(python3 -c 'print("%.4f" % (1e200 * (600 / 800) * (600 / 800)))')
    [ ${#want} -gt 200 ]
    assert_line "slice.smooth.read_pj	$want	derived from slice.conv (dynamic ~ Vdd^2)"
    # and the note of the derivation holds it too
    rft-decode "$FIX/energy/dcp.txt" --entries 8 |
        rft-faultmap --map "$FIX/energy/map8.csv" | rft-dcpatch -o dcp.rft
    run rft-energy --set geometry.entries=8 --set slice.conv.read_pj=1e200 --scenario common dcp.rft
    assert_success
    assert_line --regexp "^note: slice at smooth \(600 mV\): read ${want%??}[0-9]* pJ, write"
}

@test "rft-energy: labels and header values are kept whole" {
    rft-decode "$FIX/energy/gate.txt" -o t.rft
    rft-alloc t.rft -o ff.rft
    rft-gate --scheme wc ff.rft -o wc.rft
    local label
    label=$(printf 'w%.0s' {1..100})
    run rft-energy -f tsv ff.rft "$label=wc.rft"
    no_notes
    assert_success
    assert_line --index 2 --regexp "^$label	"
}

@test "rft-decode: window sizes of 4200 kernels, the nvgprs header says where they are" {
    # kernel i names register i mod 7: window i mod 7 + 1 (kernels past the
    # 4096th took a wrong window, and the list was cut at about 700)
    awk 'BEGIN { print "cycle,wf,vreg,kernel,lane,value"
                 for (i = 0; i < 4200; i++) printf "%d,%d,%d,k%d,0,1\n", i, i, i % 7, i }' > many.csv
    rft-decode --input-format columns -o many.rft many.csv
    run rft-view -H --format tsv many.rft
    assert_success
    assert_line "nvgprs	in the B records (4200 kernels: too many to list in 4095 bytes)"
    rft-view many.rft | grep '^B' > b.txt
    [ "$(wc -l < b.txt)" -eq 4200 ]
    grep -qx "B	4100	0	0	4100	6	k4100" b.txt
    grep -qx "B	4199	0	0	4199	7	k4199" b.txt
    # a list that fits is written whole
    head -n 601 many.csv > some.csv
    rft-decode --input-format columns -o some.rft some.csv
    run rft-view -H --format tsv some.rft
    assert_line "nvgprs	$(awk 'BEGIN { for (i = 0; i < 600; i++) printf "%s%d", i ? "," : "", i % 7 + 1 }')"
}

@test "counters scopes: two kernels alike in their first 248 bytes stay apart" {
    local stem
    stem=$(printf 'k%.0s' {1..300})
    {
        printf 'B\t0\t0\t0\t0\t2\t%sA\n' "$stem"
        printf 'E\t1\t0\t0\t0\n'
        printf 'B\t2\t0\t0\t1\t2\t%sB\n' "$stem"
        printf 'E\t3\t0\t0\t1\n'
    } > two.txt
    rft-decode two.txt | rft-dcpatch --scenario common -o two.rft
    run rft-view two.rft
    assert_success
    assert_line --regexp "^# counters	stage=rft-dcpatch	scope=kernel ${stem}A	"
    assert_line --regexp "^# counters	stage=rft-dcpatch	scope=kernel ${stem}B	"
}

@test "a header's producer and a fault map's origin are kept whole" {
    local prog dir
    # under VALGRIND=1 the link would name the wrapper, which runs the program by its own name
    [[ ${VALGRIND:-} != 1 ]] || skip "the producer comes from argv[0], which valgrind's wrapper sets"
    prog=rft-alloc-$(printf 'p%.0s' {1..100})
    ln -s "$(command -v rft-alloc)" "$prog"
    rft-decode "$FIX/dcpatch/basic.txt" | "./$prog" -o t.rft
    run rft-view -H --format tsv t.rft
    assert_line "producer	$prog"
    # a map file under a path of 300 bytes
    dir=$BATS_TEST_TMPDIR/$(printf 'd%.0s' {1..150})/$(printf 'e%.0s' {1..150})
    mkdir -p "$dir"
    cp "$FIX/energy/map8.csv" "$dir/m.csv"
    rft-decode --entries 8 "$FIX/energy/dcp.txt" | rft-faultmap --map "$dir/m.csv" -o f.rft
    run rft-view -H --format tsv f.rft
    assert_line "faultmap	csv:$dir/m.csv"
    run rft-faultmap --csv f.rft
    assert_success
    run rft-faultmap --stats f.rft -f tsv
    no_notes
    assert_line --index 1 --regexp "^\*	csv:$dir/m\.csv	0	"
}

# ---- secondary outputs -------------------------------------------------------------
# A stage with a summary (or log, or events table) it cannot write at PATH:
# exit 1 naming it, -o left as it was, and nothing with an end record down
# a pipe.  side_fails PATH COMMAND...; the input is t.rft.
side_fails() {
    local path=$1 prog=$2
    shift
    printf 'before\n' > out.rft
    run --separate-stderr -1 "$@" -o out.rft t.rft
    [[ "$stderr" == *"$prog: $path: "* ]]
    [ "$(cat out.rft)" = before ]
    run --separate-stderr -1 bash -c 'set -o pipefail; "$@" t.rft | rft-view --stats' _ "$@"
    [[ "$stderr" == *"$prog: $path: "* ]]
}

# a small placed trace
placed() { rft-synth --writes 2000 --seed 1 | rft-alloc -o t.rft; }

@test "rft-duty, rft-dcpatch, rft-classify: a summary that cannot be written fails before the stream" {
    placed
    side_fails nodir/s.tsv rft-duty --summary=nodir/s.tsv
    side_fails nodir/s.tsv rft-classify --summary=nodir/s.tsv
    side_fails nodir/s.tsv rft-dcpatch --scenario common --summary=nodir/s.tsv
    side_fails nodir/l.tsv rft-dcpatch --scenario common --log nodir/l.tsv
    run --separate-stderr -1 rft-duty --summary=nodir/s.tsv -o out.rft t.rft
    [ "$stderr" = "rft-duty: nodir/s.tsv: No such file or directory" ]
}

@test "a summary, log or events table that fails at its end leaves no complete stream" {
    placed
    side_fails /dev/full rft-duty --summary=/dev/full
    side_fails /dev/full rft-classify --summary=/dev/full
    side_fails /dev/full rft-dcpatch --scenario common --summary=/dev/full
    side_fails /dev/full rft-dcpatch --scenario common --log /dev/full
    side_fails /dev/full rft-gate --summary=/dev/full
    side_fails /dev/full rft-alloc --events=/dev/full
    run --separate-stderr -1 rft-duty --summary=/dev/full -o out.rft t.rft
    [ "$stderr" = "rft-duty: /dev/full: No space left on device" ]
}

@test "a summary that works is written, and the stream is complete" {
    placed
    rft-duty --summary=s.tsv --format tsv -o d.rft t.rft
    run rft-view --stats d.rft
    assert_success
    run pipe "grep -v '^# ' s.tsv | head -n 1"
    assert_output --regexp "^slice	"
    rft-classify --summary=c.tsv -o c.rft t.rft
    rft-view --stats c.rft > /dev/null
    [ -s c.tsv ]
}

# ---- the example scripts on a signal -------------------------------------------------
# Start examples/aging.sh -k keep on a trace big enough to take a few
# seconds (HUP and INT at their defaults, even under nohup), wait until
# FILES (a glob) exist, send SIG; then (within 30 s): the script died
# of SIG, its temporary directory and the stages' temporary outputs are
# gone, and no stage runs on.
aging_killed() {
    local sig=$1 files=$2 pid n=0
    export TMPDIR=$BATS_TEST_TMPDIR/tmp
    mkdir -p "$TMPDIR" keep
    env $SIG_DEFAULTS "$TOP/examples/aging.sh" -k keep big.rft > aging.out 2>&1 &
    pid=$!
    # shellcheck disable=SC2086
    until compgen -G "$files" > /dev/null; do
        sleep 0.05
        n=$((n + 1))
        [ $n -lt 400 ]          # 20 s: the stages never started
    done
    kill -s "$sig" "$pid"
    local status=0
    wait_at_most 30 "$pid" || status=$?
    [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
    [ -z "$(ls -A "$TMPDIR")" ]
    [ -z "$(ls -A keep)" ]
    # every stage named a file under $TMPDIR or keep/: none is left
    ! pgrep -f -- "$BATS_TEST_TMPDIR/tmp/rft-aging" > /dev/null
    ! pgrep -f -- " -o keep/.*$BATS_TEST_TMPDIR" > /dev/null   # ours, not another run's
}

@test "examples/aging.sh: HUP and TERM stop the stages and leave no temporary file" {
    [[ ${VALGRIND:-} != 1 ]] || skip "timed signals: valgrind's wrappers stand between the script and its stages"
    rft-synth --writes 800000 --seed 1 -o big.rft
    sig_note
    aging_killed HUP "$BATS_TEST_TMPDIR/tmp/rft-aging.*/*.scan.tmp*"
    rm -rf keep aging.out
    aging_killed TERM "keep/*.rft.tmp*"
}
