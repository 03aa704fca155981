#!/usr/bin/env bats
# Issue 23: the undervolt study without shards makes its three scenarios in
# one pass (rft run), each ending in DC-Patch's summary and an energy scan,
# as the shards do: no patched stream per scenario written and read again.
# Its tables are those of the patched streams made one by one, byte for
# byte (tests/shards2.bats: the same tables with shards).

load test_helper

setup_file() {
    # 3 CUs x 4 SIMDs; and slices that spill to the LDS (DC-Patch's LDS
    # counters and peak in the writes rows)
    rft-synth --writes 6000 --cus 3 --seed 5 -o "$BATS_FILE_TMPDIR/a.rft"
    awk -f "$FIX/shards/spill3cu.awk" >"$BATS_FILE_TMPDIR/sp.tsv"
    rft-decode -o "$BATS_FILE_TMPDIR/sp.rft" "$BATS_FILE_TMPDIR/sp.tsv"
}

setup() {
    cd "$BATS_TEST_TMPDIR"
}

@test "rft-batch --study undervolt: one rft run per trace, scans not patched streams; the tables of rft-faultmap | rft-dcpatch and rft-energy, byte for byte" {
    local t s
    rft-batch --quiet -j 1 --study undervolt -o uv "$BATS_FILE_TMPDIR/a.rft" "$BATS_FILE_TMPDIR/sp.rft"
    # one pass over the trace for the three scenarios
    run -0 grep -c '^	rft run ' uv/Makefile
    assert_output 1
    for t in a sp; do
        # the tables as the stages make them one by one, from the same
        # folder (the notes name the streams by their paths)
        mkdir -p ref/traces/$t
        for s in common clustered dispersed; do
            rft-faultmap --scenario $s --seed 1 "$BATS_FILE_TMPDIR/$t.rft" |
                rft-dcpatch --summary=ref/traces/$t/$s.tsv --format tsv -o ref/traces/$t/$s.rft
            # the folder's S.rft is the energy scan, not the patched stream
            run -0 bash -c "rft-view -H uv/traces/$t/$s.rft | awk '\$1 == \"producer\" { print \$2 }'"
            assert_output rft-energy
            [ "$(stat -c %s uv/traces/$t/$s.rft)" -lt "$(stat -c %s ref/traces/$t/$s.rft)" ]
            run -0 awk -F '\t' -v s=$s '$1 == s' uv/traces/$t/writes.tsv
            assert_output "$s	$(awk -F '\t' '$1 == "total"' ref/traces/$t/$s.tsv | cut -f2-)"
        done
        (cd ref && rft-energy --format tsv common=traces/$t/common.rft clustered=traces/$t/clustered.rft \
            dispersed=traces/$t/dispersed.rft >traces/$t/energy.tsv)
        cmp ref/traces/$t/energy.tsv uv/traces/$t/energy.tsv
        # the notes and header of the summary
        cmp <(grep '^#' ref/traces/$t/common.tsv) <(grep '^#' uv/traces/$t/writes.tsv)
    done
    # the spilling trace spills
    run -0 awk -F '\t' '$1 == "common" { print $11 }' uv/traces/sp/writes.tsv
    [ "$output" -gt 0 ]
}
