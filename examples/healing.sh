#!/bin/sh
# healing.sh - the aging-aware compilation study of seed 003 on a trace: how
# unevenly the kernel stresses the PEs (VLIW slots) and SCs (stream cores),
# what PE healing and SC healing do to their Vth, and what SC healing costs.
# Every step is an ordinary command you can copy:
#
#   PE healing  rft-decode TRACE | rft-heal --scheme pe [--years 1]
#   SC healing  rft-decode TRACE | rft-heal --scheme sc --variation 10
#
# usage: healing.sh [-v MV] [-H HOURS] [-p DIR] TRACE
#   TRACE   canonical text (plain or .zst, rft-decode(1)), an Evergreen log
#           (rft-decode --input-format auto) or an rft stream
#   -v MV   initial dVth variation (seed 003 Figs. 7(b), 8: 10 mV; default 0)
#   -H H    the horizon in hours (default 360)
#   -p DIR  draw seed 003's figures as SVG in DIR (rft-plot(1), each with its gnuplot
#           script and data: fig4.gp, fig4.data.tsv): fig4.svg
#           (share of ALU instructions per PE), fig7.svg (dVth of the PEs
#           over time, naive and healed), fig9.svg (run-time overhead of SC
#           healing against the number of degraded SCs)
# PE healing needs VLIW bundle records (Evergreen): a GCN trace gets the SC
# study only.
set -eu

var=0
hours=360
plots=""
usage="usage: healing.sh [-v MV] [-H HOURS] [-p DIR] TRACE"
while getopts v:H:p: opt; do
    case $opt in
    v) var=$OPTARG ;;
    H) hours=$OPTARG ;;
    p) plots=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ]; then
    echo "$usage" >&2
    exit 2
fi
trace=$1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-healing.XXXXXX")
. "$(dirname "$0")/stages.sh"   # trace_stream; cleans up on exit and signals

trace_stream "$trace"               # decoded once: src
name=$(basename "$trace")
heal() { rft-heal --hours "$hours" --variation "$var" "$@" "$src"; }

# PE healing when the trace has bundles (counted per slice by rft-heal)
bundles=$(rft-heal --scheme sc --report slices --format tsv "$src" |
    awk -F '\t' 'NR > 1 { n += $2 } END { print n + 0 }')
if [ "${bundles:-0}" -gt 0 ]; then
    echo "== $name: PE healing (seed 003 section 5.2, Figs. 4 and 7)"
    heal --scheme pe
else
    echo "== $name: no VLIW bundles (a GCN trace): PE healing needs an Evergreen trace"
fi
echo
echo "== $name: SC healing (seed 003 section 5.3, Figs. 8, 9 and 16)"
heal --scheme sc

if [ -n "$plots" ]; then
    mkdir -p "$plots"
    made=""                         # the figures drawn, listed at the end
    if [ "${bundles:-0}" -gt 0 ]; then
        heal --scheme pe --report profile --format tsv | awk -F '\t' 'NR == 1 || $1 ~ /^PE_/' |
            rft-plot -x unit -y 'instr_share%' --kind bar --ymin 0 --ymax 100 \
                --ylabel "% of ALU instructions" --title "$name: instructions per PE (seed 003 Fig. 4)" \
                -o "$plots/fig4.svg"
        made="$made $plots/fig4.svg"
        # the long series (hours, unit, naive, healed) as a column per PE, naive, and
        # one for the healed PEs (the most aged of them: healing keeps them together)
        heal --scheme pe --report series --format tsv |
            awk -F '\t' 'NR > 1 && !($1 in seen) { seen[$1]; hrs[++n] = $1 }
                NR > 1 { v[$1, $2] = $3; if (!($1 in h) || $4 > h[$1]) h[$1] = $4
                         if (!($2 in u)) { u[$2]; us[++m] = $2 } }
                END { printf "hours"
                      for (j = 1; j <= m; j++) printf "\t%s naive", us[j]
                      print "\thealed (worst PE)"
                      for (i = 1; i <= n; i++) {
                          printf "%s", hrs[i]
                          for (j = 1; j <= m; j++) printf "\t%s", v[hrs[i], us[j]]
                          print "\t" h[hrs[i]] } }' > "$tmp/series.tsv"
        rft-plot -x hours -y '*naive,healed*' --ylabel "dVth (mV)" --xlabel "hours" \
            --title "$name: dVth of the PEs, naive and healed (seed 003 Fig. 7)" \
            -o "$plots/fig7.svg" "$tmp/series.tsv"
        made="$made $plots/fig7.svg"
    fi
    heal --scheme sc --report cost --format tsv | awk -F '\t' 'NR == 1 || $2 == "all"' |
        rft-plot -x degraded_scs -y 'overhead%' --kind bar --ymin 0 \
            --ylabel "run-time overhead (%)" --xlabel "degraded SCs per CU" \
            --title "$name: cost of SC healing, first-order estimate (seed 003 Figs. 9, 16)" \
            -o "$plots/fig9.svg"
    made="$made $plots/fig9.svg"
    echo
    echo "figures:$made"
fi
