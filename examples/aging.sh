#!/bin/sh
# aging.sh - the register-file aging study of seed 002 section 6 on a trace:
# duty maps of the baseline, RC, RAR, RC+RAR, WC and ARGO, compared by
# rft-vth against the baseline (longest '0' and '1' duty, dVth, delay,
# lifetime), and their energy (rft-energy).  Every step is an ordinary
# pipeline you can copy:
#
#   baseline  rft-decode TRACE | rft-alloc --scheme first-fit --runs steady | rft-duty
#   RC        ... | rft-alloc --scheme first-fit | rft-gate --scheme rc | rft-duty
#   RAR       ... | rft-alloc --scheme rar | rft-duty
#   RC+RAR    ... | rft-alloc --scheme rar | rft-gate --scheme rc | rft-duty
#   WC        ... | rft-alloc --scheme first-fit | rft-gate --scheme wc | rft-duty
#   ARGO      ... | rft-alloc --scheme argo | rft-duty
#
# They run in one process per allocator (rft run, rft(1)): records pass from
# stage to stage in memory, an allocator's placement feeds all its schemes,
# and each scheme's stream is scanned for rft-energy on the way
# (rft-energy --scan) instead of being written and read again.
#
# (--runs steady on every rft-alloc unless -r says otherwise.)
#
# usage: aging.sh [-r once|N|steady] [-j N] [-k DIR] [-p DIR] [--span stream|slice|busy]
#                 [-f table|tsv|json] [--quiet] TRACE [rft-vth options...]
#   TRACE     canonical text (plain or .zst, rft-decode(1)) or an rft stream
#   --span    the window of rft-duty(1) (default: its default, slice); -s,
#             its old spelling, still works for this release with a warning
#   -r RUNS   the runs of the kernel the duty maps are of (default steady):
#             steady, run again and again without end (rft-alloc --runs
#             steady: the seeds' lifetimes are of kernels run again and again);
#             once; or N times in a row (rft-repeat(1) before placing)
#   -j N      at most N processes at once (default: the processors, at most 3)
#   -k DIR    keep the duty maps in DIR (base.rft, rc.rft, ...)
#   -p DIR    draw the seed's figures as SVG in DIR (rft-plot(1), each with its
#             gnuplot script and data: duty.gp, duty.data.tsv): duty.svg (Figs.
#             12, 13, 16: a stacked bar per scheme, the time at '0', '1' and
#             off of the average cell and of the cells with the longest '0'
#             and '1'), longest0-by-reg.svg and longest1-by-reg.svg (Figs.
#             14-15, 17-18: a panel per scheme over the registers)
#   -f, --format table (default: titled tables for people); tsv (the tables
#             alone, a blank line between them); json (one object per
#             table row, "table": "vth" or "energy" and "runs" first)
#   --quiet   no progress on standard error (shown only on a terminal)
# -f (--format) and --quiet are the script's wherever they are; the other words
# after TRACE go to rft-vth.  The schemes are labelled base, rc, rar, rcrar,
# wc and argo in every table.
set -eu

usage="usage: aging.sh [-r once|N|steady] [-j N] [-k DIR] [-p DIR] [--span stream|slice|busy] [-f table|tsv|json] [--quiet] TRACE [rft-vth options...]"
help="  -r, --repeat RUNS     The runs of the kernel the duty maps are of: steady (default: rft-alloc --runs steady), once, or N times in a row (rft-repeat)
  -k, --keep DIR        Keep the duty maps in DIR (base.rft, rc.rft, rar.rft, rcrar.rft, wc.rft, argo.rft)
  -p, --plots DIR       Draw the seed's figures as SVG in DIR, each with its gnuplot script and data (rft-plot)
      --span W          The window of rft-duty: stream, slice (its default) or busy"
deprecated="-s	--span	--span"
. "$(dirname "$0")/stages.sh"   # stage, join, options; cleans up on exit and signals

span=""
while [ $# -gt 0 ]; do
    case $1 in
    --span | -s)
        [ "$1" = --span ] || old_option -s --span
        need_arg "$@"; check_choice "$1" "$2" "stream slice busy"; span="--span $2"; shift 2 ;;
    --span=*) check_choice --span "${1#*=}" "stream slice busy"; span="--span ${1#*=}"; shift ;;
    --) shift; break ;;
    *) script_option "$@" || break; shift "$shifted" ;;
    esac
done
take_trace "$@"
set_runs "$runs"
vth_args=$passed   # the words after TRACE but the script's own: rft-vth's
eval "rft-vth $vth_args --show-params" > /dev/null || exit 2     # checked before any work

# a folder of our own: a name nobody can plant before us (issue 31)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-aging.XXXXXX")
keep_dir=$keep
out=${keep:-$tmp}
mkdir -p "$out"

progress "decoding $trace"
trace_stream "$trace" "$repeat"     # decoded once, repeated: src

# The pipelines of allocator $1 for gating schemes $2... ("-": none): a
# duty map and an energy scan each, as quoted words for rft run.
pipelines() {
    a=$1
    shift
    for g in "$@"; do
        case $a/$g in
        first-fit/-) s=base ;; first-fit/*) s=$g ;; rar/-) s=rar ;; rar/rc) s=rcrar ;; argo/-) s=argo ;;
        esac
        p="alloc --scheme $a $runs_opt $(q "$src")"
        [ "$g" = - ] || p="$p | gate --scheme $g"
        printf ' %s %s' "$(q "$p | duty $span -o $(q "$out/$s.rft")")" \
            "$(q "$p | energy --scan -o $(q "$tmp/$s.scan")")"
    done
}
# The six schemes; 0 if every one made its map and scan.  Messages go to
# $tmp/err.
place() {
    # processes: by allocator, the first-fit one (three schemes) alone unless -j 1
    ff=$(pipelines first-fit - rc wc)
    rar=$(pipelines rar - rc)
    argo=$(pipelines argo -)
    progress "placing, gating and scanning the six schemes"
    : > "$tmp/err"
    # one progress line: the first process's
    case $jobs in
    1) eval "stage rft run $quiet $ff $rar $argo 2>>\"\$tmp/err\"" ;;
    2) eval "stage rft run $quiet $ff 2>>\"\$tmp/err\""; eval "stage rft run --quiet $rar $argo 2>>\"\$tmp/err\"" ;;
    *) eval "stage rft run $quiet $ff 2>>\"\$tmp/err\""; eval "stage rft run --quiet $rar 2>>\"\$tmp/err\""
       eval "stage rft run --quiet $argo 2>>\"\$tmp/err\"" ;;
    esac
    join || :
    failed=""
    for m in base rc rar rcrar wc argo; do
        [ -s "$out/$m.rft" ] && [ -s "$tmp/$m.scan" ] || failed="$failed $m"
    done
    [ -z "$failed" ]
}
if ! place && [ "$runs" = steady ] && grep -q 'steady state: RAR windows' "$tmp/err"; then
    # RAR's rotation is not one permutation of the slice per run (windows of
    # several sizes at a position, rft-duty(1)): the kernels run 10 times
    set_runs 10
    runs_note="run 10 times: no steady state of RAR's rotation with windows of several sizes at a position"
    trace_stream "$trace" "$repeat"
    place || :
fi
cat "$tmp/err" >&2
# a stage that failed left no map: say so rather than compare what is left
for m in $failed; do
    echo "aging.sh: the $m scheme failed" >&2
    exit 1
done
progress ""

runs=" ($runs_note)"
maps="base=$(q "$out/base.rft") rc=$(q "$out/rc.rft") rar=$(q "$out/rar.rft") rcrar=$(q "$out/rcrar.rft") wc=$(q "$out/wc.rft") argo=$(q "$out/argo.rft")"
# rft-vth OPTIONS... over the six maps, labelled by scheme
vth() {
    eval "stage rft-vth $vth_args $* $maps"
    join
}
# a table of the study: its title for people, its name in JSON rows
table() {
    case $format in
    table) printf '%s\n' "$2"; "$3" ;;
    tsv) "$3" --format tsv ;;
    json) "$3" --format json | sed "s/^{/{\"table\": \"$1\", \"runs\": \"$runs_note\", /" ;;
    esac
}
table vth "== $(basename "$trace")$runs: seed 002 section 6 (red% = reduction against the baseline, increase% = increase of a lifetime)" vth

if [ -n "$plots" ]; then
    progress "drawing"
    mkdir -p "$plots"
    name="$(basename "$trace")$runs"
    vth --format tsv > "$tmp/vth.tsv"
    vth --by reg --format tsv > "$tmp/vth-reg.tsv"
    # Figs. 12, 13, 16: a stacked bar per scheme of the time at '0', at '1'
    # and off of the slice's average cell, of the cell with the longest '0'
    # and of the cell with the longest '1', a cluster each
    awk -F '\t' -v q="'" '
        function row(cell, a, b, c,   j) {
            for (j = 1; j <= n; j++)
                printf "%s\t%s\t%s\t%s\t%s\n", cell, scheme[j], v[a, j], v[b, j], v[c, j]
        }
        /^#/ { print; next }    # the notes, for the caption of the figure
        !h++ { for (i = 3; i <= NF; i++) if ($i !~ /%$/) col[++n] = i
                  for (j = 1; j <= n; j++) scheme[j] = $col[j]
                  next }
        $1 == "all" { for (j = 1; j <= n; j++) v[$2, j] = $col[j] }
        END { printf "cell\tscheme\tat %s0%s (%%)\tat %s1%s (%%)\toff (%%)\n", q, q, q, q
              row("slice average", "avg_0%", "avg_1%", "avg_off%")
              row("cell of the longest " q "0" q, "longest_0%", "longest_0_cell_1%", "longest_0_cell_off%")
              row("cell of the longest " q "1" q, "longest_1_cell_0%", "longest_1%", "longest_1_cell_off%") }' \
        "$tmp/vth.tsv" |
        rft-plot --kind stack --group cell -x scheme --ymin 0 --ymax 100 \
            --ylabel "% of the window" --xlabel "" \
            --title "$name: time at '0', at '1' and off (seed 002 Figs. 12, 13, 16)" \
            -o "$plots/duty.svg"
    # Figs. 14-15, 17-18: a panel per scheme over the registers
    for v in 0 1; do
        rft-plot -y "*_longest_$v%" --panels --ymin 0 --ymax 100 --ylabel "longest '$v' duty (%)" \
            --title "$name: longest '$v' duty per register (seed 002 Figs. 14-15, 17-18)" \
            -o "$plots/longest$v-by-reg.svg" "$tmp/vth-reg.tsv"
    done
    progress ""
fi

# Energy of the same schemes (rft-energy(1), seed 002 6.6 and Fig. 21), from
# the scans of the placed and gated streams.
energy() {
    stage rft-energy "$@" base="$tmp/base.scan" rc="$tmp/rc.scan" rar="$tmp/rar.scan" \
        rcrar="$tmp/rcrar.scan" wc="$tmp/wc.scan" argo="$tmp/argo.scan"
    join
}
if energy_fits "$src" "rft-energy --model gating"; then
    [ "$format" = json ] || echo
    table energy "== energy (seed 002 6.6, Fig. 21; saving% against a baseline that never switches a cell off)" energy
elif [ "$format" = table ]; then
    printf '\n%s\n' "$energy_note"
else
    echo "$script: $energy_note" >&2
fi
