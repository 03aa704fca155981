# bench/m2s-model/tables.sh - sourced by run, reverse, pool, ceiling,
# campaign and check-runs: what they read from 4.2's reports and
# rft-replay's tables, SPLIT's rule for a cell and its knobs.

# SPLIT's knobs at their levels: a GPU's runs are its base and one a knob
# (configs/<GPU>-<knob>.ini, <knob>.report)
KNOBS="rew+4 rew+10 vmw1+10 vmw1+20 vmw64+10 vmw64+20 ldsw+4 ldsw+10"

cycles() {      # [ Device ] Cycles of a --si-report
    awk '/^\[ Device \]/{d=1} d && /^Cycles *=/{print $3; exit}' "$1"
}
total() {       # column $2 of the total row of tsv $1
    awk -F '\t' -v c="$2" '/^#/{next} !h{for(i=1;i<=NF;i++) if($i==c) k=i; h=1; next}
                           $1=="total"{print $k}' "$1"
}
# an awk function: a cell's tolerance, max(2 points, 20 % of the simulated
# slowdown s); a prediction within it is within (SPLIT)
TOL_AWK='function tol_of(s,  t) { t = 0.2 * (s < 0 ? -s : s); return t < 2 ? 2 : t }'

# a --dir DIR of pool and ceiling (program $2): DIR itself, or said and 1
table_dir() {
    [ -d "$1" ] || { echo "$2: --dir $1: not a directory" >&2; return 1; }
}
# the tables of halves $3... in directory $1 (program $2): each one there,
# or the first missing one said and 1
tables_of() {
    _tdir=$1 _tprog=$2; shift 2      # (sh has no locals: names no caller uses)
    for _th in "$@"; do
        [ -s "$_tdir/$_th.tsv" ] ||
            { echo "$_tprog: no table $_tdir/$_th.tsv (bench/m2s-model/run $_th)" >&2; return 1; }
    done
}
