# rft-batch, part: rft-batch --status.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/status.sh";
# make puts them together into bin/rft-batch.

# ---- status -------------------------------------------------------------------
status() {
    [ -f "$out/traces.tsv" ] && [ -f "$out/Makefile" ] ||
        die "$out: not a batch folder (no traces.tsv and Makefile)"
    results=$(sed -n 's/^RESULTS = //p' "$out/Makefile")
    trace_dir
    stopped=""
    [ ! -f "$out/interrupted" ] || stopped=$(head -n 1 "$out/interrupted")
    array="" collect="" queue=""
    if [ -f "$out/slurm/jobs" ]; then
        read -r array collect <"$out/slurm/jobs"
        if command -v squeue >/dev/null 2>&1; then
            queue=$(squeue -h -r -j "$array,$collect" -o '%i %T %r' 2>/dev/null || :)
        fi
    fi
    local_run=""
    if ! flock -n "$out/.lock" true 2>/dev/null; then local_run=1; fi
    w=7
    while IFS='	' read -r l _; do [ ${#l} -le $w ] || w=${#l}; done <"$out/traces.tsv"
    printf "%-${w}s  %-8s  %s\n" trace state detail
    n_done=0 n_fail=0 n_run=0 n_wait=0 n_int=0
    while IFS='	' read -r l p; do
        detail=""
        if is_done "$l"; then
            state=done
            n_done=$((n_done + 1))
        else
            # its tasks: the first running or pending one; all done (their
            # goals there: shards), the collecting job makes the rest
            state="" job="" tasks="" tasks_done=1
            if [ -n "$array" ]; then
                tasks=$(awk -F '\t' -v l="$l" '$1 == l { print NR - 1 }' "$out/slurm/tasks")
            fi
            for i in $tasks; do
                q=$(printf '%s\n' "$queue" | awk -v j="${array}_$i" '$1 == j { print tolower($2) }')
                if [ -n "$q" ] && { [ -z "$state" ] || [ "$q" = running ]; }; then
                    state=$q job=${array}_$i
                fi
                for g in $(sed -n "$((i + 1))p" "$out/slurm/tasks" | cut -f2); do
                    case $g in trace-*) tasks_done="" ;; *) [ -e "$out/$g" ] || tasks_done="" ;; esac
                done
            done
            if [ -n "$state" ]; then
                detail="job $job"
            elif [ -n "$local_run" ]; then
                state=running
                detail="a local run is under way"
            elif [ -n "$tasks" ] && [ -n "$tasks_done" ]; then
                state=waiting
                detail="its tasks are done; the collecting job makes the rest"
            elif [ -n "$stopped" ]; then
                state=interrupted
                detail="the run was stopped by SIG$stopped; a rerun resumes it"
                [ ! -s "$out/$tsub$l/log" ] || detail="$detail (its log: $(first_error "$l"))"
            elif [ -s "$out/$tsub$l/log" ] || [ -n "$tasks" ]; then
                state=failed
                detail=$(first_error "$l")
            else
                state="not run"
            fi
            case $state in
            running) n_run=$((n_run + 1)) ;;
            failed) n_fail=$((n_fail + 1)) ;;
            interrupted) n_int=$((n_int + 1)) ;;
            *) n_wait=$((n_wait + 1)) ;;
            esac
        fi
        printf "%-${w}s  %-8s  %s\n" "$l" "$state" "$detail"
    done <"$out/traces.tsv"
    # the table
    if [ -s "$out/table.tsv" ] && [ -z "$local_run" ]; then
        state=done detail="$out/table.txt"
    elif [ -n "$collect" ] && line=$(printf '%s\n' "$queue" | awk -v j="$collect" '$1 == j') && [ -n "$line" ]; then
        state=$(echo "$line" | awk '{ print tolower($2) }') detail="job $collect"
    elif [ -s "$out/collect.log" ]; then
        state=failed detail=$(head -n 1 "$out/collect.log")
    elif [ -n "$stopped" ]; then
        state="not run" detail="the run was stopped by SIG$stopped"
    elif [ $n_fail -gt 0 ]; then
        state="not run" detail="a trace failed${collect:+: job $collect cancelled}"
    else
        state="not run" detail=""
    fi
    printf "%-${w}s  %-8s  %s\n" "(table)" "$state" "$detail"
    printf '%d traces: %d done, %d running, %d failed, %d waiting' \
        $((n_done + n_fail + n_run + n_wait + n_int)) $n_done $n_run $n_fail $n_wait
    [ $n_int = 0 ] || printf ', %d interrupted' $n_int
    echo
    [ $n_fail = 0 ] && [ $n_int = 0 ] || exit 1
}
