# Shared by tests/heal.bats and tests/heal2.bats: the hand-made traces of
# tests/fixtures/heal/ decoded into the test's folder, and a cell of a report.
load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    H="$FIX/heal"
    # gcn1: a work-group of two wavefronts (64 + 16 work-items) on slice 0:0,
    # writes with 64, 16 and 1 active lanes over a window of 100 cycles:
    # SC 0 busy 4 + 1 + 1 cycles, every other SC 4 + 1
    rft-decode "$H/gcn1.txt" -o gcn1.rft
    # gcn2: two work-groups of 256 work-items, one after the other, on a slice
    # whose 64-VGPR windows hold 4 wavefronts
    rft-decode "$H/gcn2.txt" -o gcn2.rft
}

# the row of unit $1 in a TSV report on stdin, field $2
cell() { awk -F '\t' -v u="$1" -v f="$2" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
                                         $1 == u { print $(c[f]) }'; }
