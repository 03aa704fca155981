#!/bin/bash
# bench/hostile/run.sh - time and peak memory of issue 31's items 5-8
# (hostile input that took minutes or gigabytes), one row a case, for the
# programs in BIN: bench/hostile/README says how before.tsv and after.tsv
# were made.
#
# usage: bench/hostile/run.sh BIN [OUT.tsv]
#   BIN      a folder of rft programs (a build of main for "before", bin/
#            of this tree for "after")
#   OUT.tsv  the table (default standard output)
# The inputs are made in a temporary folder by tests/unit/hostile_gen of this
# tree (GEN= to use another) and awk.  Every case runs under a wall-clock
# timeout and an address-space limit (ulimit -v), so that none can take the
# machine: a row says "timeout" or the exit status it ended with.
set -euo pipefail
BIN=$(cd "${1:?usage: run.sh BIN [OUT.tsv]}" && pwd)
OUT=${2:-/dev/stdout}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
GEN=${GEN:-$TOP/tests/unit/hostile_gen}
FIX=$TOP/tests/fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

# the inputs
"$GEN" slices-many m.rft        # 16,384 slices of 65,535 entries (97 KB)
"$GEN" waves-many w.rft         # 20,000 wavefronts of 65,535 registers (113 KB)
awk -v n=60000 -v m=60000 'BEGIN { print "si.init version=\"1.1\" num_compute_units=1"; print "c clk=1"
    for (i = 0; i < n; i++) printf "si.new_inst id=%d cu=0 ib=0 wg=0 wf=0 uop_id=0 stg=\"f\" asm=\"s_buffer_load_dword s0, s[12:15], 0x04\"\n", i
    print "c clk=2"
    for (i = 0; i < m; i++) printf "si.inst id=%d cu=0 wf=0 uop_id=0 stg=\"simd-e\"\n", n + i }' > p.trace
awk -v n=480000 'BEGIN { for (i = 0; i < n; i++)
    printf "{\"type\":\"reg_trace\",\"cta\":[0,0,0],\"warp\":0,\"grid_launch_id\":%d,\"regs\":[],\"sass\":\"EXIT ;\"}\n", i }' |
    zstd -q -19 > l.ndjson.zst

# case ITEM NAME SECONDS KIB COMMAND: one row, COMMAND run by bash with BIN
# first in PATH, its output to /dev/null, under timeout SECONDS and ulimit -v KIB
printf 'item\tcase\tstatus\twall_s\tuser_s\tsys_s\tpeak_rss_mb\tcommand\tlast_message\n' > "$OUT"
case_() {
    local item=$1 name=$2 secs=$3 kib=$4 cmd=$5 st
    set +e
    (ulimit -v "$kib"; PATH="$BIN:$PATH" /usr/bin/time -v -o time.txt \
        timeout "$secs" bash -c "$cmd" > /dev/null 2> err.txt)
    st=$?
    set -e
    [[ $st == 124 ]] && st=timeout
    local wall user sys rss msg
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0
        for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' time.txt)
    user=$(awk -F': ' '/User time/ { print $2 }' time.txt)
    sys=$(awk -F': ' '/System time/ { print $2 }' time.txt)
    rss=$(awk -F': ' '/Maximum resident/ { printf "%.0f", $2 / 1024 }' time.txt)
    msg=$(grep -v '^Command exited\|^Command terminated' err.txt | tail -1 | cut -c 1-160 || true)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$item" "$name" "$st" "$wall" "$user" "$sys" "$rss" \
        "$cmd" "$msg" >> "$OUT"
}

G=7000000               # KiB of address space: 6.7 GiB
case_ 5 run-alloc-gate-energy 400 $G "rft run 'alloc m.rft | gate | energy --scan'"
case_ 5 alloc 120 $G "rft-alloc m.rft"
case_ 5 gate 120 $G "rft-gate m.rft"
case_ 5 energy-scan 120 $G "rft-energy --scan m.rft"
case_ 5 dcpatch 120 $G "rft-dcpatch --scenario common m.rft"
case_ 5 faultmap 60 $G "rft-faultmap --scenario common m.rft"
case_ 6 energy-scan-waves 120 4000000 "rft-energy --scan w.rft"
case_ 7 decode-cycles-from 120 $G "rft-decode --kernel fastWalshTransform --local-size 256 --cycles-from p.trace $FIX/m2s42/fwt-det.isa.zst"
case_ 8 decode-cutracer 300 $G "rft-decode --input-format cutracer l.ndjson.zst"
