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
# usage: undervolt.sh [-S SEED] [-k DIR] TRACE [rft-energy options...]
#   TRACE   canonical text (plain or .zst, rft-decode(1)) or an rft stream
#   -S      seed of the fault maps (default 1)
#   -k DIR  keep the DC-Patch streams in DIR (common.rft, clustered.rft, ...)
set -eu

usage="usage: undervolt.sh [-S SEED] [-k DIR] TRACE [rft-energy options...]"
seed=1
keep=""
while getopts S:k: opt; do
    case $opt in
    S) seed=$OPTARG ;;
    k) keep=$OPTARG ;;
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

tmp=${TMPDIR:-/tmp}/rft-undervolt.$$
keep_dir=$keep
. "$(dirname "$0")/stages.sh"   # stage, join; cleans up on exit and signals
mkdir -p "$tmp"
out=${keep:-$tmp}
mkdir -p "$out"

# decode once (an rft stream, whose header rft-view reads, is used as it is)
if rft-view -H "$trace" >/dev/null 2>&1; then
    src=$trace
else
    stage rft-decode -o "$tmp/trace.rft" "$trace"
    join
    src=$tmp/trace.rft
fi

# the three scenarios in parallel; the summary of each beside its stream
scenarios="common clustered dispersed"
for s in $scenarios; do
    rft-faultmap --scenario "$s" --seed "$seed" "$src" |
        rft-dcpatch --summary="$tmp/$s.tsv" --format tsv -o "$out/$s.rft" &
    pids="$pids $!"     # rft-dcpatch; stopped, it stops rft-faultmap (SIGPIPE)
done
join || :
for s in $scenarios; do
    if [ ! -s "$out/$s.rft" ] || [ ! -s "$tmp/$s.tsv" ]; then
        echo "undervolt.sh: DC-Patch under $s failed" >&2
        exit 1
    fi
done

echo "== $(basename "$trace"): DC-Patch writes (seed 001 Fig. 5, 6; V-A2), fault map seed $seed"
{
    printf 'scenario\t'
    head -n 1 "$tmp/common.tsv" | cut -f2-
    for s in $scenarios; do
        printf '%s\t' "$s"
        awk -F '\t' '$1 == "total"' "$tmp/$s.tsv" | cut -f2-
    done
} | awk -F '\t' '   # align the columns
    { for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
      if (NF > n) n = NF }
    END { for (r = 1; r <= NR; r++) { l = ""
            for (i = 1; i < n; i++) l = l sprintf("%-" w[i] "s  ", c[r, i])
            print l c[r, n] } }' 
# the same row three times is no mistake: say why
if [ "$(for s in $scenarios; do awk -F '\t' '$1 == "total"' "$tmp/$s.tsv" | cut -f2-; done |
        sort -u | wc -l)" = 1 ]; then
    echo "note: the three scenarios place every write alike: DC-Patch puts a compressed register in a block of a faulty entry, an uncompressed one in a reliable entry, and where every fault map has room for both, where a write goes depends only on whether it compresses; the scenarios differ in their voltage: see the energy below"
fi

echo
echo "== energy against Conv and Smooth (seed 001 Fig. 8, V-B; slowdown: Fig. 7)"
stage rft-energy "$@" "$out/common.rft" "$out/clustered.rft" "$out/dispersed.rft"
join
