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
# A pipeline started with & adds its last stage's pid ($!) to pids itself:
# when that one is stopped the others end on their broken pipe, and the
# handler waits for every child.
pids=""
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
    rm -rf "$tmp"
    [ -z "${keep_dir:-}" ] || rm -f "$keep_dir"/*.tmp??????
}
trap stop_stages EXIT
for sig in HUP INT PIPE TERM; do
    # shellcheck disable=SC2064
    trap "trap - EXIT $sig; stop_stages; kill -s $sig \$\$" "$sig"
done
