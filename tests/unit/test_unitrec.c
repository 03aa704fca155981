/* test_unitrec.c - the unit record (kind 0x07) is a record of its wavefront,
 * as a bundle is: rule 8 of rft(5) (cycle order, between its wavefront's
 * begin and end) checked by an RFT_READ_ORDER reader, the reserved
 * wavefront id refused, a shard's reader keeps it with its slice only;
 * rft_rec_cycle and rft_rec_wf read it; a malformed one is left to the
 * stages (no cycle, no wavefront). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static char dir[] = "/tmp/test_unitrec.XXXXXX";

/* what a stream holds: 'B'/'E' begin or end of wf on slice 0:simd, 'U' a
 * unit record (wf 0xFFFFFFFF where wf says so) */
typedef struct { char what; uint64_t cycle; uint16_t simd; uint32_t wf; } ev;

static const char *write_stream(const char *name, const ev *e, int n)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    rft_header h;
    rft_header_init(&h, "test");
    rft_geom_default(&h.geom);
    char err[256];
    rft_writer *w = rft_writer_open(path, &h, NULL, err, sizeof err);
    CHECK(w);
    for (int i = 0; i < n; i++) {
        if (e[i].what == 'B') {
            rft_wfbegin b = {.cycle = e[i].cycle, .simd = e[i].simd, .wf = e[i].wf, .nregs = 4,
                             .kernel = RFT_NO_KERNEL, .wg = RFT_NO_WG};
            CHECK(rft_write_begin(w, &b) == 0);
        } else if (e[i].what == 'E') {
            rft_wfend x = {.cycle = e[i].cycle, .simd = e[i].simd, .wf = e[i].wf};
            CHECK(rft_write_end(w, &x) == 0);
        } else {
            uint8_t p[RFT_UNITREC_LEN];
            rft_unit_encode(p, &(rft_unitrec){e[i].cycle, 0, e[i].simd, e[i].wf, RFT_WF_LDS});
            CHECK(rft_write_raw(w, RFT_UNITREC, p, RFT_UNITREC_LEN) == 0);
        }
    }
    CHECK(rft_writer_close(w, 1, err, sizeof err) == 0);
    rft_header_free(&h);
    return path;
}

/* read it all: 0, or the error with its message in why */
static int read_all(const char *path, int flags, uint32_t shard, uint32_t nshards, int *units,
                    char *why, size_t n)
{
    char err[256];
    rft_reader *r = rft_reader_open_flags(path, flags, err, sizeof err);
    CHECK(r);
    if (nshards)
        CHECK(rft_reader_shard(r, shard, nshards) == 0);
    rft_rec rec;
    int e;
    *units = 0;
    while ((e = rft_read(r, &rec)) == 0) {
        if (rec.kind != RFT_UNITREC)
            continue;
        uint16_t cu, simd;
        uint32_t wf;
        CHECK(rft_rec_wf(&rec, &cu, &simd, &wf) == 1 && cu == 0);
        CHECK(rft_rec_cycle(&rec) > 0);
        if (nshards)
            CHECK(simd % nshards == shard);     /* the slice's shard (SIMDs 0..3 of CU 0) */
        (*units)++;
    }
    snprintf(why, n, "%s", e == RFT_EOF ? "" : rft_reader_error(r));
    rft_reader_close(r);
    return e == RFT_EOF ? 0 : e;
}

int main(void)
{
    CHECK(mkdtemp(dir));
    char why[512];
    int units;

    /* in order, inside its wavefront: read with and without the check */
    const ev good[] = {{'B', 0, 0, 0}, {'B', 1, 1, 5}, {'U', 3, 0, 0}, {'U', 4, 1, 5},
                       {'E', 9, 0, 0}, {'U', 10, 1, 5}, {'E', 11, 1, 5}};
    const char *p = write_stream("good.rft", good, 7);
    CHECK(read_all(p, RFT_READ_ORDER, 0, 0, &units, why, sizeof why) == 0 && units == 3);
    /* a shard's reader: a unit record with its slice only */
    int u0, u1;
    CHECK(read_all(p, RFT_READ_ORDER, 0, 2, &u0, why, sizeof why) == 0);
    CHECK(read_all(p, RFT_READ_ORDER, 1, 2, &u1, why, sizeof why) == 0);
    CHECK(u0 == 1 && u1 == 2);

    /* out of cycle order (an rft-repeat copy at copy 0's cycles) */
    const ev late[] = {{'B', 0, 0, 0}, {'B', 8, 1, 5}, {'U', 3, 0, 0}, {'E', 9, 0, 0},
                       {'E', 9, 1, 5}};
    p = write_stream("late.rft", late, 5);
    CHECK(read_all(p, 0, 0, 0, &units, why, sizeof why) == 0 && units == 1);
    CHECK(read_all(p, RFT_READ_ORDER, 0, 0, &units, why, sizeof why) == RFT_EFORMAT);
    CHECK(strstr(why, "unit record at cycle 3 after cycle 8 (out of cycle order)"));

    /* outside its wavefront */
    const ev after[] = {{'B', 0, 0, 0}, {'E', 2, 0, 0}, {'U', 3, 0, 0}};
    p = write_stream("after.rft", after, 3);
    CHECK(read_all(p, RFT_READ_ORDER, 0, 0, &units, why, sizeof why) == RFT_EFORMAT);
    CHECK(strstr(why, "unit record of wavefront 0 on slice 0:0, which has not begun"));

    /* the reserved wavefront id */
    const ev reserved[] = {{'U', 3, 0, 0xFFFFFFFFu}};
    p = write_stream("reserved.rft", reserved, 1);
    CHECK(read_all(p, 0, 0, 0, &units, why, sizeof why) == RFT_EFORMAT);
    CHECK(strstr(why, "reserved wavefront id 4294967295"));

    /* a malformed one (no unit bit) has neither cycle nor wavefront here */
    rft_rec rec = {.kind = RFT_UNITREC};
    uint8_t b[RFT_UNITREC_LEN];
    rft_unit_encode(b, &(rft_unitrec){7, 1, 2, 3, 0});
    rec.raw = b;
    rec.len = RFT_UNITREC_LEN;
    uint16_t cu, simd;
    uint32_t wf;
    CHECK(rft_rec_cycle(&rec) == 0 && rft_rec_wf(&rec, &cu, &simd, &wf) == 0);
    b[16] = RFT_WF_VMEM;
    CHECK(rft_rec_cycle(&rec) == 7 && rft_rec_wf(&rec, &cu, &simd, &wf) == 1);
    CHECK(cu == 1 && simd == 2 && wf == 3);

    const char *names[] = {"good.rft", "late.rft", "after.rft", "reserved.rft"};
    for (int i = 0; i < 4; i++) {
        char f[256];
        snprintf(f, sizeof f, "%s/%s", dir, names[i]);
        unlink(f);
    }
    rmdir(dir);
    printf("test_unitrec: ok\n");
    return 0;
}
