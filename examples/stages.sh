# stages.sh - sourced by the example scripts (aging.sh, argo.sh, undervolt.sh,
# demo.sh): their stages run in the background and are waited for, so that
# a signal is taken at once, and nothing is left behind when one comes.
#
# The script sets tmp (a directory of its own) before sourcing this, and
# keep_dir when it writes -o files elsewhere (a stage that is killed leaves
# its output as NAME.tmpXXXXXX, see rft(1)).  On HUP, INT, PIPE or TERM the
# running stages are stopped and waited for, the temporary files removed,
# and the signal passed on; on exit (the end, or an error under set -e)
# the same without the signal.
#
#   stage CMD ARGS...   start a stage (a simple command: its pid is known)
#   join                wait for the stages started; the status of the
#                       last that failed, 0 if none did
#   trace_stream T [N]  src = the trace T as an rft stream: T itself if it
#                       is one, else decoded into $tmp; with N > 1, the
#                       kernel run N times in a row (rft-repeat)
#   study_stream NAME   tmp made, out (-k DIR or tmp), src from $trace and -r
# A pipeline started with & adds its last stage's pid ($!) to pids itself:
# when that one is stopped the others end on their broken pipe, and the
# handler waits for every child.
#
# The study scripts' common options and helpers (the script sets usage, its
# one-line synopsis, and help, the lines of its own options, first):
#   script_option ARGS...  the options the four study scripts share (one
#                          meaning per letter across the rft programs,
#                          rft(1) OPTIONS): -r, --repeat once|N|steady (runs),
#                          -j, --jobs N, -k, --keep DIR (keep), -p, --plots
#                          DIR (plots), -f, --format table|tsv|json, --quiet,
#                          -h, --help: 0 and shifted = words used, 1 for
#                          anything else; --NAME=VALUE is --NAME VALUE
#   old_option OLD NEW     the warning of an old spelling kept for a release
#   need_arg, check_count OPT V, check_choice OPT V "A B C", usage_error MSG
#   progress MSG           a step, on standard error when it is a terminal
#                          (not with --quiet); "" clears the line
#   q WORD                 WORD quoted for an rft run pipeline
#   check_runs OPT V, set_runs V  -r once|N|steady: sets repeat (copies for
#                          rft-repeat), runs_opt (rft-alloc's --runs) and
#                          runs_note (what the tables say was used)
#   jobs, format, quiet    their values (quiet: "--quiet" or "")
#   energy_fits S CMD      0 when the parameter set of the rft-energy command
#                          CMD (given stream S, which chooses the default set)
#                          has S's geometry; else 1 and why in energy_note
#                          (the sets price GCN's 64-lane slices and NVIDIA's
#                          32-lane sub-partitions)
pids=""
script=${0##*/}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
[ "$jobs" -le 3 ] 2>/dev/null || jobs=3
format=table
quiet=""
keep=""
plots=""
runs=steady
# the --help lines of the shared options (the script's own come first)
common_help="  -j, --jobs N          At most N processes at once (default: the processors, at most 3)
  -f, --format F        table (default: titled tables for people); tsv (the tables alone, a blank line between them); json (one object per table row, \"table\" first)
      --quiet           No progress on standard error (shown only on a terminal)
  -h, --help            Print this help and exit"
usage_error() {
    printf '%s: %s\n%s\n' "$script" "$1" "$usage" >&2
    exit 2
}
need_arg() { [ $# -ge 2 ] || usage_error "$1 needs a value"; }
check_count() {
    case $2 in
    '' | *[!0-9]* | 0*) usage_error "$1: '$2' is not a positive whole number" ;;
    esac
}
check_choice() {
    for c in $3; do [ "$2" != "$c" ] || return 0; done
    usage_error "$1: '$2' is not one of $3"
}
script_option() {
    case $1 in
    --?*=*) _o=${1%%=*}; _v=${1#*=}; shift; script_option "$_o" "$_v" "$@" || return 1
            [ "$shifted" = 2 ] || usage_error "$_o takes no value"
            shifted=1 ;;
    -j | --jobs) need_arg "$@"; check_count "$1" "$2"; jobs=$2; shifted=2 ;;
    -k | --keep) need_arg "$@"; keep=$2; shifted=2 ;;
    -p | --plots) need_arg "$@"; plots=$2; shifted=2 ;;
    -r | --repeat) need_arg "$@"; check_runs "$1" "$2"; runs=$2; shifted=2 ;;
    -f | --format) need_arg "$@"; check_choice --format "$2" "table tsv json"; format=$2; shifted=2 ;;
    --quiet) quiet=--quiet; shifted=1 ;;
    -h | --help) printf '%s\n\n%s\n%s\n' "$usage" "$help" "$common_help"; exit 0 ;;
    --list-options)     # hidden, for tests/options.bats: the options of --help
        printf '%s\n%s\n' "$help" "$common_help" | grep -oE -- '^  (-[a-zA-Z], |    )--[a-z-]+' |
            sed 's/^ *//; s/, /\n/'
        exit 0 ;;
    --list-deprecated)  # hidden, for tests/options.bats: the old spellings
        [ -z "${deprecated:-}" ] || printf '%s\n' "$deprecated"
        exit 0 ;;
    -?*) usage_error "unknown option $1" ;;
    *) return 1 ;;
    esac
}
# OLD NEW: an old spelling, still taken for this release, with a warning
old_option() {
    printf '%s: warning: %s for %s is deprecated, use %s (rft(1), OPTIONS)\n' "$script" "$1" "$2" "$2" >&2
}
progress() {
    [ -z "$quiet" ] && [ -t 2 ] || return 0
    if [ -n "$1" ]; then printf '\r%s: %s\033[K' "$script" "$1" >&2; else printf '\r\033[K' >&2; fi
}
# TSV on standard input as columns aligned by spaces, for people
align() {
    awk -F '\t' '
        /^# / { nt = nt "\n" substr($0, 3); next }    # the notes, under the table
        { nr++; for (i = 1; i <= NF; i++) { c[nr, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
          nf[nr] = NF }
        END { for (r = 1; r <= nr; r++) { l = ""
                for (i = 1; i < nf[r]; i++) l = l sprintf("%-" w[i] "s  ", c[r, i])
                print l c[r, nf[r]] }
              if (nt != "") print nt }'
}
# NAME TITLE CMD...: a table of the study (CMD prints it as TSV) in the
# script's --format: titled and aligned (table), as it is (tsv) or as JSON
# lines, "table": NAME first (json); tables after the first are set apart
# by a blank line (but in json)
study_table() {
    _name=$1 _title=$2
    shift 2
    case $format in
    table) [ -z "${_tables:-}" ] || echo; printf '%s\n' "$_title"; "$@" | align ;;
    tsv) [ -z "${_tables:-}" ] || echo; "$@" ;;
    json) "$@" | tsv_json "$_name" ;;
    esac
    _tables=1
}
# TSV on standard input to JSON lines, "table": $1 first; cells that are
# numbers stay numbers, empty cells are null
tsv_json() {
    awk -F '\t' -v t="$1" '
        # a JSON string, escaped as rft_json_str (lib/view.c) does
        function esc(s,   i, c, o) {
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                o = o (c == "\\" || c == "\"" ? "\\" c : c in ctl ? sprintf("\\u%04x", ctl[c]) : c)
            }
            return "\"" o "\"" }
        BEGIN { for (i = 1; i < 32; i++) ctl[sprintf("%c", i)] = i }
        # the notes ("# " lines before the header): a first object, as the programs write it
        /^# / { nt = nt (nt == "" ? "" : ", ") esc(substr($0, 3)); next }
        !hd++ { for (i = 1; i <= NF; i++) h[i] = $i; n = NF
                if (nt != "") print "{\"table\": " esc(t) ", \"notes\": [" nt "]}"
                next }
        { l = "{\"table\": " esc(t)
          for (i = 1; i <= n; i++) {
              v = $i == "" ? "null" : $i ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ? $i : esc($i)
              l = l ", " esc(h[i]) ": " v
          }
          print l "}" }'
}
# (each ' made '\'' by expansion, not by printf | sed in a subshell: q is
# called for every word of the pipelines; the trailing newlines the command
# substitution took off, taken off too)
q() {
    _qr=$1 _qd=""
    while :; do
        case $_qr in
        *\'*) _qd="$_qd${_qr%%\'*}'\\''"; _qr=${_qr#*\'} ;;
        *) break ;;
        esac
    done
    _qd=$_qd$_qr
    while :; do
        case $_qd in
        *"
") _qd=${_qd%?} ;;
        *) break ;;
        esac
    done
    printf "'%s'" "$_qd"
}
# TRACE [WORDS...]: sets trace, takes the script's --format and --quiet
# (and the words its own_word function takes, if it has one) from the
# words and keeps the others, quoted, in $passed (for the program the
# script hands them to)
take_trace() {
    [ $# -ge 1 ] || usage_error "no trace"
    trace=$1
    shift
    passed=""
    while [ $# -gt 0 ]; do
        case $1 in
        -f | --format | --format=* | --quiet) script_option "$@"; shift "$shifted" ;;
        *) command -v own_word > /dev/null && own_word "$1" || passed="$passed $(q "$1")"; shift ;;
        esac
    done
    [ -r "$trace" ] || { echo "$script: $trace: cannot be read" >&2; exit 1; }
}

check_runs() {
    case $2 in
    once | steady) ;;
    *) check_count "$1" "$2" ;;
    esac
}
# the steady state is rft-alloc --runs steady (one pass); N > 1 copies of the
# trace (rft-repeat) placed as one stream
set_runs() {
    repeat=1
    runs_opt=""
    case $1 in
    steady) runs_opt="--runs steady"; runs_note="steady state" ;;
    once | 1) runs_note="run once" ;;
    *) repeat=$1; runs_note="run $1 times" ;;
    esac
}

# NAME: a temporary folder of the study (tmp), the folder of what -k keeps
# (out: DIR, else tmp) and the trace as a stream decoded once and repeated
# as -r says (src; set_runs)
study_stream() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-$1.XXXXXX")
    keep_dir=$keep
    out=${keep:-$tmp}
    mkdir -p "$out"
    set_runs "$runs"
    progress "decoding $trace"
    trace_stream "$trace" "$repeat"
}

stage() {
    "$@" &
    pids="$pids $!"
}
join() {
    status=0
    for p in $pids; do
        wait "$p" || status=$?
    done
    pids=""
    return $status
}
trace_stream() {
    # an rft stream (rft-view reads its header) is used as it is
    if rft-view -H "$1" >/dev/null 2>&1; then
        src=$1
    else
        stage rft-decode -o "$tmp/trace.rft" "$1"
        join
        src=$tmp/trace.rft
    fi
    if [ "${2:-1}" != 1 ]; then
        stage rft-repeat -n "$2" -o "$tmp/repeated.rft" "$src"
        join
        src=$tmp/repeated.rft
    fi
}
stop_stages() {
    # shellcheck disable=SC2086
    [ -z "$pids" ] || kill $pids 2>/dev/null || :
    pids=""
    wait
    [ -z "${tmp:-}" ] || rm -rf "$tmp"
    [ -z "${keep_dir:-}" ] || rm -f "$keep_dir"/*.tmp??????
}
trap stop_stages EXIT
for sig in HUP INT PIPE TERM; do
    # shellcheck disable=SC2064
    trap "trap - EXIT $sig; stop_stages; kill -s $sig \$\$" "$sig"
done

energy_fits() {
    _pg=$(eval "$2 --show-params $(q "$1")" | awk '$1 ~ /^geometry\.(lanes|entries|block_lanes)$/ { printf "%s ", $2 }')
    _sg=$(rft-view -H "$1" | awk '$1 == "lanes" || $1 == "entries" || $1 == "block_lanes" { printf "%s ", $2 }')
    [ "$_pg" != "$_sg" ] || return 0
    energy_note="note: energy not priced: the trace's register file (lanes, entries, block lanes: ${_sg% }) is not the one the energy parameters price (${_pg% }); rft-energy(1) has sets of GCN's (64 256 16) and NVIDIA's (32 512 8): give it a parameter set of this geometry"
    return 1
}
