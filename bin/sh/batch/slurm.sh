# rft-batch, part: running the batch on a Slurm cluster: a task per trace or shard.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/slurm.sh";
# make puts them together into bin/rft-batch.

# What a Slurm task makes: LABEL<TAB>make goals, a line per task; with
# shards, one task per shard's maps and scans, the rest (rft-merge, the
# tables) in the collecting job.
task_goals() {
    if [ "${shards:-1}" = 1 ]; then
        printf '%s\ttrace-%s\n' "$1" "$1"
        return
    fi
    k=0
    while [ $k -lt "$shards" ]; do
        printf '%s\t' "$1"
        if [ "$study" = undervolt ]; then
            for m in common clustered dispersed; do printf '%s%s/s%d/%s.tsv %s%s/s%d/%s.rft ' "$tsub" "$1" $k $m "$tsub" "$1" $k $m; done
        elif [ "$study" = healing ]; then
            for m in cost units slices; do printf '%s%s/s%d/%s.tsv ' "$tsub" "$1" $k $m; done
        else
            for m in base rc rar rcrar wc argo; do printf '%s%s/s%d/%s.rft %s%s/s%d/%s.scan ' "$tsub" "$1" $k $m "$tsub" "$1" $k $m; done
        fi
        echo
        k=$((k + 1))
    done
}

# ---- Slurm ----------------------------------------------------------------------
# Scripts kept in DIR/slurm: array.sh runs one trace per task, collect.sh the
# table once all succeeded, submit.sh submits both (run it again to resubmit).
write_slurm() {
    mkdir -p "$out/slurm"
    : >"$tmp/tasks"
    while IFS='	' read -r l _; do
        is_done "$l" || task_goals "$l" >>"$tmp/tasks"
    done <"$out/traces.tsv"
    mv "$tmp/tasks" "$out/slurm/tasks"
    ntasks=$(wc -l <"$out/slurm/tasks")
    qdir=$(quote "$(cd "$out" && pwd)")
    cat >"$out/slurm/array.sh" <<EOF
#!/bin/sh
# One task a line of slurm/tasks (line SLURM_ARRAY_TASK_ID + 1): a trace's
# label and the make goals that are its results (or a shard's), made by the
# batch's Makefile with as many jobs as the task has CPUs.
#SBATCH --job-name=rft-$study
#SBATCH --cpus-per-task=$jobs
#SBATCH --output=slurm/%A_%a.out
set -eu
PATH=$(quote "$bindir"):\$PATH
cd $qdir
goals=\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" slurm/tasks | cut -f2)
exec make -k -s -j "\${SLURM_CPUS_PER_TASK:-$jobs}" \$goals
EOF
    cat >"$out/slurm/collect.sh" <<EOF
#!/bin/sh
# The cross-trace table and charts, once every task has succeeded.
#SBATCH --job-name=rft-$study-collect
#SBATCH --output=slurm/collect.out
set -eu
PATH=$(quote "$bindir"):\$PATH
cd $qdir
exec make -s table
EOF
    cat >"$out/slurm/submit.sh" <<EOF
#!/bin/sh
# Submit the batch: the array (one task per line of slurm/tasks), then the
# collecting job, run only if every task succeeds (afterok; cancelled, not
# left pending, when one fails).  The job ids go to slurm/jobs.
set -eu
cd $qdir
array=\$(sbatch --parsable --array=0-$((ntasks - 1))$sbatch_opts slurm/array.sh)
array=\${array%%;*}
if ! collect=\$(sbatch --parsable --dependency=afterok:\$array --kill-on-invalid-dep=yes$sbatch_opts slurm/collect.sh); then
    scancel "\$array"
    exit 1
fi
echo "\$array \${collect%%;*}" >slurm/jobs
EOF
    chmod 755 "$out/slurm/array.sh" "$out/slurm/collect.sh" "$out/slurm/submit.sh"
}

run_slurm() {
    write_slurm
    rm -f "$out/slurm/jobs"
    if [ "$ntasks" = 0 ]; then
        echo "$prog: every trace is done; collecting here" >&2
        make -C "$out" -s table >"$out/make.log" 2>&1 ||
            die "collecting: $(head -n 1 "$out/collect.log" 2>/dev/null)"
        return
    fi
    if ! sh "$out/slurm/submit.sh" >"$tmp/sbatch.out" 2>&1; then
        die "$(grep . "$tmp/sbatch.out" | tail -n 1)"
    fi
    read -r array collect <"$out/slurm/jobs"
    echo "$array $collect"
    echo "$prog: array job $array ($ntasks tasks), collecting job $collect; see rft-batch --status $out" >&2
}
