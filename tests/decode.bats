#!/usr/bin/env bats
# rft-decode: the canonical text grammar (and CSV) to an rft stream.
# Streams are written to files and compared as text through rft-view.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    D="$FIX/decode"
}

# A W line of the 64-lane default geometry: W CYCLE CU SIMD WF VREG with a
# full exec mask and lanes b + i*de.
wline() { printf 'W\t%s\t%s\t%s\t%s\t%s\tffffffffffffffff\t%s\n' "$1" "$2" "$3" "$4" "$5" "$(lanes_linear "${6:-0}" "${7:-1}")"; }

# decode_fails INPUT LINE MESSAGE [OPTIONS...]: rft-decode of the text INPUT
# (printf format) fails with status 1 and exactly "rft-decode: in.tsv:LINE:
# MESSAGE"; its partial output is then rejected by rft-view as incomplete.
decode_fails() {
    local input=$1 line=$2 msg=$3
    shift 3
    printf "$input" > in.tsv
    run -1 --separate-stderr bash -c 'rft-decode "$@" in.tsv > part.rft' _ "$@"
    assert_equal "$stderr" "rft-decode: in.tsv:$line: $msg"
    run -1 --separate-stderr rft-view part.rft
    [[ "$stderr" == "rft-view: part.rft: "*"truncated)" || "$stderr" == "rft-view: part.rft: empty input" ]]
}

B0='B\t1\t0\t0\t0\t4\n'

# ---- round trips: text -> rft-decode -> rft-view is the identity -------------

@test "round trip: canonical text is reproduced byte for byte" {
    rft-decode "$D/basic.tsv" > s.rft
    run -0 rft-view s.rft
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/basic.tsv"
}

@test "round trip: annotations of later stages survive text" {
    rft-decode "$D/annotated.tsv" > s.rft
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/annotated.tsv"
    run -0 rft-view --stats --format tsv s.rft
    assert_line $'annotated_writes\t4'
}

@test "flags may also be joined by commas on input" {
    sed 's/flags=fb+div+mov+wake/flags=fb,div,mov,wake/' "$D/annotated.tsv" > commas.tsv
    ! cmp -s commas.tsv "$D/annotated.tsv"
    rft-decode commas.tsv > s.rft
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/annotated.tsv"
}

@test "round trip: --lanes 32" {
    rft-decode --lanes 32 "$D/lanes32.tsv" > s.rft
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/lanes32.tsv"
    run -0 rft-view -H --format tsv s.rft
    assert_line $'lanes\t32'
}

@test "round trip: CSV in, CSV out" {
    tr '\t' , < "$D/basic.tsv" > basic.csv
    rft-decode --input-format csv basic.csv > s.rft
    rft-view --format csv s.rft > back.csv
    cmp back.csv basic.csv
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/basic.tsv"
    run -0 rft-view -H --format tsv s.rft
    assert_line $'decoder\tcsv'
}

@test "round trip: CSV of an annotated stream (flags joined by +)" {
    tr '\t' , < "$D/annotated.tsv" > ann.csv
    rft-decode --input-format csv ann.csv > s.rft
    rft-view --format csv s.rft > back.csv
    rft-decode --input-format csv back.csv > again.rft
    rft-view again.rft > back.tsv
    cmp back.tsv "$D/annotated.tsv"
}

@test "round trip: CSV with CRLF line ends" {
    tr '\t' , < "$D/lanes32.tsv" | sed 's/$/\r/' > crlf.csv
    rft-decode --lanes 32 --input-format csv crlf.csv > s.rft
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/lanes32.tsv"
}

@test "round trip: zstd-compressed input, from a file and from stdin" {
    zstd -q -c "$D/basic.tsv" > basic.tsv.zst
    rft-decode basic.tsv.zst > a.rft
    rft-view a.rft > a.tsv
    cmp a.tsv "$D/basic.tsv"
    run -0 pipe "rft-decode < basic.tsv.zst | rft-view > b.tsv"
    cmp b.tsv "$D/basic.tsv"
}

@test "round trip: zstd input of several frames (cat a.zst b.zst)" {
    head -n 10 "$D/basic.tsv" | zstd -q -c > a.zst
    tail -n +11 "$D/basic.tsv" | zstd -q -c > b.zst
    cat a.zst b.zst > ab.zst
    rft-decode ab.zst > s.rft
    rft-view s.rft > back.tsv
    cmp back.tsv "$D/basic.tsv"
}

@test "round trip: a pipeline from stdin, '-' and no argument alike" {
    run -0 pipe "rft-decode - < '$D/basic.tsv' | rft-view - > a.tsv"
    cmp a.tsv "$D/basic.tsv"
    run -0 pipe "cat '$D/basic.tsv' | rft-decode | rft-view > b.tsv"
    cmp b.tsv "$D/basic.tsv"
}

@test "round trip: odd geometries, 6 lanes in blocks of 3, 1 lane, 1024 lanes" {
    printf 'B\t1\t0\t0\t0\t4\nW\t2\t0\t0\t0\t0\t3f\t%s\nW\t3\t0\t0\t0\t1\t15\t%s\nE\t4\t0\t0\t0\n' \
        "$(lanes_linear 5 1 6)" "$(lanes_linear 0 0 6)" > l6.tsv
    rft-decode --lanes 6 --block-lanes 3 l6.tsv > l6.rft
    rft-view l6.rft > back6.tsv
    cmp back6.tsv l6.tsv
    printf 'B\t1\t0\t0\t0\t4\nW\t2\t0\t0\t0\t0\t1\tdeadbeef\nE\t4\t0\t0\t0\n' > l1.tsv
    rft-decode --lanes 1 --block-lanes 1 l1.tsv > l1.rft
    rft-view l1.rft > back1.tsv
    cmp back1.tsv l1.tsv
    awk 'BEGIN { print "B\t1\t0\t0\t0\t4"; printf "W\t2\t0\t0\t0\t0\t"
        for (i = 0; i < 256; i++) printf "f"
        for (i = 0; i < 1024; i++) printf "\t%08x", i * 3
        printf "\nE\t3\t0\t0\t0\n" }' > l1024.tsv
    rft-decode --lanes 1024 l1024.tsv > l1024.rft
    rft-view l1024.rft > back1024.tsv
    cmp back1024.tsv l1024.tsv
}

@test "round trip: rft-view | rft-decode | rft-view is stable" {
    rft-decode "$D/annotated.tsv" > a.rft
    run -0 pipe "rft-view a.rft | rft-decode | rft-view > again.tsv"
    cmp again.tsv "$D/annotated.tsv"
}

@test "round trip: the stream is the same whatever the zstd level" {
    rft-decode --level 19 "$D/basic.tsv" > hi.rft
    rft-decode --level 1 "$D/basic.tsv" > lo.rft
    rft-view hi.rft > hi.tsv
    rft-view lo.rft > lo.tsv
    cmp hi.tsv lo.tsv
    cmp hi.tsv "$D/basic.tsv"
}

@test "--flush makes records available while the input is still open" {
    mkfifo in.fifo
    rft-decode --flush < in.fifo > live.rft 2> err.txt &
    local pid=$! i
    exec 7> in.fifo
    printf 'K\t1\tk\n' >&7
    for i in $(seq 50); do [[ -s live.rft ]] && break; sleep 0.1; done
    run -1 --separate-stderr rft-view live.rft
    exec 7>&-
    wait $pid
    assert_output $'K\t1\tk'
}

# ---- the grammar's freedoms ---------------------------------------------------

@test "spaces, tabs, comments, blank lines, CRLF, upper case, 0x and short hex" {
    rft-decode "$D/messy.tsv" > s.rft
    rft-view s.rft > out.tsv
    cmp out.tsv "$D/messy.out.tsv"
}

@test "'# key=value' lines before the first record become header metadata" {
    rft-decode "$D/messy.tsv" > s.rft
    run -0 rft-view -H --format tsv s.rft
    assert_line $'gpu\tHD7770'
    assert_line $'workload\tdemo run 1'
    assert_line $'source\t'"$D/messy.tsv"
    assert_line $'decoder\ttext'
    refute_line --regexp '^note'     # a key, not the path of the source (which may hold 'note')
}

@test "'# key=value' after the first record: kept as a comment, one warning" {
    printf 'K\t1\tk\n# late=1\n# later=2\n' > in.tsv
    run -0 --separate-stderr bash -c 'rft-decode in.tsv > s.rft'
    assert_equal "$stderr" "rft-decode: warning: in.tsv: 2 '# key=value' lines after the first record were kept as comments (metadata must come first)"
    run -0 rft-view -H --format tsv s.rft
    refute_line --partial 'late'
}

@test "empty input is an empty but complete stream" {
    : > empty.tsv
    rft-decode empty.tsv > s.rft
    run -0 --separate-stderr rft-view s.rft
    assert_equal "$output" ""
    assert_equal "$stderr" ""
    run -0 rft-view --stats --format tsv s.rft
    assert_line $'records\t0'
}

@test "comments only: an empty stream with metadata" {
    printf '# gpu=x\n# just a comment\n\n' > c.tsv
    rft-decode c.tsv > s.rft
    run -0 rft-view s.rft
    assert_equal "$output" ""
    run -0 rft-view -H --format tsv s.rft
    assert_line $'gpu\tx'
}

@test "a last line without a newline is still decoded" {
    printf 'K\t1\tk\nB\t2\t0\t0\t0\t4\nE\t3\t0\t0\t0' > in.tsv
    rft-decode in.tsv > s.rft
    run -0 rft-view s.rft
    assert_equal "${#lines[@]}" 3
    assert_line --index 2 $'E\t3\t0\t0\t0'
}

@test "B naming a new kernel implies a K record; view prints only the B line" {
    printf 'B\t5\t0\t0\t0\t4\tnewk\t3\nE\t6\t0\t0\t0\n' > in.tsv
    rft-decode in.tsv > s.rft
    rft-view s.rft > out.tsv
    cmp out.tsv in.tsv
    run -0 rft-view --stats --format tsv s.rft
    assert_line $'kernels\t1'
    run -0 rft-view --kernel newk s.rft
    assert_equal "${#lines[@]}" 2
}

@test "a wavefront may begin again after it ended" {
    { printf 'B\t1\t0\t0\t0\t4\nE\t2\t0\t0\t0\nB\t3\t0\t0\t0\t4\n'; wline 4 0 0 0 3; printf 'E\t5\t0\t0\t0\n'; } > in.tsv
    rft-decode in.tsv > s.rft
    rft-view s.rft > out.tsv
    cmp out.tsv in.tsv
}

@test "the same wavefront id on two slices is two wavefronts" {
    { printf 'B\t1\t0\t0\t7\t4\nB\t1\t0\t1\t7\t4\n'; wline 2 0 1 7 0; printf 'E\t3\t0\t0\t7\nE\t3\t0\t1\t7\n'; } > in.tsv
    rft-decode in.tsv > s.rft
    rft-view s.rft > out.tsv
    cmp out.tsv in.tsv
}

@test "-o FILE writes the stream there and nothing to stdout" {
    run -0 --separate-stderr rft-decode -o out.rft "$D/basic.tsv"
    assert_equal "$output" ""
    rft-view out.rft > back.tsv
    cmp back.tsv "$D/basic.tsv"
    run -0 ls
    refute_output --partial 'tmp'
}

@test "-o FILE: a failed run leaves neither the file nor a temporary" {
    printf 'K\t1\tk\nK\t0\tk\n' > in.tsv
    mkdir o
    run -1 --separate-stderr rft-decode -o o/out.rft in.tsv
    assert_equal "$stderr" "rft-decode: in.tsv:2: cycle 0 goes backwards (previous 1)"
    run -0 ls -A o
    assert_output ''
}

@test "-o FILE gets the mode a shell redirection would give" {
    umask 022
    rft-decode -o out.rft "$D/basic.tsv"
    run -0 stat -c %a out.rft
    assert_output 644
}

@test "-o FILE: a failed run keeps an older file of that name intact" {
    rft-decode -o out.rft "$D/basic.tsv"
    cp out.rft before.rft
    printf 'X\n' > in.tsv
    run -1 rft-decode -o out.rft in.tsv
    cmp out.rft before.rft
}

@test "decoding is deterministic: the same text gives the same bytes" {
    rft-decode < "$D/basic.tsv" > a.rft
    rft-decode < "$D/basic.tsv" > b.rft
    cmp a.rft b.rft
}

# ---- bad text: one line naming input and line, status 1, no end record ---------

@test "wrong field count: K" {
    decode_fails 'K\t1\tk\nK\t2\n' 2 "K line has 2 fields, expected 3"
}

@test "wrong field count: B too short and too long" {
    decode_fails 'B\t1\t0\t0\t0\n' 1 "B line has 5 fields, expected 6 to 8"
    decode_fails 'B\t1\t0\t0\t0\t4\tk\t1\tx\n' 1 "B line has 9 fields, expected 6 to 8"
}

@test "wrong field count: E" {
    decode_fails "${B0}E\t2\t0\t0\t0\t0\n" 2 "E line has 6 fields, expected 5"
}

@test "wrong field count: R with an extra field" {
    decode_fails "${B0}R\t2\t0\t0\t0\t0\t5\n" 2 "unexpected field '5' (wrong field count?)"
}

@test "wrong field count: W with too few lanes" {
    decode_fails "${B0}W\t2\t0\t0\t0\t0\tffffffffffffffff\t$(lanes_linear 0 1 63)\n" 2 \
        "W line has 70 fields, expected 71 (64 lanes)"
}

@test "wrong field count: 64-lane W lines under --lanes 32" {
    decode_fails "${B0}W\t2\t0\t0\t0\t0\tffffffff\t$(lanes_linear 0 1)\n" 2 \
        "unexpected field '00000020' (wrong field count?)" --lanes 32
}

@test "the exec mask may not name lanes that do not exist" {
    decode_fails "${B0}W\t2\t0\t0\t0\t0\t1ffffffffffffffff\t$(lanes_linear 0 1)\n" 2 \
        "exec mask '1ffffffffffffffff' is wider than 64 lanes"
    decode_fails "${B0}W\t2\t0\t0\t0\t0\t1ffffffff\t$(lanes_linear 0 1 32)\n" 2 \
        "exec mask '1ffffffff' is wider than 32 lanes" --lanes 32
}

@test "bad hex: a lane value" {
    local l
    l=$(lanes_linear 0 1)
    decode_fails "${B0}W\t2\t0\t0\t0\t0\tffffffffffffffff\t${l/00000003/0000000g}\n" 2 \
        "bad hex value of lane 3 '0000000g'"
    decode_fails "${B0}W\t2\t0\t0\t0\t0\tffffffffffffffff\t${l/00000005/0x}\n" 2 \
        "bad hex value of lane 5 '0x'"
}

@test "bad hex: the exec mask" {
    decode_fails "${B0}W\t2\t0\t0\t0\t0\tfffffffffffffffg\t$(lanes_linear 0 1)\n" 2 \
        "bad hex exec mask 'fffffffffffffffg'"
}

@test "a value wider than 32 bits" {
    local l
    l=$(lanes_linear 0 1)
    decode_fails "${B0}W\t2\t0\t0\t0\t0\tffffffffffffffff\t${l/00000000/100000000}\n" 2 \
        "value of lane 0 '100000000' is wider than 32 bits"
}

@test "leading zeros do not make a value wider than 32 bits" {
    local l
    l=$(lanes_linear 0 1)
    printf "${B0}W\t2\t0\t0\t0\t0\tffffffffffffffff\t${l/00000001/0000000000000001}\n" > in.tsv
    rft-decode in.tsv > s.rft
    run -0 rft-view --kind W s.rft
    assert_output --partial $'00000000\t00000001\t00000002'
}

@test "cycle going backwards" {
    decode_fails 'K\t10\tk\nK\t9\tj\n' 2 "cycle 9 goes backwards (previous 10)"
}

@test "bad numbers: negative, fractional, too big, out of range" {
    decode_fails 'K\t-1\tk\n' 1 "bad cycle '-1'"
    decode_fails 'K\t1.5\tk\n' 1 "bad cycle '1.5'"
    decode_fails 'K\t18446744073709551616\tk\n' 1 "bad cycle '18446744073709551616'"
    decode_fails 'B\t1\t65536\t0\t0\t4\n' 1 "cu 65536 out of range (at most 65535)"
    decode_fails 'B\t1\t0\t0\t4294967295\t4\n' 1 "wavefront 4294967295 out of range (at most 4294967294)"
    decode_fails 'B\t1\t0\t0\t0\t4\tk\t4294967295\n' 1 "work-group 4294967295 out of range (at most 4294967294)"
}

@test "the largest values of every field are accepted" {
    printf 'B\t18446744073709551615\t65535\t65535\t4294967294\t256\tk\t4294967294\n' > in.tsv
    printf 'E\t18446744073709551615\t65535\t65535\t4294967294\n' >> in.tsv
    rft-decode in.tsv > s.rft
    rft-view s.rft > out.tsv
    cmp out.tsv in.tsv
}

@test "W, R and E for a wavefront that has not begun" {
    decode_fails "$(wline 1 0 0 0 0)\n" 1 "W for wavefront 0 on slice (0,0), which has not begun"
    decode_fails "${B0}R\t2\t0\t1\t0\t0\n" 2 "R for wavefront 0 on slice (0,1), which has not begun"
    decode_fails "${B0}E\t2\t0\t0\t1\n" 2 "E for wavefront 1 on slice (0,0), which has not begun"
}

@test "W after the wavefront ended" {
    decode_fails "${B0}E\t2\t0\t0\t0\n$(wline 3 0 0 0 0)\n" 3 "W for wavefront 0 on slice (0,0), which has not begun"
}

@test "B of a wavefront that is already running" {
    decode_fails "${B0}B\t2\t0\t0\t0\t4\n" 2 "wavefront 0 begins again on slice (0,0) while running"
}

@test "a register outside the wavefront's window" {
    decode_fails "${B0}$(wline 2 0 0 0 4)\n" 2 "register v4 outside the window of 4 registers of wavefront 0"
    decode_fails "${B0}R\t2\t0\t0\t0\t4\n" 2 "register v4 outside the window of 4 registers of wavefront 0"
}

@test "a window of no registers, or of more than the slice holds" {
    decode_fails 'B\t1\t0\t0\t0\t0\n' 1 "nvgprs 0: a wavefront needs at least one register"
    decode_fails 'B\t1\t0\t0\t0\t257\n' 1 "nvgprs 257 out of range (at most 256)"
    decode_fails 'B\t1\t0\t0\t0\t9\n' 1 "nvgprs 9 out of range (at most 8)" --entries 8
}

@test "unknown record type and unknown annotation" {
    decode_fails 'X\t1\n' 1 "unknown record type 'X'"
    decode_fails 'KB\t1\tk\n' 1 "unknown record type 'KB'"
    decode_fails "${B0}R\t2\t0\t0\t0\t0\tfoo=1\n" 2 "unknown annotation 'foo'"
    decode_fails "${B0}$(wline 2 0 0 0 0)\tcls=weird\n" 2 "unknown class 'weird'"
}

@test "a line longer than 1 MiB" {
    head -c 1200000 /dev/zero | tr '\0' a > long.tsv
    echo >> long.tsv
    run -1 --separate-stderr bash -c 'rft-decode long.tsv > part.rft'
    assert_equal "$stderr" "rft-decode: long.tsv:1: line longer than 1 MiB"
}

@test "a kernel name longer than 4095 bytes" {
    printf 'K\t1\t%s\n' "$(head -c 4095 /dev/zero | tr '\0' n)" > ok.tsv
    rft-decode ok.tsv > ok.rft
    rft-view ok.rft > back.tsv
    cmp back.tsv ok.tsv
    decode_fails "K\t1\t$(head -c 4096 /dev/zero | tr '\0' n)\n" 1 "kernel name longer than 4095 bytes"
}

@test "line numbers count comments and blank lines" {
    decode_fails '# a\n\n# b\nK\t1\tk\n\nK\t0\tk\n' 6 "cycle 0 goes backwards (previous 1)"
}

@test "stdin is named '-' in messages" {
    printf 'K\t1\n' > in.tsv
    run -1 --separate-stderr bash -c 'rft-decode < in.tsv > part.rft'
    assert_equal "$stderr" "rft-decode: -:1: K line has 2 fields, expected 3"
}

@test "an error in CSV names the line" {
    printf 'K,1,k\nB,1,0,0,0,4,k,0,\n' > in.csv
    run -1 --separate-stderr bash -c 'rft-decode --input-format csv in.csv > part.rft'
    assert_equal "$stderr" "rft-decode: in.csv:2: B line has 9 fields, expected 6 to 8"
    run -1 --separate-stderr rft-view part.rft
    assert_equal "$stderr" "rft-view: part.rft: record 2: stream ends without an end record (truncated)"
}

@test "CSV: an unterminated quoted field is an error, not silently dropped rows" {
    printf 'K,1,k\nK,2,"j\nK,3,m\n' > in.csv
    run -1 --separate-stderr bash -c 'rft-decode --input-format csv in.csv > part.rft'
    assert_output ""
    [[ "$stderr" == "rft-decode: in.csv:"* ]]
    assert_equal "${#stderr_lines[@]}" 1
    run -1 rft-view part.rft
}

@test "the partial output of a failed run is rejected as truncated" {
    { printf 'K\t1\tk\n%b' "$B0"; wline 2 0 0 0 0; printf 'X\n'; } > in.tsv
    run -1 --separate-stderr bash -c 'rft-decode in.tsv > part.rft'
    assert_equal "$stderr" "rft-decode: in.tsv:4: unknown record type 'X'"
    run -1 --separate-stderr rft-view part.rft
    assert_equal "$stderr" "rft-view: part.rft: record 4: stream ends without an end record (truncated)"
    # what came before the error is still readable
    assert_equal "${#lines[@]}" 3
}

@test "in a pipeline the failure shows in the status and downstream rejects the stream" {
    printf 'K\t1\tk\nK\t0\tk\n' > in.tsv
    run -1 --separate-stderr pipe 'rft-decode in.tsv | rft-view > out.tsv'
    assert_equal "${#stderr_lines[@]}" 2
    assert_equal "${stderr_lines[0]}" "rft-decode: in.tsv:2: cycle 0 goes backwards (previous 1)"
    assert_equal "${stderr_lines[1]}" "rft-view: -: record 2: stream ends without an end record (truncated)"
}

@test "corrupt zstd input" {
    for i in 1 2 3 4 5 6 7 8; do cat "$D/basic.tsv"; done | zstd -q -c > in.zst
    python3 -c '
import sys
b = bytearray(open("in.zst", "rb").read())
m = len(b) // 2
for i in range(m, m + 8): b[i] ^= 0xff
open("bad.zst", "wb").write(b)'
    run -1 --separate-stderr bash -c 'rft-decode bad.zst > part.rft'
    [[ "$stderr" =~ ^rft-decode:\ bad\.zst:[0-9]+:\ corrupt\ zstd\ data ]]
    assert_equal "${#stderr_lines[@]}" 1
    run -1 rft-view part.rft
}

@test "truncated zstd input" {
    zstd -q -c "$D/basic.tsv" > in.zst
    head -c $(( $(wc -c < in.zst) / 2 )) in.zst > cut.zst
    run -1 --separate-stderr bash -c 'rft-decode cut.zst > part.rft'
    [[ "$stderr" =~ ^rft-decode:\ cut\.zst:[0-9]+:\ truncated\ zstd\ frame$ ]]
    run -1 rft-view part.rft
}

@test "a missing input file, an output in a missing directory" {
    run -1 --separate-stderr rft-decode nosuch.tsv
    assert_equal "$stderr" "rft-decode: nosuch.tsv: No such file or directory"
    run -1 --separate-stderr rft-decode -o nodir/out.rft "$D/basic.tsv"
    assert_equal "$stderr" "rft-decode: nodir/out.rft: No such file or directory"
}

# ---- usage ---------------------------------------------------------------------

@test "usage errors exit 2" {
    local a
    for a in "--lanes 0" "--lanes 1025" "--lanes x" "--entries 0" "--format xml" \
             "--block-lanes 5" "--level 99" "--bogus" "- -"; do
        run -2 --separate-stderr rft-decode $a < /dev/null
        [[ "$stderr" == "rft-decode: "* ]]
        assert_output ""
    done
}

@test "--help prints the synopsis and exits 0" {
    run -0 rft-decode --help
    assert_line --index 0 --partial 'rft-decode [-o FILE]'
}

# ---- output failures -------------------------------------------------------------

@test "writing to a full disk is an error" {
    run -1 --separate-stderr bash -c "rft-decode '$D/basic.tsv' > /dev/full"
    assert_equal "$stderr" "rft-decode: standard output: No space left on device"
    run -1 --separate-stderr rft-decode -o /dev/full "$D/basic.tsv"
    assert_equal "$stderr" "rft-decode: /dev/full: No space left on device"
}

@test "the reader of the output goes away: quiet end" {
    awk 'BEGIN { print "B\t0\t0\t0\t0\t4"
        for (i = 0; i < 20000; i++) { printf "W\t%d\t0\t0\t0\t%d\tffffffffffffffff", i, i % 4
            for (l = 0; l < 64; l++) printf "\t%08x", (i * 7919 + l * 104729) % 2147483647
            printf "\n" } }' > big.tsv
    run --separate-stderr pipe 'rft-decode big.tsv | head -c 100 > /dev/null'
    assert_equal "$stderr" ""
    [[ $status -eq 0 || $status -eq 141 ]]
}
