# rft-batch, part: running the batch on this machine: progress, signals.
# bin/sh/rft-batch.sh includes it where it says "# @include batch/local.sh";
# make puts them together into bin/rft-batch.

# ---- local runs -------------------------------------------------------------
elapsed() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# done_n and total: the traces done, of all
count_done() {
    done_n=0
    total=0
    while IFS='	' read -r l _; do
        total=$((total + 1))
        if is_done "$l"; then done_n=$((done_n + 1)); fi
    done <"$out/traces.tsv"
}

# Traces done / total, elapsed, an estimate from this run's pace: every
# second, on one line, while the run goes on.
progress() {
    start=$(date +%s)
    before=$1
    while :; do
        count_done
        t=$(($(date +%s) - start))
        left=""
        if [ $done_n -gt "$before" ] && [ $done_n -lt $total ]; then
            left=", about $(elapsed $((t * (total - done_n) / (done_n - before)))) left"
        fi
        printf '\r%s: %d/%d traces, %s elapsed%s\033[K' "$prog" $done_n $total "$(elapsed $t)" "$left" >&2
        sleep 1
    done
}

run_local() {
    count_done
    before=$done_n
    start=$(date +%s)
    # make in a session of its own (its process group: make_pid), so that
    # one signal stops every stage
    setsid make -C "$out" -k -s -j "$jobs" all >"$out/make.log" 2>&1 &
    make_pid=$!
    mon=""
    trap 'stop INT 130' INT
    trap 'stop TERM 143' TERM
    trap 'stop HUP 129' HUP
    if [ -t 2 ] && [ -z "$quiet" ]; then
        progress "$before" 9>&- &
        mon=$!
    fi
    status=0
    wait $make_pid || status=$?
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    if [ -n "$mon" ]; then
        kill "$mon" 2>/dev/null || :
        wait "$mon" 2>/dev/null || :
        count_done
        printf '\r%s: %d/%d traces done, %s elapsed\033[K\n' "$prog" $done_n $total \
            "$(elapsed $(($(date +%s) - start)))" >&2
    fi
    failed=0
    while IFS='	' read -r l p; do
        if ! is_done "$l"; then
            printf '%s: %s (%s): %s\n' "$prog" "$l" "$p" "$(first_error "$l")" >&2
            failed=$((failed + 1))
        fi
    done <"$out/traces.tsv"
    [ $failed = 0 ] || exit 1
    if [ $status != 0 ]; then
        if [ -s "$out/collect.log" ]; then
            die "collecting: $(head -n 1 "$out/collect.log")"
        fi
        die "make failed: $(grep -v '^make' "$out/make.log" | head -n 1) (see $out/make.log)"
    fi
}

# A signal (NAME STATUS): stop every stage within a second, note it for
# --status, exit with the signal's status.  make and its stages ignore INT
# (a non-interactive sh starts a background job so): TERM stops them, each
# removing its temporaries; one still there after a second is killed, and
# what it leaves half written is never taken as a result (the next run
# removes it and redoes the result).
stop() {
    trap '' INT TERM HUP
    kill -TERM -"$make_pid" 2>/dev/null || :
    [ -z "$mon" ] || kill "$mon" 2>/dev/null || :
    # (not holding the folder's lock, which says a run is under way)
    (sleep 1 && kill -KILL -"$make_pid") >/dev/null 2>&1 9>&- &
    killer=$!
    wait "$make_pid" 2>/dev/null || :
    kill -KILL "$killer" 2>/dev/null || :
    # what the stopped stages left half written (a rerun redoes it)
    find "$out" -name '*.part' -type f -exec rm -f -- {} + 2>/dev/null || :
    printf '%s\n' "$1" >"$out/interrupted"
    [ -z "$mon" ] || printf '\n' >&2
    count_done
    echo "$prog: stopped by SIG$1: $done_n/$total traces done; a rerun resumes the others" >&2
    exit "$2"
}
