#!/usr/bin/env bats
# examples/rft_reader.py, the Python reader written from rft(5) alone, must
# read what the C library writes exactly as rft-view does, and reject what
# rft-view rejects.
load test_helper

READER="$TOP/examples/rft_reader.py"

setup() {
    rft-decode -o "$BATS_TEST_TMPDIR/small.rft" "$FIX/reader/small.tsv"
    zstd -qdc "$BATS_TEST_TMPDIR/small.rft" > "$BATS_TEST_TMPDIR/small.bin"
}

@test "reader --text prints what rft-view prints" {
    rft-view "$BATS_TEST_TMPDIR/small.rft" > "$BATS_TEST_TMPDIR/view.txt"
    run -0 --separate-stderr python3 "$READER" --text < "$BATS_TEST_TMPDIR/small.bin"
    assert_output "$(cat "$BATS_TEST_TMPDIR/view.txt")"
    # the fixture's lines: its implicit kernel "reduce" is not printed
    assert_output "$(grep -v '^#' "$FIX/reader/small.tsv")"
}

@test "reader --text prints VLIW bundles as rft-view does" {
    rft-decode -o "$BATS_TEST_TMPDIR/a.rft" "$FIX/bundle/bundles.tsv"
    run -0 --separate-stderr pipe "zstd -qdc '$BATS_TEST_TMPDIR/a.rft' | python3 '$READER' --text"
    assert_output "$(rft-view "$BATS_TEST_TMPDIR/a.rft")"
    assert_equal "$(echo "$stderr" | grep bundle)" $'bundle\t6'
}

@test "reader counts records per kind" {
    run -0 pipe "zstd -qdc '$BATS_TEST_TMPDIR/small.rft' | python3 '$READER'"
    assert_output "$(printf 'kernel\t3\nbegin\t3\nend-wf\t3\nwrite\t4\nread\t2\nrecords\t15')"
}

@test "reader reads annotated records and prints them without annotations" {
    # the same trace with every annotation set: records keep their length
    sed "/^W/s/\$/$(printf '\tphys=9\tcls=double\tbs=8\tc0=00000001\tde=00000002\tdb=00000020\twc=delta2\tflags=fb,div,mov,wake\ton=1040')/;/^R/s/\$/$(printf '\tphys=9')/" \
        "$FIX/reader/small.tsv" | rft-decode -o "$BATS_TEST_TMPDIR/ann.rft"
    run -0 pipe "rft-view '$BATS_TEST_TMPDIR/ann.rft' | grep -c 'phys=9'"
    assert_output 6
    run -0 --separate-stderr pipe "zstd -qdc '$BATS_TEST_TMPDIR/ann.rft' | python3 '$READER' --text"
    assert_output "$(rft-view "$BATS_TEST_TMPDIR/small.rft")"
}

@test "reader rejects a stream without its end record" {
    head -c -13 "$BATS_TEST_TMPDIR/small.bin" > "$BATS_TEST_TMPDIR/noend.bin"
    run -1 --separate-stderr python3 "$READER" < "$BATS_TEST_TMPDIR/noend.bin"
    [ "$stderr" = "rft_reader.py: record 16: stream ends without an end record (truncated)" ]
}

@test "reader rejects a stream cut inside a record, like rft-view" {
    head -c -100 "$BATS_TEST_TMPDIR/small.bin" > "$BATS_TEST_TMPDIR/cut.bin"
    run -1 --separate-stderr python3 "$READER" --text < "$BATS_TEST_TMPDIR/cut.bin"
    [[ "$stderr" == *"(truncated)" ]]
    zstd -q -o "$BATS_TEST_TMPDIR/cut.rft" "$BATS_TEST_TMPDIR/cut.bin"
    run -1 rft-view "$BATS_TEST_TMPDIR/cut.rft"
}

@test "reader rejects a truncated compressed file" {
    size=$(stat -c %s "$BATS_TEST_TMPDIR/small.rft")
    head -c $((size / 2)) "$BATS_TEST_TMPDIR/small.rft" > "$BATS_TEST_TMPDIR/half.rft"
    zstd -qdc "$BATS_TEST_TMPDIR/half.rft" > "$BATS_TEST_TMPDIR/half.bin" 2>/dev/null || true
    run -1 --separate-stderr python3 "$READER" --text < "$BATS_TEST_TMPDIR/half.bin"
    [[ "$stderr" == *"(truncated)" ]]
    run -1 rft-view "$BATS_TEST_TMPDIR/half.rft"
}

@test "reader rejects a wrong end count, trailing data, another major version" {
    python3 - "$BATS_TEST_TMPDIR" <<'EOF'
import sys
d = sys.argv[1]
b = bytearray(open(d + "/small.bin", "rb").read())
bad = bytearray(b); bad[-8] ^= 1
open(d + "/count.bin", "wb").write(bad)
open(d + "/trail.bin", "wb").write(b + b"\x00")
v2 = bytearray(b); v2[4] = 2
open(d + "/v2.bin", "wb").write(v2)
EOF
    run -1 --separate-stderr python3 "$READER" < "$BATS_TEST_TMPDIR/count.bin"
    [ "$stderr" = "rft_reader.py: record 16: end record counts 14 records, stream has 15" ]
    run -1 --separate-stderr python3 "$READER" < "$BATS_TEST_TMPDIR/trail.bin"
    [ "$stderr" = "rft_reader.py: record 16: data after the end record" ]
    run -1 --separate-stderr python3 "$READER" < "$BATS_TEST_TMPDIR/v2.bin"
    [ "$stderr" = "rft_reader.py: unsupported format version 2.0 (this reader knows 1.x)" ]
}

@test "reader usage error" {
    run -2 --separate-stderr python3 "$READER" --bogus
    [[ "$stderr" == usage:* ]]
}
