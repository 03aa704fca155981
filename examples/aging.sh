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
# usage: aging.sh [-s stream|slice|busy] [-k DIR] TRACE [rft-vth options...]
#   TRACE   canonical text (plain or .zst, rft-decode(1)) or an rft stream
#   -s      the window of rft-duty(1) (default: its default, slice)
#   -k DIR  keep the duty maps in DIR (base.rft, rc.rft, ...)
set -eu

span=""
keep=""
while getopts s:k: opt; do
    case $opt in
    s) span="--span $OPTARG" ;;
    k) keep=$OPTARG ;;
    *) echo "usage: aging.sh [-s stream|slice|busy] [-k DIR] TRACE [rft-vth options...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
    echo "usage: aging.sh [-s stream|slice|busy] [-k DIR] TRACE [rft-vth options...]" >&2
    exit 2
fi
trace=$1
shift

tmp=${TMPDIR:-/tmp}/rft-aging.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
out=${keep:-$tmp}
mkdir -p "$out"

# decode once (an rft stream is used as it is)
if [ "$(head -c 4 "$trace" | od -An -tx1 | tr -d ' ')" = 28b52ffd ] &&
    rft-view -H "$trace" >/dev/null 2>&1; then
    src=$trace
else
    rft-decode -o "$tmp/trace.rft" "$trace"
    src=$tmp/trace.rft
fi

# place the windows once per allocator, then the six maps, in parallel
for a in first-fit rar argo; do
    rft-alloc --scheme "$a" -o "$tmp/$a.rft" "$src" &
done
wait
# $span is a word list on purpose
# shellcheck disable=SC2086
{
    rft-duty $span -o "$out/base.rft" "$tmp/first-fit.rft" &
    rft-gate --scheme rc "$tmp/first-fit.rft" | rft-duty $span -o "$out/rc.rft" &
    rft-duty $span -o "$out/rar.rft" "$tmp/rar.rft" &
    rft-gate --scheme rc "$tmp/rar.rft" | rft-duty $span -o "$out/rcrar.rft" &
    rft-gate --scheme wc "$tmp/first-fit.rft" | rft-duty $span -o "$out/wc.rft" &
    rft-duty $span -o "$out/argo.rft" "$tmp/argo.rft" &
    wait
}
# a stage that failed left no map: say so rather than compare what is left
for m in base rc rar rcrar wc argo; do
    if [ ! -s "$out/$m.rft" ]; then
        echo "aging.sh: the $m map failed" >&2
        exit 1
    fi
done

echo "== $(basename "$trace"): seed 002 section 6 (red% = reduction against the baseline)"
rft-vth "$@" base="$out/base.rft" rc="$out/rc.rft" rar="$out/rar.rft" \
    rcrar="$out/rcrar.rft" wc="$out/wc.rft" argo="$out/argo.rft"

# Energy of the same schemes (rft-energy(1), seed 002 6.6 and Fig. 21).  The
# maps above hold duty cycles, not the trace: rft-energy prices the placed
# and gated streams themselves (placed again here: without -k the maps
# rar.rft and argo.rft replace the placements of those names in $tmp).
echo
echo "== energy (seed 002 6.6, Fig. 21; saving% against a baseline that never switches a cell off)"
for a in first-fit rar argo; do
    rft-alloc --scheme "$a" -o "$tmp/e-$a.rft" "$src" &
done
wait
rft-gate --scheme rc -o "$tmp/e-rc.rft" "$tmp/e-first-fit.rft" &
rft-gate --scheme rc -o "$tmp/e-rcrar.rft" "$tmp/e-rar.rft" &
rft-gate --scheme wc -o "$tmp/e-wc.rft" "$tmp/e-first-fit.rft" &
wait
rft-energy base="$tmp/e-first-fit.rft" rc="$tmp/e-rc.rft" rar="$tmp/e-rar.rft" \
    rc+rar="$tmp/e-rcrar.rft" wc="$tmp/e-wc.rft" argo="$tmp/e-argo.rft"
