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
            printf '\tmkdir -p figures && rft-collect %s --format tsv -o $@ . 2>>collect.log\n' \
                "$(printf '%s' "$select" | sed 's/\$/$$/g')"
            printf 'figures/%s.svg: figures/%s.tsv\n' "$name" "$name"
            printf '\trft-plot %s -o $@ $< 2>>collect.log\n' \
                "$(printf '%s' "$plot" | sed 's/\$/$$/g')"
            figs="$figs figures/$name.svg"
        done
        printf '.PHONY: figures\nfigures:%s\n' "$figs"
    }
}

# A trace's label: its file name without the trace suffixes.
label_of() {
    b=$(basename -- "$1")
    b=${b%.zst}
    b=${b%.zstd}
    for s in .tsv .csv .txt .log .trace; do b=${b%"$s"}; done
    printf '%s\n' "${b%.rft}"
}

# A label from a file's name: every other character _ (é: two), a first .
# or - after an x, and one already taken (or mean) numbered (_2, _3...).
safe_label() {
    b=$(printf '%s' "$1" | LC_ALL=C sed 's/[^A-Za-z0-9_.+-]/_/g; s/^[.-]/x&/')
    [ -n "$b" ] || b=trace
    l=$b n=1
    while [ "$l" = mean ] || cut -f1 "$tmp/traces" 2>/dev/null | grep -qxF -- "$l"; do
        n=$((n + 1))
        l=${b}_$n
    done
    printf '%s\n' "$l"
}

# inputs.txt: the traces found, a line each (label, format, size, file), then
# a line for each file of a folder that was skipped and why.  The sizes are
# the files', not the writes: counting a trace's writes takes decoding all of
# it, which is the run's work.
list_inputs() {
    ntr=$(wc -l <"$tmp/traces" | tr -d ' ')
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
    cat "$tmp/skipped"
    [ ! -s "$tmp/relabelled" ] || cat "$tmp/relabelled"
}
