#!/bin/sh
# argo.sh - the results of ARGO (seed 004) on a trace: register-file
# utilization (Table 1), worst-case recovery of power-gating banks of 1 to
# 8 KB (Table 3), dVth and SNM under the aging-oblivious allocator and ARGO
# at 45 and 65 nm (Figs. 7-9), and the leakage ARGO saves against what its
# allocator costs (Fig. 11 and section 5.4).  Every step is an ordinary
# command you can copy:
#
#   Tables 1, 3  rft-alloc --scheme argo --util --recovery=t3.tsv -o /dev/null TRACE.rft
#   maps         rft-alloc --scheme first-fit --runs steady TRACE.rft | rft-duty -o base.duty
#                rft-alloc --scheme argo --runs steady [--bank N] TRACE.rft | rft-duty -o argo.duty
#   Figs. 7-9    rft-vth --params params/seed004-45nm.conf --years 5 [--by year] base=base.duty argo=argo.duty
#   Fig. 11      rft-energy base.rft argo.rft      (the placed streams)
#
# Tables 1 and 3 and Fig. 11 are of one run of the kernel (every run places
# its windows alike, ARGO's moved around the slice); the duty maps of
# Figs. 7-9 are of the runs -r says.
#
# usage: argo.sh [-r once|N|steady] [-b N] [-j N] [-k DIR] [-p DIR] [--years YEARS]
#                [-f table|tsv|json] [--quiet] TRACE
#   TRACE     canonical text (plain or .zst, rft-decode(1)) or an rft stream
#   -r RUNS   the runs of the kernel (default steady): steady, run again and
#             again without end (rft-alloc --runs steady; ARGO rotates once
#             per window, the seeds' lifetimes are of kernels run again and
#             again; with -b N > 1 only if the head moves whole banks a run);
#             once; or N times in a row (rft-repeat(1) before placing)
#   -b N      ARGO gates banks of N entries (rft-alloc --bank; default 1)
#   --years YEARS  the lifetime of Figs. 7-9 (default 5, as seed 004); -y,
#             its old spelling, still works for this release with a warning
#   -j N      at most N processes at once (default: the processors, at most 3)
#   -k DIR    keep the placed streams and duty maps in DIR
#   -p DIR    draw the figures as SVG in DIR (rft-plot(1), each with its gnuplot
#             script and data: fig7.gp, fig7.data.tsv): fig7.svg (dVth
#             after YEARS at 45 and 65 nm), fig9.svg (SNM loss over the
#             years, 45 nm), fig11.svg (leakage saved, allocator overhead
#             and net, per compute unit: a panel each, its own axis)
#   -f, --format table (default: titled tables for people); tsv (the tables
#             alone, a blank line between them); json (one object per
#             table row, "table": "util", "recovery", "vth" or "energy" first)
#   --quiet   no progress on standard error (shown only on a terminal)
set -eu

usage="usage: argo.sh [-r once|N|steady] [-b N] [-j N] [-k DIR] [-p DIR] [--years YEARS] [-f table|tsv|json] [--quiet] TRACE"
help="  -r, --repeat RUNS     The runs of the kernel the duty maps are of: steady (default: rft-alloc --runs steady), once, or N times in a row (rft-repeat)
  -b, --bank N          ARGO gates banks of N entries (rft-alloc --bank; default 1)
  -k, --keep DIR        Keep the placed streams and duty maps in DIR (base.rft, argo.rft, base.duty, argo.duty)
  -p, --plots DIR       Draw the seed's figures as SVG in DIR, each with its gnuplot script and data (rft-plot): fig7.svg, fig9.svg, fig11.svg
      --years YEARS     The lifetime of Figs. 7-9 (default 5, as seed 004)"
deprecated="-y	--years	--years"
. "$(dirname "$0")/stages.sh"   # stage, join, options; cleans up on exit and signals
bank=1
years=5
while [ $# -gt 0 ]; do
    case $1 in
    --bank=* | --years=*) _a=$1; shift; set -- "${_a%%=*}" "${_a#*=}" "$@" ;;
    -b | --bank) need_arg "$@"; check_count "$1" "$2"; bank=$2; shift 2 ;;
    --years | -y)
        [ "$1" = --years ] || old_option -y --years
        need_arg "$@"; years=$2; shift 2 ;;
    --) shift; break ;;
    *) script_option "$@" || break; shift "$shifted" ;;
    esac
done
take_trace "$@"
[ -z "$passed" ] || usage_error "after the trace:$passed: argo.sh passes no options on"
# checked before any work
rft-vth --years "$years" --show-params > /dev/null || exit 2
# the parameter sets beside the examples, in the source tree or installed
params=$(dirname "$0")/../params

study_stream argo                   # tmp, out, src

progress "placing"
# shellcheck disable=SC2086
stage rft-alloc $quiet --scheme first-fit $runs_opt -o "$out/base.rft" "$src"
[ "$jobs" -gt 1 ] || join
# shellcheck disable=SC2086
stage rft-alloc --quiet --scheme argo $runs_opt --bank "$bank" --util="$tmp/t1.tsv" --recovery="$tmp/t3.tsv" \
    -o "$out/argo.rft" "$src"
join
progress "duty maps"
stage rft-duty $quiet -o "$out/base.duty" "$out/base.rft"
[ "$jobs" -gt 1 ] || join
stage rft-duty --quiet -o "$out/argo.duty" "$out/argo.rft"
join
progress ""

name="$(basename "$trace") ($runs_note)"
# The four tables as TSV
util() { cut -f1,2,4- "$tmp/t1.tsv"; }
# one row per kernel, one column per bank size (rft-alloc --recovery's rows)
recovery() {
awk -F '\t' '/^# / { print; next } !h++ { next } {
        if (!($1 in seen)) { seen[$1] = 1; order[++nk] = $1 }
        if (!($3 in sz)) { sz[$3] = 1; size[++ns] = $3 }
        v[$1, $3] = $6 == "" ? "-" : $6
    }
    END {
        printf "kernel"
        for (j = 1; j <= ns; j++)
            printf "\t%s", (size[j] >= 1024 ? size[j] / 1024 "K" : size[j] "B")
        printf "\n"
        for (i = 1; i <= nk; i++) {
            printf "%s", order[i]
            for (j = 1; j <= ns; j++)
                printf "\t%s", v[order[i], size[j]]
            printf "\n"
        }
    }' "$tmp/t3.tsv"
}

# rft-vth over both maps with a parameter set
vth() {
    p=$1
    shift
    rft-vth --params "$params/seed004-$p.conf" --years "$years" --format tsv "$@" \
        base="$out/base.duty" argo="$out/argo.duty"
}
progress "dVth and energy"
for p in 45nm 65nm; do
    vth "$p" > "$tmp/vth-$p.tsv"
done
stage rft-energy --format tsv base="$out/base.rft" argo="$out/argo.rft" > "$tmp/energy.tsv"
join
progress ""
# what the tables assumed: their notes first (rft(1), "NOTES ON EVERY TABLE")
vth_rows() {
    sed -n '/^# /p' "$tmp/vth-45nm.tsv" "$tmp/vth-65nm.tsv" | awk '!seen[$0]++'
    printf 'technology\tmetric\tbase\targo\timprovement%%\n'
    for p in 45nm 65nm; do
        awk -F '\t' -v p="$p" '$1 == "all" && $2 ~ /^(longest_0%|longest_1%|dvth_rd%|snm_loss_rd%|snm_life_rd_years)$/ {
            printf "%s\t%s\t%s\t%s\t%s\n", p, $2, $3, $4, $5 != "" ? $5 : $6 }' "$tmp/vth-$p.tsv"
    done
}
energy() {
    awk -F '\t' '/^# / { print; next } /^#/ { next } !n++ { for (i = 1; i <= NF; i++) c[$i] = i }
        { printf "%s\t%s\t%s\t%s\t%s\n", $1, $c["leak_saving%"], $c["alloc_mW"],
              $c["leak_saved_mW"], $c["net_saved_mW"] }' "$tmp/energy.tsv"
}
study_table util "== $name: register-file utilization (seed 004 Table 1; seed 002 Table 5)" util
study_table recovery "== $name: ARGO's worst-case bank recovery, % of the span gated (seed 004 Table 3)" recovery
study_table vth "== $name: after $years years, aging-oblivious (base) and ARGO (seed 004 Figs. 7, 8, 9; last column: the improvement, % less, for the lifetime % more)" vth_rows
study_table energy "== $name: leakage (seed 004 Fig. 11) against the allocators' power (5.4), per compute unit" energy

if [ -n "$plots" ]; then
    progress "drawing"
    mkdir -p "$plots"
    {
        printf 'technology\tbase\targo\n'
        for p in 45nm 65nm; do
            awk -F '\t' -v p="$p" '$1 == "all" && $2 == "dvth_rd%" { printf "%s\t%s\t%s\n", p, $3, $4 }' \
                "$tmp/vth-$p.tsv"
        done
    } | rft-plot -x technology -y base,argo --kind bar --ymin 0 \
        --ylabel "dVth after $years years (% of Vth0)" \
        --title "$name: dVth of the most stressed cell (seed 004 Fig. 7)" -o "$plots/fig7.svg"
    rft-vth --params "$params/seed004-45nm.conf" --by year --years "$years" --step 0.25 \
        --format tsv base="$out/base.duty" argo="$out/argo.duty" |
        rft-plot -x year -y base_snm_loss_rd%,argo_snm_loss_rd% --ymin 0 \
            --ylabel "read SNM lost (%; the cell fails at 20)" --xlabel "years" \
            --title "$name: SNM degradation, 45 nm (seed 004 Fig. 9)" -o "$plots/fig9.svg"
    # a panel each, its own axis: the allocator's 0.92 mW beside 191 mW of
    # leakage would not show on one
    awk -F '\t' '/^#/ { print; next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i
            printf "cu\tleakage saved (mW)\tARGO allocator overhead (mW)\tnet saving (mW)\n" }
        $1 == "argo" { printf "per compute unit\t%s\t%s\t%s\n", $c["leak_saved_mW"], $c["alloc_mW"] - base_mw,
                       $c["net_saved_mW"] }
        $1 == "base" || $1 == "baseline" { base_mw = $c["alloc_mW"] }' "$tmp/energy.tsv" |
        rft-plot -x cu --kind bar --panels --ylabel "mW" --xlabel "" \
            --title "$name: ARGO's leakage saving and its allocator (seed 004 Fig. 11, 5.4)" \
            -o "$plots/fig11.svg"
    progress ""
fi
