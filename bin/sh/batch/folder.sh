# rft-batch, part: the batch folder: its Makefile, the traces' labels.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/folder.sh";
# make puts them together into bin/rft-batch.

# ---- the batch folder ----------------------------------------------------------
# The Makefile: written once (edit it to change a stage; remove it to get the
# study's own back), the traces in traces.mk, rewritten on every run.
write_makefile() {
    cat <<EOF
# Makefile, written by rft-batch for the $study study: $(study_title "$study")
# 'make -k -j N' (in this folder) runs it as rft-batch does; 'make trace-LABEL'
# one trace.  Each result is written under a temporary name and renamed when
# complete, so a result that exists is whole.  A trace's folder is
# TRACE_DIR/LABEL (% in a rule), its messages go to TRACE_DIR/LABEL/log.
study = $study
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
SHELL = /bin/bash
.SHELLFLAGS = -o pipefail -ec
include traces.mk
TRACE_DIR = traces
RESULTS = $(study_results "$study")
LOG = 2>>\$(TRACE_DIR)/\$(word 2,\$(subst /, ,\$*))/log
SAVE = >\$@.part \$(LOG) && mv \$@.part \$@
# a symbolic link \$@ to \$(1), replacing an older one in one step
LINK = ln -sf \$(1) \$@.\$\$\$\$ && mv -f \$@.\$\$\$\$ \$@
# awk: the slowdown in % of run time c over n, empty without n (the
# undervolt and healing tables made from shards)
AWK_SLOWDOWN = function slowdown(n, c) { return n ? sprintf("%.2f", 100 * (c - n) / n) : "" }

.PHONY: all table
all: table
.SECONDEXPANSION:
trace-%: \$\$(addprefix \$(TRACE_DIR)/\$\$*/,\$\$(RESULTS)) ;

# decode once; an rft stream (rft-view -H reads its header) is used as it
# is, anything else decoded in the format rft-batch --input-format named for
# it (FORMAT_LABEL in traces.mk), else the one rft-decode detects
%/trace.rft: %/input
	if rft-view -H \$< >/dev/null 2>&1; then \$(call LINK,input); else rft-decode --input-format \$(or \$(FORMAT_\$(notdir \$*)),auto) -o \$@ \$< \$(LOG); fi

$(study_rules "$study")

# the cross-trace table (rft-collect(1)) and the charts of the seeds
ALL_RESULTS = \$(foreach t,\$(TRACES),\$(addprefix \$(TRACE_DIR)/\$(t)/,\$(RESULTS)))
table: table.txt table.tsv table.csv table.json figures
table.txt: \$(ALL_RESULTS) traces.tsv collect.conf
	rft-collect -o \$@ . 2>>collect.log
table.tsv table.csv table.json: table.%: \$(ALL_RESULTS) traces.tsv collect.conf
	rft-collect --format \$* -o \$@ . 2>>collect.log
EOF
    figs=""
    study_figures "$study" | {
        while IFS='|' read -r name select plot; do
            printf 'figures/%s.tsv: table.tsv\n' "$name"
            make_dollars "$select"
            printf '\tmkdir -p figures && rft-collect %s --format tsv -o $@ . 2>>collect.log\n' "$md"
            printf 'figures/%s.svg: figures/%s.tsv\n' "$name" "$name"
            make_dollars "$plot"
            printf '\trft-plot %s -o $@ $< 2>>collect.log\n' "$md"
            figs="$figs figures/$name.svg"
        done
        printf '.PHONY: figures\nfigures:%s\n' "$figs"
    }
}

# $1 with each $ doubled for make (as sed 's/\$/$$/g' on a line), in md:
# no sed and subshell for each string of the Makefile
make_dollars() {
    md="" md_r=$1
    while :; do
        case $md_r in
        *\$*) md=$md${md_r%%\$*}\$\$; md_r=${md_r#*\$} ;;
        *) md=$md$md_r; return ;;
        esac
    done
}

# A trace's label: its file name without the trace suffixes, in lb.  (Set,
# not printed: no subshell, and no basename: a trace's path never ends in
# /, so its name is what follows the last /.)
label_of() {
    lb=${1##*/}
    lb=${lb%.zst}
    lb=${lb%.zstd}
    for lb_s in .tsv .csv .txt .log .trace; do lb=${lb%"$lb_s"}; done
    lb=${lb%.rft}
}

# A label from a file's name, in sl: every other character _ (é: two), a
# first . or - after an x, and one already taken (or mean) numbered (_2,
# _3...).  The labels taken are those of $tmp/traces, kept in $taken (a
# line each) as add_trace writes them: no cut and grep per try; sed only
# for a name with something to change (the letters spelled out: a range
# may take in other letters in some locales).
safe_label() {
    case $1 in
    '' | [.-]* | *[!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-]*)
        sl_b=$(printf '%s' "$1" | LC_ALL=C sed 's/[^A-Za-z0-9_.+-]/_/g; s/^[.-]/x&/') ;;
    *) sl_b=$1 ;;
    esac
    [ -n "$sl_b" ] || sl_b=trace
    sl=$sl_b sl_n=1
    while [ "$sl" = mean ] || case "
$taken" in *"
$sl
"*) true ;; *) false ;; esac; do
        sl_n=$((sl_n + 1))
        sl=${sl_b}_$sl_n
    done
}

# inputs.txt: the traces found, a line each (label, format, size, file), then
# a line for each file of a folder that was skipped and why.  The sizes are
# the files', not the writes: counting a trace's writes takes decoding all of
# it, which is the run's work.
list_inputs() {
    ntr=$(wc -l <"$tmp/traces")
    ntr=${ntr##* }      # (as tr -d ' ': some wc pad the count)
    [ "$ntr" = 1 ] && s="" || s=s
    printf '%s: %d trace%s (the size of each file, not its writes: counting them takes decoding the whole trace, which the run does):\n' \
        "$prog" "$ntr" "$s"
    # label, format, size, file, in columns
    paste "$tmp/found" "$tmp/traces" | awk -F '\t' -v OFS='\t' '
        function size(b) {
            if (b < 1024) return b " B"
            if (b < 1048576) return sprintf("%.1f KiB", b / 1024)
            if (b < 1073741824) return sprintf("%.1f MiB", b / 1048576)
            return sprintf("%.1f GiB", b / 1073741824)
        }
        BEGIN { r[0] = "label\tformat\tsize\tfile"; n = 1; w[1] = 5; w[2] = 6; w[3] = 4 }
        {
            r[n++] = $1 "\t" $2 "\t" size($3) "\t" $5
            if (length($1) > w[1]) w[1] = length($1)
            if (length($2) > w[2]) w[2] = length($2)
            if (length(size($3)) > w[3]) w[3] = length(size($3))
        }
        END {
            for (i = 0; i < n; i++) {
                split(r[i], c, "\t")
                printf "  %-" w[1] "s  %-" w[2] "s  %" w[3] "s  %s\n", c[1], c[2], c[3], c[4]
            }
        }'
    [ ! -s "$tmp/skipped" ] || cat "$tmp/skipped"
    [ ! -s "$tmp/relabelled" ] || cat "$tmp/relabelled"
}
