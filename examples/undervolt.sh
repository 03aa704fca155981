#!/bin/sh
# undervolt.sh - the undervolting study of seed 001 (DC-Patch) on a trace:
# DC-Patch under the common, clustered and dispersed fault scenarios, where
# its writes go (Fig. 5), its mispredictions (Fig. 6) and spills (V-A2),
# then its energy against Conv (nominal Vdd) and Smooth (600 mV), split as
# Fig. 8, with the cycles it adds.  When the three scenarios place every
# write alike (the registers fit every fault map), a note says so and why.
# Every step is an ordinary pipeline you can copy:
#
#   rft-decode TRACE -o t.rft
#   rft-faultmap --scenario common --seed 1 t.rft | rft-dcpatch -o common.rft
#   (the same for clustered and dispersed)
#   rft-energy common.rft clustered.rft dispersed.rft
#
# They run as rft run pipelines (rft(1)): the fault-mapped stream goes to
# DC-Patch in memory, never through a file or a compressor.
#
# usage: undervolt.sh [-S SEED] [-r once|N] [-j N] [-k DIR] [-p DIR] [--counts]
#                     [-f table|tsv|json] [--quiet] TRACE [rft-energy options...]
#   TRACE     canonical text (plain or .zst, rft-decode(1)) or an rft stream
#   -S, --seed SEED  seed of the fault maps (default 1)
#   -r RUNS   the kernel run once (default) or N times in a row (rft-repeat(1)
#             before the fault map: DC-Patch's predictor carries over from one
#             run to the next); DC-Patch keeps no duty: no steady state
#   -j N      at most N processes at once (default: the processors, at most 3)
#   -k DIR    keep the DC-Patch streams in DIR (common.rft, clustered.rft, ...)
#   -p DIR    draw the seed's figures as SVG in DIR (rft-plot(1), each with its
#             gnuplot script and data): fig5.svg (where DC-Patch's writes go,
#             per scenario), fig8.svg (energy by component against Conv and
#             Smooth; when the energy is priced)
#   --counts  the writes table in writes (rft-dcpatch --counts) instead of
#             percentages; the energy table has no counts (rft-energy(1))
#   -f, --format table (default: titled tables for people); tsv (the tables
#             alone, a blank line between them); json (one object per
#             table row, "table": "writes" or "energy" first)
#   --quiet   no progress on standard error (shown only on a terminal)
# --counts, -f (--format) and --quiet are the script's wherever they are; the
# other words after TRACE go to rft-energy.
set -eu

usage="usage: undervolt.sh [-S SEED] [-r once|N] [-j N] [-k DIR] [-p DIR] [--counts] [-f table|tsv|json] [--quiet] TRACE [rft-energy options...]"
help="  -S, --seed SEED       Seed of the fault maps (default 1)
  -r, --repeat RUNS     The kernel run once (default) or N times in a row (rft-repeat); DC-Patch keeps no duty: no steady state
  -k, --keep DIR        Keep the DC-Patch streams in DIR (common.rft, clustered.rft, dispersed.rft)
  -p, --plots DIR       Draw the seed's figures as SVG in DIR, each with its gnuplot script and data (rft-plot): fig5.svg, fig8.svg
      --counts          The writes table in writes instead of percentages"
. "$(dirname "$0")/stages.sh"   # stage, join, options; cleans up on exit and signals
seed=1
runs=once
counts=""
own_word() { [ "$1" = --counts ] && counts=--counts; }   # after TRACE too
while [ $# -gt 0 ]; do
    case $1 in
    -S | --seed | --seed=*)
        case $1 in --seed=*) _a=${1#*=}; shift; set -- --seed "$_a" "$@" ;; esac
        need_arg "$@"; case $2 in '' | *[!0-9]*) usage_error "$1: '$2' is not a seed (a whole number)" ;; esac
        seed=$2; shift 2 ;;
    --counts) counts=--counts; shift ;;
    --) shift; break ;;
    *) script_option "$@" || break; shift "$shifted" ;;
    esac
done
take_trace "$@"
[ "$runs" != steady ] || usage_error "-r steady: DC-Patch keeps no duty, it has no steady state (give once or N)"
set_runs "$runs"
name=$(basename "$trace")
[ "$repeat" = 1 ] || name="$name ($runs_note)"
energy_args=$passed   # the words after TRACE but the script's own: rft-energy's
# checked before any work (the file rft-energy would pick for DC-Patch's streams)
case $energy_args in *--params*) pf="" ;; *) pf="--model undervolt" ;; esac
eval "rft-energy $pf $energy_args --show-params" > /dev/null || exit 2

# a folder of our own: a name nobody can plant before us (issue 31)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-undervolt.XXXXXX")
keep_dir=$keep
out=${keep:-$tmp}
mkdir -p "$out"

progress "decoding $trace"
trace_stream "$trace" "$repeat" # decoded once, repeated: src

# one pipeline per scenario, dealt to at most $jobs processes
scenarios="common clustered dispersed"
progress "fault maps and DC-Patch under $scenarios"
g1="" g2="" g3="" i=0
for s in $scenarios; do
    p=$(q "faultmap --scenario $s --seed $seed $(q "$src") | dcpatch --summary=$(q "$tmp/$s.tsv") --format tsv $counts -o $(q "$out/$s.rft")")
    case $((i % jobs)) in 0) g1="$g1 $p" ;; 1) g2="$g2 $p" ;; *) g3="$g3 $p" ;; esac
    i=$((i + 1))
done
first=$quiet
for g in "$g1" "$g2" "$g3"; do
    [ -n "$g" ] || continue
    eval "stage rft run $first $g"
    first=--quiet               # one progress line: the first process's
done
join || :
progress ""
for s in $scenarios; do
    if [ ! -s "$out/$s.rft" ] || [ ! -s "$tmp/$s.tsv" ]; then
        echo "undervolt.sh: DC-Patch under $s failed" >&2
        exit 1
    fi
done

# the total row of each scenario, as TSV
writes() {
    grep '^#' "$tmp/common.tsv"     # its notes (rft(1), "NOTES ON EVERY TABLE")
    printf 'scenario\t'
    grep -v '^#' "$tmp/common.tsv" | head -n 1 | cut -f2-
    for s in $scenarios; do
        printf '%s\t' "$s"
        awk -F '\t' '$1 == "total"' "$tmp/$s.tsv" | cut -f2-
    done
}
energy() {
    eval "stage rft-energy $energy_args $* $(q "$out/common.rft") $(q "$out/clustered.rft") $(q "$out/dispersed.rft")"
    join
}
priced=1
energy_fits "$out/common.rft" "rft-energy $energy_args" || priced=""
[ -n "$priced" ] || [ "$format" = table ] || echo "$script: $energy_note" >&2
case $format in
table)
    echo "== $name: DC-Patch writes (seed 001 Fig. 5, 6; V-A2), fault map seed $seed"
    writes | align
    # the same row three times is no mistake: say why
    if [ "$(for s in $scenarios; do awk -F '\t' '$1 == "total"' "$tmp/$s.tsv" | cut -f2-; done |
            sort -u | wc -l)" = 1 ]; then
        echo "note: the three scenarios place every write alike: DC-Patch puts a compressed register in a block of a faulty entry, an uncompressed one in a reliable entry, and where every fault map has room for both, where a write goes depends only on whether it compresses; the scenarios differ in their voltage${priced:+: see the energy below}"
    fi
    echo
    if [ -z "$priced" ]; then
        echo "$energy_note"
    else
        echo "== energy against Conv and Smooth (seed 001 Fig. 8, V-B; slowdown: Fig. 7)"
        energy
    fi
    ;;
tsv)
    writes
    [ -z "$priced" ] || { echo; energy --format tsv; }
    ;;
json)
    writes | tsv_json writes
    [ -z "$priced" ] || energy --format json | sed 's/^{/{"table": "energy", /'
    ;;
esac

if [ -n "$plots" ]; then
    progress "drawing"
    mkdir -p "$plots"
    writes | rft-plot -x scenario -y 'normal%,patch_faulty%,patch_reliable%,lds%' --kind bar \
        --ymin 0 --ymax 100 --ylabel "% of the writes" \
        --title "$name: where DC-Patch's writes go (seed 001 Fig. 5)" -o "$plots/fig5.svg"
    drawn="$plots/fig5.svg"
    if [ -n "$priced" ]; then
        energy --format tsv | rft-plot -x scheme -y static,read,write,comdec,patching,lds --kind bar \
            --ymin 0 --ylabel "% of Conv's energy" \
            --title "$name: register-file energy by component (seed 001 Fig. 8)" -o "$plots/fig8.svg"
        drawn="$drawn $plots/fig8.svg"
    fi
    progress ""
    [ "$format" != table ] || printf '\nfigures: %s\n' "$drawn"
fi
