# Shared by every tests/*.bats: programs from this tree, bats-assert, and
# small helpers.  Tests must not depend on ../shared.
bats_require_minimum_version 1.5.0
TOP="$(cd "$(dirname "${BATS_TEST_FILENAME}")/.." && pwd)"
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
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
export LC_ALL=C

# 64 lane values "b + i*de" as 8-digit hex, tab-separated (for W lines)
lanes_linear() {
    local b=$1 de=$2 n=${3:-64} i out=""
    for ((i = 0; i < n; i++)); do out+=$(printf '\t%08x' $(( (b + i * de) & 0xffffffff ))); done
    printf '%s' "${out:1}"
}

# run a pipeline with pipefail
pipe() { bash -c "set -o pipefail; $1"; }

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
