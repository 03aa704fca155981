#!/bin/sh
# model-slowdowns.sh - the seeds' run-time costs under the compute-unit
# model (rft-replay --model cu, issue 32) for one trace: a TSV row for the
# model at the trace's own configuration (its baseline error against the
# traced cycles, the test of whether the model holds on this trace) and one
# for each scheme, the stream the studies make for it re-timed:
#
#   dcpatch-S   rft-faultmap --scenario S --seed 1 | rft-dcpatch   (S: common,
#               clustered, dispersed; seed 001 Fig. 7, rft-batch's undervolt study)
#   rc, rcrar, wc, argo
#               rft-alloc --scheme first-fit|rar|argo --runs RUNS [| rft-gate
#               --scheme rc|wc]   (seed 002 Fig. 20, aging.sh's pipelines)
#   sc1, sc4, sc8
#               rft-replay --degraded-scs 1|4|8 on the trace (seed 003 Fig. 16)
#
# Each row: the model's cycles at the configuration, with the scheme's
# events (rft-replay's cycles_scheme: wake-ups, MOVs, mispredictions, LDS
# loads, stages, redundant wavefronts), and the slowdown between them.
# ARGO adds no event: its slowdown is 0 by construction, as the shift
# replay's.  Nothing is dropped for a baseline out of bounds: the caller
# (reproduce.sh --m2s-config) decides which traces the model holds on.
#
# usage: model-slowdowns.sh --m2s-config FILE [-r once|steady] [-o OUT] TRACE
#   TRACE          an rft stream (rft-decode first)
#   --m2s-config   the Multi2Sim --si-config ini the trace was taken with
#   -r, --repeat   the allocators' runs, steady (default, as the aging study) or once
#   -o, --output   the TSV (default: standard output)
set -u
script=model-slowdowns.sh
usage="usage: $script --m2s-config FILE [-r once|steady] [-o OUT] TRACE"
help="  TRACE                 An rft stream (a text trace is decoded first: rft-decode)
      --m2s-config FILE  The Multi2Sim --si-config ini the trace was taken with (rft-replay --model cu)
  -r, --repeat RUNS     The allocators' runs: steady (default) or once (rft-alloc --runs)
  -o, --output OUT      The TSV (default: standard output)
  -h, --help            Print this help and exit"
here=$(cd "$(dirname "$0")" && pwd)
tmp=""
. "$here/stages.sh"     # usage_error, need_arg, check_runs, set_runs

cfg=""
outf=-
runs=steady
while [ $# -gt 0 ]; do
    case $1 in
    --m2s-config) need_arg "$@"; cfg=$2; shift 2 ;;
    --m2s-config=*) cfg=${1#*=}; shift ;;
    -r | --repeat) need_arg "$@"; check_choice "$1" "$2" "once steady"; runs=$2; shift 2 ;;
    --repeat=*) check_choice --repeat "${1#*=}" "once steady"; runs=${1#*=}; shift ;;
    -o | --output) need_arg "$@"; outf=$2; shift 2 ;;
    --output=*) outf=${1#*=}; shift ;;
    -h | --help) printf '%s\n\n%s\n' "$usage" "$help"; exit 0 ;;
    --) shift; break ;;
    -?*) usage_error "unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || usage_error "one trace"
[ -n "$cfg" ] || usage_error "no --m2s-config"
trace=$1
set_runs "$runs"
tmp=$(mktemp -d) || exit 1

# the total row of rft-replay --model cu's TSV on standard input, as
# "cycles_traced cycles_model baseline_error_pct cycles_scheme slowdown_pct"
# (a run without scheme events: its scheme cycles are the model's)
total() {
    awk -F '\t' '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1
             if (!("cycles_model" in c) || !("baseline_error_pct" in c)) exit 1; next }
        $1 == "total" { s = "cycles_scheme" in c ? $c["cycles_scheme"] : $c["cycles_model"]
                        p = "slowdown_scheme_pct" in c ? $c["slowdown_scheme_pct"] : "0.00"
                        print $c["cycles_traced"] "\t" $c["cycles_model"] "\t" $c["baseline_error_pct"] "\t" s "\t" p; ok = 1 }
        END { exit !ok }'
}
fail() { printf '%s: %s: %s\n' "$script" "$trace" "$1" >&2; exit 1; }
model() { rft-replay --quiet --format tsv --model cu --m2s-config "$cfg" "$@"; }

printf 'scheme\tcycles_traced\tcycles_model\tbaseline_error_pct\tcycles_scheme\tslowdown_pct\n' > "$tmp/out"
row() {     # NAME: the pipeline's table on $tmp/t.tsv
    r=$(total < "$tmp/t.tsv") || fail "$1: rft-replay --model cu gave no total row"
    printf '%s\t%s\n' "$1" "$r" >> "$tmp/out"
}

model --no-scheme "$trace" > "$tmp/t.tsv" 2> "$tmp/err" || fail "$(head -n 1 "$tmp/err")"
row baseline
for s in common clustered dispersed; do
    { rft-faultmap --scenario "$s" --seed 1 "$trace" | rft-dcpatch | model; } > "$tmp/t.tsv" 2> "$tmp/err" ||
        fail "dcpatch-$s: $(head -n 1 "$tmp/err")"
    row "dcpatch-$s"
done
# shellcheck disable=SC2086   # runs_opt: rft-alloc's --runs words
for p in "rc first-fit rc" "rcrar rar rc" "wc first-fit wc" "argo argo -"; do
    set -- $p
    if [ "$3" = - ]; then
        { rft-alloc --scheme "$2" $runs_opt "$trace" | model; } > "$tmp/t.tsv" 2> "$tmp/err"
    else
        { rft-alloc --scheme "$2" $runs_opt "$trace" | rft-gate --scheme "$3" | model; } > "$tmp/t.tsv" 2> "$tmp/err"
    fi || fail "$1: $(head -n 1 "$tmp/err")"
    row "$1"
done
for n in 1 4 8; do
    model --degraded-scs "$n" "$trace" > "$tmp/t.tsv" 2> "$tmp/err" || fail "sc$n: $(head -n 1 "$tmp/err")"
    row "sc$n"
done
if [ "$outf" = - ]; then cat "$tmp/out"; else cp "$tmp/out" "$outf"; fi
