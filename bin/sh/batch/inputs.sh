# rft-batch, part: which files are traces, and where a trace's results and log are.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/inputs.sh";
# make puts them together into bin/rft-batch.

# ---- which files are traces ---------------------------------------------------
# A file is a trace by its content, not its name: an rft stream (rft-view -H
# reads its header), or a file whose beginning rft-decode decodes, its format
# detected (--input-format auto).  Only the first PROBE_BYTES of the content
# (decompressed) are read, cut at a line: rft-decode's detection reads at
# most 64 KiB.  A raw simulator log (m2s, evg, gem5, nvbit) is taken from a
# folder only when --input-format names its format.
probe_bytes=262144
sim_formats="m2s evg gem5 nvbit"
log_name() {
    case $1 in
    m2s) echo "Multi2Sim (Southern Islands ISA)" ;;
    evg) echo "Multi2Sim (Evergreen ISA)" ;;
    gem5) echo "gem5" ;;
    nvbit) echo "NVBit (record_reg_vals)" ;;
    esac
}

# decode_head FORMAT: does $tmp/head decode as FORMAT?  Sets dfmt (the format
# rft-decode chose) and herr (why not: its message, "line N: ...").  Lines
# that decode before a bad one make a trace (a corrupt one: the run names its
# error), so only a file whose first record does not decode is refused.
decode_head() {
    herr="" st=0
    rft-decode -v --input-format "$1" -o "$tmp/head.rft" <"$tmp/head" 2>"$tmp/head.err" || st=$?
    # (the first such line: sed quits there, no head)
    dfmt=$(sed -n '/^rft-decode: -: format [a-z0-9]* (/ { s/^rft-decode: -: format \([a-z0-9]*\) (.*/\1/p; q; }' "$tmp/head.err")
    if [ $st = 0 ]; then
        rft-view "$tmp/head.rft" 2>/dev/null | head -n 1 | grep -q . && return 0
        herr="no records${head_cut:+ in its first $((probe_bytes / 1024)) KiB}"
        return 1
    fi
    herr=$(grep -av '^rft-decode: -: format \|^rft-decode: warning: ' "$tmp/head.err" | head -n 1 |
        sed 's/^rft-decode: -:\([0-9][0-9]*\): /line \1: /; s/^rft-decode: -: //')
    bad_line=$(printf '%s\n' "$herr" | sed -n 's/^line \([0-9][0-9]*\): .*/\1/p')
    if [ -n "$bad_line" ] && [ "$bad_line" -gt 1 ] &&
        head -n $((bad_line - 1)) "$tmp/head" | rft-decode --input-format "$dfmt" -o "$tmp/head.rft" 2>/dev/null &&
        rft-view "$tmp/head.rft" 2>/dev/null | head -n 1 | grep -q .; then
        return 0
    fi
    return 1
}

# probe FILE: sets fmt (rft, or the format its beginning decodes as), named
# (the format rft-decode is to be given: --input-format's, or empty: auto)
# and why (empty when FILE is taken from a folder; else why not, one line).
probe() {
    fmt="" named="" why=""
    [ -s "$1" ] || { why="an empty file"; return; }
    if rft-view -H -- "$1" >/dev/null 2>&1; then fmt=rft; return; fi
    zstd -dcfq -- "$1" 2>/dev/null | head -c $probe_bytes >"$tmp/head" || :
    head_cut=""
    if [ "$(wc -c <"$tmp/head")" -ge $probe_bytes ]; then
        head_cut=1
        sed '$d' "$tmp/head" >"$tmp/head.cut"    # a line cut short
        mv "$tmp/head.cut" "$tmp/head"
    fi
    if decode_head auto; then
        fmt=$dfmt
        case " $sim_formats " in *" $fmt "*) ;; *) return ;; esac
        [ "$input_format" != "$fmt" ] || { named=$fmt; return; }
        why="a raw $(log_name "$fmt") log ($fmt): a trace only when its format is named (--input-format $fmt)"
    else
        why="not a trace (${dfmt:+read as $dfmt: }$herr)"
    fi
    if [ -n "$input_format" ] && [ "$input_format" != "$dfmt" ] && decode_head "$input_format"; then
        fmt=$input_format named=$input_format why=""
    fi
}

# Inputs to "LABEL<TAB>ABSOLUTE PATH" lines in $tmp/traces; "LABEL<TAB>FORMAT
# <TAB>BYTES" in $tmp/found, "LABEL<TAB>FORMAT" in $tmp/named for those
# rft-decode is told the format of.
add_trace() {   # PATH [LABEL [FROM-A-FOLDER]]
    [ -f "$1" ] || die "$1: no such trace"
    [ -r "$1" ] || die "$1: not readable"
    if has_cntrl "$1"; then
        die "$(printf '%s' "$1" | tr '[:cntrl:]' '?'): a control character (a newline, a tab, ...) in a trace's path is not supported"
    fi
    if [ -n "${2:-}" ]; then l=$2; else label_of "$1"; l=$lb; fi
    if [ -z "${2:-}" ]; then    # a file's name: made a label, said so (issue 31)
        n0=$l
        safe_label "$n0"
        l=$sl
        if [ "$l" != "$n0" ]; then
            case $n0 in
            '' | .* | -* | *[!A-Za-z0-9_.+-]*)
                lwhy="a label is letters, digits and _.+-, not first . or -" ;;
            mean) lwhy="the label mean is the mean rows'" ;;
            *) lwhy="the label $n0 is another trace's" ;;
            esac
            printf '%s: %s: labelled %s (%s)\n' "$prog" "$1" "$l" "$lwhy" >>"$tmp/relabelled"
            printf '%s\t%s\t%s\n' "$l" "$1" "$lwhy" >>"$tmp/relabels"
        fi
    fi
    case $l in
    '' | .* | -* | *[!A-Za-z0-9_.+-]*)
        die "$1: label '$l' is not letters, digits and _.+- (give one in a manifest)" ;;
    mean) die "$1: label 'mean' is the mean rows' (give another in a manifest)" ;;
    esac
    if [ -z "${3:-}" ]; then    # named by the user: taken, or refused here
        probe "$1"
        case $why in
        '') ;;
        "a raw "*) why="" ;;        # decoded in the format detected
        *) die "$1: $why" ;;
        esac
    fi
    # (dirname and basename by expansion, and wc's count without tr: forks
    # less a trace; the folder of a/b is a, of /b /, of b .)
    case $1 in */*) p=${1%/*}; p=${p:-/} ;; *) p=. ;; esac
    p=$(cd -- "$p" && pwd)/${1##*/}
    printf '%s\t%s\n' "$l" "$p" >>"$tmp/traces"
    taken="$taken$l
"
    sz=$(wc -c <"$1")
    printf '%s\t%s\t%s\n' "$l" "$fmt" "${sz##* }" >>"$tmp/found"
    [ -z "$named" ] || printf '%s\t%s\n' "$l" "$named" >>"$tmp/named"
}

# The files of a folder that are traces (not its subfolders, nor the files
# whose names start with a dot); a line in $tmp/skipped for each other one.
add_folder() {
    found=0
    : >"$tmp/skipped.here"
    for f in "$1"/*; do
        [ -e "$f" ] || [ -L "$f" ] || continue      # an empty folder's *
        why=""
        if [ -d "$f" ]; then why="a folder (not searched)"
        elif [ ! -f "$f" ]; then why="not a regular file"
        elif [ ! -r "$f" ]; then why="not readable"
        elif has_cntrl "$f"; then why="a control character in its name"
        else probe "$f"
        fi
        if [ -n "$why" ]; then
            printf '%s: skipped %s: %s\n' "$prog" "$f" "$why" >>"$tmp/skipped.here"
            # named as a trace (.rft, .trace): the batch fails at its end, naming it
            case ${f##*/} in
            *.rft | *.rft.* | *.trace | *.trace.*)
                [ "${why#not a trace}" = "$why" ] || printf '%s: %s: named as a trace, but %s\n' \
                    "$prog" "$f" "$why" >>"$tmp/broken" ;;
            esac
            continue
        fi
        add_trace "$f" "" folder
        found=1
    done
    cat "$tmp/skipped.here" >>"$tmp/skipped"
    if [ $found = 0 ]; then
        cat "$tmp/skipped.here" >&2
        die "$1: no traces (no file in it decodes as a trace)"
    fi
}

add_manifest() {
    [ -r "$1" ] || die "$1: cannot read the manifest"
    base=$(dirname -- "$1")
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case $line in '' | '#'*) continue ;; esac
        path=${line%%'	'*}
        label=""
        [ "$path" = "$line" ] || label=${line#*'	'}
        if has_cntrl "$path$label"; then
            die "$1: line $n: a control character (a carriage return, a second tab, ...) in a path or label"
        fi
        case $path in /*) ;; *) path=$base/$path ;; esac
        [ -e "$path" ] || die "$1: line $n: $path: no such trace"
        add_trace "$path" "$label"
    done <"$1"
}

# The results of trace $1 are all there.
is_done() {
    for r in $results; do
        [ -e "$out/$tsub$1/$r" ] || return 1
    done
}

# Where the trace folders are: traces/ in the batch folder; a folder made
# by an earlier rft-batch, whose Makefile has no TRACE_DIR, keeps them
# beside its own files.
trace_dir() {
    tsub=traces/
    if [ -f "$out/Makefile" ] && ! grep -q '^TRACE_DIR = traces$' "$out/Makefile"; then
        tsub=""
    fi
}

first_error() {
    if [ -s "$out/$tsub$1/log" ]; then
        head -n 1 "$out/$tsub$1/log"
    else
        echo "failed (no message; see $out/make.log)"
    fi
}
