# bench/m2s-model/tables.sh - sourced by run, reverse, pool, ceiling,
# campaign and check-runs (each with here, its folder): what they read from
# 4.2's reports and rft-replay's tables, SPLIT's rule for a cell and its
# knobs.

# SPLIT's knobs at their levels: a GPU's runs are its base and one a knob
# (configs/<GPU>-<knob>.ini, <knob>.report)
KNOBS="rew+4 rew+10 vmw1+10 vmw1+20 vmw64+10 vmw64+20 ldsw+4 ldsw+10"

# split_kernels SPLIT HALF...: the kernels of SPLIT's lines of those
# halves, in its order.  A kernel line is the half's name, then a sample's
# (a capital letter, then letters and digits): prose that begins with
# "test" or "tuning" ("tuning data; ...", SPLIT-v7, v50, v59; "test half
# is ...", SPLIT-v3) is not a kernel
split_kernels() {
    _sks=$1; shift
    awk -v hs=" $* " 'index(hs, " " $1 " ") && $2 ~ /^[A-Z][A-Za-z0-9]*$/ { print $2 }' "$_sks"
}

cycles() {      # [ Device ] Cycles of a --si-report
    awk '/^\[ Device \]/{d=1} d && /^Cycles *=/{print $3; exit}' "$1"
}
# cells KERNEL GPU DIR TABLE: "knob level base_cycles cycles" lines, from
# the --si-report files in DIR where the simulator's runs are on disk; else
# from TABLE, the half's committed table (a GPU whose knob runs are gone and
# whose traced base runs were made again, campaign --base-only); else from
# simulated.tsv (what earlier rounds' runs printed, kept as data)
cells() {
    if [ -s "$3/base.report" ] && ls "$3"/*+*.report > /dev/null 2>&1; then
        _csb=$(cycles "$3/base.report")
        for _cr in "$3"/*.report; do
            _cb=$(basename "$_cr" .report)
            case $_cb in rew*|vmw64*|vmw1*|ldsw*) ;; *) continue;; esac
            # a level is a number: <knob>.traced.report is reverse's (REVERSE)
            case ${_cb#*+} in ''|*[!0-9]*) continue;; esac
            echo "${_cb%%+*} ${_cb#*+} $_csb $(cycles "$_cr")"
        done
        return
    fi
    _crows=
    [ -s "$4" ] && _crows=$(awk -F '\t' -v k="$1" -v n="$2" '$1 == k && $2 == n && $5 != "missing" {
        print $3, $4, $5, $6 }' "$4")
    if [ -n "$_crows" ]; then
        printf '%s\n' "$_crows"
        return
    fi
    awk -F '\t' -v k="$1" -v n="$2" '$1 == k && "cu" $2 == n && $3 == "base" { b = $8 }
        $1 == k && "cu" $2 == n && $3 != "base" && $3 != "knob" { c[++m] = $3 " " $4 " " $8 }
        END { for (i = 1; i <= m; i++) { split(c[i], f, " "); print f[1], f[2], b, f[3] } }' "$here/simulated.tsv"
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
