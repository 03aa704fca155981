#!/usr/bin/env bats
# rft-replay --model cu (issue 32): the compute-unit model at the traced
# configuration and at a what-if one read from Multi2Sim 4.2 ini files; the
# unit tests of every mechanism (tests/unit/test_cumodel.c); the schemes'
# own events through it; usage and bad configuration files.

bats_require_minimum_version 1.5.0
load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --quiet --writes 20000 --cus 4 -o s.rft
    printf '[ Device ]\nNumComputeUnits = 4\n' > base.ini
}

# column $1 of the total row (TSV on stdin)
col() { awk -F'\t' -v c="$1" '/^#/{next} !h{for(i=1;i<=NF;i++) if($i==c) k=i; h=1; next} $1=="total"{print $k}'; }
export -f col

@test "the unit tests of the model's mechanisms pass" {
    run -0 "$BATS_TEST_DIRNAME/unit/test_cumodel"
    [[ $output == *ok* ]]
}

@test "no what-if: the what-if cycles are the model's, slowdown 0" {
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini s.rft | col slowdown_pct"
    [ "$output" = "0.00" ]
    run -0 pipe "rft-replay -f tsv --model cu s.rft | awk -F'\t' '!/^#/ && h++ && \$3 != \$4 { n++ } END { print n + 0 }'"
    [ "$output" = 0 ]
}

@test "a baseline past 3 % of the traced span is said above the table; one within is not" {
    # rft-synth issues faster than 4.2's 8-cycle SIMD: +41.75 % at 4.2's defaults unscaled
    run -0 pipe "rft-replay -f tsv --model cu --calibrate none --m2s-config base.ini s.rft"
    assert_line '# the model at the traced configuration is +41.75 % off the traced span, past the 3 % its validation holds the baseline to (rft-replay(1)): its slowdowns here are not validated'
    assert_line --partial $'total\t29196\t41385\t'
    refute_line --partial 'calibrated'
    # calibrated (the default): 5 of the 6 ND-ranges out of the factors' reach,
    # +24.25 %; unscaled +41.77 %, past the 16 % the calibration was validated to
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini s.rft"
    assert_line '# calibrated (--calibrate alu): 6 of 6 ND-ranges had their ALU own parts scaled by 0.500 to 0.750; unscaled, the model at the traced configuration was +41.77 % off the traced span (rft-replay(1))'
    assert_line '# 5 of the ND-ranges the calibration tried stayed more than 1 % off their traced spans (no factor from 0.5 to 2 came closer)'
    assert_line '# the calibration was validated where the model, unscaled, was within 16 % of the traced span; here +41.77 %: its slowdowns here are not validated'
    assert_line --partial $'total\t29196\t36275\t'
    # a 4-cycle SIMD: +1.69 % unscaled, +0.08 % calibrated, no such line
    printf '[ Device ]\nNumComputeUnits = 4\n[ SIMDUnit ]\nReadExecWriteLatency = 4\n' > b4.ini
    run -0 pipe "rft-replay -f tsv --model cu --calibrate none --m2s-config b4.ini s.rft"
    assert_line --partial $'total\t29196\t29689\t'
    refute_line --partial 'off the traced span'
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config b4.ini s.rft"
    assert_line '# calibrated (--calibrate alu): 4 of 6 ND-ranges had their ALU own parts scaled by 0.625 to 0.969; unscaled, the model at the traced configuration was +1.69 % off the traced span (rft-replay(1))'
    assert_line --partial $'total\t29196\t29218\t'
    refute_line --partial 'not validated'
}

# two wavefronts of compute unit 0 (SIMDs 0 and 1) each load at cycle 10; wf 0's access
# completes at 100, wf 1's at $1 (done marks, rft(5); none with $2); each waits for it 10
# cycles later, runs one vector ALU instruction and ends 10 cycles after
two_loads() {
    printf 'B\t0\t0\t0\t0\t4\tk\t0\nB\t0\t0\t1\t1\t4\tk\t0\n'
    wr 10 0 1 flags=vmem; wr 10 1 1 flags=vmem
    { [ -z "$2" ] && printf 'U\t100\t0\t0\t0\tdone\nU\t%s\t0\t1\t1\tdone\n' "$1"
      printf 'U\t110\t0\t0\t0\twait\n'; wr 110 0 2
      printf 'U\t%s\t0\t1\t1\twait\n' $(($1 + 10)); wr $(($1 + 10)) 1 2
      printf 'E\t120\t0\t0\t0\nE\t%s\t0\t1\t1\n' $(($1 + 20)); } | sort -t $'\t' -k2,2n -s
}

@test "a 1-entry write buffer takes accesses at their completions (done marks), not at their issues" {
    printf '[ Device ]\nNumComputeUnits = 1\n' > one.ini
    printf '[ Device ]\nNumComputeUnits = 1\n[ VectorMemUnit ]\nWriteLatency = 21\n' > w21.ini
    # completions 30 cycles apart: the second finds the buffer free, each pays its +20 once
    two_loads 130 | rft-decode -o apart.rft -
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config one.ini --m2s-what-if w21.ini apart.rft | awk -F'\t' '\$1 == \"total\" { print \$2, \$3, \$4 }'"
    assert_output "150 150 170"
    # the same stream without its done marks: both taken at their issue, the second 21 later
    two_loads 130 x | rft-decode -o issue.rft -
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config one.ini --m2s-what-if w21.ini issue.rft | awk -F'\t' '\$1 == \"total\" { print \$4 }'"
    assert_output 191
    # completions 5 cycles apart: the second waits for the first's 21 cycles
    two_loads 105 | rft-decode -o close.rft -
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config one.ini --m2s-what-if w21.ini close.rft | awk -F'\t' '\$1 == \"total\" { print \$2, \$4 }'"
    assert_output "125 161"
}

# one wavefront (compute unit 0, SIMD 0): a scalar load issued at $1 and written at 100
# (sload, sdone), vector ALU instructions at 20 and 28, a scalar instruction that waits
# behind the load from 32 to 101 (shold, srel), a vector ALU instruction at 110, its end
# at 120; with $2, no scalar marks
scalar_wait() {
    { printf 'B\t0\t0\t0\t0\t4\tk\t0\n'
      wr 20 0 1; wr 28 0 2; wr 110 0 3
      [ -z "$2" ] && printf 'U\t%s\t0\t0\t0\tsload\nU\t32\t0\t0\t0\tshold\nU\t100\t0\t0\t0\tsdone\nU\t101\t0\t0\t0\tsrel\n' "$1"
      printf 'E\t120\t0\t0\t0\n'; } | sort -t $'\t' -k2,2n -s
}

# the total row's traced, model and what-if cycles of stream $1 on one compute unit,
# the what-if a ReadExecWriteLatency of 40
r40_total() {
    printf '[ Device ]\nNumComputeUnits = 1\n' > one.ini
    printf '[ SIMDUnit ]\nReadExecWriteLatency = 40\n' > r40.ini
    rft-replay -f tsv --model cu --m2s-config one.ini --m2s-what-if r40.ini "$1" |
        awk -F'\t' '$1 == "total" { print $2, $3, $4 }'
}

@test "a wait behind a scalar load absorbs a slower SIMD before it, not one before the load (v13)" {
    # the load at 10: the second instruction issues at 60 (the SIMD held 40), the scalar
    # one is written once the load is (at 101, as traced), the last at 110: no slower
    scalar_wait 10 | rft-decode -o before.rft -
    run -0 r40_total before.rft
    assert_output "120 120 120"
    # without the marks the wait is the wavefront's own time: 60 + 82, ends 152 (model v12)
    scalar_wait 10 x | rft-decode -o none.rft -
    run -0 r40_total none.rft
    assert_output "120 120 152"
    # the load at 30, after the slower instruction: issued at 62, written at 132, the
    # wavefront pays the SIMD's 32 cycles in full
    scalar_wait 30 | rft-decode -o after.rft -
    run -0 r40_total after.rft
    assert_output "120 120 152"
}

# scalar_wait 30's wavefront beside another (work-group 1, so SIMD 1 in a run) whose
# scalar load issued at 5 is written at $1, on the same compute unit, then a 3-cycle load
burst() {
    { scalar_wait 30
      printf 'B\t0\t0\t1\t1\t4\tk\t1\nU\t5\t0\t1\t1\tsload\nU\t%s\t0\t1\t1\tsdone\n' "$1"
      printf 'U\t102\t0\t1\t1\tsload\nU\t105\t0\t1\t1\tsdone\n'; wr 106 1 1
      printf 'E\t115\t0\t1\t1\n'; } | sort -t $'\t' -k2,2n -s
}

@test "a scalar load written in another's burst is written after that one in a run, not its own latency later (v14, v16)" {
    # written at 100, a cycle after the other's (99): issued at 62 in the run (the SIMD
    # held 40), it is written at 100 as that one is, not 70 cycles after 62, and the
    # wait behind it ends as traced
    burst 99 | rft-decode -o burst.rft -
    run -0 r40_total burst.rft
    assert_output "120 120 120"
    # 9 cycles after the other's: still its burst (v16; v14 took 2 at most)
    burst 91 | rft-decode -o gap9.rft -
    run -0 r40_total gap9.rft
    assert_output "120 120 120"
    # 10 cycles after: its own (scalar_wait 30's 152, as v13)
    burst 90 | rft-decode -o apart.rft -
    run -0 r40_total apart.rft
    assert_output "120 120 152"
}

# scalar_wait 30's wavefront (its load issued at 30, written at 100) beside another on its
# compute unit: a vector ALU instruction at 50, then a scalar load issued at 102, after the
# first one's write, written at 105 and waited for, a vector ALU instruction at 110
hit_after() {
    { scalar_wait 30
      printf 'B\t0\t0\t1\t1\t4\tk\t1\n'; wr 50 1 1
      printf 'U\t102\t0\t1\t1\tsload\nU\t103\t0\t1\t1\tshold\n'
      printf 'U\t105\t0\t1\t1\tsdone\nU\t106\t0\t1\t1\tsrel\n'; wr 110 1 1
      printf 'E\t200\t0\t1\t1\n'; } | sort -t $'\t' -k2,2n -s
}

@test "a scalar load issued after the load before it was written is no part of that one's burst (v16)" {
    # written 5 cycles after the first one's write, it hit: its own 3 cycles in the run,
    # not the first one's run-time write (132) + 5, which would hold its wavefront to 232
    hit_after | rft-decode -o hit.rft -
    run -0 r40_total hit.rft
    assert_output "200 200 200"
}

# scalar_wait 30's wavefront, its load (issued at 30, written at 100) the first written of
# a burst, beside another on its compute unit that issued the same load at $1 (written at
# 101), then a 3-cycle load; with $2, the other a vector ALU instruction at 10 and the
# load at 80, waited for, its end at 200
burst_lead() {
    { scalar_wait 30
      printf 'B\t0\t0\t1\t1\t4\tk\t1\n'
      if [ -z "$2" ]; then
          printf 'U\t%s\t0\t1\t1\tsload\nU\t101\t0\t1\t1\tsdone\n' "$1"
          printf 'U\t102\t0\t1\t1\tsload\nU\t105\t0\t1\t1\tsdone\n'; wr 106 1 1
          printf 'E\t115\t0\t1\t1\n'
      else
          wr 10 1 1; printf 'U\t%s\t0\t1\t1\tsload\nU\t%s\t0\t1\t1\tshold\n' "$1" $(($1 + 1))
          printf 'U\t101\t0\t1\t1\tsdone\nU\t102\t0\t1\t1\tsrel\n'; wr 110 1 1
          printf 'E\t200\t0\t1\t1\n'
      fi; } | sort -t $'\t' -k2,2n -s
}

@test "a burst's miss returns after its earliest issue in the run, whichever load that is, as of when a wait reads it (v17, v20)" {
    # the other load issued at 35 in the run too (its SIMD not slowed): the miss returns
    # 70 cycles later (the first written's latency), at 105, and the load issued at 62 is
    # written then, not 70 cycles after 62 (152, v16)
    burst_lead 35 | rft-decode -o lead.rft -
    run -0 r40_total lead.rft
    assert_output "120 120 125"
    # issued at 31: the miss at 101
    burst_lead 31 | rft-decode -o lead31.rft -
    run -0 r40_total lead31.rft
    assert_output "120 120 121"
    # the other load, issued at 80, is put into the run (at its instruction at 10) before
    # the first one (issued at 62 in the run): its wait reads the burst's return as it
    # stands then, 62 + 70, and ends 32 cycles late; put time's return (80 + 70) would
    # give 245 at the traced configuration already
    burst_lead 80 late | rft-decode -o late.rft -
    run -0 r40_total late.rft
    assert_output "200 200 232"
}

@test "the scalar loads' rings are the compute units' that have one, counted in --max-memory" {
    printf '[ Device ]\nNumComputeUnits = 1\n' > one.ini
    # one wavefront on compute unit 65535 with one scalar load: its ring alone (v13's first
    # version allocated one for every compute unit up to it, 134 MB)
    printf 'B\t0\t65535\t0\t0\t4\tk\t0\nU\t5\t65535\t0\t0\tsload\nU\t9\t65535\t0\t0\tsdone\nE\t20\t65535\t0\t0\n' |
        rft-decode -o far.rft -
    run -0 bash -c "ulimit -v 65536; rft-replay -f tsv --model cu --m2s-config one.ini far.rft"
    assert_line --regexp $'^total\t20\t'
    refute_output --partial 'out of memory'
    # 600 compute units with one each: 1 MiB refused, the record named; 2 MiB enough
    { for c in $(seq 0 599); do printf 'B\t0\t%d\t0\t0\t4\tk\t0\nU\t5\t%d\t0\t0\tsload\n' $c $c; done
      for c in $(seq 0 599); do printf 'U\t9\t%d\t0\t0\tsdone\nE\t20\t%d\t0\t0\n' $c $c; done; } |
        sort -t $'\t' -k2,2n -s | rft-decode -o many.rft -
    run -1 --separate-stderr rft-replay -f tsv --model cu --max-memory 1 --m2s-config one.ini many.rft
    assert_regex "$stderr" "^rft-replay: many.rft: record [0-9]+: .* over its limit of 1 MiB \(--max-memory MIB raises it\)$"
    run -0 rft-replay -f tsv --model cu --max-memory 2 --m2s-config one.ini many.rft
}

@test "a what-if that takes latency away runs faster: the write stage's (v10) and the SIMD's (v11)" {
    # traced at WriteLatency 11, asked for 1: each load written 10 cycles sooner (the
    # second's write no sooner than cycle 1: its issue at 10, an anchor is never 0);
    # v9 kept every write as traced: 150 150 150
    printf '[ Device ]\nNumComputeUnits = 1\n[ VectorMemUnit ]\nWriteLatency = 11\n' > w11.ini
    printf '[ VectorMemUnit ]\nWriteLatency = 1\n' > back.ini
    two_loads 130 | rft-decode -o apart.rft -
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config w11.ini --m2s-what-if back.ini apart.rft | awk -F'\t' '\$1 == \"total\" { print \$2, \$3, \$4, \$6 }'"
    assert_output "150 150 141 -6.00"
    # the synthetic stream taken as traced at ReadExecWriteLatency 12, asked for 8: the
    # instructions that waited behind their own wavefront's last on the SIMD go sooner
    # too (v10: 54111 -> 41389, only those behind another wavefront's)
    printf '[ Device ]\nNumComputeUnits = 4\n[ SIMDUnit ]\nReadExecWriteLatency = 12\n' > s12.ini
    printf '[ SIMDUnit ]\nReadExecWriteLatency = 8\n' > s8.ini
    run -0 pipe "rft-replay -f tsv --model cu --calibrate none --m2s-config s12.ini --m2s-what-if s8.ini s.rft | col cycles_what_if"
    assert_output 40342
}

@test "a longer ReadExecWriteLatency never runs faster, and a larger one no faster than a smaller" {
    local prev=0 l c
    for l in 8 12 18 28; do
        printf '[ SIMDUnit ]\nReadExecWriteLatency = %s\n' $l > w.ini
        c=$(rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w.ini s.rft | col cycles_what_if)
        (( c >= prev ))
        prev=$c
    done
}

@test "a 1-entry write buffer costs at least as much as a 64-entry one" {
    printf '[ VectorMemUnit ]\nWriteLatency = 21\n' > w1.ini
    printf '[ VectorMemUnit ]\nWriteLatency = 21\nWriteBufferSize = 64\n' > w64.ini
    local a b
    a=$(rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w1.ini s.rft | col cycles_what_if)
    b=$(rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w64.ini s.rft | col cycles_what_if)
    (( a >= b ))
}

@test "an unknown key or section is named, status 1" {
    printf '[ SIMDUnit ]\nReadExecWriteLatncy = 9\n' > bad.ini
    run -1 rft-replay --model cu --m2s-config bad.ini s.rft
    [[ $output == *"bad.ini: line 2: unknown key ReadExecWriteLatncy in [ SIMDUnit ]"* ]]
    printf '[ Devise ]\n' > bad2.ini
    run -1 rft-replay --model cu --m2s-what-if bad2.ini s.rft
    [[ $output == *"Devise"* ]]
    # the keys are 4.2's, section by section: the scalar unit's latency is ALULatency
    printf '[ ScalarUnit ]\nExecLatency = 8\n' > bad3.ini
    run -1 rft-replay --model cu --m2s-config bad3.ini s.rft
    [[ $output == *"bad3.ini: line 2: unknown key ExecLatency in [ ScalarUnit ]"* ]]
    printf '[ ScalarUnit ]\nALULatency = 8\n[ SIMDUnit ]\nNumSIMDLanes = 16\n' > ok.ini
    run -0 rft-replay -f tsv --model cu --m2s-config ok.ini s.rft
    # a file that is not one, or too large to be one: said with the path
    run -1 --separate-stderr rft-replay --model cu --m2s-config missing.ini s.rft
    assert_equal "$stderr" "rft-replay: missing.ini: No such file or directory"
    mkdir dir.ini
    run -1 --separate-stderr rft-replay --model cu --m2s-config dir.ini s.rft
    assert_equal "$stderr" "rft-replay: dir.ini: Is a directory"
    head -c 1100000 /dev/zero | tr '\0' '#' > big.ini
    run -1 --separate-stderr rft-replay --model cu --m2s-what-if big.ini s.rft
    assert_equal "$stderr" "rft-replay: big.ini: larger than 1 MiB"
}

@test "the compute units an ini asks for are counted in the memory budget before they are allocated" {
    # 10^8 compute units: refused at once, one line naming them, no table
    printf '[ Device ]\nNumComputeUnits = 100000000\n' > huge.ini
    run -1 --separate-stderr rft-replay --model cu --m2s-config huge.ini s.rft
    assert_output ""
    [[ $stderr == "rft-replay: s.rft: the compute units of the configuration (100000000, of 4 pools) would bring"*"over its limit of 2048 MiB"* ]]
    # 10^6 of 4000 work-groups each: their state (three runs, 197.4 MiB; four
    # to calibrate, 263.2) fits 200 (270) MiB, an ND-range's slots do not
    printf '[ Device ]\nNumComputeUnits = 1000000\n[ ComputeUnit ]\nMaxWorkGroupsPerWavefrontPool = 1000\n' > m1.ini
    run -1 --separate-stderr rft-replay --model cu --calibrate none --m2s-config m1.ini --max-memory 200 s.rft
    assert_output ""
    [[ $stderr == *"an ND-range's slots (1000000 compute units x "*" words) would bring"*"over its limit of 200 MiB"* ]]
    run -0 rft-replay --model cu --calibrate none --m2s-config m1.ini --max-memory 240 -f tsv s.rft
    run -1 --separate-stderr rft-replay --model cu --m2s-config m1.ini --max-memory 260 s.rft
    [[ $stderr == *"the compute units of the configuration (1000000, of 4 pools) would bring the state of rft-replay to 263.2 MiB, over its limit of 260 MiB"* ]]
    run -1 --separate-stderr rft-replay --model cu --m2s-config m1.ini --max-memory 270 s.rft
    [[ $stderr == *"an ND-range's slots (1000000 compute units x "*" words) would bring"*"over its limit of 270 MiB"* ]]
    run -0 rft-replay --model cu --m2s-config m1.ini --max-memory 300 -f tsv s.rft
}

@test "a what-if that changes a key the model does not use says so above the table" {
    printf '[ Device ]\nNumComputeUnits = 4\n[ FrontEnd ]\nFetchLatency = 3\n' > fe.ini
    printf '[ Device ]\nNumComputeUnits = 4\n[ FrontEnd ]\nFetchLatency = 3\n[ VectorMemUnit ]\nMaxInflightMem = 4\n' > inf.ini
    run -0 rft-replay -f tsv --model cu --m2s-config fe.ini --m2s-what-if inf.ini s.rft
    [[ $output == *"# the what-if gives [ VectorMemUnit ] MaxInflightMem another value than the traced configuration: the model does not use that key"* ]]
    [[ $output != *"FetchLatency another value"* ]]
    # and its what-if times as the traced configuration does
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config fe.ini --m2s-what-if inf.ini s.rft | col slowdown_pct"
    [ "$output" = "0.00" ]
    # a what-if repeating the traced file's keys (the knob files do), or one
    # changing a key the model uses, is silent
    printf '[ Device ]\nNumComputeUnits = 4\n[ FrontEnd ]\nFetchLatency = 3\n[ SIMDUnit ]\nReadExecWriteLatency = 12\n' > rew.ini
    run -0 rft-replay -f tsv --model cu --m2s-config fe.ini --m2s-what-if rew.ini s.rft
    [[ $output != *"another value"* ]]
}

@test "usage: --m2s-config needs --model cu; --model cu takes no --add-latency, --issue, --deps nor -o" {
    run -2 rft-replay --m2s-config base.ini s.rft
    run -2 rft-replay --calibrate none s.rft
    run -2 rft-replay --model cu --calibrate some s.rft
    run -2 rft-replay --model cu --add-latency 4 s.rft
    run -2 rft-replay --model cu -o x.rft s.rft
    run -2 rft-replay --model cu --issue 8 s.rft
    run -2 rft-replay --model cu --deps none s.rft
    run -2 rft-replay --model gpu s.rft
    run -2 rft-replay --placements 4 s.rft
    run -2 rft-replay --model cu --placements 17 s.rft
    [[ $output == *--placements* ]]
}

@test "--placements N: the slowdown's range and mean over N perturbed placements, three columns more, the others unchanged" {
    printf '[ Device ]\nNumComputeUnits = 4\n[ SIMDUnit ]\nReadExecWriteLatency = 12\n' > w.ini
    rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w.ini s.rft > p0.tsv
    rft-replay -f tsv --model cu --placements 4 --m2s-config base.ini --m2s-what-if w.ini s.rft > p4.tsv
    # the first seven columns as without it; every row's range holds its slowdown and its mean
    run -0 diff <(grep -v '^#' p0.tsv) <(grep -v '^#' p4.tsv | cut -f1-7)
    run -0 awk -F'\t' '/^#/{next} !h++{print $8, $9, $10; next}
                        $8 > $6 || $9 < $6 || $8 > $10 || $9 < $10 {print "out", $0}' p4.tsv
    assert_output 'slowdown_lo_pct slowdown_hi_pct slowdown_mean_pct'
    # the work-groups started a few cycles late move the first ND-range's (vecadd) to 39.70-41.59 %
    run -0 grep -c $'^ndrange 0 vecadd\t2138\t2336\t3298\t9.26\t41.18\t3803\t39.70\t41.59\t40.77$' p4.tsv
    run -0 grep -x '# placements perturbed (--placements 4): each ND-range timed again with its work-groups started up to 2 issue intervals late; the total.s slowdown ranged from 35.62 to 35.88 %, mean 35.79 % (rft-replay(1))' p4.tsv
    run -0 grep -c $'^total\t29196\t36275\t49249\t24.25\t35.77\t22051\t35.62\t35.88\t35.79$' p4.tsv
    # one placement: the mean is halfway between the unperturbed slowdown and
    # the placement's, one of them the range's low end, the other its high
    run -0 pipe "rft-replay -f tsv --model cu --placements 1 --m2s-config base.ini --m2s-what-if w.ini s.rft |
                 awk -F'\t' '/^#/{next} h++ { d = (\$8 + \$9) / 2 - \$10; if (d > 0.006 || d < -0.006) print \"off\", \$0 }'"
    assert_output ''
    # no what-if: the same runs twice, no range
    run -0 pipe "rft-replay -f tsv --model cu --placements 4 --m2s-config base.ini s.rft | col slowdown_hi_pct"
    [ "$output" = "0.00" ]
    # 0: none, no column more
    run -0 pipe "rft-replay -f tsv --model cu --placements 0 --m2s-config base.ini --m2s-what-if w.ini s.rft | grep -v '^#'"
    refute_output --partial slowdown_lo_pct
}

# the schemes' own events through the model (issue 32): a gated stream's
# wake-ups and MOVs, a patched stream's stages, SC healing's twins
@test "a gated stream's wake-ups and MOVs cost cycles in the model: six columns more, ignored by --no-scheme" {
    rft-alloc s.rft | rft-gate --scheme rc -o g.rft
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini g.rft | grep -v '^#' | head -1"
    [ "$output" = "$(printf 'scope\tcycles_traced\tcycles_model\tcycles_what_if\tbaseline_error_pct\tslowdown_pct\tinstructions\tcycles_scheme\tslowdown_scheme_pct\twakeups\tmovs\tmispredictions\tlds_loads')" ]
    local w s
    w=$(rft-replay -f tsv --model cu --m2s-config base.ini g.rft | col cycles_what_if)
    s=$(rft-replay -f tsv --model cu --m2s-config base.ini g.rft | col cycles_scheme)
    (( $(rft-replay -f tsv --model cu --m2s-config base.ini g.rft | col wakeups) > 0 ))
    (( s > w ))
    # the seven columns are the unschemed stream's: the events never enter them
    diff <(rft-replay -f tsv --model cu --m2s-config base.ini g.rft | grep -v '^#' | cut -f1-7) \
         <(rft-replay -f tsv --model cu --m2s-config base.ini s.rft | grep -v '^#')
    # --no-scheme: the seven columns alone
    diff <(rft-replay -f tsv --model cu --m2s-config base.ini --no-scheme g.rft) \
         <(rft-replay -f tsv --model cu --m2s-config base.ini s.rft)
}

@test "more wake-up or MOV cycles never run faster; none at all: the what-if cycles" {
    rft-alloc s.rft | rft-gate --scheme wc -o g.rft
    local prev=0 c k
    for k in 0 5 10 40; do
        c=$(rft-replay -f tsv --model cu --m2s-config base.ini --wakeup-cycles $k g.rft | col cycles_scheme)
        (( c >= prev ))
        prev=$c
    done
    prev=0
    for k in 0 4 16; do
        c=$(rft-replay -f tsv --model cu --m2s-config base.ini --mov-cycles $k g.rft | col cycles_scheme)
        (( c >= prev ))
        prev=$c
    done
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini --wakeup-cycles 0 --mov-cycles 0 g.rft | col slowdown_scheme_pct"
    [ "$output" = "0.00" ]
}

@test "a patched stream's stages and SC healing's redundant wavefronts cost cycles in the model" {
    rft-dcpatch --scenario common s.rft -o p.rft
    local w s
    w=$(rft-replay -f tsv --model cu --m2s-config base.ini p.rft | col cycles_what_if)
    s=$(rft-replay -f tsv --model cu --m2s-config base.ini p.rft | col cycles_scheme)
    (( s > w ))
    (( $(rft-replay -f tsv --model cu --m2s-config base.ini --stages 8 p.rft | col cycles_scheme) > s ))
    w=$(rft-replay -f tsv --model cu --m2s-config base.ini s.rft | col cycles_what_if)
    s=$(rft-replay -f tsv --model cu --m2s-config base.ini --degraded-scs 2 s.rft | col cycles_scheme)
    (( s > w ))
    run -2 rft-replay --model cu --max-wg 64 s.rft
    run -1 rft-replay --model cu --degraded-scs 63 s.rft
    [[ $output == *"--degraded-scs 63"* ]]
}

@test "the model times an ND-range at a time: rft-repeat's copies each as the first, the total their sum" {
    rft-repeat -n 3 s.rft -o r.rft
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini r.rft | grep -c '^ndrange'"
    [ "$output" = 18 ]
    local one three
    one=$(rft-replay -f tsv --model cu --m2s-config base.ini s.rft | col cycles_model)
    three=$(rft-replay -f tsv --model cu --m2s-config base.ini r.rft | col cycles_model)
    (( three >= 3 * one - 3 && three <= 3 * one + 3 ))
}

@test "the table says when the stream marks no s_waitcnt, and when it ran on another number of compute units than the configuration's" {
    # rft-synth's stream: no marks; 4 compute units, the default configuration 32
    run -0 pipe "rft-replay -f tsv --model cu s.rft | grep '^#'"
    assert_output --partial "# the stream marks no s_waitcnt"
    assert_output --partial "# the stream ran on 4 compute units, the traced configuration has 32"
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini s.rft | grep -c 'compute units, the traced' || true"
    assert_output 0
    # a stream of no wavefront ran on no GPU size: not "0 compute units"
    printf 'K\t0\tk\n' | rft-decode -o e.rft -
    run -0 pipe "rft-replay -f tsv --model cu e.rft | grep -c 'compute units, the traced' || true"
    assert_output 0
    # a Multi2Sim run decoded with its pipeline trace: its waits marked, no such note
    F="$FIX/m2s42"
    rft-decode --kernel k --local-size 64 --cycles-from "$F/marks.trace" --cycles-mhz 1000,1000 -o m.rft "$F/marks.isa"
    printf '[ Device ]\nNumComputeUnits = 1\n' > one.ini
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config one.ini m.rft | grep '^#' || true"
    refute_output --partial "marks no s_waitcnt"
    refute_output --partial "compute units, the traced"
}

@test "the table says when a stream with waits marked has LDS accesses and no arrive mark (decoded before them)" {
    F="$FIX/m2s42"
    printf '[ Device ]\nNumComputeUnits = 1\n' > one.ini
    # the LDS fixture with a wait mark before its load's records: arrive mark kept, no note
    rft-decode --kernel k --local-size 64 --cycles-from "$F/lds.trace" --cycles-mhz 1000,1000 "$F/lds.isa" |
        rft-view | awk '$1 == "R" && $2 == 40 { print "U\t40\t0\t0\t0\twait" } { print }' > l.txt
    rft-decode -o l.rft l.txt
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config one.ini l.rft | grep '^#' || true"
    refute_output --partial "LDS access's arrival"
    # the same without its arrive mark: the note, the model timing the load by its gap
    grep -v 'arrive$' l.txt | rft-decode -o n.rft -
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config one.ini n.rft | grep '^#'"
    assert_output --partial "# the stream marks no LDS access's arrival (rft-decode --cycles-from writes arrive marks since the model's sixth version)"
    # no LDS access, or no wait marked (another decoder's stream): no such note
    run -0 pipe "rft-replay -f tsv --model cu s.rft | grep -c \"LDS access's arrival\" || true"
    assert_output 0
}
