#!/usr/bin/env bats
# rft-energy: the seed 002 schemes (baseline, WC, ARGO, RC+RAR) and the seed
# 001 comparison (Conv, Smooth, DC-Patch) priced by hand on tiny traces run
# through the real stages, with the shipped parameter files; labels, formats
# and bad input.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    E="$FIX/energy"
}

# The four seed 002 schemes over gate.txt (one slice, cycles 0 to 1000, 4
# writes and 4 reads, two wavefronts of 2 registers one after the other).
schemes() {
    rft-decode "$E/gate.txt" -o t.rft
    rft-alloc t.rft -o ff.rft
    rft-gate --scheme wc ff.rft -o wc.rft
    rft-alloc --scheme argo t.rft -o argo.rft
    rft-alloc --scheme rar t.rft | rft-gate --scheme rc -o rcrar.rft
}

# DC-Patch over dcp.txt on 8-entry slices with map8.csv.
dcpatch() {
    rft-decode --entries 8 "$E/dcp.txt" | rft-faultmap --map "$E/map8.csv" | rft-dcpatch -o dcp.rft
}

# Hand computation, params/seed002-32nm.conf: 1 ns cycles, B = 4 blocks,
# C = 1000 slice-cycles (span 1000, one slice), N = 256 x 2048 cells.
#  baseline: leak 75.86 mW x 1000 ns = 75860 pJ; dynamic 4 reads x 4 x 295.86
#    + 4 writes x 4 x 365.91 = 10588.32; total 86448.32 pJ
#  wc (first-fit, rft-gate --scheme wc): entry 0 on 2048 bits over 0-100,
#    536 (ids: delta1) over 100-500, 2048 over 500-800, 536 over 800-1000;
#    entry 1 2048 over 0-1000; entries 2-255 never taken: off.
#    P = 204800 + 214400 + 614400 + 107200 + 2048000 = 3188800, f = P / (N C)
#    = 0.61 %; 1 wake-up: 10 cycles.
#    leak_slice 75.86 x f x 1000 = 461.39; leak_logic (7.01 + 2 x 8.03) x 1000
#    = 23070; dyn_slice 12 x 295.86 + 12 x 365.91 = 7941.24 (4 blocks of
#    each cancelled); dyn_logic 16 x 0.76 + 8 x 0.79 = 18.48; wakeup 232.88;
#    total 31723.99; slowdown_leak (75.86 x f + 23.07) x 10 = 235.31.
#    --with-slowdown: the leakage over C' = 1010: 466.00, 23300.70, total
#    31959.30
#  argo (rft-alloc --scheme argo, no rft-gate): windows at 0-1 (0-600) and
#    2-3 (700-1000), the rest off: P = 2048 x (2 x 600 + 2 x 300), f = 0.70 %;
#    4 entries woken by placements: 4 x 232.88 = 931.52, no cycles;
#    leak 75.86 x f x 1000 = 533.40; dynamic as the baseline; total 12053.24
#  rc+rar (rar, rft-gate --scheme rc): wavefront 1 rotated (s = 1): v0 in
#    entry 1.  Entry 0 on over 0-100 and 500-1000 (woken), entry 1 over
#    0-800 (then compressed): P = 2048 x 1400, f = 0.55 %; 1 wake-up.
#    leak 75.86 x f x 1000 = 414.88; leak_logic (8.46 + 2 x 8.00 + 0.13) x
#    1000 = 24590; dyn_slice 10 x 295.86 + 16 x 365.91 = 8813.16;
#    dyn_logic 10 x 1.10 + 10 x 0.96 + 4 x 1.25 + (2 + 1) x 66.49 = 225.07;
#    wakeup 232.88; total 34275.99; slowdown_leak (75.86 x f + 24.59) x 10 =
#    250.05.  --with-slowdown (C' = 1010): 419.03, 24835.90, total 34525.94
#  allocators (seed 004 5.4, one slice = one compute unit here): the slice
#    leakage saved over the 1000 ns, e.g. argo (75860 - 533.40) / 1000 =
#    75.327 mW, less ARGO's 0.92 - 0.56 mW: 74.967 mW net
@test "seed 002: baseline, WC, ARGO and RC+RAR by hand, in nJ" {
    schemes
    run rft-energy --leak-over trace --absolute -f tsv ff.rft wc.rft argo.rft rcrar.rft
    no_notes
    assert_success
    assert_output - <<'EOF'
scheme	powered%	leak_slice	leak_logic	dyn_slice	dyn_logic	wakeup	total	energy_nJ	saving%	leak_saving%	added_cycles	slice_slowdown_bound%	alloc_mW	leak_saved_mW	net_saved_mW	slowdown_leak	replayed_cycles	slice_slowdown_replay%
baseline	100.00	75.860	0.000	10.588	0.000	0.000	86.448	86.448	0.00	0.00	0	0.000	0.560	0.000	0.000	0.000	0	0.000
wc	0.61	0.461	23.070	7.941	0.018	0.233	31.724	31.724	63.30	99.39	10	1.000	0.560	75.399	75.399	0.235	10	1.000
argo	0.70	0.533	0.000	10.588	0.000	0.932	12.053	12.053	86.06	99.30	0	0.000	0.920	75.327	74.967	0.000	0	0.000
rc+rar	0.55	0.415	24.590	8.813	0.225	0.233	34.276	34.276	60.35	99.45	10	1.000	0.560	75.445	75.445	0.250	10	1.000
EOF
    run rft-energy --with-slowdown --absolute -f tsv ff.rft wc.rft argo.rft rcrar.rft
    no_notes
    assert_success
    assert_output - <<'EOF'
scheme	powered%	leak_slice	leak_logic	dyn_slice	dyn_logic	wakeup	total	energy_nJ	saving%	leak_saving%	added_cycles	slice_slowdown_bound%	alloc_mW	leak_saved_mW	net_saved_mW	slowdown_leak	replayed_cycles	slice_slowdown_replay%
baseline	100.00	75.860	0.000	10.588	0.000	0.000	86.448	86.448	0.00	0.00	0	0.000	0.560	0.000	0.000	0.000	0	0.000
wc	0.61	0.466	23.301	7.941	0.018	0.233	31.959	31.959	63.03	99.39	10	1.000	0.560	75.394	75.394	0.235	10	1.000
argo	0.70	0.533	0.000	10.588	0.000	0.932	12.053	12.053	86.06	99.30	0	0.000	0.920	75.327	74.967	0.000	0	0.000
rc+rar	0.55	0.419	24.836	8.813	0.225	0.233	34.526	34.526	60.06	99.45	10	1.000	0.560	75.441	75.441	0.250	10	1.000
EOF
}

@test "seed 002: the split of Fig. 21 in percent of the baseline" {
    schemes
    # e.g. wc: 461.39 / 86448.32 = 0.53 %, 31723.99 / 86448.32 = 36.70 %,
    # slowdown_leak 235.31 / 86448.32 = 0.27 %
    run rft-energy --leak-over trace -f tsv wc.rft argo.rft rcrar.rft
    no_notes
    assert_success
    assert_output - <<'EOF'
scheme	powered%	leak_slice	leak_logic	dyn_slice	dyn_logic	wakeup	total	energy_nJ	saving%	leak_saving%	added_cycles	slice_slowdown_bound%	alloc_mW	leak_saved_mW	net_saved_mW	slowdown_leak	replayed_cycles	slice_slowdown_replay%
baseline	100.00	87.75	0.00	12.25	0.00	0.00	100.00	86.448	0.00	0.00	0	0.000	0.560	0.000	0.000	0.00	0	0.000
wc	0.61	0.53	26.69	9.19	0.02	0.27	36.70	31.724	63.30	99.39	10	1.000	0.560	75.399	75.399	0.27	10	1.000
argo	0.70	0.62	0.00	12.25	0.00	1.08	13.94	12.053	86.06	99.30	0	0.000	0.920	75.327	74.967	0.00	0	0.000
rc+rar	0.55	0.48	28.44	10.19	0.26	0.27	39.65	34.276	60.35	99.45	10	1.000	0.560	75.445	75.445	0.29	10	1.000
EOF
}

@test "seed 002: hidden added cycles, leaky switched-off cells, banks" {
    schemes
    # wc with perf.added_static=0, even --with-slowdown: C' = 1000:
    # leak_slice 75.86 x f x 1000 = 461.39, leak_logic 23.07 x 1000 = 23070,
    # no slowdown_leak
    run rft-energy --set perf.added_static=0 --with-slowdown --absolute -f tsv wc.rft
    no_notes
    assert_success
    assert_line --index 2 "wc	0.61	0.461	23.070	7.941	0.018	0.233	31.724	31.724	63.30	99.39	10	1.000	0.560	75.399	75.399	0.000	10	1.000"
    # a switched-off cell keeping 10 % of its leakage: argo's share
    # f + 0.1 (1 - f) = 0.1063281, x 75860 = 8066.05
    run rft-energy --set slice.off_leak=0.1 --absolute -f tsv argo.rft
    no_notes
    assert_success
    assert_line --index 2 "argo	0.70	8.066	0.000	10.588	0.000	0.932	19.586	19.586	77.34	89.37	0	0.000	0.920	67.794	67.434	0.000	0	0.000"
    # argo gated in banks of 4 entries: the window at 2-3 wakes entries 0-3
    # (bank 0) again: P = 2048 x 4 x (600 + 300), 8 wake-ups
    run rft-energy --set gating.bank_entries=4 --absolute -f tsv argo.rft
    no_notes
    assert_success
    assert_line --index 2 "argo	1.41	1.067	0.000	10.588	0.000	1.863	13.518	13.518	84.36	98.59	0	0.000	0.920	74.793	74.433	0.000	0	0.000"
}

@test "seed 002: labels name rows; a stream that is not the scheme asked for" {
    schemes
    run rft-energy -f tsv base=ff.rft WC=wc.rft rc+rar=rcrar.rft
    no_notes
    assert_success
    assert_equal "$(cut -f1 <<<"$output" | tr '\n' ' ')" "scheme base WC rc+rar "
    run -1 rft-energy wc=rcrar.rft
    assert_output "rft-energy: rcrar.rft: scheme wc asked for, but the stream is rc+rar (gate: scheme=rc bs=8 deltas=pow2 max-delta=64; alloc: scheme=rar granularity=wavefront)"
    run -1 rft-energy ff.rft rc+rar=ff.rft
    assert_output "rft-energy: ff.rft: scheme rc+rar asked for, but the stream has no counters of rft-gate (scope total): run rft-gate --scheme rc"
    run -1 rft-energy argo=ff.rft
    assert_output "rft-energy: ff.rft: scheme argo asked for, but the stream is baseline (gate: none; alloc: scheme=first-fit granularity=wavefront)"
}

# Hand computation, params/seed001-28nm.conf with 8 entries: C = 1000; the
# counters of rft-dcpatch (shown by the first check): 3 reads, 10 writes,
# block reads 1 + 4 + 1 (MOV), block writes 3 + 24 + 1 (misprediction) + 4
# (MOV), Com 36 blocks, Dec 8, PT 14 reads and 18 writes, PSU 18 searches,
# 1 LDS load and 1 store, 4 stall cycles, 1 MOV.
#  conv: 58.58 x 1000 = 58580; 247.38 x 4 x 3 = 2968.56; 302.23 x 4 x 10 =
#    12089.20; total 73637.76
#  smooth (600 mV, from conv: x 0.5625 and x 0.75): 43935; 1669.82; 6800.18;
#    total 52404.99
#  dcpatch at common (419 mV): the upper bound of the replay adds 4 + 1 x 4
#    + 1 x 4 = 12 and the two extra stages of each of the 13 instructions'
#    results, 26 (issue 33: without them the bound fell below the replay):
#    38, C' = 1038:
#    static 30.79 x 1038 = 31960.02; read 84.38 x 6 = 506.28; write 97.68 x
#    32 = 3125.76; comdec 0.72 x 36 + 0.62 x 8 + (6.67 + 2 x 7.14) x 1038 =
#    21776.98; patching 0.54 x 14 + 0.50 x 18 + 0.22 x 18 + (0.41 + 15.41) x
#    1038 = 16441.68; lds 4 x 247.38 + 4 x 302.23 = 2198.44; total 76009.16
@test "seed 001: Conv, Smooth and DC-Patch by hand, in nJ" {
    dcpatch
    run pipe "rft-view dcp.rft | grep 'counters.*scope=total' | tr '\t' '\n' | grep -E '^(reads|writes|block_.*|com_unit_blocks|dec_unit_blocks|pt_.*|psu_searches|lds_loads|lds_stores|stall_cycles|mov_injected|slice_cycles)=' | tr '\n' ' '"
    assert_output "writes=10 mov_injected=1 reads=3 block_reads_compressed=1 block_reads_uncompressed=4 block_reads_mov=1 block_writes_compressed=3 block_writes_uncompressed=24 block_writes_mispredicted=1 block_writes_mov=4 com_unit_blocks=36 dec_unit_blocks=8 pt_reads=14 pt_writes=18 psu_searches=18 lds_loads=1 lds_stores=1 stall_cycles=4 slice_cycles=1000 "
    run rft-energy --leak-over upper --set geometry.entries=8 --scenario common --absolute -f tsv dcp.rft
    no_notes
    assert_success
    assert_output - <<'EOF'
scheme	vdd_mV	static	read	write	comdec	patching	lds	total	energy_nJ	vs_conv%	vs_smooth%	added_cycles	slice_slowdown_bound%	replayed_cycles	slice_slowdown_replay%
conv	800	58.580	2.969	12.089	0.000	0.000	0.000	73.638	73.638	0.00	-40.52	0	0.000	0	0.000
smooth	600	43.935	1.670	6.800	0.000	0.000	0.000	52.405	52.405	28.83	0.00	0	0.000	0	0.000
dcpatch-common	419	31.960	0.506	3.126	21.777	16.442	2.198	76.009	76.009	-3.22	-45.04	38	3.800	10	1.000
EOF
}

@test "seed 001: the split of Fig. 8, labels, derived values and notes" {
    dcpatch
    run rft-energy --leak-over upper --set geometry.entries=8 --scenario dispersed -f csv disp=dcp.rft
    no_notes
    assert_success
    # dispersed (371 mV): 27.73 x 1038 = 28783.74; 68.25 x 6 = 409.50;
    # 78.33 x 32 = 2506.56; the rest as common: total 72116.90 = 97.93 %
    assert_line --index 3 "disp,371,39.09,0.56,3.40,29.57,22.33,2.99,97.93,72.117,2.07,-37.61,38,3.800,10,1.000"
    run rft-energy --leak-over upper --set geometry.entries=8 --scenario common dcp.rft
    assert_success
    assert_line "note: slice at smooth (600 mV): read 139.15 pJ, write 170.00 pJ, static 43.94 mW, from conv at 800 mV (dynamic energy ~ Vdd^2, static power ~ Vdd, seed 001 V-B)"
    assert_line "note: LDS: a spilled register load 989.52 pJ, store 1208.92 pJ: 4 block accesses of the slice at conv (no LDS number in seed 001)"
    assert_line "note: the streams do not state their clock (header key clock_mhz): 1000 MHz assumed"
    assert_line --partial "parameters: "
    assert_line --regexp "^dcpatch-common +419 +43.40 +0.69 +4.24 +29.57 +22.33 +2.99 +103.22 +76.009 +-3.22 +-45.04 +38 +3.800 +10 +1.000$"
}

@test "seed 001: the scenario comes from the fault maps' header" {
    rft-decode "$E/dcp.txt" | rft-faultmap --scenario clustered --seed 3 | rft-dcpatch -o c.rft
    # the header of a dcpatch stream chooses params/seed001-28nm.conf
    run rft-energy -f tsv c.rft
    no_notes
    assert_success
    assert_line --index 3 --regexp "^dcpatch-clustered	497	"
    dcpatch
    run -1 rft-energy --set geometry.entries=8 dcp.rft
    assert_output "rft-energy: dcp.rft: fault scenario 'csv:$E/map8.csv' has no slice point in $TOP/params/seed001-28nm.conf: give --scenario NAME"
}

@test "--show-params: every value with its source, derived ones too" {
    run rft-energy --show-params --params seed001-28nm -f tsv
    assert_success
    assert_line --regexp "^slice\.conv\.read_pj	247\.38	$TOP/params/seed001-28nm\.conf: line [0-9]+$"
    assert_line "slice.smooth.read_pj	139.1513	derived from slice.conv (dynamic ~ Vdd^2)"
    assert_line "slice.smooth.static_mw	43.9350	derived from slice.conv (static ~ Vdd)"
    assert_line "lds.load_pj	989.5200	derived: lds.blocks x slice point lds.point"
    run rft-energy --show-params --params "$TOP/params/seed002-32nm.conf" --set wakeup.pj=200 -f tsv
    assert_success
    assert_line "wakeup.pj	200	--set"
    assert_line --regexp "^slice\.leak_mw	75\.86	$TOP/params/seed002-32nm\.conf: line [0-9]+$"
}

@test "JSON lines and standard input" {
    schemes
    run pipe "rft-energy --leak-over trace -f json - < wc.rft | python3 -c 'import json,sys; [print(r[\"scheme\"], r[\"saving%\"]) for r in map(json.loads, sys.stdin) if \"notes\" not in r]'"
    assert_success
    assert_output - <<'EOF'
baseline 0.0
wc 63.3
EOF
}

@test "bad parameter files: one line naming the file, line and key" {
    schemes
    P="$TOP/params/seed002-32nm.conf"
    grep -v '^wakeup.pj' "$P" > missing.conf
    run -1 rft-energy --params ./missing.conf wc.rft
    assert_output "rft-energy: ./missing.conf: missing key 'wakeup.pj'"
    sed 's/^slice.leak_mw = 75.86/slice.leak_mw = -75.86/' "$P" > neg.conf
    run -1 rft-energy --params ./neg.conf wc.rft
    assert_output --regexp "^rft-energy: \./neg\.conf: line [0-9]+: slice\.leak_mw: '-75\.86' is negative$"
    sed 's/^ctable.write_pj = 66.49/ctable.write_pj = 66,49/' "$P" > nan.conf
    run -1 rft-energy --params ./nan.conf wc.rft
    assert_output --regexp "^rft-energy: \./nan\.conf: line [0-9]+: ctable\.write_pj: '66,49' is not a number$"
    { cat "$P"; echo "wakeup.pJ = 3"; } > typo.conf
    run -1 rft-energy --params ./typo.conf wc.rft
    assert_output --regexp "^rft-energy: \./typo\.conf: line [0-9]+: unknown key 'wakeup\.pJ' for model gating$"
    run -2 rft-energy --set units.decomp=two wc.rft
    assert_output "rft-energy: --set: units.decomp: 'two' is not a number (see rft-energy --help)"
    run -1 rft-energy --params nonesuch wc.rft
    assert_output --partial "rft-energy: nonesuch: no such parameter file (searched "
}

@test "streams that do not fit the parameters or each other" {
    schemes
    run -1 rft-energy --set geometry.entries=128 wc.rft
    assert_output "rft-energy: wc.rft: geometry entries=256 differs from $TOP/params/seed002-32nm.conf (geometry.entries = 128)"
    # a trace that states its clock
    { echo "# clock_mhz=800"; grep -v '^#' "$E/gate.txt"; } | rft-decode | rft-alloc -o clk.rft
    run -1 rft-energy clk.rft
    assert_output "rft-energy: clk.rft: header clock_mhz=800 differs from $TOP/params/seed002-32nm.conf (clock_mhz = 1000)"
    run rft-energy --set clock_mhz=800 -f tsv clk.rft
    assert_success
    # 800 MHz: 1.25 ns per cycle, the baseline leaks 75.86 x 1250 = 94825 pJ
    run rft-energy --set clock_mhz=800 --absolute -f tsv clk.rft
    no_notes
    assert_line --index 1 "baseline	100.00	94.825	0.000	10.588	0.000	0.000	105.413	105.413	0.00	0.00	0	0.000	0.560	0.000	0.000	0.000	0	0.000"
    # another trace
    head -n 12 "$E/gate.txt" | rft-decode | rft-alloc -o short.rft
    run -1 rft-energy wc.rft short.rft
    assert_output "rft-energy: wc.rft and short.rft are not the same trace (reads 4/3, writes 4/3, slice cycles 1000/600)"
    # the undervolt model on a stream without rft-dcpatch counters
    run -1 rft-energy --params seed001-28nm wc.rft
    assert_output "rft-energy: wc.rft: no counters of stage rft-dcpatch (scope total): run rft-dcpatch first"
}

@test "corrupt and truncated input, a full disk, usage errors" {
    schemes
    head -c 200 wc.rft > cut.rft
    run -1 rft-energy cut.rft
    assert_output --partial "rft-energy: cut.rft: "
    run -1 bash -c 'rft-energy wc.rft > /dev/full'
    assert_output "rft-energy: standard output: No space left on device"
    run -2 rft-energy
    assert_line --index 0 "rft-energy: no input (see rft-energy --help)"
    run -2 rft-energy --set nonsense wc.rft
    assert_line --index 0 "rft-energy: --set: 'nonsense' is not KEY=VALUE (see rft-energy --help)"
    run -2 rft-energy - -
    assert_line --index 0 "rft-energy: standard input given twice (see rft-energy --help)"
    run -2 rft-energy --bogus wc.rft
    assert_line --index 0 --partial "rft-energy: unknown option"
    run -2 rft-energy --scenario common wc.rft
    assert_line --index 0 "rft-energy: --scenario applies to the undervolt model (seed 001) only (see rft-energy --help)"
}

@test "numbers do not depend on the locale" {
    schemes
    rft-energy -f tsv wc.rft > c.tsv
    run env LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 rft-energy -f tsv wc.rft
    assert_success
    assert_output "$(cat c.tsv)"
}

@test "examples/undervolt.sh: DC-Patch at three scenarios against Conv and Smooth" {
    rft-synth --writes 3000 --seed 2 -o s.rft
    run "$TOP/examples/undervolt.sh" -S 5 s.rft --absolute
    assert_success
    assert_line --index 0 "== s.rft: DC-Patch writes (seed 001 Fig. 5, 6; V-A2), fault map seed 5"
    assert_line --regexp "^dispersed +[0-9]+ +[0-9.]+ "
    assert_line --regexp "^conv +800 "
    assert_line --regexp "^smooth +600 "
    assert_line --regexp "^dcpatch-common +419 "
    assert_line --regexp "^dcpatch-clustered +497 "
    assert_line --regexp "^dcpatch-dispersed +371 "
    run -2 "$TOP/examples/undervolt.sh"
}

@test "--scan: a stream of the input's header and one scan record, priced as the stream itself" {
    schemes
    dcpatch
    for f in ff wc argo rcrar dcp; do rft-energy --scan -o $f.scan $f.rft; done
    # the header, then one counters record (no trace records)
    run rft-view -H wc.scan
    assert_line --regexp "^producer +rft-energy$"
    assert_line --regexp "^gate +scheme=wc$"
    run rft-view wc.scan
    assert_success
    assert_output "# counters	stage=rft-energy	scope=scan	bank_entries=1	reads=4	writes=4	timed=1	first_cycle=0	last_cycle=1000	gated=1	slices=1	compute_units=1	powered_cell_cycles=$(python3 -c 'import struct; print(struct.unpack("<Q", struct.pack("<d", 3188800.0))[0])')	alloc_wakeups=0	dcpatch_records=0	gate_records=1	replay=1	replay_naive=1000	replay_cycles=1010	replay_upper=1010	rft-gate.writes=4	rft-gate.reads=4	rft-gate.divergent_writes=0	rft-gate.compressed_writes=2	rft-gate.switch_offs=2	rft-gate.wakeups=1	rft-gate.movs=0	rft-gate.slice_block_writes=12	rft-gate.slice_block_writes_cancelled=4	rft-gate.slice_block_reads=12	rft-gate.slice_block_reads_cancelled=4	rft-gate.ctable_reads=0	rft-gate.ctable_writes=0	rft-gate.ctable_invalidations=0	rft-gate.comp_unit_activations=4	rft-gate.comp_unit_blocks=16	rft-gate.decomp_unit_activations=2	rft-gate.decomp_unit_blocks=8"
    # the same tables from scans as from the streams, mixed too, in every format
    for opts in "" "--absolute -f tsv" "-f json" "--set slice.off_leak=0.1 -f csv"; do
        rft-energy $opts base=ff.rft wc.rft argo.rft rcrar.rft > streams.out
        rft-energy $opts base=ff.scan wc.scan argo.rft rcrar.scan | sed 's/\.scan/.rft/g' > scans.out
        cmp streams.out scans.out
    done
    rft-energy --set geometry.entries=8 --scenario common dcp.rft > streams.out
    run rft-energy --set geometry.entries=8 --scenario common dcp.scan
    assert_success
    assert_output "$(cat streams.out)"
    # a scan of a scan is the same scan
    rft-energy --scan - < wc.scan > again.scan
    cmp wc.scan again.scan
}

@test "--scan --bank: the bank is recorded, a scan in other banks than the parameters' is refused" {
    schemes
    rft-energy --scan --bank 4 -o argo4.scan argo.rft
    run pipe "rft-view argo4.scan | tr '\t' '\n' | grep -E '^(bank_entries|alloc_wakeups)='"
    assert_output - <<'EOF2'
bank_entries=4
alloc_wakeups=8
EOF2
    run rft-energy --set gating.bank_entries=4 --absolute -f tsv argo4.scan
    no_notes
    assert_success
    assert_line --index 2 "argo	1.41	1.067	0.000	10.588	0.000	1.863	13.518	13.518	84.36	98.59	0	0.000	0.920	74.793	74.433	0.000	0	0.000"
    run -1 rft-energy argo4.scan
    assert_output "rft-energy: argo4.scan: scanned in banks of 4 entries (rft-energy --scan --bank), $TOP/params/seed002-32nm.conf prices banks of 1 (gating.bank_entries)"
    # a stream of banks of 2 scanned in banks of 4
    rft-alloc --scheme argo --bank 2 t.rft -o b2.rft
    run -1 rft-energy --scan --bank 4 -o b2.scan b2.rft
    assert_output "rft-energy: b2.rft: record 3: the stream is gated in banks of 2 entries, the scan in banks of 4 (gating.bank_entries)"
    [ ! -e b2.scan ]
}

@test "--scan: bad input leaves no scan; options of the other mode are usage errors" {
    schemes
    head -c 200 wc.rft > cut.rft
    run -1 rft-energy --scan -o cut.scan cut.rft
    assert_output --partial "rft-energy: cut.rft: "
    [ ! -e cut.scan ]
    assert_equal "$(ls | grep -c tmp)" 0
    run -1 bash -c 'set -o pipefail; rft-energy --scan cut.rft | rft-view'
    assert_line --partial "rft-view: -: "
    run -2 rft-energy --scan --absolute wc.rft
    assert_line --index 0 "rft-energy: --scan takes none of --params, --model, --set, --scenario, --absolute, --with-slowdown, --leak-over, --show-params, --format (see rft-energy --help)"
    run -2 rft-energy --level 3 wc.rft
    assert_line --index 0 "rft-energy: --level, --flush, --bank and --max-memory apply to --scan only (see rft-energy --help)"
    run -2 rft-energy --bank 2 wc.rft
    assert_line --index 0 "rft-energy: --level, --flush, --bank and --max-memory apply to --scan only (see rft-energy --help)"
    # without --scan, -o names the table's file
    run -0 rft-energy -o x.txt wc.rft
    assert_output ""
    cmp x.txt <(rft-energy wc.rft)
    run -2 rft-energy --scan --bank 0 wc.rft
    run -2 rft-energy --scan wc.rft argo.rft
}
