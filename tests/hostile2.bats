#!/usr/bin/env bats
# Hostile and unlucky input, second round (issue 21): streams that break the
# ordering rules or lie about their count, geometries that would take
# gigabytes, kernel indexes near 2^31, many kernels, and the smaller usage
# and message defects.  The streams come from tests/unit/hostile_gen (built
# by the Makefile): `hostile_gen --list` names every case, its class and the
# record a stage must name.

load test_helper

GEN="$TOP/tests/unit/hostile_gen"

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# Every stage program that reads a trace (one command line each; FILE is
# the input, the stream goes to standard output).
STAGES=(
    "rft-alloc FILE"
    "rft-alloc --util=util.txt FILE"
    "rft-gate FILE"
    "rft-duty FILE"
    "rft-classify FILE"
    "rft-faultmap --scenario common FILE"
    "rft-dcpatch --scenario common FILE"
    "rft-energy --scan FILE"
    "rft-repeat FILE"
    "rft-heal --scheme sc FILE"
    "rft-view FILE"
    "rft run 'alloc FILE | gate | duty'"
)

# cases NAME...: the cases of these classes, one a line: NAME RECORD
cases() {
    local class=$1
    "$GEN" --list | awk -v c="$class" '$2 == c { print $1, $3 }'
}

# refused CMD RECORD WHAT: CMD ends with status 1, its one line of error
# names the input and record RECORD (and WHAT), and what it wrote to
# standard output (out.rft) is no complete stream: rft-view fails on it.
refused() {
    local cmd=$1 record=$2 what=${3:-}
    rm -f out.rft
    run --separate-stderr bash -c "$cmd > out.rft"
    [[ $status == 1 ]] || fail "$cmd: status $status, expected 1 ($stderr)"
    [[ ${stderr_lines[0]} == *": record "$record": "* ]] ||
        fail "$cmd: the message does not name record $record: $stderr"
    [[ -z $what || $stderr == *"$what"* ]] || fail "$cmd: no '$what' in: $stderr"
    if [[ $cmd != rft-view* && $cmd != rft-heal* ]]; then
        run -1 rft-view out.rft
    fi
}

@test "hostile_gen: every case, and the reader's rule-8 check refuses each ordering case" {
    run -0 "$GEN"
    run -0 "$GEN" --list
    for c in ok cycle-back begin-back write-unbegun read-unbegun end-before-begin \
             write-after-end begin-twice kernel-back read-back end-back bundle-back \
             bundle-unbegun end-twice write-other-slice count-low count-high geom-max \
             slices-many mask-beyond-lanes; do
        assert_line --regexp "^$c "
    done
    run -2 "$GEN" no-such-case x.rft
}

@test "the well-formed case passes every stage (the control)" {
    "$GEN" ok ok.rft
    local s
    for s in "${STAGES[@]}"; do
        run bash -c "${s//FILE/ok.rft} > out.rft"
        [[ $status == 0 ]] || fail "$s: status $status: $output"
    done
}

@test "ordering mutations: every stage fails at the record, without a complete output" {
    local name record s
    while read -r name record; do
        "$GEN" "$name" "$name.rft"
        for s in "${STAGES[@]}"; do
            refused "${s//FILE/$name.rft}" "$record"
        done
    done < <(cases order)
}

@test "ordering mutations: the three messages of rule 8 (rft(5))" {
    for c in cycle-back write-unbegun begin-twice; do "$GEN" $c $c.rft; done
    run --separate-stderr -1 rft-classify cycle-back.rft
    [ "$stderr" = "rft-classify: cycle-back.rft: record 4: write record at cycle 3 after cycle 5 (out of cycle order)" ]
    run --separate-stderr -1 rft-faultmap --scenario common write-unbegun.rft
    [ "$stderr" = "rft-faultmap: write-unbegun.rft: record 3: write record of wavefront 7 on slice 0:0, which has not begun" ]
    run --separate-stderr -1 rft-energy --scan begin-twice.rft
    [ "$stderr" = "rft-energy: begin-twice.rft: record 3: wavefront 0 on slice 0:0 begins again before its end" ]
}

@test "lying counts: every stage fails at the end record, without a complete output" {
    local name record s
    while read -r name record; do
        "$GEN" "$name" "$name.rft"
        for s in "${STAGES[@]}"; do
            refused "${s//FILE/$name.rft}" "$record" "end record counts"
        done
    done < <(cases count)
}

@test "oversized geometry: rft-duty refuses a slice of 65535 entries of 1024 lanes before allocating it" {
    "$GEN" geom-max g.rft
    [ "$(stat -c %s g.rft)" -lt 4096 ]
    # from the header's geometry, before any record (issue 31; was at record 2)
    run --separate-stderr -1 bash -c "rft-duty g.rft > out.rft"
    [ "$stderr" = "rft-duty: g.rft: header: one slice (65535 entries of 1024 lanes) would bring the state of rft-duty to 6408.5 MiB, over its limit of 2048 MiB (--max-memory MIB raises it)" ]
    run -1 rft-view out.rft
}

@test "oversized geometry: 16384 slices of 65535 entries are refused by every stage that keeps slices" {
    "$GEN" slices-many m.rft
    local s
    for s in "rft-alloc" "rft-alloc --util=util.txt" "rft-gate" \
             "rft-dcpatch --scenario common" "rft-energy --scan"; do
        refused "timeout 60 $s --max-memory 16 m.rft" "[0-9]*" "over its limit of 16 MiB (--max-memory"
    done
    # rft-duty's slice (400 MiB) alone is over 16 MiB: refused at the header (issue 31)
    run --separate-stderr -1 bash -c "timeout 60 rft-duty --max-memory 16 m.rft > out.rft"
    [[ $stderr == "rft-duty: m.rft: header: one slice (65535 entries of 64 lanes) would bring the state of rft-duty to "*" MiB, over its limit of 16 MiB (--max-memory MIB raises it)" ]] ||
        fail "$stderr"
    # the default limit, without one: rft-duty refuses at the fifth slice
    refused "rft-duty m.rft" 12 "slice 5:0 (65535 entries of 64 lanes)"
}

@test "--max-memory is a usage error unless a number of MiB" {
    run -2 rft-duty --max-memory lots /dev/null
    run -2 rft-gate --max-memory -1 /dev/null
    run -2 rft-energy --max-memory 16 x.rft
    [[ $output == *"--max-memory apply to --scan only"* ]]
}

@test "rft-view: a kernel index of 2^31 ends (it looped forever), 2^24 names the file and record" {
    "$GEN" kernel-2^31 k31.rft
    "$GEN" kernel-2^24 k24.rft
    run --separate-stderr -1 timeout 10 rft-view k31.rft
    [ "$stderr" = "rft-view: k31.rft: record 1: kernel index 2147483648: rft-view keeps kernels 0 to 16777215" ]
    run --separate-stderr -1 timeout 10 rft-view --kernel 3 k24.rft
    [ "$stderr" = "rft-view: k24.rft: record 1: kernel index 16777216: rft-view keeps kernels 0 to 16777215" ]
    run --separate-stderr -1 timeout 10 rft-classify k31.rft
    [[ $stderr == "rft-classify: k31.rft: record 1: kernel index 2147483648: "* ]]
}

# cpu_limited SECONDS COMMAND...: COMMAND killed (SIGXCPU) past SECONDS of CPU time
cpu_limited() { (ulimit -t "$1" && shift && exec "$@"); }

# B and E lines of n wavefronts, each of its own kernel
many_kernels() {
    awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
        printf "B\t%d\t0\t0\t%d\t4\tk%d\n", 2 * i, i, i; printf "E\t%d\t0\t0\t%d\n", 2 * i + 1, i } }'
}

@test "2*10^5 kernels decode and classify in seconds (a name was looked up among all before it)" {
    many_kernels 200000 > k.tsv
    # decode: 10^5 took 164 s, 2*10^5 about 11 minutes, now 0.9 s; classify:
    # 3*10^4 took 163 s, now 2*10^5 about 4 s (a margin for slow machines
    # and sanitizers, far below the quadratic times)
    # limits of CPU time (ulimit -t), not of wall time: a loaded machine
    # stretches the one, not the other
    run -0 cpu_limited 30 rft-decode -o k.rft k.tsv
    run -0 cpu_limited 30 rft-classify --summary=s.txt -o /dev/null k.rft
    run -0 rft-view --stats k.rft
    assert_line --regexp '^kernels +200000$'
    # a name met again is the same kernel: its latest index
    printf 'B\t400000\t0\t0\t0\t4\tk7\nE\t400001\t0\t0\t0\n' > again.tsv
    run -0 pipe "cat k.tsv again.tsv | rft-decode | rft-view --kind B | tail -1"
    [ "$output" = "$(printf 'B\t400000\t0\t0\t0\t4\tk7')" ]
}

@test "the columns format finds its kernels by name in O(1) too" {
    # 10^5 kernels, each named again two rows later: 1.2 s (8 minutes before)
    awk 'BEGIN { print "kind,cycle,cu,simd,wf,vreg,kernel,lane,value"
        for (i = 0; i < 100000; i++) { printf "K,%d,0,0,0,,k%d,,\n", 3 * i, i; printf "K,%d,0,0,0,,k%d,,\n", 3 * i + 1, i / 2 } }' > k.csv
    run -0 cpu_limited 30 rft-decode --input-format columns -o k.rft k.csv
    run -0 rft-view --stats k.rft
    assert_line --regexp '^kernels +100000$'
}

@test "--set with an unknown key is a usage error (2): rft-energy, rft-vth, rft-heal" {
    rft-synth --writes 100 -o t.rft
    run --separate-stderr -2 rft-energy --set foo=bar t.rft
    [ "$stderr" = "rft-energy: --set: unknown key 'foo' for model gating (see rft-energy --help)" ]
    run --separate-stderr -2 rft-vth --set foo=1 t.rft
    [ "$stderr" = "rft-vth: --set: unknown constant 'foo' (see rft-vth --help)" ]
    run -2 rft-heal --set foo=1 t.rft
    # the same key in a file is bad data (1)
    { cat "$TOP/params/seed002-32nm.conf"; echo 'foo = bar'; } > p.conf
    run --separate-stderr -1 rft-energy --params "$PWD/p.conf" t.rft
    [[ $stderr == *"unknown key 'foo'"* ]]
}

@test "rft-view --cycles TO before FROM is a usage error" {
    rft-synth --writes 100 -o t.rft
    run --separate-stderr -2 rft-view --cycles 9:1 t.rft
    [ "$stderr" = "rft-view: --cycles: 9:1 ends before it starts (see rft-view --help)" ]
    run -0 rft-view --cycles 9:9 t.rft
}

@test "rft-repeat: the overflow message says what overflows" {
    printf 'B\t0\t0\t0\t0\t4\tk\nE\t18446744073709551615\t0\t0\t0\n' | rft-decode -o span.rft
    run --separate-stderr -1 rft-repeat span.rft
    [ "$stderr" = "rft-repeat: span.rft: 2 copies of cycles 0 to 18446744073709551615 with a gap of 0 end past cycle 18446744073709551615" ]
    printf 'B\t5\t0\t0\t0\t4\tk\nE\t9\t0\t0\t0\n' | rft-decode -o s2.rft
    run --separate-stderr -1 rft-repeat -n 4 --gap 9223372036854775807 s2.rft
    [ "$stderr" = "rft-repeat: s2.rft: 4 copies of cycles 5 to 9 with a gap of 9223372036854775807 end past cycle 18446744073709551615" ]
}

@test "rft(5): a counters scope is at most RFT_MAX_SCOPE bytes, and rft-dcpatch writes one that long" {
    local max
    max=$(sed -n 's/^#define RFT_MAX_SCOPE (RFT_MAX_STR + \([0-9]*\)).*/\1/p' "$TOP/lib/rft.h")
    max=$((4095 + max))
    grep -q "^counter scope|at most $max bytes" "$TOP/man/rft.5"
    grep -q "^At most $max bytes" "$TOP/man/rft.5"
    local name
    name=$(printf 'k%.0s' $(seq 4095))
    printf 'K\t0\t%s\nB\t1\t0\t0\t0\t4\nW\t2\t0\t0\t0\t0\tffffffffffffffff\t%s\nE\t3\t0\t0\t0\n' \
        "$name" "$(lanes_linear 1 1)" > long.tsv
    run -0 pipe "rft-decode long.tsv | rft-alloc | rft-dcpatch --scenario common | rft-view > v.txt"
    # the kernel's counters record carries the whole scope ("kernel " and 4095 bytes)
    run -0 grep -c "kernel $name" v.txt
}

@test "rft(5) documents 'truncated zstd frame' for every reader, and rule 8's checks" {
    rft-synth --writes 3000 --seed 1 -o s.rft
    head -c 400000 s.rft > cut.rft
    run --separate-stderr -1 rft-classify cut.rft
    [[ $stderr == "rft-classify: cut.rft: record "*": truncated zstd frame" ]]
    grep -q '^Every program reports it so' "$TOP/man/rft.5"
    grep -q 'RFT_READ_ORDER' "$TOP/man/rft.5"
    grep -q 'begins again before its end' "$TOP/man/rft.5"
}
