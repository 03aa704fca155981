#!/usr/bin/env bats
# The steady state (rft-alloc --runs steady, rft-duty): the duty map of a
# trace run again and again, from one pass, equals cell by cell the map of
# the repeated trace (rft-repeat) over a whole number of rotation periods in
# the periodic regime, for first-fit, RAR and ARGO, alone and with RC and WC.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# the cells of a duty map: slice, entry, bits, t0, t1, toff, cycles, use
cells() { rft-vth --by cells --format tsv "m=$1" | cut -f 2-9,13 | sed 1d; }

# steady_vs_repeat TRACE ALLOC-OPTIONS [GATE-OPTIONS]: the steady map of
# TRACE, and the map of TRACE repeated 2K times over runs K to 2K - 1 (K a
# multiple of every slice's period), side by side in s.cells and r.cells,
# the steady one scaled to K runs; K in k.
steady_vs_repeat() {
    local t=$1 a=$2 g=${3:-} first c1 P K gate=cat
    [ -z "$g" ] || gate="rft-gate $g"
    pipe "rft-alloc $a --runs steady $t | $gate | rft-duty --span stream -o steady.duty"
    pipe "rft-alloc $a $t | $gate | rft-duty --span stream -o once.duty"
    read -r first c1 < <(rft-vth --by cells --format tsv once.duty | awk -F '\t' 'NR == 2 { print $11, $9 }')
    P=$((c1 + 1))       # a run and the cycle to the next copy's first
    cells steady.duty > steady.cells
    # the slices' periods; K their least common multiple
    K=$(awk -F '\t' -v P=$P '
        function gcd(a, b) { return b ? gcd(b, a % b) : a }
        BEGIN { k = 1 } { p = $8 / P; k = k / gcd(k, p) * p } END { print k }' steady.cells)
    echo "$K" > k
    pipe "rft-repeat -n $((2 * K)) $t | rft-alloc $a | $gate |
          rft-duty --span stream --window $((first + K * P)):$((first + 2 * K * P)) -o rep.duty"
    cells rep.duty > r.cells
    awk -F '\t' -v OFS='\t' -v K="$K" -v P=$P '
        { m = K * P / $8; $5 *= m; $6 *= m; $7 *= m; $8 *= m; print }' steady.cells > s.cells
}

@test "first-fit, RAR and ARGO, alone and with RC and WC: the steady map is the repeated trace's over whole periods, cell by cell" {
    rft-synth --kernels vecadd --lanes 8 --writes 500 --cus 1 --simds 2 --seed 7 > v.rft
    rft-synth --kernels reduction --lanes 8 --writes 300 --cus 1 --simds 1 --seed 3 > r.rft
    for t in v.rft r.rft; do
        for a in first-fit rar argo; do
            for g in "" "--scheme rc" "--scheme wc"; do
                steady_vs_repeat $t "--scheme $a" "$g"
                run -0 cmp s.cells r.cells
                [ -s s.cells ]
            done
        done
    done
}

@test "RAR: the offsets of a window cycle through the multiples of gcd(R, N); the period is N / gcd(R, N)" {
    rft-synth --kernels vecadd --lanes 8 --writes 2000 --cus 1 --simds 1 --seed 7 > v.rft
    steady_vs_repeat v.rft "--scheme rar"
    run -0 cmp s.cells r.cells
    # vecadd's windows of 8 entries: the period divides 8, and is not 1
    # (a window is reassigned an odd number of times somewhere)
    K=$(cat k)
    (( K > 1 && 8 % K == 0 ))
    # the steady map is not one run's: the rotation spread the stress
    run -0 rft-vth --format tsv base=once.duty steady=steady.duty
    once=$(awk -F '\t' '$1 == "all" && $2 == "longest_1%" { print $3 }' <<< "$output")
    steady=$(awk -F '\t' '$1 == "all" && $2 == "longest_1%" { print $4 }' <<< "$output")
    awk -v a="$once" -v b="$steady" 'BEGIN { exit !(b < a) }'
}

@test "first-fit: every run starts with what the last left, so the steady map is one warm run, not the first" {
    rft-synth --kernels reduction --lanes 8 --writes 1500 --cus 1 --simds 1 --seed 3 > r.rft
    steady_vs_repeat r.rft "--scheme first-fit"
    run -0 cmp s.cells r.cells
    assert_equal "$(cat k)" 1
    # the first run (cells holding zeros before their first write) differs
    run -1 cmp -s <(cells once.duty | cut -f 1-7) <(cut -f 1-7 s.cells)
}

@test "the span: slice and stream give the same steady cells; the header says runs=steady" {
    rft-synth --kernels vecadd --lanes 8 --writes 2000 --cus 1 --simds 2 --seed 7 > v.rft
    rft-alloc --scheme rar --runs steady v.rft > placed.rft
    run -0 rft-view -H placed.rft
    assert_line --regexp '^runs[[:space:]]+steady$'
    rft-duty --span stream placed.rft > st.duty
    rft-duty placed.rft > sl.duty
    run -0 cmp <(cells st.duty | cut -f 1-7) <(cells sl.duty | cut -f 1-7)
    # --runs once: the same placement, one run's map
    rft-alloc --scheme rar --runs once placed.rft 2> /dev/null > again.rft
    run -0 rft-view -H again.rft
    assert_line --regexp '^runs[[:space:]]+once$'
    run -0 cmp <(rft-duty again.rft | cells /dev/stdin) <(rft-alloc --scheme rar v.rft | rft-duty | cells /dev/stdin)
}

@test "refused: ARGO --wrap restart, windows of two sizes at one RAR base, banks the head does not keep, --window, open windows" {
    rft-synth --kernels vecadd --lanes 8 --writes 2000 --cus 1 --simds 1 --seed 7 > v.rft
    run -2 --separate-stderr rft-alloc --scheme argo --wrap restart --runs steady v.rft
    [[ $stderr == "rft-alloc: --runs steady: ARGO with --wrap restart does not repeat as a rotation of the slice"* ]]
    run -2 --separate-stderr rft-alloc --runs sometimes v.rft
    rft-synth --kernels vecadd,reduction --lanes 8 --writes 3000 --cus 1 --simds 1 --seed 3 > m.rft
    run -1 --separate-stderr pipe "rft-alloc --scheme rar --runs steady m.rft | rft-duty > /dev/null"
    [[ $stderr == *"rft-duty: -: record "*": steady state: RAR windows of 8 and 13 entries at entry 0 of slice 0:0 (the rotation restarts; repeat the trace with rft-repeat instead)"* ]]
    run -1 --separate-stderr pipe "rft-alloc --scheme rar --runs steady v.rft | rft-duty --span stream --window 0:100 > /dev/null"
    [[ $stderr == *"steady state: --window selects cycles of one run"* ]]
    # a window still open at the end: the next run could not place its own
    last_e=$(rft-view v.rft | grep -n '^E' | tail -1 | cut -d: -f1)
    rft-view v.rft | sed "${last_e}d" | rft-decode --lanes 8 --block-lanes 8 > open.rft
    run -1 --separate-stderr pipe "rft-alloc --runs steady open.rft | rft-duty > /dev/null"
    [[ $stderr == *"steady state: slice 0:0: a window is still open at the end of the trace"* ]]
}

@test "ARGO with banks: steady when the head moves whole banks a run, refused otherwise" {
    rft-synth --kernels vecadd --lanes 8 --writes 2000 --cus 1 --simds 1 --seed 7 > v.rft
    h=$(rft-alloc --scheme argo --events=- -o /dev/null v.rft | awk -F '\t' '$5 == "alloc" { h = ($6 + $7) % 256 } END { print h }')
    for b in 2 4 8; do
        if (( h % b )); then
            run -1 --separate-stderr pipe "rft-alloc --scheme argo --bank $b --runs steady v.rft | rft-duty > /dev/null"
            [[ $stderr == *"ARGO's head moves $h entries a run, not a whole number of its banks of $b entries"* ]]
        else
            steady_vs_repeat v.rft "--scheme argo --bank $b"
            run -0 cmp s.cells r.cells
        fi
    done
}

@test "aging.sh and argo.sh: steady by default, -r once and -r N, and the tables say which" {
    rft-synth --kernels vecadd --writes 1000 --cus 1 --simds 1 --seed 7 > v.rft
    run -0 sh "$TOP/examples/aging.sh" v.rft
    assert_line --index 0 --regexp '^== v.rft \(steady state\): seed 002 section 6'
    run -0 sh "$TOP/examples/aging.sh" -r once v.rft
    assert_line --index 0 --regexp '^== v.rft \(run once\): '
    run -0 sh "$TOP/examples/aging.sh" -r 2 v.rft
    assert_line --index 0 --regexp '^== v.rft \(run 2 times\): '
    run -2 sh "$TOP/examples/aging.sh" -r often v.rft
    run -0 sh "$TOP/examples/aging.sh" -r once v.rft --format json
    assert_line --index 1 --partial '{"table": "vth", "runs": "run once", "scope": "all", '
    # the maps aging.sh keeps are rft-alloc --runs steady's
    sh "$TOP/examples/aging.sh" -k keep v.rft > /dev/null
    rft-alloc --scheme rar --runs steady v.rft | rft-duty > rar.duty
    run -0 cmp <(cells keep/rar.rft) <(cells rar.duty)
    run -0 sh "$TOP/examples/argo.sh" -r once v.rft
    assert_line --index 0 '== v.rft (run once): register-file utilization (seed 004 Table 1; seed 002 Table 5)'
}
