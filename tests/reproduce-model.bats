#!/usr/bin/env bats
# examples/reproduce.sh --m2s-config (issue 32): the seeds' run-time rows
# again under the compute-unit model, each a mean over the traces whose
# baseline (the model at the traced configuration) is within 3 % of the
# traced cycles, with the shift replay's over the same traces beside it.

load test_helper

# one run for the file: a real Multi2Sim 4.2 run decoded with its pipeline
# trace (one compute unit: the model's baseline 1.55 %) and a synthetic
# trace the model does not hold on
setup_file() {
    export TR="$BATS_FILE_TMPDIR/tr" REP="$BATS_FILE_TMPDIR/rep"
    mkdir -p "$TR"
    F="$FIX/m2s42"
    zstd -q -dc "$F/fwt-det.trace.zst" > "$BATS_FILE_TMPDIR/t.txt"
    rft-decode --kernel fastWalshTransform --local-size 256 --cycles-from "$BATS_FILE_TMPDIR/t.txt" \
        -o "$TR/fwt.rft" "$F/fwt-det.isa.zst" 2> /dev/null
    rft-synth --writes 1000 --seed 1 -o "$TR/DCT.rft"
    printf '[ Device ]\nNumComputeUnits = 1\n' > "$BATS_FILE_TMPDIR/one.ini"
    "$TOP/examples/reproduce.sh" --quiet -j 2 --m2s-config "$BATS_FILE_TMPDIR/one.ini" -o "$REP" "$TR" \
        > "$BATS_FILE_TMPDIR/out" 2> "$BATS_FILE_TMPDIR/err"
}

setup() { cd "$BATS_TEST_TMPDIR"; }

@test "the report is made; every trace has its baseline error, a slowdown only where it holds" {
    assert_equal "$(cat "$BATS_FILE_TMPDIR/out")" "$REP/REPORT.md"
    run -0 awk -F '\t' '$2 == "cm_base_err" { print $1, ($3 < 0 ? -$3 : $3) <= 3 }' "$REP/facts.tsv"
    assert_equal "$(echo $output)" "DCT 0 fwt 1"
    run -0 awk -F '\t' '$2 ~ /^cm_slow_/ { print $1 }' "$REP/facts.tsv"
    assert_equal "$(printf '%s\n' "${lines[@]}" | sort -u)" fwt
    assert_equal "${#lines[@]}" 10
    # the facts are model-slowdowns.sh's on that trace
    "$TOP/examples/model-slowdowns.sh" --m2s-config "$BATS_FILE_TMPDIR/one.ini" -o m.tsv "$TR/fwt.rft"
    run -0 awk -F '\t' 'FNR == NR { if (FNR > 1) s["cm_slow_" $1] = $6; next } $1 == "fwt" && ($2 in s) && s[$2] != $3 { print }' \
        m.tsv "$REP/facts.tsv"
    assert_output ""
}

@test "each model row: the mean over the traces it holds on, which it names, and the shift replay over them" {
    run -0 awk -F '\t' '$9 ~ /^cm_slow_/' "$REP/values.tsv"
    assert_equal "${#lines[@]}" 10
    run -0 awk -F '\t' '$9 ~ /^cm_slow_/ && $11 !~ /; the compute-unit model \(rft-replay --model cu, examples\/model-slowdowns.sh\) holds on 1 of 2 traces, its baseline unscaled \(--calibrate none\) within 3% of the traced cycles: fwt; the shift replay over them: -?[0-9.]+%$/' "$REP/values.tsv"
    assert_output ""
    # the value is the trace's fact; the shift replay's is the row of the replay's key on it
    run -0 awk -F '\t' 'FNR == NR { v[$1, $2] = $3; next }
        $1 == "003-f16-si-8-cu" { print ($10 == sprintf("%.2f", v["fwt", "cm_slow_sc8"])), (index($11, "over them: " sprintf("%.2f", v["fwt", "sc_slow_8"]) "%") > 0) }
        $1 == "002-f20-rcrar-cu" { print ($10 == sprintf("%.2f", v["fwt", "cm_slow_rcrar"])), (index($11, "over them: " sprintf("%.2f", v["fwt", "ag_slow_rcrar"]) "%") > 0) }' \
        "$REP/facts.tsv" "$REP/values.tsv"
    assert_equal "$(echo $output)" "1 1 1 1"
    # ARGO adds no cycle, by construction in either model
    run -0 awk -F '\t' '$1 == "002-f20-argo-cu" { print $10, substr($11, 1, 15) }' "$REP/values.tsv"
    assert_output "0.00 by construction"
    # the report prints them in their seed's table
    run -0 grep -F '| Fig. 16 | SC healing overhead, 8 degraded SCs (Southern Islands), compute-unit model |' "$REP/REPORT.md"
}

@test "a model row no trace holds on says why, with each trace's baseline; without --m2s-config it says so" {
    mkdir tr && cp "$TR/DCT.rft" tr/
    "$TOP/examples/reproduce.sh" --quiet -j 2 --m2s-config "$BATS_FILE_TMPDIR/one.ini" -o rep tr > /dev/null
    run -0 awk -F '\t' '$9 ~ /^cm_slow_/ && $10 == "" { print $11 }' rep/values.tsv
    assert_equal "${#lines[@]}" 10
    assert_line --index 0 --regexp '^not computed: the compute-unit model.s baseline unscaled \(--calibrate none\) is within 3% of the traced cycles on no trace \(DCT -?[0-9.]+%\)$'
    rm -rf rep
    "$TOP/examples/reproduce.sh" --quiet -j 2 -o rep tr > /dev/null
    run -0 awk -F '\t' '$9 ~ /^cm_slow_/ { print $11 }' rep/values.tsv
    assert_equal "$(printf '%s\n' "${lines[@]}" | sort -u)" "not computed: no --m2s-config (the compute-unit model, issue 32)"
    run -1 "$TOP/examples/reproduce.sh" --quiet --m2s-config nosuch.ini -o rep tr
    assert_output --partial "nosuch.ini: cannot be read"
}
