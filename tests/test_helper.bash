# Shared by every tests/*.bats: programs from this tree, bats-assert, and
# small helpers.  Tests must not depend on ../shared.
bats_require_minimum_version 1.5.0
# (no command substitution here: this file is read again for every test, and
# a fork each costs; bats gives BATS_TEST_DIRNAME as an absolute path)
TOP="${BATS_TEST_DIRNAME%/*}"
PATH="$TOP/bin:$PATH"
RFT_BIN="$TOP/bin"      # where the tests' rft programs come from
# VALGRIND=1 (make valgrind): every rft program runs under memcheck, through
# a wrapper of the same name first in PATH; a memory error makes it exit 99,
# a status no test expects.  Programs that rft execs are traced too.
if [[ ${VALGRIND:-} == 1 ]]; then
    RFT_BIN="$BATS_RUN_TMPDIR/valgrind-bin"
    if mkdir "$RFT_BIN" 2>/dev/null; then
        for p in "$TOP"/bin/rft "$TOP"/bin/rft-*; do
            [[ -x $p && $p != *.* ]] || continue
            printf '#!/bin/sh\nexec valgrind --tool=memcheck --error-exitcode=99 --leak-check=no -q \\\n    --trace-children=yes %q "$@"\n' "$p" > "$RFT_BIN/${p##*/}"
            chmod +x "$RFT_BIN/${p##*/}"
        done
    fi
    PATH="$RFT_BIN:$PATH"
fi
FIX="$TOP/tests/fixtures"
# bats-support and bats-assert: what their load.bash files source, without
# the two forks (dirname) a file each that those take: read for every test,
# they cost 0.2 s of CPU a test, a quarter of some files' time.
for _f in /usr/lib/bats/bats-support/src/*.bash /usr/lib/bats/bats-assert/src/*.bash; do
    source "$_f" || return 1
done
unset _f
export LC_ALL=C

# 64 lane values "b + i*de" as 8-digit hex, tab-separated (for W lines)
lanes_linear() {
    local b=$1 de=$2 n=${3:-64} i out=""
    for ((i = 0; i < n; i++)); do out+=$(printf '\t%08x' $(( (b + i * de) & 0xffffffff ))); done
    printf '%s' "${out:1}"
}

# run a pipeline with pipefail
pipe() { bash -c "set -o pipefail; $1"; }

# a write at cycle $1 of wavefront $2 (compute unit 0, SIMD $2) to register $3, every lane
# 1, with the annotation $4 if any
wr() { printf 'W\t%s\t0\t%s\t%s\t%s\tffffffffffffffff' "$1" "$2" "$2" "$3"
       printf '\t00000001%.0s' {1..64}; printf '%s\n' "${4:+	$4}"; }

# rft-view's text without the scalar unit's marks (U lines sload, sdone, shold,
# srel: rft(5), model v13), the stream as decoded before them
no_scalar_marks() { awk -F'\t' '!($1 == "U" && $6 ~ /^s(load|done|hold|rel)$/)'; }
export -f no_scalar_marks

# A small suite in DIR for rft-batch: three synthetic traces in three formats
# rft-decode reads (an rft stream, canonical text, text compressed).
make_suite() {
    mkdir -p "$1"
    rft-synth --writes 3000 --seed 1 -o "$1/a.rft"
    rft-synth --writes 3000 --seed 2 | rft-view > "$1/b.tsv"
    rft-synth --writes 3000 --seed 3 | rft-view | zstd -q > "$1/c.tsv.zst"
}

# After `run`: the table's notes left out of $output and $lines (the '# '
# lines before a TSV or CSV header, a first JSON object {"notes": [...]}:
# rft(1) "NOTES ON EVERY TABLE"; tests/notes2.bats checks them).
no_notes() {
    output=$(grep -v -e '^# ' -e '^{"notes": ' <<<"$output" || true)
    lines=()
    [ -z "$output" ] || IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# Signals sent to a background job.  A signal ignored when a program starts
# stays ignored across exec: a non-interactive shell's background job ignores
# INT, and under nohup every command ignores HUP (and a shell cannot even trap
# it).  `env $SIG_DEFAULTS CMD` starts CMD with INT and HUP at their default
# actions, as a terminal's job control gives them; sig_ignored HUP says
# whether this test's own environment ignores HUP (nohup), from SigIgn.
SIG_DEFAULTS=--default-signal=INT,HUP
sig_ignored() {
    local mask
    mask=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status 2>/dev/null) || return 1
    [ -n "$mask" ] && (( (0x$mask >> ($(kill -l "$1") - 1)) & 1 ))
}
# Once per test that signals its jobs: a note on fd 3 where HUP is ignored
sig_note() {
    ! sig_ignored HUP ||
        echo "# SIGHUP is ignored in this environment (nohup?): restored to its default for the commands this test signals" >&3
}

# wait_at_most SECONDS PID: `wait PID` (its status), but for SECONDS at most:
# a job still running then is killed (SIGKILL, its children too) and the test
# fails, saying so: no test waits forever on a process a signal did not stop.
wait_at_most() {
    local s=$1 pid=$2 i
    for ((i = 0; i < s * 20; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "process $pid ($(ps -o args= -p "$pid" 2>/dev/null)) still running after $s s: killed" >&2
        pkill -KILL -P "$pid" 2>/dev/null || :
        kill -KILL "$pid" 2>/dev/null || :
        wait "$pid" 2>/dev/null || :
        return 124
    fi
    wait "$pid"
}
