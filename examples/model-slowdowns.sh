#!/bin/sh
# model-slowdowns.sh - the seeds' run-time costs under the compute-unit
# model (rft-replay --model cu, issue 32) for one trace: a TSV row for the
# model at the trace's own configuration, unscaled (--calibrate none: its
# baseline error against the traced cycles, the test of whether the model
# holds on this trace; calibrated, the model comes within 1 % of most
# traces, those it fits and those it was fitted to alike) and one
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
# The eleven pipelines run in one rft run (rft(1)): the trace is read once,
# and RC and WC share their first-fit placement.
#
# usage: model-slowdowns.sh --m2s-config FILE [-r once|N|steady] [-o OUT] TRACE
#   TRACE          a trace: an rft stream, or text rft-decode reads (decoded once)
#   --m2s-config   the Multi2Sim --si-config ini the trace was taken with
#   -r, --repeat   the kernel's runs, as the studies' -r (stages.sh: set_runs):
#                  steady (default, rft-alloc --runs steady, as the aging
#                  study), once, or N times in a row (rft-repeat, every row)
#   -o, --output   the TSV (default: standard output)
set -eu
usage="usage: model-slowdowns.sh --m2s-config FILE [-r once|N|steady] [-o OUT] TRACE"
help="  TRACE                 A trace: an rft stream, or text rft-decode reads (decoded once)
      --m2s-config FILE  The Multi2Sim --si-config ini the trace was taken with (rft-replay --model cu)
  -r, --repeat RUNS     The kernel's runs: steady (default: rft-alloc --runs steady, as the aging study), once, or N times in a row (rft-repeat, every row)
  -o, --output OUT      The TSV (default: standard output)
  -h, --help            Print this help and exit"
here=$(cd "$(dirname "$0")" && pwd)
tmp=""
. "$here/stages.sh"     # usage_error, need_arg, check_runs, set_runs, trace_stream, q

cfg=""
outf=-
while [ $# -gt 0 ]; do
    case $1 in
    --m2s-config) need_arg "$@"; cfg=$2; shift 2 ;;
    --m2s-config=*) cfg=${1#*=}; shift ;;
    -r | --repeat) need_arg "$@"; check_runs "$1" "$2"; runs=$2; shift 2 ;;
    --repeat=*) check_runs --repeat "${1#*=}"; runs=${1#*=}; shift ;;
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
fail() { printf '%s: %s: %s\n' "$script" "$trace" "$1" >&2; exit 1; }
[ -r "$cfg" ] || { printf '%s: %s: cannot be read\n' "$script" "$cfg" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
set_runs "$runs"
trace_stream "$trace" "$repeat"    # src; rft-decode or rft-repeat says what failed
t=$(q "$src")
table() { echo "$1" >> "$tmp/names"; q "$tmp/$1.tsv"; }  # a pipeline's table, its name kept in order
model="replay --quiet --format tsv --model cu --m2s-config $(q "$cfg")"

# the eleven pipelines, each writing its table to $tmp/NAME.tsv
set -- "$model --no-scheme --calibrate none -s $(table baseline) $t"
for s in common clustered dispersed; do
    set -- "$@" "faultmap --scenario $s --seed 1 $t | dcpatch | $model -s $(table dcpatch-$s)"
done
# shellcheck disable=SC2086   # runs_opt: rft-alloc's --runs words
set -- "$@" "alloc --scheme first-fit $runs_opt $t | gate --scheme rc | $model -s $(table rc)" \
    "alloc --scheme rar $runs_opt $t | gate --scheme rc | $model -s $(table rcrar)" \
    "alloc --scheme first-fit $runs_opt $t | gate --scheme wc | $model -s $(table wc)" \
    "alloc --scheme argo $runs_opt $t | $model -s $(table argo)"
for n in 1 4 8; do
    set -- "$@" "$model --degraded-scs $n -s $(table sc$n) $t"
done
rft run --quiet "$@" 2> "$tmp/err" || fail "$(head -n 1 "$tmp/err")"

# the total row of a table of rft-replay --model cu, as "cycles_traced
# cycles_model baseline_error_pct cycles_scheme slowdown_pct" (a run without
# scheme events: its scheme cycles are the model's)
total() {
    awk -F '\t' '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1
             if (!("cycles_model" in c) || !("baseline_error_pct" in c)) exit 1; next }
        $1 == "total" { s = "cycles_scheme" in c ? $c["cycles_scheme"] : $c["cycles_model"]
                        p = "slowdown_scheme_pct" in c ? $c["slowdown_scheme_pct"] : "0.00"
                        print $c["cycles_traced"] "\t" $c["cycles_model"] "\t" $c["baseline_error_pct"] "\t" s "\t" p; ok = 1 }
        END { exit !ok }' "$1"
}
printf 'scheme\tcycles_traced\tcycles_model\tbaseline_error_pct\tcycles_scheme\tslowdown_pct\n' > "$tmp/out"
while read -r r; do
    x=$(total "$tmp/$r.tsv") || fail "$r: rft-replay --model cu gave no total row"
    printf '%s\t%s\n' "$r" "$x" >> "$tmp/out"
done < "$tmp/names"
if [ "$outf" = - ]; then cat "$tmp/out"; else cp "$tmp/out" "$outf"; fi
