#!/bin/sh
# healing.sh - the aging-aware compilation study of seed 003 on a trace: how
# unevenly the kernel stresses the PEs (VLIW slots) and SCs (stream cores),
# what PE healing and SC healing do to their Vth, and what SC healing costs.
# Every step is an ordinary command you can copy:
#
#   PE healing  rft-decode TRACE | rft-heal --scheme pe [--years 1]
#   SC healing  rft-decode TRACE | rft-heal --scheme sc --variation 10
#
# usage: healing.sh [-r steady|N] [-j N] [-k DIR] [-p DIR] [--variation MV] [--hours H]
#                   [-f table|tsv|json] [--quiet] TRACE
#   TRACE   canonical text (plain or .zst, rft-decode(1)), an Evergreen log
#           (rft-decode --input-format auto) or an rft stream
#   -r RUNS steady (default: rft-heal takes the trace as the kernel run
#           again and again over the horizon) or N (the kernel run N times
#           in a row, rft-repeat(1), the gaps between runs idle); "once" has
#           no meaning here: rft-heal has no single run
#   -j N    at most N processes at once (default: the processors, at most 3)
#   -k DIR  keep in DIR the stream studied (trace.rft, when TRACE is not a
#           stream or -r N repeats it) and the tables as TSV: pe-profile.tsv, pe-units.tsv
#           (with bundles), sc-units.tsv, sc-cost.tsv
#   --variation MV  initial dVth variation (seed 003 Figs. 7(b), 8: 10 mV;
#           default 0); -v, its old spelling, still works with a warning
#   --hours H  the horizon in hours (default 360); -H, its old spelling,
#           still works with a warning
#   -f, --format table (default: rft-heal's summaries, for people); tsv (the
#           tables of -k, a blank line between them); json (one object per
#           table row, "table": "pe_profile", "pe_units", "sc_units" or
#           "sc_cost" first)
#   --quiet   no progress on standard error (shown only on a terminal)
#   -p DIR  draw seed 003's figures as SVG in DIR (rft-plot(1), each with its gnuplot
#           script and data: fig4.gp, fig4.data.tsv): fig4.svg
#           (share of ALU instructions per PE), fig7.svg (dVth of the PEs
#           over time, naive and healed), fig9.svg (run-time slowdown of SC
#           healing, replayed and its upper bound, against the number of
#           degraded SCs)
# PE healing needs VLIW bundle records (Evergreen): a GCN trace gets the SC
# study only.
set -eu

usage="usage: healing.sh [-r steady|N] [-j N] [-k DIR] [-p DIR] [--variation MV] [--hours H] [-f table|tsv|json] [--quiet] TRACE"
help="  -r, --repeat RUNS     steady (default: rft-heal takes the trace as the kernel run again and again over the horizon) or N times in a row (rft-repeat)
  -k, --keep DIR        Keep the stream studied (trace.rft, when decoded or repeated) and the tables as TSV in DIR
  -p, --plots DIR       Draw the seed's figures as SVG in DIR, each with its gnuplot script and data (rft-plot)
      --variation MV    Initial dVth variation (seed 003 Figs. 7(b), 8: 10 mV; default 0)
      --hours H         The horizon in hours (default 360)"
deprecated="-v	--variation	--variation
-H	--hours	--hours"
. "$(dirname "$0")/stages.sh"   # stage, join, options; cleans up on exit and signals
var=0
hours=360
while [ $# -gt 0 ]; do
    case $1 in
    --variation=* | --hours=*) _a=$1; shift; set -- "${_a%%=*}" "${_a#*=}" "$@" ;;
    --variation | -v)
        [ "$1" = --variation ] || old_option -v --variation
        need_arg "$@"; var=$2; shift 2 ;;
    --hours | -H)
        [ "$1" = --hours ] || old_option -H --hours
        need_arg "$@"; hours=$2; shift 2 ;;
    --) shift; break ;;
    *) script_option "$@" || break; shift "$shifted" ;;
    esac
done
take_trace "$@"
[ -z "$passed" ] || usage_error "after the trace:$passed: healing.sh passes no options on"
[ "$runs" != once ] || usage_error "-r once: rft-heal takes a trace as the kernel run again and again over the horizon (give steady or N)"
# checked before any work
rft-heal --hours "$hours" --variation "$var" --profile X=20,Y=20,Z=20,W=20,T=20 > /dev/null || exit 2

study_stream healing                # tmp, out, src
[ -z "$keep" ] || [ "$src" = "$trace" ] || cp "$src" "$keep/trace.rft"
name=$(basename "$trace")
[ "$repeat" = 1 ] || name="$name ($runs_note)"
heal() { rft-heal --hours "$hours" --variation "$var" "$@" "$src"; }

# PE healing when the trace has bundles (counted per slice by rft-heal)
bundles=$(rft-heal --scheme sc --report slices --format tsv "$src" |
    awk -F '\t' '/^#/ { next } h++ { n += $2 } END { print n + 0 }')
[ "${bundles:-0}" -gt 0 ] || bundles=""
# the runs of rft-heal, at most $jobs at once: FILE SCHEME [REPORT]
started=0
heal_to() {
    _f=$1 _s=$2
    shift 2
    stage rft-heal --quiet --hours "$hours" --variation "$var" --scheme "$_s" "$@" -o "$_f" "$src"
    started=$((started + 1))
    [ $((started % jobs)) != 0 ] || join
}
progress "PE and SC healing"
if [ "$format" = table ]; then
    [ -z "$bundles" ] || heal_to "$tmp/pe.txt" pe
    heal_to "$tmp/sc.txt" sc
fi
tables="sc-units sc-cost"
[ -z "$bundles" ] || tables="pe-profile pe-units $tables"
if [ "$format" != table ] || [ -n "$keep" ]; then
    for t in $tables; do heal_to "$out/$t.tsv" "${t%%-*}" --report "${t#*-}" --format tsv; done
fi
join
progress ""
case $format in
table)
    if [ -n "$bundles" ]; then
        echo "== $name: PE healing (seed 003 section 5.2, Figs. 4 and 7)"
        cat "$tmp/pe.txt"
    else
        echo "== $name: no VLIW bundles (a GCN trace): PE healing needs an Evergreen trace"
    fi
    echo
    echo "== $name: SC healing (seed 003 section 5.3, Figs. 8, 9 and 16)"
    cat "$tmp/sc.txt"
    ;;
*)
    for t in $tables; do study_table "$(echo "$t" | tr - _)" "" cat "$out/$t.tsv"; done
    ;;
esac

if [ -n "$plots" ]; then
    mkdir -p "$plots"
    made=""                         # the figures drawn, listed at the end
    if [ "${bundles:-0}" -gt 0 ]; then
        heal --scheme pe --report profile --format tsv | awk -F '\t' '/^#/ { print; next } !h++ || $1 ~ /^PE_/' |
            rft-plot -x unit -y 'instr_share%' --kind bar --ymin 0 --ymax 100 \
                --ylabel "% of ALU instructions" --title "$name: instructions per PE (seed 003 Fig. 4)" \
                -o "$plots/fig4.svg"
        made="$made $plots/fig4.svg"
        # the long series (hours, unit, naive, healed) as a column per PE, naive, and
        # one for the healed PEs (the most aged of them: healing keeps them together)
        heal --scheme pe --report series --format tsv |
            awk -F '\t' '/^#/ { print; next } !hd++ { next }
                !($1 in seen) { seen[$1]; hrs[++n] = $1 }
                { v[$1, $2] = $3; if (!($1 in h) || $4 > h[$1]) h[$1] = $4
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
    # the replayed slowdown (the one to cite) beside its upper bound, not the
    # first-order estimate (overhead%: 0 on many GCN traces, where the replay
    # is not)
    heal --scheme sc --report cost --format tsv |
        awk -F '\t' -v OFS='\t' '/^#/ { print; next }
            !h++ { for (i = 1; i <= NF; i++) { if ($i == "slowdown_replay%") $i = "replayed"; if ($i == "slowdown_bound%") $i = "upper bound" }; print; next }
            $2 == "all"' |
        rft-plot -x degraded_scs -y 'replayed,upper bound' --kind bar --ymin 0 \
            --ylabel "run-time slowdown (%)" --xlabel "degraded SCs per CU" \
            --title "$name: cost of SC healing, replayed and its upper bound (seed 003 Figs. 9, 16)" \
            -o "$plots/fig9.svg"
    made="$made $plots/fig9.svg"
    # the tables alone in TSV and JSON
    [ "$format" != table ] || printf '\nfigures:%s\n' "$made"
fi
