#!/usr/bin/env bats
# Embedding librft (issue 16): `make install` into a staging folder, then,
# with pkg-config alone, a C program that writes a stream as a simulator
# would and a C++ program that reads it back, shared and static; and the
# installed Python reader on the same stream.
load test_helper

EMB="$FIX/embed"
INST=/opt/rftrace                       # the PREFIX of the install

setup_file() {
    make -s -C "$TOP" install DESTDIR="$BATS_FILE_TMPDIR/stage" PREFIX="$INST"
}

setup() {
    STAGE="$BATS_FILE_TMPDIR/stage"
    LIBDIR="$STAGE$INST/lib"
    SHARE="$STAGE$INST/share/rftrace"
    # a library built by `make check SAN=1` needs its programs built alike
    SAN=""
    if readelf -d "$LIBDIR/librft.so.1" 2>/dev/null | grep -q 'NEEDED.*libasan'; then
        SAN="-fsanitize=address,undefined -fno-omit-frame-pointer"
    fi
}

# pkg-config on the staged install (the sysroot maps /opt/rftrace into it)
pc() { PKG_CONFIG_PATH="$LIBDIR/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE" pkg-config "$@"; }

# link flags: shared (pkg-config --libs) or librft.a (pkg-config --static)
libs() {
    if [ "$1" = static ]; then
        echo "-Wl,-Bstatic $(pc --static --libs rft) -Wl,-Bdynamic"
    else
        pc --libs rft
    fi
}

build_writer() {        # build_writer shared|static OUT
    cc $SAN -std=c11 -Wall -Wextra -Werror $(pc --cflags rft) -o "$2" "$EMB/sim_writer.c" $(libs "$1")
}

build_reader() {        # build_reader shared|static OUT
    g++ $SAN -Wall -Wextra -Werror -pedantic $(pc --cflags rft) -o "$2" "$EMB/check_reader.cc" \
        $(libs "$1")
}

# the stream of sim_writer, built against the shared library
write_stream() {
    build_writer shared "$BATS_TEST_TMPDIR/sim"
    LD_LIBRARY_PATH="$LIBDIR" "$BATS_TEST_TMPDIR/sim" "$BATS_TEST_TMPDIR/sim.rft"
}

# the first Python 3 that imports module $1: Debian's python3-* modules are
# for /usr/bin/python3, which another python3 on PATH may hide
python_with() {
    local py
    for py in python3 /usr/bin/python3; do
        "$py" -c "import $1" 2>/dev/null && { echo "$py"; return 0; }
    done
    return 1
}

@test "rft.pc is made at install time: this install's prefix, libdir and version" {
    run -0 env PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --variable=prefix rft
    assert_output "$INST"
    run -0 env PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --variable=libdir rft
    assert_output "$INST/lib"
    run -0 env PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --modversion rft
    assert_output "$(sed -n 's/^#define RFT_VERSION "\(.*\)"/\1/p' "$TOP/lib/rft.h")"
}

@test "install puts the shared library (soname librft.so.1) beside librft.a, the reader and the scripts" {
    version=$(sed -n 's/^#define RFT_VERSION "\(.*\)"/\1/p' "$TOP/lib/rft.h")
    [ -f "$LIBDIR/librft.a" ]
    [ "$(readlink "$LIBDIR/librft.so")" = librft.so.1 ]
    [ "$(readlink "$LIBDIR/librft.so.1")" = "librft.so.$version" ]
    run -0 pipe "readelf -d '$LIBDIR/librft.so.$version' | grep SONAME"
    assert_output --partial "[librft.so.1]"
    [ -f "$STAGE$INST/include/rft.h" ]
    [ -x "$SHARE/rft_reader.py" ]
    for s in "$TOP"/examples/*.sh; do [ -x "$SHARE/examples/$(basename "$s")" ]; done
    [ -f "$SHARE/examples/paper-values.tsv" ]     # reproduce.sh reads it beside itself
    [ -f "$SHARE/params/nbti.conf" ]
}

@test "a C simulator links with pkg-config --libs rft alone and writes a stream" {
    build_writer shared "$BATS_TEST_TMPDIR/sim"
    run -0 pipe "readelf -d '$BATS_TEST_TMPDIR/sim' | grep -c 'NEEDED.*librft.so.1'"
    assert_output 1
    LD_LIBRARY_PATH="$LIBDIR" "$BATS_TEST_TMPDIR/sim" "$BATS_TEST_TMPDIR/sim.rft"
    run -0 rft-view "$BATS_TEST_TMPDIR/sim.rft"
    assert_output "$(cat "$EMB/stream.tsv")"
    run -0 pipe "rft-view -H '$BATS_TEST_TMPDIR/sim.rft' | grep -E '^(producer|lanes|simulator) '"
    assert_output "$(printf 'producer     sim_writer\nlanes        8\nsimulator    embed-test')"
}

@test "a C++ program includes rft.h, links with pkg-config --libs rft and reads the stream back" {
    write_stream
    build_reader shared "$BATS_TEST_TMPDIR/check"
    run -0 env LD_LIBRARY_PATH="$LIBDIR" "$BATS_TEST_TMPDIR/check" "$BATS_TEST_TMPDIR/sim.rft"
    assert_output "$(cat "$EMB/records.txt")"
}

@test "pkg-config --static --libs rft links librft.a with everything it needs" {
    build_writer static "$BATS_TEST_TMPDIR/sim"
    build_reader static "$BATS_TEST_TMPDIR/check"
    run -1 pipe "readelf -d '$BATS_TEST_TMPDIR/sim' '$BATS_TEST_TMPDIR/check' | grep librft"
    "$BATS_TEST_TMPDIR/sim" "$BATS_TEST_TMPDIR/sim.rft"      # no LD_LIBRARY_PATH
    run -0 "$BATS_TEST_TMPDIR/check" "$BATS_TEST_TMPDIR/sim.rft"
    assert_output "$(cat "$EMB/records.txt")"
}

@test "the installed Python reader reads the stream from a file, compressed or not, and stdin" {
    write_stream
    s="$BATS_TEST_TMPDIR/sim"
    zstd -qdc "$s.rft" > "$s.bin"
    for input in "$s.rft" "$s.bin"; do
        run -0 --separate-stderr python3 "$SHARE/rft_reader.py" --text "$input"
        assert_output "$(cat "$EMB/stream.tsv")"
        [ "$stderr" = "$(printf 'kernel\t1\nbegin\t1\nend-wf\t1\nwrite\t3\nread\t1\nrecords\t7')" ]
    done
    run -0 pipe "python3 '$SHARE/rft_reader.py' --text < '$s.rft' 2>/dev/null"
    assert_output "$(cat "$EMB/stream.tsv")"
    head -c 100 "$s.rft" > "$s.cut.rft"
    run -1 --separate-stderr python3 "$SHARE/rft_reader.py" "$s.cut.rft"
    [ "$stderr" = "rft_reader.py: $s.cut.rft: truncated zstd frame" ]
}

# records.txt, from the module's plain Python objects
PRINT_RECORDS='
import sys
sys.path.insert(0, sys.argv[1])
for m in sys.argv[3:]:
    sys.modules[m] = None           # as if not installed
import rft_reader
with rft_reader.open_stream(sys.argv[2]) as s:
    h = s.header
    print("header %s lanes=%d entries=%d block_lanes=%d" % (h.producer, h.lanes, h.entries,
          h.block_lanes) + "".join(" %s=%s" % kv for kv in h.meta))
    for r in s:
        where = "%d %d:%d wf%d" % (r.cycle, r.cu, r.simd, r.wf) if hasattr(r, "wf") else ""
        if r.kind == "kernel":
            print("kernel %d #%d %s" % (r.cycle, r.index, r.name))
        elif r.kind == "begin":
            print("begin %s regs=%d kernel=%d wg=%d" % (where, r.nregs, r.kernel, r.wg))
        elif r.kind == "write":
            assert type(r.mask) is int and type(r.values) is tuple
            print("write %s v%d mask=%02x %s" % (where, r.vreg, r.mask,
                  " ".join("%08x" % v for v in r.values)))
        else:
            print("%s %s%s" % (r.kind, where, " v%d" % r.vreg if r.kind == "read" else ""))
    print("records %d" % s.count)
'

@test "the Python module yields plain objects, through python3-zstandard or the zstd program" {
    write_stream
    py=$(python_with zstandard) || py=python3
    run -0 --separate-stderr "$py" -c "$PRINT_RECORDS" "$SHARE" "$BATS_TEST_TMPDIR/sim.rft"
    assert_output "$(cat "$EMB/records.txt")"
    run -0 --separate-stderr "$py" -c "$PRINT_RECORDS" "$SHARE" "$BATS_TEST_TMPDIR/sim.rft" zstandard numpy
    assert_output "$(cat "$EMB/records.txt")"
}

@test "the Python module gives NumPy arrays when NumPy is there, and says so when it is not" {
    write_stream
    py=$(python_with numpy) || skip "NumPy is not installed (python3-numpy)"
    run -0 "$py" - "$SHARE" "$BATS_TEST_TMPDIR/sim.rft" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import rft_reader
cols = rft_reader.write_arrays(sys.argv[2])
assert cols["values"].dtype == np.uint32 and cols["values"].shape == (3, 8)
assert cols["mask"].dtype == bool and cols["mask"].shape == (3, 8)
with rft_reader.open_stream(sys.argv[2], arrays=True) as s:
    writes = [r for r in s if r.kind == "write"]
for i, w in enumerate(writes):
    assert isinstance(w.values, np.ndarray) and (w.values == cols["values"][i]).all()
    assert (w.mask == cols["mask"][i]).all()
for i in range(len(cols["cycle"])):
    print("write %d %d:%d wf%d v%d mask=%s %s" % (cols["cycle"][i], cols["cu"][i],
          cols["simd"][i], cols["wf"][i], cols["vreg"][i],
          "".join("1" if b else "0" for b in cols["mask"][i]),
          " ".join("%08x" % v for v in cols["values"][i])))
EOF
    # mask as lane 0..7 bits; the values as in records.txt
    assert_output "$(grep '^write' "$EMB/records.txt" |
        sed 's/mask=ff/mask=11111111/;s/mask=0f/mask=11110000/')"
    run -1 "$py" -c "
import sys
sys.path.insert(0, sys.argv[1])
sys.modules['numpy'] = None
import rft_reader
try:
    rft_reader.write_arrays(sys.argv[2])
except rft_reader.Bad as e:
    print(e)
    sys.exit(1)
" "$SHARE" "$BATS_TEST_TMPDIR/sim.rft"
    # the interpreter named (issue 35): a venv's python needs pip, not apt
    exe=$("$py" -c 'import sys; print(sys.executable)')
    assert_output "NumPy is not installed for $exe (Debian: apt-get install python3-numpy; else: $exe -m pip install numpy)"
}

@test "make uninstall removes exactly what make install put" {
    d="$BATS_TEST_TMPDIR/root"
    make -s -C "$TOP" install DESTDIR="$d" PREFIX=/usr
    for f in bin/rft-view lib/librft.so.1 lib/pkgconfig/rft.pc share/rftrace/rft_reader.py \
        share/rftrace/examples/aging.sh share/man/man5/rft.5; do
        [ -e "$d/usr/$f" ]
    done
    run -0 env PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" pkg-config --variable=prefix rft
    assert_output /usr
    # a Python import leaves a byte-code cache beside the reader
    python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import rft_reader" "$d/usr/share/rftrace"
    mkdir -p "$d/usr/share/doc/other" && touch "$d/usr/share/doc/other/keep"
    run -0 make -s -C "$TOP" uninstall DESTDIR="$d" PREFIX=/usr
    run -0 pipe "cd '$d' && find . -type f -o -type l"
    assert_output ./usr/share/doc/other/keep
    [ ! -e "$d/usr/share/rftrace" ]
}

@test "a simulator embeds the gate stage through the installed headers (examples/gate-inline.c)" {
    for l in shared static; do
        cc $SAN -std=c11 -Wall -Wextra -Werror $(pc --cflags rft) -o "$BATS_TEST_TMPDIR/gi-$l" \
            "$TOP/examples/gate-inline.c" $(libs $l)
        run -0 env LD_LIBRARY_PATH="$LIBDIR" "$BATS_TEST_TMPDIR/gi-$l"
        assert_line --index 1 "write 2: v0 in entry 0, 2048 bits powered (woken up)"
        assert_line --index 3 "switch-offs 2, wake-ups 1, compression-table writes 2"
    done
}
