#!/bin/sh
# rft-batch - one study (aging, undervolting, healing, or a pipeline of your
# own) over many traces, on this machine with make -j or on a Slurm cluster
# as a job array, then the cross-trace table of rft-collect(1).
#
# The batch folder DIR holds everything: a Makefile with the study's
# pipelines (the same as examples/*.sh run), traces.tsv (label and path of
# each trace), traces/LABEL, a folder per trace with its results and its
# log, the collected tables and charts, and for Slurm the scripts it
# submitted.  See rft-batch(1).
#
# No string of the user's is written into the Makefile: it names the traces
# by their labels (letters, digits, _.+-) and the trace folders relative to
# the batch folder; the scripts for Slurm quote the folder and the sbatch
# options for sh; a control character (a newline would start a line of
# make or sh) is refused everywhere.
set -eu
prog=rft-batch
# --help: the synopsis of rft-batch(1), a one-line description, every option
usage="rft-batch [-j N] [--study NAME | --pipeline STAGES] [-r once|N|steady] [--shards N [--split auto|yes|no]]
          [--manifest FILE]... [--input-format m2s|evg|gem5|nvbit] [--force]
          [--slurm [--partition P] [--time T] [--mem M] [--sbatch-args ARGS]]
          -o DIR [TRACE | FOLDER]...
rft-batch --status DIR
rft-batch --list
One study over many traces, on this machine or on a Slurm cluster, and the cross-trace table

  -o, --output DIR       The batch folder (made if need be)
  -j, --jobs N           At most N jobs at once (default: the number of processors, nproc(1)); with --slurm, the CPUs and jobs of each task (default 1)
      --study NAME       aging, undervolt or healing
      --pipeline STAGES  A study of your own (see Studies)
  -r, --repeat RUNS      The aging study's kernels run again and again (steady, the default: rft-alloc --runs steady), once, or N times in a row (rft-repeat); recorded in the folder's Makefile, so a folder holds one
      --shards N         The study made in N (2 or more) shards of each trace: of its slices (aging, each reading its file from rft-split) or its compute units (undervolt, healing; default: see Studies); recorded in the folder's Makefile
      --split WHEN       With --shards: cut each trace once into its shards' files (rft-split) that the shards read (yes), or let every shard read the whole trace (no); auto (the default): yes when the shards outnumber the jobs that run them (-j), no when every shard has a job of its own or with --slurm; recorded in the folder's Makefile
  -m, --manifest FILE    Traces listed in FILE, one a line: its path (relative to the manifest's folder), and optionally a tab and its label; blank lines and lines starting with # are skipped
      --input-format F   Take the raw simulator logs of format F (m2s, evg, gem5 or nvbit) found in a folder as traces too, rft-decode(1) given --input-format F for them; without it a folder gives only its rft streams and text and CSV traces
      --force            Redo every result of the traces given
      --slurm            Submit to Slurm instead of running here
      --partition P      The Slurm partition of both jobs (sbatch --partition)
      --time T           The time limit of both jobs (sbatch --time)
      --mem M            The memory of a node for both jobs (sbatch --mem)
      --sbatch-args ARGS  More sbatch options for both jobs, as words split as sh splits them, with its quotes and backslashes (nothing expanded)
      --status DIR       Report on a batch folder (see Status)
      --list             The studies, one a line
      --quiet            No progress on standard error (shown only on a terminal)
  -h, --help             Print this help and exit
      --version          Print the version and exit"

die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
usage_error() {
    printf '%s: %s (see %s --help)\n' "$prog" "$1" "$prog" >&2
    exit 2
}
# 'text' for sh, any character allowed
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# Is there a control character in $1 (a newline, a tab, an escape)?
has_cntrl() { case $1 in *[[:cntrl:]]*) return 0 ;; esac; return 1; }
# A string of the command line with a control character: a usage error.
plain() {   # WHAT STRING
    if has_cntrl "$2"; then
        usage_error "$1: a control character (a newline, a tab, ...) is not allowed in '$(printf '%s' "$2" | tr '[:cntrl:]' '?')'"
    fi
}

# the rft programs beside this one come first
# (dirname's folder by expansion: a fork less on every run)
case $0 in */*) bindir=${0%/*}; bindir=${bindir:-/} ;; *) bindir=. ;; esac
bindir=$(cd "$bindir" && pwd)
PATH=$bindir:$PATH
export PATH

# @include batch/studies.sh
# @include batch/undervolt-healing.sh
# @include batch/folder.sh
# @include batch/inputs.sh
# @include batch/local.sh
# @include batch/slurm.sh
# @include batch/status.sh

# ---- options ------------------------------------------------------------------
out="" jobs="" study="" pipeline="" force="" slurm="" status_dir="" sbatch_opts="" repeat="" shards="" split=""
quiet="" input_format=""
manifests="" taken=""
need() { [ $# -ge 2 ] || usage_error "$1: missing argument"; }
# --sbatch-args: the words of $1 as sh splits them ('a b', "a b", a\ b),
# nothing expanded (xargs(1) reads the quotes), each quoted for submit.sh
sbatch_words() {
    plain --sbatch-args "$1"
    words=$(printf '%s' "$1" | xargs -r printf '%s\n' 2>&1) ||
        usage_error "--sbatch-args: $(printf '%s\n' "$words" | sed -n 's/^xargs: //; s/;.*//; 1p')"
    while IFS= read -r w; do
        [ -z "$w" ] || sbatch_opts="$sbatch_opts $(quote "$w")"
    done <<EOF
$words
EOF
}
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) printf '%s\n' "$usage"; exit 0 ;;
    --list-options)     # hidden, for tests/help.bats: the options of this loop
        sed -n '/^while \[ \$# -gt 0 \]; do$/,/^done$/p' "$0" | grep -oE -- '^ +(-[a-z-]+)( \| -[a-z-]+)*\)' |
            grep -oE -- '-[a-z-]+' | grep -vxe -- -e --list-options -e --list-deprecated
        exit 0 ;;
    --list-deprecated)  # hidden, for tests/options.bats: the old spellings, as cli_getopt_old
        printf '%s\t%s\t%s\n' -s --study --study
        exit 0 ;;
    --version) echo "rft-batch (rftrace) $(rft-view --version | sed 's/.* //')"; exit 0 ;;
    --list)
        for s in $studies; do printf '%-10s %s\n' "$s" "$(study_about "$s")"; done
        exit 0 ;;
    -o | --output) need "$@"; out=$2; shift ;;
    --output=*) out=${1#*=} ;;
    -j | --jobs) need "$@"; jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --jobs=*) jobs=${1#*=} ;;
    --study) need "$@"; study=$2; shift ;;
    "-s")   # -s is --summary FILE in every program (rft(1), OPTIONS)
        echo "$prog: warning: -s for --study is deprecated, use --study (rft(1), OPTIONS)" >&2
        need "$@"; study=$2; shift ;;
    --study=*) study=${1#*=} ;;
    --pipeline) need "$@"; pipeline=$2; shift ;;
    --pipeline=*) pipeline=${1#*=} ;;
    -m | --manifest) need "$@"; manifests="$manifests$2
"; shift ;;
    --manifest=*) manifests="$manifests${1#*=}
" ;;
    --shards) need "$@"; shards=$2; shift ;;
    --shards=*) shards=${1#*=} ;;
    --split) need "$@"; split=$2; shift ;;
    --split=*) split=${1#*=} ;;
    -r | --repeat) need "$@"; repeat=$2; shift ;;
    --repeat=*) repeat=${1#*=} ;;
    --input-format) need "$@"; input_format=$2; shift ;;
    --input-format=*) input_format=${1#*=} ;;
    --force) force=1 ;;
    --quiet) quiet=1 ;;
    --slurm) slurm=1 ;;
    --partition | --time | --mem)
        need "$@"; plain "$1" "$2"; sbatch_opts="$sbatch_opts $1=$(quote "$2")"; slurm_opt=$1; shift ;;
    --partition=* | --time=* | --mem=*)
        plain "${1%%=*}" "${1#*=}"
        sbatch_opts="$sbatch_opts ${1%%=*}=$(quote "${1#*=}")"; slurm_opt=${1%%=*} ;;
    --sbatch-args) need "$@"; sbatch_words "$2"; slurm_opt=$1; shift ;;
    --sbatch-args=*) sbatch_words "${1#*=}"; slurm_opt=--sbatch-args ;;
    --status) need "$@"; status_dir=$2; shift ;;
    --status=*) status_dir=${1#*=} ;;
    --) shift; break ;;
    -?*) usage_error "unknown option '$1'" ;;
    *) break ;;
    esac
    shift
done

plain -o "$out"
plain --status "$status_dir"
plain --pipeline "$pipeline"
plain --study "$study"
for a in "$@"; do plain "a trace" "$a"; done
while IFS= read -r m; do plain --manifest "$m"; done <<EOF
$manifests
EOF
if [ -n "$status_dir" ]; then
    [ -z "$out$study$pipeline$force$slurm$input_format" ] && [ $# = 0 ] && [ -z "$manifests" ] ||
        usage_error "--status takes a batch folder and nothing else"
    out=$status_dir
    status
    exit 0
fi
[ -n "$out" ] || usage_error "no output folder (-o DIR)"
[ -z "$study" ] || [ -z "$pipeline" ] || usage_error "--study and --pipeline do not go together"
if [ -z "$slurm" ] && [ -n "${slurm_opt:-}" ]; then usage_error "$slurm_opt: only with --slurm"; fi
if [ -n "$slurm" ]; then
    # Slurm expands % in the jobs' output file names (slurm/%A_%a.out, in
    # the folder), and a \ turns that off: neither can be quoted there
    case $out in /*) abs=$out ;; *) abs=$PWD/$out ;; esac
    case $abs in *%* | *\\*)
        usage_error "--slurm: the batch folder's path '$abs' has a % or a \\, which Slurm reads in its output file names" ;;
    esac
fi
[ -z "$pipeline" ] || study=pipeline
if [ -n "$study" ] && [ "$study" != pipeline ]; then
    case " $studies " in
    *" $study "*) ;;
    *) usage_error "--study: '$study' is not one of $(echo $studies | sed 's/ /, /g')" ;;
    esac
fi
if [ -n "$input_format" ]; then
    case " $sim_formats " in
    *" $input_format "*) ;;
    *) usage_error "--input-format: '$input_format' is not one of $(echo $sim_formats | sed 's/ /, /g') (rft streams, text and CSV traces are taken without it)" ;;
    esac
fi
if [ -n "$repeat" ]; then
    case $repeat in once | steady) ;; '' | *[!0-9]* | 0*) usage_error "-r: '$repeat' is not once, steady or a number of runs from 1" ;; esac
fi
if [ -n "$shards" ]; then
    case $shards in '' | *[!0-9]* | 0* | 1) usage_error "--shards: '$shards' is not a number of shards from 2" ;; esac
fi
case $split in '' | auto | yes | no) ;; *) usage_error "--split: '$split' is not auto, yes or no" ;; esac
[ "$split" != yes ] || [ -z "$slurm" ] ||
    usage_error "--split yes: not with --slurm (every task would cut the whole trace; its shards read the whole: --split no)"
if [ -n "$jobs" ]; then
    case $jobs in '' | *[!0-9]* | 0*) usage_error "-j: '$jobs' is not a number of jobs from 1" ;; esac
else
    [ -n "$slurm" ] && jobs=1 || jobs=$(nproc)
fi
# -j N tasks at once share the cores: each rft run on one thread unless
# RFT_THREADS says otherwise (rft(1): rft run --threads)
[ "$jobs" = 1 ] || export RFT_THREADS="${RFT_THREADS:-1}"

if [ -n "$slurm" ]; then
    command -v sbatch >/dev/null 2>&1 ||
        die "--slurm: sbatch not found: Slurm's client is not installed (or run without --slurm)"
fi

# ---- the run ---------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-batch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT         # the EXIT trap runs
trap 'exit 143' TERM
trap 'exit 129' HUP
: >"$tmp/traces"
: >"$tmp/found"
: >"$tmp/named"
: >"$tmp/skipped"
: >"$tmp/relabelled"
: >"$tmp/relabels"
: >"$tmp/broken"
for a in "$@"; do
    if [ -d "$a" ]; then add_folder "${a%/}"; else add_trace "$a"; fi
done
if [ -n "$manifests" ]; then
    while IFS= read -r m; do [ -z "$m" ] || add_manifest "$m"; done <<EOF
$manifests
EOF
fi

if [ -e "$out" ] && [ ! -d "$out" ]; then die "$out: not a folder"; fi
mkdir -p "$out" 2>"$tmp/err" || die "$out: cannot create: $(sed 's/.*: //' "$tmp/err")"
( : >"$out/.lock" ) 2>/dev/null || die "$out: not writable"
exec 9>>"$out/.lock"
flock -n 9 || die "$out: another rft-batch is running on this folder"

# the study of an earlier run of this folder
old=""
[ ! -f "$out/Makefile" ] || old=$(sed -n 's/^study = //p' "$out/Makefile")
if [ -n "$old" ] && [ -n "$study" ] && [ "$old" != "$study" ]; then
    die "$out: holds a batch of the $old study, not $study (use another folder)"
fi
study=${study:-${old:-aging}}
if [ -n "$repeat" ]; then
    [ "$study" = aging ] || usage_error "-r: only the aging study repeats a kernel"
    was=$(sed -n 's/^REPEAT = //p' "$out/Makefile" 2>/dev/null || :)
    [ -z "$was" ] || [ "$was" = "$repeat" ] ||
        die "$out: holds a batch of kernels run $was times, not $repeat (use another folder)"
fi
if [ -n "$shards" ]; then
    [ "$study" != pipeline ] || usage_error "--shards: a pipeline of your own is not sharded (see rft-batch(1))"
    [ ! -f "$out/Makefile" ] || [ "$(sed -n 's/^SHARDS = //p' "$out/Makefile")" = "$shards" ] ||
        die "$out: holds a batch made in $(sed -n 's/^SHARDS = //p' "$out/Makefile" | grep . || echo 1) shard(s), not $shards (use another folder)"
fi
[ -z "$shards" ] && [ -f "$out/Makefile" ] && shards=$(sed -n 's/^SHARDS = //p' "$out/Makefile")
if [ "$study" = pipeline ] && [ -n "$old" ] && [ -n "$pipeline" ] &&
    ! grep -q -F -- "$(study_rules pipeline | tail -n 1)" "$out/Makefile"; then
    die "$out: holds a batch of another pipeline (use another folder)"
fi
results=$(study_results "$study")

if [ ! -s "$tmp/traces" ]; then      # no inputs: the traces of the earlier run
    [ -f "$out/traces.tsv" ] || usage_error "no traces"
    cp "$out/traces.tsv" "$tmp/traces"
    [ ! -f "$out/traces.mk" ] || sed -n 's/^FORMAT_\([^ ]*\) = \([a-z0-9]*\)$/\1	\2/p' "$out/traces.mk" >"$tmp/named"
    rerun=1
fi
# (the pipeline that names it only when awk finds a label twice)
dup=""
awk -F '\t' 'n[$1]++ { exit 1 }' "$tmp/traces" || dup=$(cut -f1 "$tmp/traces" | sort | uniq -d | head -n 1)
[ -z "$dup" ] || die "two traces labelled '$dup' (give labels in a manifest)"

# --shards by default (a study of the suite, here, a new folder): the jobs a trace has,
# -j over the traces, when that is 2 or more and a trace file is at least
# SHARD_MIN bytes (a smaller trace's shards cost more in processes and
# merging than they save); at most 64
SHARD_MIN=$((8 << 20))
if [ -z "$shards" ] && [ ! -f "$out/Makefile" ] && [ "$study" != pipeline ] && [ -z "$slurm" ]; then
    s=$((jobs / $(wc -l <"$tmp/traces")))
    [ $s -le 64 ] || s=64
    big=$(cut -f3 "$tmp/found" | sort -n | tail -n 1)
    if [ $s -ge 2 ] && [ "${big:-0}" -ge $SHARD_MIN ]; then
        shards=$s
    fi
fi
# --split (rft-split(1)): reading the whole trace costs each shard one more
# pass over it (decompressing and framing, about 0.6 zstd -dc), the split one
# pass of its own before any shard starts (about 3.5 zstd -dc: bench/scaling.md).
# When every shard has a job of its own the serial split only delays them;
# when they queue behind each other, their CPU is the run time and the split
# saves it from about 7 shards up.  On Slurm every task would cut the trace
# again: the shards read the whole.
if [ -f "$out/Makefile" ]; then
    was=$(sed -n 's/^SPLIT = //p' "$out/Makefile")
    [ -z "$split" ] || [ "$split" = auto ] || [ "$split" = "${was:-none}" ] ||
        die "$out: holds a batch made with --split ${was:-(none)}, not $split (use another folder)"
elif [ "${shards:-1}" != 1 ]; then
    if [ -z "$split" ] || [ "$split" = auto ]; then
        split=no
        [ -n "$slurm" ] || [ $((shards * $(wc -l <"$tmp/traces"))) -le "$jobs" ] || split=yes
    fi
elif [ "$split" = yes ] || [ "$split" = no ]; then
    usage_error "--split: without shards (--shards N) there is nothing to split"
fi
if [ ! -f "$out/Makefile" ]; then
    write_makefile >"$tmp/Makefile"
    mv "$tmp/Makefile" "$out/Makefile"
fi
trace_dir
{
    echo "# written by rft-batch: the defaults of rft-collect(1)"
    echo "results $results"
    echo "columns $(study_columns "$study")"
    [ -z "$tsub" ] || echo "folders ${tsub%/}"
    # what the figures assumed: each trace's runs and its tables' notes
    if [ "$study" = aging ]; then
        echo "runs runs $(sed -n 's/^REPEAT = //p' "$out/Makefile")"
    fi
    # a trace labelled other than its file's name says which file it is
    echo "notes label.notes"
} >"$tmp/collect.conf"
mv "$tmp/collect.conf" "$out/collect.conf"
{
    printf 'TRACES ='; awk -F '\t' '{ printf "%s ", $1 }' "$tmp/traces"; echo
    # the traces rft-decode is told the format of (--input-format)
    sed 's/^\([^	]*\)	\(.*\)$/FORMAT_\1 = \2/' "$tmp/named"
} >"$tmp/traces.mk"
mv "$tmp/traces.mk" "$out/traces.mk"
cp "$tmp/traces" "$out/traces.tsv.part"
mv "$out/traces.tsv.part" "$out/traces.tsv"

# a trace's folder: its input, then what the study makes of it; what a
# killed run left (temporaries of make's rules, of the stages and of LINK,
# in the folder and its shards' folders; a log) goes
while IFS='	' read -r l p; do
    d=$out/$tsub$l
    if [ -n "$force" ]; then rm -rf "$d"; fi
    # (mkdir, rm and awk only where there is something for them to do: a
    # few forks less a trace)
    [ -d "$d" ] || mkdir -p "$d"
    [ "$(readlink "$d/input" 2>/dev/null)" = "$p" ] || ln -sfn "$p" "$d/input"
    for x in "$d"/*.part "$d"/*.tmp?????? "$d"/*.rft.[0-9]* \
        "$d"/s[0-9]*/*.part "$d"/s[0-9]*/*.tmp??????; do
        if [ -e "$x" ] || [ -L "$x" ]; then rm -f "$x"; fi
    done
    is_done "$l" || : >"$d/log"
    # label.notes: the file of a label made from its name (issue 31), for
    # the tables' notes ("label: a_b is the file suite/a b.rft ...")
    f=""
    [ ! -s "$tmp/relabels" ] || f=$(awk -F '\t' -v l="$l" '$1 == l { print $2 " (" $3 ")"; exit }' "$tmp/relabels")
    if [ -n "$f" ]; then
        printf '%s is the file %s\n' "$l" "$f" >"$d/label.notes"
    elif [ -z "${rerun:-}" ]; then
        if [ -e "$d/label.notes" ] || [ -L "$d/label.notes" ]; then rm -f "$d/label.notes"; fi
    fi
done <"$out/traces.tsv"
# the traces found (and the files skipped), in inputs.txt and on standard
# error; a rerun without inputs (the traces of traces.tsv) keeps the list of
# the run that found them
if [ -z "${rerun:-}" ]; then
    list_inputs >"$tmp/inputs.txt"
    mv "$tmp/inputs.txt" "$out/inputs.txt"
    [ -n "$quiet" ] || cat "$out/inputs.txt" >&2
fi

# the table exists only after a run that completed every trace
rm -rf "$out/table.txt" "$out/table.tsv" "$out/table.csv" "$out/table.json" "$out/figures" \
    "$out/collect.log" "$out/interrupted"

if [ -n "$slurm" ]; then
    run_slurm
else
    run_local
fi
# a file named as a trace that is none fails the batch, the others done
if [ -s "$tmp/broken" ]; then
    cat "$tmp/broken" >&2
    exit 1
fi
