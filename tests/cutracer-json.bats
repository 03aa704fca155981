#!/usr/bin/env bats
# CUTracer's JSON reader (lib/dec_cutracer.c) where it was made faster for
# the fuzzing harness (issue 21): strings scanned to a quote memchr found
# (escaped quotes, control characters, unterminated strings), keys matched
# by length and first byte (every key, near misses skipped), the 32 values
# of a register read up to the first ']' (ten digits, leading zeros, more
# than 2^32), numbers; and the format detected where "type" comes late in a
# line (find() in lib/decoders.c).  Every message is the one of the reader
# before the change, column included.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    printf '{"type":"kernel_launch","kernel_launch_id":9,"kernel_name":"k","nregs":8}\n' > ev.ndjson
}

# [V,...] of 32 values V
regs32() {
    local out="" t
    for ((t = 0; t < 32; t++)); do out+=",$1"; done
    printf '[%s]' "${out:1}"
}

# each line of standard input, JSON|MESSAGE: the JSON as a trace's second
# line (@V@ stands for 32 values V) is refused with MESSAGE
refused() {
    local json msg
    while IFS='|' read -r json msg; do
        while [[ $json =~ @([0-9]+)@ ]]; do
            json=${json/"${BASH_REMATCH[0]}"/$(regs32 "${BASH_REMATCH[1]}")}
        done
        printf '{"type":"callstack_def"}\n%s\n' "$json" > h.ndjson
        run -1 --separate-stderr rft-decode --input-format cutracer --assume-all-lanes-active --kernel-events ev.ndjson -o x.rft h.ndjson
        assert_equal "$stderr" "rft-decode: h.ndjson:2: $msg"
        [ ! -e x.rft ]
    done
}

@test "cutracer JSON: strings with escaped quotes, control characters, no closing quote" {
    refused <<'EOF'
{"type":"reg_trace","sass":"a\"b"}|column 1: a reg_trace record needs cta, warp, grid_launch_id and regs
{"type":"reg_trace","s":"a\"b|column 25: unterminated string
{"type":"reg_trace","s":"a\"b\"c\\\\|column 25: unterminated string
{"type":"reg_trace","s":"abc\|column 29: bad escape in a string
{"type":"reg_trace","s":"a\"b	c"}|column 30: control character in a string
{"type":"reg_trace","s":"\"\"\"\"\"\"\"\"	"}|column 42: control character in a string
{"type":"reg_trace","s":"\u0041\u00e9\"x"}|column 1: a reg_trace record needs cta, warp, grid_launch_id and regs
{"type":"reg_trace","s":"\"\u12"}|column 28: bad \u escape in a string
{"ty\u0070e":"reg_trace"}|column 1: a record without "type"
EOF
}

@test "cutracer JSON: every key known (a second one refused), near misses skipped" {
    refused <<'EOF'
{"type":"reg_trace","type":"x"}|column 21: duplicate key 'type'
{"type":"reg_trace","cta":[0,0,0],"cta":[0,0,0]}|column 35: duplicate key 'cta'
{"type":"reg_trace","grid":[1,1,1],"grid":[1,1,1]}|column 36: duplicate key 'grid'
{"type":"reg_trace","block":[1,1,1],"block":[1,1,1]}|column 37: duplicate key 'block'
{"type":"reg_trace","nregs":1,"nregs":1}|column 31: duplicate key 'nregs'
{"type":"reg_trace","uregs":[],"uregs":[]}|column 32: duplicate key 'uregs'
{"type":"reg_trace","sass":"x","sass":"x"}|column 32: duplicate key 'sass'
{"type":"reg_trace","opcode_id":1,"opcode_id":1}|column 35: duplicate key 'opcode_id'
{"type":"reg_trace","active_mask":"0x1","active_mask":"0x1"}|column 41: duplicate key 'active_mask'
{"type":"reg_trace","kernel_name":"k","kernel_name":"k"}|column 39: duplicate key 'kernel_name'
{"type":"reg_trace","regs_indices":[],"regs_indices":[]}|column 39: duplicate key 'regs_indices'
{"type":"reg_trace","mangled_name":"k","mangled_name":"k"}|column 40: duplicate key 'mangled_name'
{"type":"reg_trace","instructions":{},"instructions":{}}|column 39: duplicate key 'instructions'
{"type":"reg_trace","unmangled_name":"k","unmangled_name":"k"}|column 42: duplicate key 'unmangled_name'
{"type":"reg_trace","grid_launch_id":1,"kernel_launch_id":1}|column 40: two launch ids
{"type":"reg_trace","regs":[],"regs":[]}|column 31: duplicate key 'regs'
{"type":"reg_trace","warp":0,"warp":0}|column 30: duplicate key 'warp'
EOF
    # keys one byte off the known ones are skipped: an empty trace
    printf '{"typo":1,"type":"callstack_def","regz":[1],"cte":2,"warp_":3,"grid_launch":4,"kernel_names":5,"Type":6}\n' > h.ndjson
    run -0 --separate-stderr rft-decode --input-format cutracer -o x.rft h.ndjson
    assert_equal "$stderr" "rft-decode: warning: h.ndjson: no records: the trace is empty"
}

@test "cutracer JSON: a register's 32 values and numbers" {
    refused <<'EOF'
{"type":"reg_trace","regs":[@4294967295@],"regs":[]}|column 384: duplicate key 'regs'
{"type":"reg_trace","regs":[@4294967296@]}|column 30: register value: '4294967296' is not an integer 0 to 4294967295
{"type":"reg_trace","regs":[@12345678901@]}|column 30: register value: '12345678901' is not an integer 0 to 4294967295
{"type":"reg_trace","regs":[@99999999999999999999999@]}|column 30: register value: '99999999999999999999999' is not an integer 0 to 4294967295
{"type":"reg_trace","regs":[@07@]}|column 31: expected ',' or ']'
{"type":"reg_trace","regs":[@7@,[1,2]}|column 100: a register with fewer than 32 thread values
{"type":"reg_trace","regs":[[1,2,3|column 35: expected ',' or ']'
{"type":"reg_trace","regs":[[1,2,3]|column 36: a register with fewer than 32 thread values
{"type":"reg_trace","regs":[[1, 2,3]]}|column 37: a register with fewer than 32 thread values
{"type":"reg_trace","regs":[@0@|column 94: expected ',' or ']'
{"type":"reg_trace","warp":123456789012345678901234567890}|column 28: warp: '123456789012345678901234' is not an integer 0 to 1099511627775
{"type":"reg_trace","warp":1.25e+3}|column 28: warp: '1.25e+3' is not an integer 0 to 1099511627775
{"type":"reg_trace","warp":-0.5E-2}|column 28: warp: '-0.5E-2' is not an integer 0 to 1099511627775
{"type":"reg_trace","warp":1.}|column 30: bad number
{"type":"reg_trace","warp":1e+}|column 31: bad number
EOF
}

@test "cutracer JSON: detected where \"type\" comes after many quoted strings, not on a near miss" {
    local pad="" i first
    for ((i = 0; i < 200; i++)); do pad+="\"k$i\":\"\\\"v\\\"\","; done
    first=$(head -n 1 "$FIX/cutracer/vadd.ndjson")
    { printf '{%s%s\n' "$pad" "${first#\{}"; tail -n +2 "$FIX/cutracer/vadd.ndjson"; } > late.ndjson
    run -0 --separate-stderr rft-decode -o late.rft late.ndjson
    rft-decode --input-format cutracer -o direct.rft "$FIX/cutracer/vadd.ndjson" 2> /dev/null
    cmp <(rft-view late.rft | grep -v '^#') <(rft-view direct.rft | grep -v '^#')
    # "type":"reg_trac" and the like: not CUTracer's
    printf '{"a":"\\"type\\":\\"reg_trac","type":"reg_trac","b":"\\"type\\":\\"kernel_launc"}\n' > near.ndjson
    run rft-decode -o near.rft near.ndjson
    [ "$status" -ne 0 ]
    [[ $stderr$output != *cutracer* ]]
}
