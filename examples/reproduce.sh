#!/bin/sh
# reproduce.sh - the four seeds' studies over a folder of traces, and one
# Markdown report (OUT/REPORT.md) that sets the suite's value of every
# headline result beside the paper's, with the reason for the difference,
# and the figures (PNG) it refers to.
#
# The studies are those of rft-batch(1) and examples/*.sh; nothing here
# computes a result the tools do not:
#
#   seed 002 (and 004 Fig. 11)  rft-batch --study aging     (aging.sh's six schemes)
#   seed 001                    rft-batch --study undervolt (undervolt.sh's DC-Patch)
#   seed 003 SC healing         rft-batch --study healing   (healing.sh's rft-heal --scheme sc)
#   per trace, on the decoded trace the batch keeps (trace.rft):
#     seed 001 Fig. 2, 002 Fig. 7   rft-classify --summary, and again with each
#                                   kernel's block size (--bs auto), with and
#                                   without any delta (--deltas any): the reasons
#     seed 001 Fig. 3               rft-faultmap --scenario common | rft-dcpatch --report occupancy
#     seed 002 Table 5, 004 Table 1 rft-alloc --scheme first-fit --util
#     seed 004 Table 3              rft-alloc --scheme argo --recovery
#     seed 004 Figs. 7-9            rft-vth --params seed004-45nm|65nm --years 5 over the
#                                   aging study's base and argo duty maps (as argo.sh)
#     seed 003 Figs. 4, 7           rft-heal --scheme pe (a trace with VLIW bundles only)
#
# Verdicts say how they were reached (issue 33): "agrees (measured)";
# "by construction (...)" where the row equals the paper by calibration,
# normalisation, assumption or the model (never counted as agreement);
# "bound met" for a paper bound ("at most", "under", ...); "differs: reason
# holds: ..." where a rule fixed in advance, evaluated on these traces,
# holds with its numbers; "differs: unexplained: ..." where it is refuted or
# no rule tests the row (the facts are printed, not a reason); "not
# computed: why".  The rules, one a row, each stating the direction of the
# difference it explains:
#   replayed slowdowns above the paper: seed 001 Fig. 7 (DC-Patch's extra
#     stages) and seed 002 Fig. 20 (RC's wake-ups): latency that other
#     wavefronts hide, the least-squares line of the slowdown over the
#     traces on the wavefronts a slice holds at most (rft-alloc --util
#     max_wf) with r <= -0.7 and the paper value on it within the traces;
#     seed 003 Fig. 16 (SC healing's redundant work): busy SIMDs, the line on
#     the SIMD issue demand (rft-replay --no-scheme: 4 cycles an instruction
#     per cycle of the slice's span, mean over the slices) with r >= 0.7.
#     One rule a seed, from its own mechanism: never the first of several
#     that fits.
#   register demand (ARGO's reductions, the slice energy and leakage
#     saved): the traces the seed's utilization table names (seed 002
#     Table 5, seed 004 Table 1) fill less of a slice than its kernels:
#     a larger reduction or saving; more: a smaller one
#   Fig. 3's shares: smaller than the paper where the traces fill less of
#     a slice than the register file Fig. 3 uses
#   compressible writes (seed 001 Fig. 2, seed 002 Fig. 7): the pattern
#     rule, the paper's value between the rule the hardware encodes (BS 8,
#     deltas powers of two) and that of the characterisation (each
#     kernel's own block size, any delta), within 10%
#   DC-Patch's savings (Fig. 8): the energy mix, the line of the saving
#     on Conv's static share with r <= -0.8, the paper's value on it
#   Fig. 6: one trace, the mean over the others within the paper's
#   a mean no mechanism rule covers (Fig. 5): the kernel set, every
#     kernel the paper names within 10% of its value
#   RC's longest '0' rows: no rule; the row names the statistic (seed 002
#     6.2: one cell, the slice's maximum), the cells behind it and the
#     mean '0' duty reduction beside it
# Rows are found by kernel: a trace labelled as the paper's kernel, else
# the first whose stream runs the kernel the AMD APP SDK sample names (the
# kernels rft-alloc --util names); kernels.tsv and the report show
# the match.  tests/reproduce-rules.bats runs two suites of other names.
#
# The papers' numbers come from examples/paper-values.tsv, each with its
# figure or table and section; the report prints them as they are there.
#
# usage: reproduce.sh [-o OUT] [-j N] [-r once|N|steady] [--also-runs LIST] [--values FILE]
#                     [--m2s-config FILE] [--quiet] DIR...
#   DIR        a folder of traces (or trace files), as rft-batch takes them
#   -o, --output OUT   the report's folder (default: reproduction): REPORT.md,
#              values.tsv (every row: paper, suite, reason), facts.tsv
#              (every value per trace), figures/*.png (each with its data
#              and notes, NAME.png.data.tsv, and its gnuplot script,
#              NAME.png.gp), batch/ (the studies'
#              folders: a rerun skips what is done) and traces/ (per trace)
#   -j, --jobs N       at most N jobs at once (default: the processors, at most 3)
#   -r, --repeat RUNS  the aging study's runs (default steady; rft-batch -r)
#   --also-runs LIST   the aging study again for each RUNS of LIST (once, N, steady;
#              separated by commas or blanks), its duty and dVth reductions in a
#              table of their own beside the paper's (batch/aging-RUNS)
#   --values FILE      the papers' values (default: paper-values.tsv beside this script)
#   --m2s-config FILE  the Multi2Sim --si-config ini of the traces: the run-time
#              rows again under the compute-unit model (rft-replay --model cu,
#              model-slowdowns.sh per trace, issue 32), each the mean over the
#              traces whose model baseline is within 3% of the traced cycles
#              (the others named with it); without it those rows are not
#              computed.  The shared traces' is params/m2s-shared-traces.ini
#   --quiet            no progress on standard error
set -eu

usage="usage: reproduce.sh [-o OUT] [-j N] [-r once|N|steady] [--also-runs LIST] [--values FILE] [--m2s-config FILE] [--quiet] DIR..."
help="  DIR                   A folder of traces (or trace files), as rft-batch takes them
  -o, --output OUT      The report's folder (default: reproduction): REPORT.md, values.tsv (every row: paper, suite, reason), facts.tsv (every value per trace), figures/*.png (beside each its data and notes, NAME.png.data.tsv, and gnuplot script, NAME.png.gp), batch/ (the studies' folders: a rerun skips what is done) and traces/ (per trace)
  -j, --jobs N          At most N jobs at once (default: the processors, at most 3)
  -r, --repeat RUNS     The aging study's runs: steady (default), once or N (rft-batch -r)
      --also-runs LIST  The aging study again for each RUNS of LIST (once, N, steady; separated by commas or blanks), its duty and dVth reductions in a table of their own beside the paper's (batch/aging-RUNS)
      --values FILE     The papers' values (default: paper-values.tsv beside this script)
      --m2s-config FILE  The Multi2Sim --si-config ini of the traces: the run-time rows again under the compute-unit model (rft-replay --model cu, model-slowdowns.sh), each a mean over the traces whose model baseline is within 3% of the traced cycles; without it those rows are not computed
      --quiet           No progress on standard error (shown only on a terminal)
  -h, --help            Print this help and exit"
here=$(cd "$(dirname "$0")" && pwd)
tmp=""
. "$here/stages.sh"     # usage_error, need_arg, check_count, check_runs, progress

out=reproduction
runs=steady
also=""
values=$here/paper-values.tsv
m2s_config=""
while [ $# -gt 0 ]; do
    case $1 in
    -o | --output) need_arg "$@"; out=$2; shift 2 ;;
    --output=*) out=${1#*=}; shift ;;
    -j | --jobs) need_arg "$@"; check_count "$1" "$2"; jobs=$2; shift 2 ;;
    --jobs=*) check_count --jobs "${1#*=}"; jobs=${1#*=}; shift ;;
    -r | --repeat) need_arg "$@"; check_runs "$1" "$2"; runs=$2; shift 2 ;;
    --also-runs) need_arg "$@"; also=$2; shift 2 ;;
    --also-runs=*) also=${1#*=}; shift ;;
    --repeat=*) check_runs --repeat "${1#*=}"; runs=${1#*=}; shift ;;
    --m2s-config) need_arg "$@"; m2s_config=$2; shift 2 ;;
    --m2s-config=*) m2s_config=${1#*=}; shift ;;
    --values) need_arg "$@"; values=$2; shift 2 ;;
    --values=*) values=${1#*=}; shift ;;
    --quiet) quiet=--quiet; shift ;;
    -h | --help) printf '%s\n\n%s\n' "$usage" "$help"; exit 0 ;;
    --) shift; break ;;
    -?*) usage_error "unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || usage_error "no folder of traces"
also=$(printf '%s' "$also" | tr ',' ' ')
for r in $also; do check_runs --also-runs "$r"; done
[ -r "$values" ] || { printf '%s: %s: cannot be read\n' "$script" "$values" >&2; exit 1; }
[ -z "$m2s_config" ] || [ -r "$m2s_config" ] ||
    { printf '%s: %s: cannot be read\n' "$script" "$m2s_config" >&2; exit 1; }
params=$here/../params
[ -r "$params/seed004-45nm.conf" ] || { printf '%s: %s: cannot be read\n' "$script" "$params/seed004-45nm.conf" >&2; exit 1; }

mkdir -p "$out/batch" "$out/traces" "$out/figures"

# The report names no absolute path of the machine it ran on: paths in the
# report folder relative to it, paths in this tree relative to the tree,
# any other path by its name.
root=$(cd "$here/.." && pwd)
rootp=$(cd "$here/.." && pwd -P)
outa=$(cd "$out" && pwd)
outp=$(cd "$out" && pwd -P)
# shellcheck disable=SC2016 # an awk program
lp_awk='
        function cut(s, p,   i) { while (p != "/" && (i = index(s, p))) s = substr(s, 1, i - 1) substr(s, i + length(p)); return s }
        function local(s,   p, c, n) {
          s = cut(cut(cut(cut(s, outa), outp), root), rootp)
          # any other absolute path: its last name
          while (match(s, /(^|[ \t:=(`\[])\/[^ \t:;,()`\[\]]+/)) {
              p = substr(s, RSTART, RLENGTH); c = substr(p, 1, 1) == "/" ? "" : substr(p, 1, 1)
              n = p; sub(/.*\//, "", n)
              s = substr(s, 1, RSTART - 1) c n substr(s, RSTART + RLENGTH)
          }
          return s }'
local_paths() {
    awk -v outa="$outa/" -v outp="$outp/" -v root="$root/" -v rootp="$rootp/" "$lp_awk"' { print local($0) }'
}
# the same on each FILE in place (one awk for them all, not an awk and a cat
# each: the file rewritten, not replaced); a FILE not starting with / must
# start with ./ (awk takes a=b as an assignment)
local_paths_in() {   # FILE...
    awk -v outa="$outa/" -v outp="$outp/" -v root="$root/" -v rootp="$rootp/" "$lp_awk"'
        { t[FILENAME] = t[FILENAME] local($0) "\n" }
        END { for (i = 1; i < ARGC; i++) { printf "%s", t[ARGV[i]] > ARGV[i]; close(ARGV[i]) } }' "$@"
}
# the commit of the tree the script is in (its programs and parameters),
# and whether they were changed since
commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null) || commit=""
if [ -n "$commit" ] && [ -n "$(git -C "$root" status --porcelain --untracked-files=no -- bin lib examples params Makefile 2>/dev/null)" ]; then
    commit="$commit, with changes not committed in bin, lib, examples or params"
fi
bindir=$(b=$(command -v rft-batch) && cd "$(dirname "$b")" && pwd -P) || bindir=""
if [ "$bindir" = "$rootp/bin" ]; then
    programs="this tree's bin/"
else
    programs="rft-batch on PATH, not this tree's bin/ ($(rft --version 2>/dev/null | head -n 1))"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-reproduce.XXXXXX")

# 1. The three studies of rft-batch (each resumes what a run before left).
# A study that fails on a trace still leaves the others' results, and the
# report names what is missing.
batch_failed=""
study() {   # STUDY FOLDER RFT-BATCH-OPTIONS TRACES...: rft-batch --output batch/FOLDER
    s=$1 f=$2 o=$3
    shift 3
    progress "rft-batch --study $s $o"
    # shellcheck disable=SC2086
    if ! rft-batch --jobs "$jobs" --quiet --study "$s" $o --output "$out/batch/$f" -- "$@" 2> "$tmp/$f.err"; then
        batch_failed="$batch_failed $f"
        sed "s/^/$script: $f: /" "$tmp/$f.err" >&2
    fi
}
study undervolt undervolt "" "$@"
study healing healing "" "$@"
study aging aging "--repeat $runs" "$@"
for r in $also; do
    [ "$r" = "$runs" ] || study aging "aging-$r" "--repeat $r" "$@"
done
progress ""
[ -s "$out/batch/undervolt/traces.tsv" ] || { printf '%s: no trace found in %s\n' "$script" "$*" >&2; exit 1; }

# 2. The per-trace tables the studies do not make, on the decoded trace.
# one trace: label $1; its tables into $out/traces/$1
per_trace() {
    l=$1
    d=$out/traces/$l
    mkdir -p "$d"
    : > "$d/log"
    # the trace as a stream: as it is, or decoded (as rft-batch does)
    src=$(awk -F '\t' -v l="$l" '$1 == l { print $2; exit }' "$out/batch/undervolt/traces.tsv")
    if ! rft-view -H "$src" > /dev/null 2>&1; then
        rft-decode --input-format auto -o "$d/trace.rft" "$src" 2>> "$d/log" || return 0
        src=$d/trace.rft
    fi
    [ -s "$d/classify.tsv" ] ||
        { rft-classify --summary="$d/classify.tsv.part" --format tsv -o /dev/null "$src" 2>> "$d/log" &&
          mv "$d/classify.tsv.part" "$d/classify.tsv"; } || :
    # the pattern rules the seeds leave open: each kernel's own block size
    # (--bs auto) with the hardware's deltas, and with any delta
    [ -s "$d/classify-auto.tsv" ] ||
        { rft-classify --bs auto --summary="$d/classify-auto.tsv.part" --format tsv -o /dev/null "$src" 2>> "$d/log" &&
          mv "$d/classify-auto.tsv.part" "$d/classify-auto.tsv"; } || :
    [ -s "$d/classify-any.tsv" ] ||
        { rft-classify --bs auto --deltas any --summary="$d/classify-any.tsv.part" --format tsv -o /dev/null "$src" 2>> "$d/log" &&
          mv "$d/classify-any.tsv.part" "$d/classify-any.tsv"; } || :
    [ -s "$d/occupancy.tsv" ] ||
        { rft-faultmap --scenario common --seed 1 "$src" 2>> "$d/log" |
          rft-dcpatch --report occupancy --summary="$d/occupancy.tsv.part" --format tsv -o /dev/null 2>> "$d/log" &&
          mv "$d/occupancy.tsv.part" "$d/occupancy.tsv"; } || :
    [ -s "$d/util.tsv" ] ||
        { rft-alloc --scheme first-fit --util="$d/util.tsv.part" -o /dev/null "$src" 2>> "$d/log" &&
          mv "$d/util.tsv.part" "$d/util.tsv"; } || :
    [ -s "$d/recovery.tsv" ] ||
        { rft-alloc --scheme argo --recovery="$d/recovery.tsv.part" -o /dev/null "$src" 2>> "$d/log" &&
          mv "$d/recovery.tsv.part" "$d/recovery.tsv"; } || :
    # the slices' schedules without a scheme: the SIMD's issue demand (the
    # reasons of the replayed slowdowns)
    [ -s "$d/replay.tsv" ] ||
        { rft-replay --no-scheme --format tsv "$src" > "$d/replay.tsv.part" 2>> "$d/log" &&
          mv "$d/replay.tsv.part" "$d/replay.tsv"; } || :
    a=$out/batch/aging/traces/$l
    if [ -s "$a/base.rft" ] && [ -s "$a/argo.rft" ]; then
        for p in 45nm 65nm; do
            [ -s "$d/vth-$p.tsv" ] ||
                { rft-vth --params "$params/seed004-$p.conf" --years 5 --format tsv \
                      base="$a/base.rft" argo="$a/argo.rft" > "$d/vth-$p.tsv.part" 2>> "$d/log" &&
                  mv "$d/vth-$p.tsv.part" "$d/vth-$p.tsv"; } || :
        done
    fi
    # SC healing on seed 003's device of Fig. 8 (10 mV initial variation)
    [ -s "$d/sc-units.tsv" ] ||
        { rft-heal --scheme sc --report units --hours 360 --variation 10 --format tsv \
              -o "$d/sc-units.tsv.part" "$src" 2>> "$d/log" && mv "$d/sc-units.tsv.part" "$d/sc-units.tsv"; } || :
    # PE healing needs VLIW bundles: rft-heal says so, and the report too
    if [ ! -s "$d/pe-profile.tsv" ] && [ ! -e "$d/pe.none" ]; then
        if rft-heal --scheme pe --report profile --format tsv -o "$d/pe-profile.tsv.part" "$src" 2> "$d/pe.err"; then
            mv "$d/pe-profile.tsv.part" "$d/pe-profile.tsv"
            rft-heal --scheme pe --report units --hours 360 --variation 10 --format tsv \
                -o "$d/pe-units.tsv.part" "$src" 2>> "$d/log" && mv "$d/pe-units.tsv.part" "$d/pe-units.tsv" || :
        else
            rm -f "$d/pe-profile.tsv.part"
            cp "$d/pe.err" "$d/pe.none"
        fi
        rm -f "$d/pe.err"
    fi
    # the seeds' run-time costs under the compute-unit model (issue 32)
    [ -z "$m2s_config" ] || [ -s "$d/model.tsv" ] ||
        { "$here/model-slowdowns.sh" --m2s-config "$m2s_config" -r "$runs" \
              -o "$d/model.tsv.part" "$src" 2>> "$d/log" && mv "$d/model.tsv.part" "$d/model.tsv"; } || :
    rm -f "$d/trace.rft"
}
labels=$(cut -f 1 "$out/batch/undervolt/traces.tsv")
n=0
for l in $labels; do
    progress "per-trace tables: $l"
    per_trace "$l" &
    pids="$pids $!"
    n=$((n + 1))
    if [ $((n % jobs)) = 0 ]; then join || :; fi
done
join || :
progress ""

# 3. Every value per trace: facts.tsv, a line "label key value" each.
# A trace's tables are read by one awk, not by an awk each (about 25 forks
# a trace): each file comes after R=its kind (and P=its prefix or rule),
# a kind's code is the program it had alone, its state keyed by the file
# (f: each program started afresh, its variables unset), what a program
# printed at its END put when the next file starts; the text then filtered
# and labelled as the pipe to awk -v l=LABEL '$2 != ""' did.
# shellcheck disable=SC2016 # an awk program
facts_awk='
    BEGIN { ntk = split("kernel classify classify-r occupancy util recovery replay sc-units " \
                        "pe-units vth energy-a writes energy-u units-h cost-h", tk, " ")
            for (i = 1; i <= ntk; i++) TABLE[tk[i]] }
    function put(t) { buf = buf t }
    function cols(   i) { for (i = 1; i <= NF; i++) C[f, $i] = i }
    function fin(   k, t) {
        if (!f) return
        k = kind[f]
        if (k == "replay") { if (V[f, "n"]) put(sprintf("busy\t%.2f\n", V[f, "b"] / V[f, "n"])) }
        else if (k == "pe-profile") put("pe_share_max\t" V[f, "m"] "\n" "pe_share_z\t" V[f, "z"] "\n")
        else if (k == "writes") {
            put("uv_lds_max\t" V[f, "lds"] + 0 "\n"); put("uv_ldsload_max\t" V[f, "ld"] + 0 "\n")
            put(sprintf("uv_ldspeak_max\t%.2f\n", V[f, "pk"] / 1024)) }
        else if (k == "runs") {
            # printf "runs\t%s\n" "$(cat runs)": its trailing newlines gone
            t = V[f, "t"]; while (t ~ /\n$/) t = substr(t, 1, length(t) - 1)
            put("runs\t" t "\n") }
    }
    FNR == 1 { fin(); f++; kind[f] = R }
    # a table of the studies: its # lines skipped, its header read (cols)
    # and no row (no header is a row any kind below looks for)
    R in TABLE { if (/^#/) next; if (!H[f]++) { cols(); next } }
    # its kernels by name, as rft-alloc --util names them (K records or, in a
    # stream without them, the B records): rows are found by kernel
    R == "kernel" { if ($1 != "all") put("kernel\t" $1 "\n"); next }
    R == "classify" {
        if ($1 == "total") { put("compr\t" $C[f, "compr%"] "\n"); put(sprintf("pattern\t%.2f\n", 100 - $C[f, "other%"])) }
        next }
    R == "classify-r" {
        if ($1 == "total") { put("compr_" P "\t" $C[f, "compr%"] "\n"); put(sprintf("pattern_%s\t%.2f\n", P, 100 - $C[f, "other%"]))
                             put("mispred_" P "\t" $C[f, "mispred%"] "\n")
                             if ($C[f, "bs"] > 0) put("bs_" P "\t" $C[f, "bs"] "\n") }
        next }
    R == "occupancy" {
        if ($1 == "total") { rc = $C[f, "conv_rel_comp%"]; ru = $C[f, "conv_rel_unc%"]
            fc = $C[f, "conv_flt_comp%"]; fu = $C[f, "conv_flt_unc%"]
            put(sprintf("occ_rel_comp\t%s\nocc_rel_unc\t%s\nocc_flt_comp\t%s\nocc_flt_unc\t%s\nocc_used\t%.2f\n",
                rc, ru, fc, fu, rc + ru + fc + fu)) }
        next }
    R == "util" {
        if ($1 == "all") put("util_peak\t" $C[f, "peak%"] "\n")
        if ($1 != "all" && !V[f, "u"]) { V[f, "u"] = 1; put("util_unused\t" $C[f, "unused_windows"] "\n"); put("util_wf\t" $C[f, "max_wf"] "\n")
                                         put("util_vgprs\t" $C[f, "vgprs"] "\n") }
        next }
    R == "recovery" {
        if ($1 == "all" && $C[f, "bank_bytes"] == 1024) put("rec_1k\t" $C[f, "worst_recovery%"] "\n")
        next }
    # issue demand: the cycles a slice'"'"'s instructions take to issue (4
    # each: rft-replay --issue on GCN and Evergreen) per cycle of its
    # span, mean over the slices (over 100: the trace issues faster)
    R == "replay" {
        if ($1 ~ /^slice / && $C[f, "cycles_naive"] > 0) { V[f, "n"]++; V[f, "b"] += 400 * $C[f, "instructions"] / $C[f, "cycles_naive"] }
        next }
    R == "vth-p" { if ($1 == "all") {
            if ($2 == "dvth_rd%") put(sprintf("a4_dvth_base_%s\t%s\na4_dvth_red_%s\t%s\n", P, $3, P, $5))
            if ($2 == "snm_loss_rd%") put(sprintf("a4_snm_red_%s\t%s\n", P, $5))
            if ($2 == "snm_life_rd_years") put(sprintf("a4_life_base_%s\t%s\na4_life_argo_%s\t%s\n", P, $3, P, $4)) }
        next }
    R == "sc-units" {
        if ($2 == "degraded" && !V[f, "n"]++) { put("sc_red10\t" $C[f, "dvth_reduction%"] "\n"); V[f, "b"] = $C[f, "busy_naive%"]
            put("sc_dvth_naive10\t" $C[f, "dvth_naive_mV"] "\n") }
        if ($2 == "healthy-max" && !V[f, "hm"]++) put("sc_tie\t" ($C[f, "busy_naive%"] == V[f, "b"] ? 1 : 0) "\n")
        next }
    R == "pe-profile" { if ($1 ~ /^PE_/) { if ($2 > V[f, "m"]) V[f, "m"] = $2; if ($1 == "PE_Z") V[f, "z"] = $2 }
        next }
    R == "pe-units" {
        if ($1 == "PE_max") put("pe_red\t" $C[f, "dvth_reduction%"] "\n")
        next }
    # the aging study'"'"'s longest duty and dVth and their reductions (P: the
    # prefix): the mean '"'"'0'"'"' duty over the cells, and the cell behind the
    # longest (seed 002 6.2 defines the longest: one cell of the slice)
    R == "vth" {
        if ($1 == "all" && $2 == "avg_0%") {
            n = split("rc rar rcrar wc argo", vs, " ")
            for (i = 1; i <= n; i++) put(P "ag_a0red_" vs[i] "\t" $C[f, vs[i] "_red%"] "\n")
            next }
        if ($1 == "all" && $2 == "longest_0_cell") {
            n = split("base rc rar rcrar wc argo", vs, " ")
            for (i = 1; i <= n; i++) if ($C[f, vs[i]] != "") put(P "ag_l0cell_" vs[i] "\t" $C[f, vs[i]] "\n")
            next }
        if ($1 == "all") {
            k = $2 == "longest_0%" ? "l0" : $2 == "longest_1%" ? "l1" : $2 == "dvth_t0_norm" ? "t0" : $2 == "dvth_t1_norm" ? "t1" : ""
            if (k == "") next
            put(P "ag_" k "_base\t" $C[f, "base"] * (k ~ /^t/ ? 100 : 1) "\n")
            n = split("rc rar rcrar wc argo", vs, " ")
            for (i = 1; i <= n; i++) put(P "ag_" k "red_" vs[i] "\t" $C[f, vs[i] "_red%"] "\n") }
        next }
    R == "energy-a" {
        put("ag_save_" $1 "\t" $C[f, "saving%"] "\n"); put("ag_slow_" $1 "\t" $C[f, "slice_slowdown_replay%"] "\n")
        put("ag_upper_" $1 "\t" $C[f, "slice_slowdown_bound%"] "\n"); put("ag_leak_" $1 "\t" $C[f, "leak_saving%"] "\n")
        next }
    R == "runs" { V[f, "t"] = V[f, "t"] (FNR > 1 ? "\n" : "") $0; next }
    R == "writes" {
        ws = $1
        put("uv_normal_" ws "\t" $C[f, "normal%"] "\n"); put("uv_mispred_" ws "\t" $C[f, "mispred%"] "\n")
        put("uv_slow_" ws "\t" $C[f, "slowdown_replay%"] "\n"); put("uv_upper_" ws "\t" $C[f, "slowdown_bound%"] "\n")
        if ($C[f, "lds%"] > V[f, "lds"]) V[f, "lds"] = $C[f, "lds%"]; if ($C[f, "ldsload%"] > V[f, "ld"]) V[f, "ld"] = $C[f, "ldsload%"]
        if ($C[f, "lds_peak_B"] > V[f, "pk"]) V[f, "pk"] = $C[f, "lds_peak_B"]
        next }
    R == "energy-u" {
        put("uv_vsconv_" $1 "\t" $C[f, "vs_conv%"] "\n"); put("uv_vssmooth_" $1 "\t" $C[f, "vs_smooth%"] "\n")
        if ($1 == "conv") put("uv_conv_static\t" $C[f, "static"] "\n")
        next }
    R == "units-h" {
        if ($1 == 1) put("sc_red\t" $C[f, "dvth_reduction%"] "\n")
        next }
    R == "cost-h" {
        put("sc_over_" $1 "\t" $C[f, "overhead%"] "\n"); put("sc_slow_" $1 "\t" $C[f, "slowdown_replay%"] "\n")
        put("sc_upper_" $1 "\t" $C[f, "slowdown_bound%"] "\n")
        next }
    # its first line, tabs made blanks (head -n 1 | tr)
    R == "pe-none" { if (FNR == 1) { t = $0; gsub(/\t/, " ", t); put("pe_none\t" t "\n") }; next }
    # the compute-unit model: its baseline error, each scheme'"'"'s slowdown
    # (the slowdowns only where its baseline is within 3% of the
    # traced cycles, issue 32'"'"'s target: the rows'"'"' means are over those)
    R == "model" { if (!H[f]++) next
        if ($1 == "baseline") { put("cm_base_err\t" $4 "\n"); V[f, "hold"] = ($4 < 0 ? -$4 : $4) <= 3; next }
        if (V[f, "hold"]) put("cm_slow_" $1 "\t" $6 "\n")
        next }
    END { fin(); n = split(buf, L, "\n")
          for (i = 1; i <= n; i++) {
              if (i == n && L[i] == "") break
              split(L[i], F, "\t"); if (F[2] != "") print l "\t" L[i] } }'
facts() {
    # (the files as awk operands: one not starting with / starts with ./,
    # as a=b would be an assignment)
    o=$out
    case $o in /*) ;; *) o=./$o ;; esac
    for l in $labels; do
        d=$o/traces/$l
        a=$o/batch/aging/traces/$l
        u=$o/batch/undervolt/traces/$l
        h=$o/batch/healing/traces/$l
        set --
        [ ! -s "$d/util.tsv" ] || set -- "$@" R=kernel "$d/util.tsv"
        [ ! -s "$d/classify.tsv" ] || set -- "$@" R=classify "$d/classify.tsv"
        for r in auto any; do
            [ ! -s "$d/classify-$r.tsv" ] || set -- "$@" R=classify-r P="$r" "$d/classify-$r.tsv"
        done
        [ ! -s "$d/occupancy.tsv" ] || set -- "$@" R=occupancy "$d/occupancy.tsv"
        [ ! -s "$d/util.tsv" ] || set -- "$@" R=util "$d/util.tsv"
        [ ! -s "$d/recovery.tsv" ] || set -- "$@" R=recovery "$d/recovery.tsv"
        [ ! -s "$d/replay.tsv" ] || set -- "$@" R=replay "$d/replay.tsv"
        for p in 45nm 65nm; do
            [ ! -s "$d/vth-$p.tsv" ] || set -- "$@" R=vth-p P="$p" "$d/vth-$p.tsv"
        done
        [ ! -s "$d/sc-units.tsv" ] || set -- "$@" R=sc-units "$d/sc-units.tsv"
        [ ! -s "$d/pe-profile.tsv" ] || set -- "$@" R=pe-profile "$d/pe-profile.tsv"
        [ ! -s "$d/pe-units.tsv" ] || set -- "$@" R=pe-units "$d/pe-units.tsv"
        [ ! -s "$a/vth.tsv" ] || set -- "$@" R=vth P= "$a/vth.tsv"
        for r in $also; do
            [ "$r" = "$runs" ] || [ ! -s "$o/batch/aging-$r/traces/$l/vth.tsv" ] ||
                set -- "$@" R=vth P="r$r:" "$o/batch/aging-$r/traces/$l/vth.tsv"
        done
        [ ! -s "$a/energy.tsv" ] || set -- "$@" R=energy-a "$a/energy.tsv"
        [ ! -s "$a/runs" ] || set -- "$@" R=runs "$a/runs"
        [ ! -s "$u/writes.tsv" ] || set -- "$@" R=writes "$u/writes.tsv"
        [ ! -s "$u/energy.tsv" ] || set -- "$@" R=energy-u "$u/energy.tsv"
        [ ! -s "$h/units.tsv" ] || set -- "$@" R=units-h "$h/units.tsv"
        [ ! -s "$h/cost.tsv" ] || set -- "$@" R=cost-h "$h/cost.tsv"
        [ ! -e "$d/pe.none" ] || set -- "$@" R=pe-none "$d/pe.none"
        [ ! -s "$d/model.tsv" ] || set -- "$@" R=model "$d/model.tsv"
        [ $# = 0 ] || awk -F '\t' -v l="$l" "$facts_awk" "$@"
    done
}
facts | local_paths > "$out/facts.tsv"

# 4. Each row of the papers' values: the suite's value and the reason.
# values.tsv: id seed figure quantity paper unit where trace suite reason
awk -F '\t' -v OFS='\t' -v runs="$runs" '
    FNR == 1 { pass++ }
    pass == 1 { if ($2 == "kernel") { kern[$1, $3] = 1; next }
                if ($2 == "pe_none" && pe_msg !~ /no bundle records/) pe_msg = $3; v[$1, $2] = $3; has[$2] = 1; lab[$1] = 1; if (!($1 in seen)) { seen[$1] = 1; labels[++nl] = $1 }; next }
    # the values file twice: first the rows of each key (kernels the paper names)
    pass == 2 { if (!/^#/ && $1 != "id") { nk[$9]++; kt[$9, nk[$9]] = $8; kp[$9, nk[$9]] = $5; ku[$9, nk[$9]] = $6; ks[$9, nk[$9]] = $2 }; next }
    /^#/ || $1 == "id" { if ($1 == "id") print $0, "suite", "reason"; next }
    function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?$/ }
    # The trace of the paper row of label t: the trace labelled so, else the
    # first whose stream runs the kernel of the AMD APP SDK 2.5 sample t
    # names (the decoders keep the names); "" if none.  match_w: how.
    function trace_of(t,   i, name) {
        match_w = ""
        if (t ~ /^(mean|max|min)(!|$)/ || t in lab) return t
        name = sdk[t]
        for (i = 1; name != "" && i <= nl; i++)
            if ((labels[i], name) in kern) {
                match_w = " (" labels[i] ", found by its kernel " name ")"
                return labels[i]
            }
        return ""
    }
    BEGIN { split("BlackScholes-cu01 blackScholes DCT DCT FastWalshTransform fastWalshTransform MatrixMultiplication mmmKernel MatrixTranspose matrixTranspose QuasiRandomSequence QuasiRandomSequence Reduction reduce SobelFilter sobel_filter BinomialOption binomial_options", sk, " ")
            for (i = 1; i in sk; i += 2) sdk[sk[i]] = sk[i + 1] }
    # the aggregate of key k over the traces (mean, max, min; min!LABEL:
    # the minimum over the traces but LABEL; only those with key only, if
    # given) or the value of one label
    function value(t, k, only,   i, s, n, x, m, a, skip) {
        a = t; skip = ""
        if (t ~ /!/) { a = substr(t, 1, index(t, "!") - 1); skip = substr(t, index(t, "!") + 1); skip = trace_of(skip) }
        if (a != "mean" && a != "max" && a != "min")
            return (t, k) in v && num(v[t, k]) ? sprintf("%.2f", v[t, k]) : ""
        n = 0
        for (i = 1; i <= nl; i++) {
            if (labels[i] == skip || !((labels[i], k) in v) || !num(v[labels[i], k])) continue
            if (only != "" && !((labels[i], only) in v)) continue
            x = v[labels[i], k] + 0; n++; s += x
            if (n == 1 || (a == "max" && x > m) || (a == "min" && x < m)) m = x
        }
        if (!n) return ""
        return sprintf("%.2f", a == "mean" ? s / n : m)
    }
    function mean(k) { return value("mean", k) }
    # the label whose value of k is value(t, k) (t: max, min or min!LABEL)
    function which(t, k,   i, m) {
        m = value(t, k)
        for (i = 1; i <= nl; i++)
            if ((t !~ /!/ || labels[i] != trace_of(substr(t, index(t, "!") + 1))) && (labels[i], k) in v && sprintf("%.2f", v[labels[i], k]) == m)
                return labels[i]
        return ""
    }
    # A row equal to the paper by how it is made, not by measuring: what
    # makes it so, or "" (issue 33: never counted as agreement)
    # the compute-unit model'"'"'s rows (issue 32): the traces it holds on, and
    # the shift replay'"'"'s value over the same traces (aggregate a)
    function cm_note(k, a,   i, n, m, sk, l, x) {
        sk = k; sub(/^cm_slow_dcpatch-/, "uv_slow_", sk); sub(/^cm_slow_sc/, "sc_slow_", sk); sub(/^cm_slow_/, "ag_slow_", sk)
        n = m = 0; l = ""
        for (i = 1; i <= nl; i++) {
            if (!((labels[i], "cm_base_err") in v)) continue
            m++
            if ((labels[i], k) in v) l = l (n++ ? ", " : "") labels[i]
        }
        return sprintf("; the compute-unit model (rft-replay --model cu, examples/model-slowdowns.sh) holds on %d of %d traces, its baseline unscaled (--calibrate none) within 3%% of the traced cycles: %s; the shift replay over them: %s", \
            n, m, l, (x = value(a, sk, k)) == "" ? "none" : x "%")
    }
    # why no row of the compute-unit model: each trace'"'"'s baseline error
    function cm_none(   i, l) {
        for (i = 1; i <= nl; i++)
            if ((labels[i], "cm_base_err") in v) l = l (l == "" ? "" : ", ") labels[i] " " v[labels[i], "cm_base_err"] "%"
        return l == "" ? "not computed: no --m2s-config (the compute-unit model, issue 32)" \
            : "not computed: the compute-unit model'"'"'s baseline unscaled (--calibrate none) is within 3% of the traced cycles on no trace (" l ")"
    }
    function built(k) {
        if (k ~ /^a4_(dvth|life)_base/) return "calibration: params/seed004-*.conf are fitted to seed 004 Figs. 7 and 9"
        if (k ~ /^a4_snm_red/) return "the model: SNM loss is the dVth shift scaled, its improvement the dVth improvement"
        if (k ~ /_base$/ && k ~ /^ag_/) return "normalisation: the baseline is 100% of itself"
        if (k == "ag_slow_argo" || k == "cm_slow_argo") return "assumption: ARGO places windows at allocation and adds no cycle"
        return ""
    }
    # a within 10% of the paper value b (of unit u: a bound where it says so)
    function close_to(a, b, u,   rg) {
        a += 0
        if (b ~ /^[0-9.]+-[0-9.]+$/) { split(b, rg, "-"); return a >= rg[1] * 0.9 && a <= rg[2] * 1.1 }
        if (!num(b)) return 0
        b += 0
        if (u ~ /\((at most|under)\)/) return a <= b * 1.1
        if (u ~ /\((at least|over)\)/) return a >= b * 0.9
        if (b == 0) return a >= -0.5 && a <= 0.5
        return a >= b * 0.9 && a <= b * 1.1
    }
    # the rows of key k for a kernel the paper names and a trace has: "LABEL
    # s% for p%" each; named_all: 1 when every one agrees
    function named(k,   i, t, x, l) {
        named_all = 1; l = ""
        for (i = 1; i <= nk[k]; i++) {
            t = trace_of(kt[k, i])
            if (t == "" || t ~ /^(mean|max|min)(!|$)/ || (x = value(t, k)) == "") continue
            if (!close_to(x, kp[k, i], ku[k, i])) named_all = 0
            l = l (l == "" ? "" : ", ") t " " x "% for " kp[k, i] "%"
        }
        return l
    }
    # least squares of key ky on key kx over the traces: fit_a + fit_b x,
    # correlation fit_r, fit_n traces, kx from fit_lo to fit_hi; 0 if fewer than 3
    function fit(kx, ky,   i, x, y, n, sx, sy, sxx, sxy, syy, d, e) {
        n = sx = sy = sxx = sxy = syy = 0
        for (i = 1; i <= nl; i++) {
            if (!((labels[i], kx) in v) || !((labels[i], ky) in v) || !num(v[labels[i], kx]) || !num(v[labels[i], ky])) continue
            x = v[labels[i], kx] + 0; y = v[labels[i], ky] + 0
            if (!n++ || x < fit_lo) fit_lo = x
            if (n == 1 || x > fit_hi) fit_hi = x
            sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y
        }
        fit_n = n; d = n * sxx - sx * sx; e = n * syy - sy * sy
        if (n < 3 || d <= 0 || e <= 0) return 0
        fit_b = (n * sxy - sx * sy) / d; fit_a = (sy - fit_b * sx) / n; fit_r = (n * sxy - sx * sy) / sqrt(d * e)
        return 1
    }
    # the paper value of the row of key k and trace t ("?" if none)
    function paper(k, t,   i) {
        for (i = 1; i <= nk[k]; i++) if (kt[k, i] == t) return kp[k, i]
        return "?"
    }
    # how many traces have a value of k under lim
    function under(k, lim,   i, n) {
        for (i = 1; i <= nl; i++) if ((labels[i], k) in v && num(v[labels[i], k]) && v[labels[i], k] + 0 < lim) n++
        return n + 0
    }
    # the runs of the duty maps, every trace counted (issue 33: not those of
    # the last trace for all): "steady state for 6 traces; run 10 times
    # for 2 (DCT, SobelFilter: no steady state, rft-batch runs file)"
    function runs_note(   i, r, n, j, w, nr, rs, cnt, who) {
        nr = 0
        for (i = 1; i <= nl; i++) {
            if (!((labels[i], "runs") in v)) continue
            r = v[labels[i], "runs"]
            if (!(r in cnt)) rs[++nr] = r
            cnt[r]++; who[r] = who[r] (who[r] == "" ? "" : ", ") labels[i]
        }
        if (!nr) return "the runs of the duty maps are not known (no runs file)"
        w = ""
        for (j = 1; j <= nr; j++) {
            r = rs[j]; n = cnt[r]
            w = w (w == "" ? "" : "; ") (r == "steady" ? "the steady state (the kernel run again and again, rft-alloc --runs steady)" : r == "once" ? "the trace run once" : "the kernel run " r " times") \
                " for " n " trace" (n == 1 ? "" : "s") (nr > 1 && n < nl ? " (" who[r] ")" : "")
        }
        if (runs != "" && nr >= 1 && !(runs in cnt)) w = w " (asked: " runs ", which rft-batch could not give: its runs file)"
        return "the duty maps are of " w
    }
    # seed 003 Fig. 8 degrades one SC: the busiest; where the busiest SC of
    # the healthy ones is as busy, that one is a tie-break (issue 33)
    function ties(   i, n, m, w) {
        n = m = 0; w = ""
        for (i = 1; i <= nl; i++) {
            if (!((labels[i], "sc_tie") in v)) continue
            m++
            if (v[labels[i], "sc_tie"] == 1) { n++; w = w (w == "" ? "" : ", ") labels[i] }
        }
        if (!m) return ""
        return "the degraded SC is the busiest (rft-heal --report units), " (n ? "a tie-break on " n " of the " m " traces (" w "): another SC is as busy, the one taken is the first by index" : "on none of the " m " traces a tie: it is the one busiest SC")
    }
    # the cell of the longest '"'"'0'"'"' duty per trace, base and scheme x
    function cells(x,   i, w) {
        w = ""
        for (i = 1; i <= nl; i++)
            if ((labels[i], "ag_l0cell_base") in v)
                w = w (w == "" ? "" : ", ") labels[i] " " v[labels[i], "ag_l0cell_base"] " -> " \
                    (((labels[i], "ag_l0cell_" x) in v) ? v[labels[i], "ag_l0cell_" x] : "?")
        return w == "" ? "not known" : w
    }
    # register demand beside the seed sd: over the rows of util_peak of seed
    # sd whose kernel a trace is, the mean of the paper values (dm_p) and of
    # the traces (dm_s), dm_n rows, dm_w the words; 0 if none
    function demand(sd,   i, t, x) {
        dm_p = dm_s = dm_n = 0
        for (i = 1; i <= nk["util_peak"]; i++) {
            t = trace_of(kt["util_peak", i])
            if (ks["util_peak", i] != sd || t == "" || t ~ /^(mean|max|min)(!|$)/ || (x = value(t, "util_peak")) == "" || !num(kp["util_peak", i])) continue
            dm_n++; dm_s += x; dm_p += kp["util_peak", i]
        }
        if (!dm_n) return 0
        dm_s /= dm_n; dm_p /= dm_n
        dm_w = sprintf("the %d %s seed %s names in its utilization table (%s) fill%s %.2f%% of a slice at %s peak, its kernels %.2f%% (means)", \
            dm_n, dm_n == 1 ? "trace" : "traces", sd, sd == "004" ? "Table 1" : "Table 5", dm_n == 1 ? "s" : "", dm_s, dm_n == 1 ? "its" : "their", dm_p)
        return 1
    }
    # the direction rule of register demand: a quantity that grows with the
    # unused windows (more: 1) or shrinks (more: -1) differs from the paper
    # the way the traces fill less (or more) of a slice than the seed kernels
    function demand_holds(s, p, more) {
        return (more * (s - p) > 0 && dm_s < dm_p) || (more * (s - p) < 0 && dm_s > dm_p)
    }
    # a replayed slowdown above the paper: the line of key k over the traces
    # on key kx; 1 when |r| >= 0.7 with the sign sg and the paper value p lies
    # on it within the traces (sl_x there); sl_w the words
    function slow_fit(kx, k, p, sg, what) {
        if (!fit(kx, k)) { sl_w = "no line on " what " (fewer than 3 traces, or all alike)"; return 0 }
        sl_x = fit_b != 0 ? (p - fit_a) / fit_b : fit_lo - 1
        sl_w = sprintf("over the %d traces, slowdown = %.2f %s %.3f x %s (r = %.2f), from %.2f to %.2f", \
            fit_n, fit_a, fit_b < 0 ? "-" : "+", fit_b < 0 ? -fit_b : fit_b, what, fit_r, fit_lo, fit_hi)
        return sg * fit_r >= 0.7 && sl_x >= fit_lo && sl_x <= fit_hi
    }
    function why(k, t, s, p, un,   u, c, x, a, h, b, m, y, w, lo, hi, one) {
        u = mean("util_peak"); c = mean("compr")
        # the pattern rule: seed 002 fixes BS 8 (4) and the hardware deltas
        # (5.1.1) after its characterisation (3.2); rft-classify --bs auto
        # finds each kernel its own block size
        if (k == "compr" || k == "pattern") {
            h = value(t, k); a = value(t, k "_auto"); x = value(t, k "_any")
            if (h == "" || a == "" || x == "") return ""
            one = t !~ /^(mean|max|min)(!|$)/
            b = one && ((t, "bs_auto") in v) ? " " v[t, "bs_auto"] : "s (per kernel)"
            y = one && ((t, "bs_any") in v) ? "BS " v[t, "bs_any"] : "per kernel"
            w = "at BS 8 with the hardware deltas (powers of two up to 64: seed 002 4, 5.1.1) " h "%; " \
                (one ? "at its own block size" b " (rft-classify --bs auto) " a "%, with any delta (--deltas any, " y ") " x "%" \
                     : "at each kernel'"'"'s own block size (rft-classify --bs auto) " a "%, with any delta as well (--deltas any) " x "% (means)")
            lo = h + 0; hi = h + 0
            if (a + 0 < lo) lo = a + 0; if (x + 0 < lo) lo = x + 0; if (a + 0 > hi) hi = a + 0; if (x + 0 > hi) hi = x + 0
            # one rule, fixed in advance (issue 33: not the first of three
            # that fits): the paper counts its patterns between the rule the
            # hardware encodes and the rule of its characterisation
            w = "pattern rule (predicts the paper'"'"'s value between the rules, from BS 8 with the hardware deltas to " (one ? "its" : "each kernel'"'"'s") " own block size with any delta; the test: " \
                sprintf("%.2f", lo * 0.9) "% <= " p "% <= " sprintf("%.2f", hi * 1.1) "%, the rules'"'"' range and 10%): " w
            if (p + 0 >= lo * 0.9 && p + 0 <= hi * 1.1) return w ": holds"
            return "unexplained: " w ": refuted"
        }
        # mispredictions: the trace that mispredicts most, and the others
        if (k ~ /^uv_mispred_/) {
            x = which("max", k); m = value("max", k); y = value("mean!" x, k); b = ((x, "bs_auto") in v) ? v[x, "bs_auto"] : ""
            w = x " mispredicts " m "% of its writes" \
                (!num(b) || b + 0 == 8 ? "" : value(x, "mispred_auto") + 0 < m + 0 ? " (its block size is " b ", rft-classify --bs auto: the first block fits the pattern at BS 8 where the register does not; at " b " it would mispredict " value(x, "mispred_auto") "%)" \
                    : " (at its own block size, " b " by rft-classify --bs auto, it mispredicts " value(x, "mispred_auto") "%: no fewer, so not the block size)") \
                "; the mean over the other traces is " y "%, and " under(k, 0.1) " of the " nl " traces mispredict under 0.1% of their writes (seed 001 V-A3: half of its kernels next to none)"
            # an outlier: it pulls the mean above the paper value, the others are within
            if (y == "" || s + 0 <= p + 0 || !(close_to(y, p, un) || y + 0 <= p * 1.1)) return "unexplained: " w
            return "one trace: " w
        }
        # DC-Patch against Conv and Smooth: the share of static energy
        if (k ~ /^uv_vs(conv|smooth)_/) {
            if (!fit("uv_conv_static", k))
                return "unexplained: the energy mix checked (fewer than 3 traces with a Conv static share)"
            x = fit_b != 0 ? (p - fit_a) / fit_b : -1
            w = sprintf("over the %d traces, saving = %.2f %s %.3f x static%% of Conv (r = %.2f; the static column of conv, batch/undervolt/traces/*/energy.tsv), static from %.2f to %.2f%%, mean %s%%", \
                fit_n, fit_a, fit_b < 0 ? "-" : "+", fit_b < 0 ? -fit_b : fit_b, fit_r, fit_lo, fit_hi, mean("uv_conv_static"))
            if (fit_r > -0.8 || x < fit_lo || x > fit_hi) return "unexplained: the energy mix checked: " w
            return sprintf("energy mix: the saving falls as the share of static energy in Conv'"'"'s rises: %s; the paper'"'"'s %s%% lies on that line at %.2f%% static", w, p, x)
        }
        # ARGO rotates over the unused windows: a trace that fills less of a
        # slice than the seed kernels has more of them, a larger reduction
        if (k ~ /^ag_(l0|l1|t0|t1)red_argo/ || k ~ /^a4_(dvth|snm)_red/) {
            a = k ~ /^a4_/ ? "seed 004 is Evergreen (HD 5870), the traces GCN; " : ""
            if (!demand(k ~ /^a4_/ ? "004" : "002"))
                return "unexplained: register demand not compared (no trace is a kernel of the seed utilization table); " a runs_note()
            # where the paper value lies on the line of the reduction over the traces on their utilization
            if (fit("util_peak", k) && fit_b != 0)
                a = a sprintf("the line over the %d traces, %.2f %s %.3f x utilization%% (r = %.2f), gives the paper value at %.2f%% of a slice, %.2f%% at the seed kernels%s; ", \
                    fit_n, fit_a, fit_b < 0 ? "-" : "+", fit_b < 0 ? -fit_b : fit_b, fit_r, (p - fit_a) / fit_b, fit_a + fit_b * dm_p, "\047 mean utilization")
            if (demand_holds(s, p, 1))
                return "register demand: ARGO rotates over the unused windows; " dm_w ": " (s + 0 > p + 0 ? "more unused windows, a larger" : "fewer unused windows, a smaller") \
                    " reduction (the rule: larger where the traces fill less of a slice than the seed kernels, smaller where more); " a runs_note()
            return "unexplained: register demand checked: " dm_w ", which makes ARGO reduce " (dm_s < dm_p ? "more" : "less") \
                " than the paper, not " (s + 0 > p + 0 ? "more" : "less") "; " a runs_note()
        }
        if (k ~ /^ag_l0red_/) {
            x = substr(k, 10)
            return "unexplained (no rule tests it; the facts): the statistic is seed 002 6.2'"'"'s longest '"'"'0'"'"' duty cycle among the cells of the entire slice, one cell (the maximum, rft-vth longest_0%); " \
                "the mean '"'"'0'"'"' duty over the cells (avg_0%) is reduced " mean("ag_a0red_" x) "% by " x " (mean over the traces); the cells behind the longest (CU:SIMD rREGISTER bLANE, base -> " x "): " cells(x) "; " \
                c "% of the writes are compressible, " mean("pattern") "% fit a pattern (seed 002 Fig. 7: " paper("pattern", "mean") "%); " runs_note()
        }
        if (k ~ /^ag_(l0|l1|t0|t1)red_/)
            return "unexplained (no rule tests it; the facts): " c "% of the writes are compressible, " mean("pattern") "% fit a pattern (seed 002 Fig. 7: " paper("pattern", "mean") "%), which bounds what RC powers off; " runs_note()
        if (k ~ /^ag_save_/ || k ~ /^ag_leak_/) {
            w = "the cells of unused windows are off in every scheme but the baseline, which keeps every cell on (seed 002 6.6; seed 004 Fig. 11 is Evergreen)"
            if (!demand($2)) return "unexplained: register demand not compared (no trace is a kernel of the seed utilization table); " w
            if (demand_holds(s, p, 1))
                return "register demand: " dm_w ": " (s + 0 > p + 0 ? "more" : "fewer") " unused windows, a " (s + 0 > p + 0 ? "larger" : "smaller") " saving; " w
            return "unexplained: register demand checked: " dm_w ", which makes the saving " (dm_s < dm_p ? "larger" : "smaller") " than the paper, not " (s + 0 > p + 0 ? "larger" : "smaller") "; " w
        }
        if (k ~ /^a4_(dvth|life)_base/)
            return "unexplained (no rule tests it; the facts): " runs_note() "; the model is that of seed 004 (params/seed004-*.conf, calibrated to its Fig. 7 and Fig. 9), the duty maps are of the traces"
        if (k ~ /^a4_life_argo/) {
            x = which(t, k)
            if (value(x, "util_peak") >= 90 && s + 0 < p + 0)
                return "register demand: " x " (the smallest) fills " value(x, "util_peak") "% of a slice at its peak, ARGO has few unused windows to rotate; " runs_note()
            return "unexplained: " x " (the smallest) gains " value(x, "a4_dvth_red_45nm") "% dVth from ARGO and fills " \
                value(x, "util_peak") "% of a slice at its peak (the rule: 90% or more, a lifetime shorter than the paper); " runs_note() }
        # replayed slowdowns above the paper: other wavefronts hide the added
        # latency (a slice of few wavefronts cannot), or a busy SIMD has no
        # idle cycles for the added work
        if (k ~ /^(ag|uv|sc)_slow_/) {
            x = substr(k, 9)
            m = k ~ /^ag_/ ? "replayed slowdown (rft-energy slice_slowdown_replay%: other wavefronts hide a wake-up); the upper bound (slice_slowdown_bound%: every wake-up delays its slice) is " value(t, "ag_upper_" x) "%" \
              : k ~ /^uv_/ ? "replayed slowdown (rft-dcpatch --report perf slowdown_replay%, with its 2 extra stages); the upper bound (slowdown_bound%) is " value(t, "uv_upper_" x) "%" \
              : "replayed slowdown of the healthy kernel (rft-heal --report cost slowdown_replay%); the first-order estimate (overhead%, not a bound) is " value(t, "sc_over_" x) "%, the upper bound (slowdown_bound%) " value(t, "sc_upper_" x) "%"
            if (s + 0 <= p + 0) return "unexplained: " (k ~ /^sc_/ ? "busy SIMDs" : "latency hiding") " does not apply (it explains a slowdown above the paper, this one is not); " m
            # one rule a seed, from its own mechanism (issue 33: never the
            # first of several that fits): the stages of DC-Patch and the
            # wake-ups of RC are latency that other wavefronts hide (seeds
            # 001 V-B, 002 6.5); SC healing adds work to busy SIMDs (seed 003)
            if (k ~ /^sc_/) {
                if (slow_fit("busy", k, p, 1, "the SIMD issue demand% (4 cycles an instruction per cycle of the slice span, rft-replay --no-scheme, mean over the slices)"))
                    return sprintf("busy SIMDs (holds): the slowdown rises with the SIMD issue demand, a SIMD busy issuing has no idle cycles for the added work: %s; the paper value %s%% lies on that line at %.2f%% issue demand; %s", sl_w, p, sl_x, m)
                return "unexplained: busy SIMDs refuted (the test: r >= 0.7 and the paper value on the line within the traces): " sl_w "; " m
            }
            if (slow_fit("util_wf", k, p, -1, "the wavefronts a slice holds at most (rft-alloc --util max_wf)"))
                return sprintf("latency hiding (holds): the slowdown falls as a slice holds more wavefronts to hide the added latency: %s; the paper value %s%% lies on that line at %.1f wavefronts a slice (GCN holds up to 10 a SIMD); %s", sl_w, p, sl_x, m)
            return "unexplained: latency hiding refuted (the test: r <= -0.7 and the paper value on the line within the traces): " sl_w "; " m
        }
        if (k ~ /^sc_over_/)
            return "unexplained (no rule tests it; the facts): Fig. 9 is Evergreen (HD 5870, VLIW), the traces GCN (seed 003 Fig. 16: " paper("sc_slow_1", "mean") "% on Southern Islands); first-order estimate (rft-heal --report cost), the replay gives " value(t, "sc_slow_" substr(k, 9)) "%"
        if (k == "sc_red10") {
            x = mean("sc_red")
            return "unexplained (no rule tests it; the facts): the degraded SC rests while the others take its work, and a kernel with idle slots lets it rest more (rft-heal(1)); with --variation 0 (rft-batch --study healing) the reduction is " x "% (a resting SC does not age at all: 100% by construction)" }
        if (k ~ /^util_/ || k == "rec_1k")
            return "unexplained (no rule tests it; the facts): " (t ~ /^(mean|max|min)/ ? "" : value(t, "util_vgprs") " VGPRs x " value(t, "util_wf") " wavefronts on a slice; ") \
                "the traces are GCN (256-entry slices, registers as its compiler allots them), seed 004 counts HD 5870 registers (32 wavefronts a CU)"
        if (k ~ /^uv_lds/)
            return "unexplained (no rule tests it; the facts): " (t ~ /^(mean|max|min)/ ? "the traces fill " u "% of a slice at their peak (mean) with " c "%" \
                : t " fills " value(t, "util_peak") "% of a slice at its peak with " value(t, "compr") "%") \
                " compressible writes; DC-Patch spills to the LDS only where both leave no room (seed 001 V-A1)"
        # the entries in use (Fig. 3) grow with the registers the kernels hold
        if (k ~ /^occ_/) {
            x = paper("occ_used", "mean")
            w = "the traces fill " u "% of a slice at their peak (mean), seed 001 Fig. 3 uses " x "% of the register file; the categories share what is used; " c "% of the writes are compressible"
            if (num(x) && s + 0 < p + 0 && u + 0 < x + 0) return "register demand: " w
            return "unexplained: register demand checked (it explains shares smaller than the paper where the traces use less): " w
        }
        return ""
    }
    {
        id = $1; k = $9
        t = trace_of($8); mw = match_w
        s = t == "" ? "" : value(t, k)
        if (s == "") {
            if (t == "") r = "not computed: no trace labelled " $8 " or running its kernel " (($8 in sdk) ? sdk[$8] : "(not an SDK sample this script knows)")
            else if (k ~ /^cm_/) r = cm_none()
            else if (k ~ /^pe_/) r = "not computed: PE healing needs VLIW bundles (an Evergreen trace: rft-decode --input-format evg)" \
                (pe_msg ~ /no bundle records/ ? "; the traces have none (rft-heal: no bundle records)" : "; rft-heal: " pe_msg)
            else r = "not computed: the study failed on the trace(s) (see batch/*/traces/*/log)"
            print $0, "", r; next
        }
        if (!num($5) && $5 !~ /^[0-9.]+-[0-9.]+$/) r = "the paper states no number"
        else if ((c = built(k)) != "") r = "by construction (" c ")" (close_to(s, $5, $6) ? "" : ", yet differs")
        else if ($6 ~ /\((at most|under|at least|over)\)/ && close_to(s, $5, $6)) r = "bound met (" s " " ($6 ~ /at most|under/ ? "<=" : ">=") " " $5 ")"
        else if (close_to(s, $5, $6)) r = "agrees (measured, within 10%)"
        else {
            r = why(k, t, s, $5, $6)
            # a mean whose kernels, where the paper names them, agree
            # the rule of a mean that no mechanism rule covers (never a
            # second try after a rule is refuted): its kernels that the paper
            # names agree, the mean is over other kernels
            if (r == "" && t == "mean" && (l = named(k)) != "")
                r = named_all ? "kernel set (holds): the kernels the paper names agree (" l "); its mean is over its own kernels, this one over the " nl " traces" \
                    : "unexplained: kernel set refuted (the test: every kernel the paper names within 10%): " l
            if (r == "") r = "unexplained"
            r = (r ~ /^unexplained/ ? "differs: " : "differs: reason holds: ") r
        }
        r = r mw
        if (k ~ /^cm_slow_/) r = r cm_note(k, $8)
        if (k == "sc_red10" && (x = ties()) != "") r = r "; " x
        print $0, s, r
    }
    # the match of the paper'"'"'s kernels to the traces (issue 33: rows by
    # kernel, shown in the report): kernels.tsv, kernel, trace, how
    END {
        printf "kernel\ttrace\thow\n" > kfile
        for (i = 1; i in sk; i += 2) {
            t = trace_of(sk[i])
            printf "%s\t%s\t%s\n", sk[i], t == "" ? "-" : t, \
                t == "" ? "no trace labelled so or running " sk[i + 1] : t == sk[i] ? "its label" : "its kernel " sk[i + 1] > kfile
        }
        close(kfile)
    }' kfile="$out/kernels.tsv" "$out/facts.tsv" "$values" "$values" > "$out/values.tsv"

# 5. Figures: PNG, from the batch tables (rft-plot)
progress "figures"
# 900 pixels wide, wider past 11 traces: a trace's name under its cluster of
# bars keeps a few characters (at 20 traces they ran into each other)
ntraces=$(printf '%s\n' "$labels" | grep -c .)
plot_width=$((ntraces > 11 ? 82 * ntraces : 900))
plot() {   # NAME TSV rft-plot options...
    f=$1 t=$2
    shift 2
    [ -s "$t" ] || return 0
    # the data and script stay beside the PNG: the caption sends a reader to
    # the data file for every note, and its header names the legend's series
    rft-plot --quiet --terminal png --width "$plot_width" --height 520 -o "$out/figures/$f.png" "$@" "$t" 2>> "$tmp/plot.err" ||
        printf '%s: figure %s: %s\n' "$script" "$f" "$(tail -n 1 "$tmp/plot.err")" >&2
    # no path of this machine in them either (the notes' parameter files, the temporary input)
    set --
    for x in "$out/figures/$f.png.data.tsv" "$out/figures/$f.png.gp"; do
        [ -f "$x" ] || continue
        case $x in /*) ;; *) x=./$x ;; esac
        set -- "$@" "$x"
    done
    [ $# = 0 ] || local_paths_in "$@"
}
# a table's columns named as the paper names them (the legend of a figure):
# relabel 'KEY=NAME|...' < TSV, the first line not a # line the header
relabel() {
    awk -F '\t' -v OFS='\t' -v map="$1" 'BEGIN { n = split(map, m, "|")
            for (i = 1; i <= n; i++) { j = index(m[i], "="); name[substr(m[i], 1, j - 1)] = substr(m[i], j + 1) } }
        !h && !/^#/ { h = 1; for (i = 1; i <= NF; i++) if ($i in name) $i = name[$i] } { print }'
}
bf() { printf '%s/batch/%s/figures/%s.tsv' "$out" "$1" "$2"; }
for f in fig13-longest0 fig16-longest1 fig19-dvth-t0 fig19-dvth-t1 fig21-energy; do
    case $f in
    fig13*) t="Fig. 13: longest '0' duty (%)" ;;
    fig16*) t="Fig. 16: longest '1' duty (%)" ;;
    fig19-dvth-t0) t="Fig. 19: highest dVth of T0, normalised" ;;
    fig19-dvth-t1) t="Fig. 19: highest dVth of T1, normalised" ;;
    *) t="Fig. 21: slice energy, % of the baseline's" ;;
    esac
    # rft-batch's breakdowns are stacks of a trace's schemes (rft-batch(1), Figures)
    case $f in
    fig19*) kind="-y base,rc,rar,rcrar,wc,argo --kind bar" ;;
    *) kind="--kind stack --group trace -x scheme" ;;
    esac
    # shellcheck disable=SC2086 # $kind: words without blanks
    [ ! -s "$(bf aging "$f")" ] || plot "seed002-$f" "$(bf aging "$f")" $kind --xlabel "" --ymin 0 --ylabel "" \
        --title "seed 002 $t"
done
[ ! -s "$(bf undervolt fig8-energy)" ] || plot seed001-fig8-energy "$(bf undervolt fig8-energy)" --kind stack \
    --group trace -x scheme --xlabel "" --ymin 0 --ylabel "" --title "seed 001 Fig. 8: energy, % of Conv's"
[ ! -s "$(bf undervolt fig5-writes-common)" ] || plot seed001-fig5-writes "$(bf undervolt fig5-writes-common)" --kind bar \
    --ymin 0 -y '*%' --title "seed 001 Fig. 5: writes, common scenario (%)"
# seed 003 Fig. 9: the replayed slowdown (the one the rows cite), a series
# per count of degraded SCs
[ ! -s "$(bf healing fig9-overhead)" ] ||
    relabel "1=1 SC|2=2 SCs|3=3 SCs|4=4 SCs|5=5 SCs|6=6 SCs|7=7 SCs|8=8 SCs" < "$(bf healing fig9-overhead)" > "$tmp/fig9.tsv"
[ ! -s "$tmp/fig9.tsv" ] || plot seed003-fig9-overhead "$tmp/fig9.tsv" --kind bar --ymin 0 -y '*' \
    --ylabel "run-time slowdown, replayed (%)" --title "seed 003 Figs. 9, 16: SC healing slowdown (rft-replay), by degraded SCs"
# the per-trace tables of this script: one row per trace
per_label() {   # KEY... : a TSV of trace and the keys
    printf 'trace'; printf '\t%s' "$@"; printf '\n'
    # one awk for the table, not one a cell: each cell the value of the
    # first line of the trace and key ($1 == l compared as awk compares)
    awk -F '\t' -v labels="$labels" -v keys="$*" '
        BEGIN { nl = split(labels, l, " "); nk = split(keys, k, " ") }
        { for (j = 1; j <= nk; j++) if ($2 == k[j]) for (i = 1; i <= nl; i++) if (!((i, j) in v) && $1 == l[i]) v[i, j] = $3 }
        END { for (i = 1; i <= nl; i++) { printf "%s", l[i]; for (j = 1; j <= nk; j++) printf "\t%s", v[i, j]; printf "\n" } }' "$out/facts.tsv"
}
per_label compr pattern > "$tmp/compr.tsv"
plot seed001-fig2-seed002-fig7-compressible "$tmp/compr.tsv" -y compr,pattern --kind bar --ymin 0 --ymax 100 \
    --ylabel "% of writes" --title "seeds 001 Fig. 2 (compr), 002 Fig. 7 (pattern): writes"
# seed 003 Fig. 8 as its row (sc_red10) takes it: the degraded SC after 360
# h with 10 mV of initial variation (rft-heal --variation 10); the healed
# kernel's bar would be that 10 mV by construction (a resting SC does not
# age), so the caption says so instead of drawing it
{ printf '# healed kernel: not drawn, it is the 10 mV initial variation by construction (a resting SC does not age; the reduction row of Fig. 8 is 1 - 10 mV / this)\n'
  printf '# variation: 10 mV of initial dVth on the degraded SC, as the row of Fig. 8 (rft-heal --variation 10 --hours 360)\n'
  per_label sc_dvth_naive10 | relabel "sc_dvth_naive10=naive kernel_mV"; } > "$tmp/fig8.tsv"
! awk -F '\t' '!/^#/ && NR > 3 && $2 != "" { f = 1 } END { exit !f }' "$tmp/fig8.tsv" ||
    plot seed003-fig8-dvth "$tmp/fig8.tsv" -y '*' --kind bar --ymin 0 \
        --ylabel "dVth after 360 h (mV)" --title "seed 003 Fig. 8: dVth of the degraded SC, 10 mV variation, naive kernel"
# the pattern rules of the reasons: BS 8 and the hardware deltas, each kernel's block size, any delta
per_label pattern pattern_auto pattern_any > "$tmp/rules.tsv"
plot seed002-fig7-rules "$tmp/rules.tsv" -y pattern,pattern_auto,pattern_any --kind bar --ymin 0 --ymax 100 \
    --ylabel "% of writes" --title "seed 002 Fig. 7: patterns at BS 8, own BS (auto), any delta"
per_label occ_rel_comp occ_rel_unc occ_flt_unc occ_flt_comp |
    relabel "occ_rel_comp=reliable, compressed|occ_rel_unc=reliable, uncompressed|occ_flt_unc=faulty, uncompressed|occ_flt_comp=faulty, compressed" > "$tmp/occ.tsv"
plot seed001-fig3-occupancy "$tmp/occ.tsv" -y '*' --kind bar --ymin 0 \
    --ylabel "% of entries per cycle" --title "seed 001 Fig. 3: entries, common scenario"
per_label util_peak rec_1k > "$tmp/util.tsv"
plot seed004-table1-table3 "$tmp/util.tsv" -y util_peak,rec_1k --kind bar --ymin 0 --ymax 100 \
    --ylabel "%" --title "seed 004 Tables 1, 3: utilization, recovery (1 KB)"
{ printf '# by construction: the aging-oblivious dVth is the calibration of params/seed004-45nm.conf and seed004-65nm.conf (the seed'"'"'s 22 %% and 19 %%), the same on every trace\n'
  printf '# lifetime: 5 years (rft-vth --years 5), the worst cell of the baseline (first-fit) against ARGO\n'
  per_label a4_dvth_base_45nm a4_dvth_red_45nm a4_dvth_base_65nm a4_dvth_red_65nm a4_snm_red_45nm; } |
    relabel "a4_dvth_base_45nm=dVth, aging-oblivious, 45 nm (% of Vth0)|a4_dvth_red_45nm=dVth improvement of ARGO, 45 nm|a4_dvth_base_65nm=dVth, aging-oblivious, 65 nm (% of Vth0)|a4_dvth_red_65nm=dVth improvement of ARGO, 65 nm|a4_snm_red_45nm=read SNM improvement of ARGO (Fig. 8)" > "$tmp/a4.tsv"
plot seed004-fig7-fig8 "$tmp/a4.tsv" -y '*' --kind bar --ymin 0 \
    --ylabel "%" --title "seed 004 Figs. 7, 8: dVth and improvement, 5 years"
per_label a4_life_base_45nm a4_life_argo_45nm > "$tmp/life.tsv"
plot seed004-fig9-lifetime "$tmp/life.tsv" -y 'a4_*' --kind bar --ymin 0 \
    --ylabel "years to 20% SNM loss" --title "seed 004 Fig. 9: SNM lifetime, 45 nm"
per_label ag_leak_argo > "$tmp/leak.tsv"
plot seed004-fig11-leakage "$tmp/leak.tsv" -y ag_leak_argo --kind bar --ymin 0 --ymax 100 \
    --ylabel "% of the leakage" --title "seed 004 Fig. 11: leakage saved by ARGO"
if grep -q "	pe_share_max	" "$out/facts.tsv"; then
    per_label pe_share_max pe_share_z pe_red > "$tmp/pe.tsv"
    plot seed003-fig4-fig7-pe "$tmp/pe.tsv" -y 'pe_*' --kind bar --ymin 0 \
        --ylabel "%" --title "seed 003 Figs. 4, 7: PE shares, PE healing"
fi
progress ""

# 6. The report
# --also-runs: seed 002's duty and dVth reductions under the other runs
also_table() {
    other=""
    for r in $also; do [ "$r" = "$runs" ] || other="$other $r"; done
    [ -n "$other" ] || return 0
    printf '\n## Seed 002: the reductions under other runs of the kernels\n\n'
    printf 'The aging study again with `rft-batch --repeat RUNS` (mean over the traces; once: the trace\n'
    printf 'run once, N: N copies in a row, rft-repeat). RAR and ARGO rotate only across window\n'
    printf 'reassignments, which is what the runs change.\n\n'
    printf '| figure | quantity | paper | %s (above) |' "$runs"
    for r in $other; do printf ' %s |' "$r"; done
    printf '\n|---|---|---|---|'
    for r in $other; do printf -- '---|'; done
    printf '\n'
    awk -F '\t' -v other="$other" '
        FILENAME == ARGV[1] { if ($3 ~ /^-?[0-9]+(\.[0-9]+)?$/) { sum[$2] += $3; n[$2]++ }; next }
        FNR == 1 || $9 !~ /^ag_(l0|l1|t0|t1)red_/ { next }
        { m = split(other, o, " ")
          l = "| " $3 " | " $4 " | " $5 " " $6 " | " ($10 == "" ? "-" : $10) " |"
          for (i = 1; i <= m; i++) { k = "r" o[i] ":" $9; l = l " " (n[k] ? sprintf("%.2f", sum[k] / n[k]) : "-") " |" }
          print l }' "$out/facts.tsv" "$out/values.tsv"
}
# a table's '# ' lines as a list; a parameter file with its checksum
notes() {
    sed -n 's/^# \(.*\)$/\1/p' "$1" | while IFS= read -r line; do
        case $line in
        *"parameters: /"*)
            f=${line##*parameters: }
            f=${f%% *}
            [ ! -r "$f" ] || line="$line (sha256 $(sha256sum < "$f" | cut -c 1-16))" ;;
        esac
        printf -- '- %s\n' "$line"
    done | local_paths
}
# where the script is in no git tree (a copy): what it and the programs are
nocommit() {
    printf 'unknown (the script is not in a git tree: %s, reproduce.sh sha256 %s)' \
        "$(rft --version 2>/dev/null | head -n 1 || printf 'rft --version failed')" "$(sha256sum < "$here/reproduce.sh" | cut -c 1-16)"
}
# the folders and files of traces: each by its name, with its traces
over() {
    sep=""
    for a in "$@"; do
        ab=$a
        [ ! -d "$a" ] || ab=$(cd -- "$a" && pwd)
        n=$(awk -F '\t' -v a="$ab" '{ p = $2; if (p == a || index(p, a "/") == 1) n++ } END { print n + 0 }' "$out/batch/undervolt/traces.tsv")
        if [ -d "$a" ]; then
            printf '%sfolder `%s` (%s trace%s)' "$sep" "$(basename -- "$a")" "$n" "$([ "$n" = 1 ] || printf s)"
        else
            printf '%sfile `%s`' "$sep" "$(basename -- "$a")"
        fi
        sep=', '
    done
}
# the rows by what their reason is
counts() {
    awk -F '\t' 'NR > 1 { if ($11 ~ /^agrees/) a++; else if ($11 ~ /^by construction/) b++; else if ($11 ~ /^bound met/) m++
                            else if ($11 ~ /^not computed/) c++; else if ($11 ~ /^differs: unexplained/) u++
                            else if ($11 ~ /^the paper states no number/) x++; else r++ }
        END { printf "Rows: %d; %d agree with the paper (measured, within 10%%), %d by construction, %d bounds met, %d differ for a reason that holds, %d differ unexplained, %d not computed, %d with no number in the paper.\n",
                     NR - 1, a, b, m, r, u, c, x }' "$out/values.tsv"
}
{
    printf '# Reproduction of the four seeds over %s traces\n' "$(printf '%s\n' $labels | grep -c .)"
    echo
    printf 'Made by `examples/reproduce.sh` (%s) of commit %s, the programs of %s,\n' \
        "$(date -u +%Y-%m-%d)" "${commit:-$(nocommit)}" "$programs"
    printf 'over: %s.\n' "$(over "$@")"
    printf 'Each row: the paper'"'"'s value (from `%s`: never computed), the suite'"'"'s\n' "$(basename -- "$values")"
    echo "(the mean over the traces unless the row names one), and why they differ. A row the"
    printf 'traces cannot give says so. Aging runs: %s; the studies'"'"' folders are in `batch/`,\n' "$runs"
    echo "the per-trace tables in \`traces/\`, every value per trace in \`facts.tsv\`."
    [ -z "$batch_failed" ] || printf '\n**Studies that failed on a trace:%s** (see `batch/*/traces/*/log`).\n' "$batch_failed"
    echo
    printf 'Traces: %s.\n' "$(printf '%s\n' $labels | paste -s -d ',' - | sed 's/,/, /g')"
    echo
    printf 'The paper'"'"'s kernels, found in the traces by their label or the kernel names of their streams (`kernels.tsv`): %s.\n' \
        "$(awk -F '\t' 'NR > 1 { printf "%s%s: %s", (NR > 2 ? "; " : ""), $1, $2 == "-" ? "none" : $2 ($3 == "its label" ? "" : " (" $3 ")") }' "$out/kernels.tsv")"
    echo
    counts
    awk -F '\t' '
        function md(s) { gsub(/\|/, "\\|", s); return s }
        NR == 1 { next }
        { seed = $2
          if (seed != last) {
              printf "\n## Seed %s\n\n| figure | quantity | where | paper | suite | reason |\n|---|---|---|---|---|---|\n", seed
              last = seed }
          q = $4 ($8 == "mean" ? "" : $8 == "max" ? " [largest trace]" : $8 == "min" ? " [smallest trace]" : \
                  $8 ~ /^min!/ ? " [smallest trace but " substr($8, 5) "]" : " [" $8 "]")
          printf "| %s | %s | %s | %s %s | %s | %s |\n", md($3), md(q), md($7), md($5), md($6), ($10 == "" ? "-" : $10), md($11) }
        ' "$out/values.tsv"
    also_table
    echo
    echo "## Figures"
    echo
    for f in "$out"/figures/*.png; do
        [ -e "$f" ] || continue
        # (basename's: a name of the glob, never ending in /)
        b=${f##*/}
        printf '![%s](figures/%s)\n' "${b%.png}" "$b"
        echo
    done
    echo "## What the tables assumed"
    echo
    for s in aging undervolt healing; do
        [ -s "$out/batch/$s/table.tsv" ] || continue
        printf '%s (`batch/%s/table.tsv`):\n' "$s" "$s"
        echo
        notes "$out/batch/$s/table.tsv"
        echo
    done
} > "$out/REPORT.md.part"
mv "$out/REPORT.md.part" "$out/REPORT.md"
rm -f "$tmp"/*
printf '%s\n' "$out/REPORT.md"
