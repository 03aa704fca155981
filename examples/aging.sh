#!/bin/sh
# aging.sh - the register-file aging study of seed 002 section 6 on a trace:
# duty maps of the baseline, RC, RAR, RC+RAR, WC and ARGO, compared by
# rft-vth against the baseline (longest '0' and '1' duty, dVth, delay,
# lifetime).  Every step is an ordinary pipeline you can copy:
#
#   baseline  rft-decode TRACE | rft-alloc --scheme first-fit | rft-duty
#   RC        ... | rft-alloc --scheme first-fit | rft-gate --scheme rc | rft-duty
#   RAR       ... | rft-alloc --scheme rar | rft-duty
#   RC+RAR    ... | rft-alloc --scheme rar | rft-gate --scheme rc | rft-duty
#   WC        ... | rft-alloc --scheme first-fit | rft-gate --scheme wc | rft-duty
#   ARGO      ... | rft-alloc --scheme argo | rft-duty
#
# usage: aging.sh [-s stream|slice|busy] [-r N] [-k DIR] [-p DIR] TRACE [rft-vth options...]
#   TRACE   canonical text (plain or .zst, rft-decode(1)) or an rft stream
#   -s      the window of rft-duty(1) (default: its default, slice)
#   -r N    the kernel run N times in a row (rft-repeat(1)) before placing:
#           the seeds' lifetimes are of kernels run again and again
#   -k DIR  keep the duty maps in DIR (base.rft, rc.rft, ...)
#   -p DIR  draw the seed's figures as SVG in DIR (rft-plot(1)): duty.svg
#           (Figs. 12, 13, 16: average and longest duty per scheme),
#           longest0-by-reg.svg and longest1-by-reg.svg (Figs. 14-15, 17-18)
set -eu

span=""
keep=""
repeat=1
plots=""
usage="usage: aging.sh [-s stream|slice|busy] [-r N] [-k DIR] [-p DIR] TRACE [rft-vth options...]"
while getopts s:r:k:p: opt; do
    case $opt in
    s) span="--span $OPTARG" ;;
    r) repeat=$OPTARG ;;
    k) keep=$OPTARG ;;
    p) plots=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
    echo "$usage" >&2
    exit 2
fi
trace=$1
shift

tmp=${TMPDIR:-/tmp}/rft-aging.$$
keep_dir=$keep
. "$(dirname "$0")/stages.sh"   # stage, join; cleans up on exit and signals
mkdir -p "$tmp"
out=${keep:-$tmp}
mkdir -p "$out"

trace_stream "$trace" "$repeat"     # decoded once, repeated: src

# place the windows once per allocator and gate once per scheme; the duty
# maps and the energy below both use these streams
for a in first-fit rar argo; do
    stage rft-alloc --scheme "$a" -o "$tmp/p-$a.rft" "$src"
done
join || :
stage rft-gate --scheme rc -o "$tmp/g-rc.rft" "$tmp/p-first-fit.rft"
stage rft-gate --scheme rc -o "$tmp/g-rcrar.rft" "$tmp/p-rar.rft"
stage rft-gate --scheme wc -o "$tmp/g-wc.rft" "$tmp/p-first-fit.rft"
join || :
# $span is a word list on purpose
# shellcheck disable=SC2086
{
    stage rft-duty $span -o "$out/base.rft" "$tmp/p-first-fit.rft"
    stage rft-duty $span -o "$out/rc.rft" "$tmp/g-rc.rft"
    stage rft-duty $span -o "$out/rar.rft" "$tmp/p-rar.rft"
    stage rft-duty $span -o "$out/rcrar.rft" "$tmp/g-rcrar.rft"
    stage rft-duty $span -o "$out/wc.rft" "$tmp/g-wc.rft"
    stage rft-duty $span -o "$out/argo.rft" "$tmp/p-argo.rft"
    join || :
}
# a stage that failed left no map: say so rather than compare what is left
for m in base rc rar rcrar wc argo; do
    if [ ! -s "$out/$m.rft" ]; then
        echo "aging.sh: the $m map failed" >&2
        exit 1
    fi
done

runs=""
[ "$repeat" = 1 ] || runs=", run $repeat times"
echo "== $(basename "$trace")$runs: seed 002 section 6 (red% = reduction against the baseline, increase% = increase of a lifetime)"
# rft-vth OPTIONS... over the six maps, labelled by scheme
vth() {
    stage rft-vth "$@" base="$out/base.rft" rc="$out/rc.rft" rar="$out/rar.rft" \
        rcrar="$out/rcrar.rft" wc="$out/wc.rft" argo="$out/argo.rft"
    join
}
vth "$@"

if [ -n "$plots" ]; then
    mkdir -p "$plots"
    name="$(basename "$trace")$runs"
    vth --format tsv > "$tmp/vth.tsv"
    vth --by reg --format tsv > "$tmp/vth-reg.tsv"
    awk -F '\t' 'NR == 1 || ($1 == "all" && $2 ~ /^(avg_0|avg_1|avg_off|longest_0|longest_1)%$/)' \
        "$tmp/vth.tsv" |
        rft-plot -x metric -y base,rc,rar,rcrar,wc,argo --kind bar --ymin 0 --ymax 100 \
            --ylabel "% of the window" --title "$name: duty cycles (seed 002 Figs. 12, 13, 16)" \
            -o "$plots/duty.svg"
    for v in 0 1; do
        rft-plot -y "*_longest_$v%" --ymin 0 --ymax 100 --ylabel "longest '$v' duty (%)" \
            --title "$name: longest '$v' duty per register (seed 002 Figs. 14-15, 17-18)" \
            -o "$plots/longest$v-by-reg.svg" "$tmp/vth-reg.tsv"
    done
fi

# Energy of the same schemes (rft-energy(1), seed 002 6.6 and Fig. 21): the
# maps above hold duty cycles, not the trace, so rft-energy prices the placed
# and gated streams themselves.
echo
echo "== energy (seed 002 6.6, Fig. 21; saving% against a baseline that never switches a cell off)"
stage rft-energy base="$tmp/p-first-fit.rft" rc="$tmp/g-rc.rft" rar="$tmp/p-rar.rft" \
    rc+rar="$tmp/g-rcrar.rft" wc="$tmp/g-wc.rft" argo="$tmp/p-argo.rft"
join
