/* test_escan.c - unit tests of lib/escan.c: the energy scan of a small
 * stream counted by hand, records passed on or not, the scan record and
 * its round trip (a scan stream gives the same result), and bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escan.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* A sink keeping a count and a copy of the last record. */
typedef struct {
    int n, kind;
    uint8_t raw[RFT_COUNTERS_MAX];
    uint32_t len;
} keep;

static int keep_put(void *ctx, rft_rec *rec)
{
    keep *k = ctx;
    k->n++;
    k->kind = rec->kind;
    k->len = rec->len <= sizeof k->raw ? rec->len : 0;
    if (rec->raw && k->len)
        memcpy(k->raw, rec->raw, k->len);
    return 0;
}

static rft_header hdr;
static rft_rec rec;
static uint8_t buf[RFT_COUNTERS_MAX];
static rft_counters cn;

static rft_stage *new_scan(uint32_t bank, const char *from, int pass, int emit)
{
    rft_escan_opts o;
    rft_escan_opts_default(&o);
    CHECK(o.bank == 1 && o.pass && !o.emit && !o.bank_from);
    o.bank = bank, o.bank_from = from, o.pass = pass, o.emit = emit;
    rft_stage *s = rft_escan_new(&o);
    rft_header out_h;
    CHECK(s && rft_stage_start(s, &hdr, &out_h) == 0);
    CHECK(strcmp(out_h.producer, "rft-energy") == 0 && out_h.geom.entries == 4);
    rft_header_free(&out_h);
    return s;
}

static int feed_wf(rft_stage *s, const rft_sink *out, int kind, uint64_t cycle, uint16_t cu,
                   uint16_t phys, uint32_t on_bits)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = kind;
    switch (kind) {
    case RFT_WFBEGIN: rec.u.begin = (rft_wfbegin){.cycle = cycle, .cu = cu, .wf = 1, .nregs = 2}; break;
    case RFT_WFEND: rec.u.end = (rft_wfend){.cycle = cycle, .cu = cu, .wf = 1}; break;
    case RFT_READ: rec.u.read = (rft_regread){.cycle = cycle, .cu = cu, .wf = 1, .phys = phys}; break;
    default:
        rec.w.cycle = cycle, rec.w.cu = cu, rec.w.wf = 1, rec.w.phys = phys, rec.w.on_bits = on_bits;
    }
    return rft_stage_feed(s, &rec, out);
}

static int feed_alloc(rft_stage *s, const rft_sink *out, uint64_t cycle, uint16_t bank)
{
    static uint8_t a_buf[RFT_ALLOC_LEN];
    rft_alloc_rec a = {.cycle = cycle, .wf = 1, .base = 0, .n = 2, .event = RFT_ALLOC_EV_ALLOC,
                       .bank = bank};
    rft_alloc_encode(a_buf, &a);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_ALLOC;
    rec.raw = a_buf;
    rec.len = RFT_ALLOC_LEN;
    return rft_stage_feed(s, &rec, out);
}

/* A counters record of stage, scope with name=v; then an extra name if given. */
static int feed_counters(rft_stage *s, const rft_sink *out, const char *stage, const char *scope,
                         uint64_t v, const char *extra)
{
    memset(&cn, 0, sizeof cn);
    snprintf(cn.stage, sizeof cn.stage, "%s", stage);
    snprintf(cn.scope, sizeof cn.scope, "%s", scope);
    CHECK(rft_counters_add(&cn, "writes", v) == 0);
    if (extra)
        CHECK(rft_counters_add(&cn, extra, 1) == 0);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_COUNTERS;
    rec.raw = buf;
    rec.len = rft_counters_encode(&cn, buf);
    return rft_stage_feed(s, &rec, out);
}

/* One slice (0:0) of 4 entries of 64 bits from cycle 100 to 1000: entry 0
 * on with 64 bits, 16 from a gated write at 200; entry 1 in the window,
 * read at 300; entries 2 and 3 never taken: off.  P = 64 x 100 + 16 x 800
 * + 64 x 900 = 76800.  Slice 1:0 takes no entry: nothing powered. */
static void stream(rft_stage *s, const rft_sink *out)
{
    CHECK(feed_wf(s, out, RFT_WFBEGIN, 100, 0, 0, 0) == 0);
    CHECK(feed_alloc(s, out, 100, 1) == 0);
    CHECK(feed_wf(s, out, RFT_WRITE, 200, 0, 0, 16) == 0);
    CHECK(feed_wf(s, out, RFT_READ, 300, 0, 1, 0) == 0);
    CHECK(feed_wf(s, out, RFT_WRITE, 400, 0, 0, RFT_NO_GATE) == 0);
    CHECK(feed_counters(s, out, "rft-gate", "slice 0:0", 9, NULL) == 0);    /* not kept */
    CHECK(feed_counters(s, out, "rft-gate", "total", 1, NULL) == 0);
    CHECK(feed_counters(s, out, "rft-gate", "total", 3, NULL) == 0);        /* the last kept */
    CHECK(feed_wf(s, out, RFT_WFBEGIN, 500, 1, 0, 0) == 0);
    CHECK(feed_wf(s, out, RFT_WRITE, 600, 1, RFT_NO_PHYS, 0) == 0);
    CHECK(feed_wf(s, out, RFT_WFEND, 700, 1, 0, 0) == 0);
    CHECK(feed_wf(s, out, RFT_WFEND, 1000, 0, 0, 0) == 0);
}

static void check_result(const rft_escan *r)
{
    CHECK(r->bank == 1 && r->reads == 1 && r->writes == 3);
    CHECK(r->timed && r->first == 100 && r->last == 1000);
    CHECK(r->gated && r->slices == 2 && r->cus == 2);
    CHECK(r->powered_cell_cycles == 76800 && r->alloc_wakeups == 0);
    CHECK(r->ndcpatch == 0 && r->ngate == 2);
    CHECK(r->gate.n == 1 && rft_counters_get(&r->gate, "writes") == 3);
    CHECK(strcmp(r->gate.stage, "rft-gate") == 0 && strcmp(r->gate.scope, "total") == 0);
}

static void test_scan(void)
{
    keep k = {0};
    rft_sink out = {keep_put, &k};
    /* records passed on unchanged, no record of its own */
    rft_stage *s = new_scan(1, NULL, 1, 0);
    stream(s, &out);
    CHECK(k.n == 12);
    CHECK(rft_stage_finish(s, &out) == 0 && k.n == 12);
    check_result(rft_escan_result(s));
    rft_escan first = *rft_escan_result(s);
    rft_stage_free(s);

    /* --scan: no records, the scan record at the end */
    memset(&k, 0, sizeof k);
    s = new_scan(1, NULL, 0, 1);
    stream(s, &out);
    CHECK(k.n == 0 && rft_stage_finish(s, &out) == 0 && k.n == 1 && k.kind == RFT_COUNTERS);
    rft_stage_free(s);
    rft_counters c;
    CHECK(rft_counters_parse(k.raw, k.len, &c) == 0);
    CHECK(strcmp(c.stage, "rft-energy") == 0 && strcmp(c.scope, "scan") == 0 && c.n == 18);
    CHECK(rft_counters_get(&c, "first_cycle") == 100 && rft_counters_get(&c, "gate_records") == 2);
    double pcc = 76800;
    uint64_t bits;
    memcpy(&bits, &pcc, sizeof bits);
    CHECK(rft_counters_get(&c, "powered_cell_cycles") == bits);     /* exact */
    CHECK(strcmp(c.name[13], "replay") == 0 && strcmp(c.name[15], "replay_cycles") == 0);
    /* the replay's upper bound (issue 33: rft-energy's bound, never below the replay) */
    CHECK(strcmp(c.name[16], "replay_upper") == 0 && c.value[16] >= c.value[15] &&
          c.value[16] >= c.value[14]);
    CHECK(strcmp(c.name[17], "rft-gate.writes") == 0 && c.value[17] == 3);

    /* the scan record read back: the same result, emitted alike */
    keep k2 = {0};
    rft_sink out2 = {keep_put, &k2};
    s = new_scan(4, NULL, 1, 1);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_COUNTERS;
    rec.raw = k.raw;
    rec.len = k.len;
    CHECK(rft_stage_feed(s, &rec, &out2) == 0 && k2.n == 0);       /* not passed on */
    CHECK(rft_stage_finish(s, &out2) == 0 && k2.n == 1);
    CHECK(k2.len == k.len && memcmp(k2.raw, k.raw, k.len) == 0);
    const rft_escan *r = rft_escan_result(s);
    check_result(r);
    CHECK(r->gate.n == first.gate.n);
    for (int i = 0; i < r->gate.n; i++)
        CHECK(strcmp(r->gate.name[i], first.gate.name[i]) == 0 && r->gate.value[i] == first.gate.value[i]);
    CHECK(r->bank == 1);        /* the bank it was made in, not the 4 asked */
    rft_stage_free(s);
}

static void expect_error(rft_stage *s, int e, const char *why)
{
    CHECK(e == RFT_EFORMAT);
    if (strcmp(rft_stage_error(s), why) != 0) {
        fprintf(stderr, "got '%s'\nwant '%s'\n", rft_stage_error(s), why);
        exit(1);
    }
    rft_stage_free(s);
}

static void test_errors(void)
{
    keep k = {0};
    rft_sink out = {keep_put, &k};
    const char *mixed = "a scan record (rft-energy --scan) among records to scan";
    rft_stage *s = new_scan(1, NULL, 1, 0);
    CHECK(feed_wf(s, &out, RFT_WFBEGIN, 100, 0, 0, 0) == 0);
    expect_error(s, feed_counters(s, &out, "rft-energy", "scan", 1, NULL), mixed);

    s = new_scan(1, NULL, 1, 0);
    expect_error(s, feed_counters(s, &out, "rft-energy", "scan", 1, "bogus"),
                 "scan record: unknown counter 'bogus'");

    /* a whole one */
    s = new_scan(1, NULL, 0, 1);
    stream(s, &out);
    memset(&k, 0, sizeof k);
    CHECK(rft_stage_finish(s, &out) == 0 && k.n == 1);
    rft_stage_free(s);
    rft_counters c;
    CHECK(rft_counters_parse(k.raw, k.len, &c) == 0);
    memcpy(buf, k.raw, k.len);
    /* followed by records, or by another */
    for (int round = 0; round < 3; round++) {
        s = new_scan(1, NULL, 1, 0);
        memset(&rec, 0, sizeof rec);
        rec.kind = RFT_COUNTERS;
        rec.raw = buf;
        rec.len = k.len;
        CHECK(rft_stage_feed(s, &rec, &out) == 0);
        if (round == 0)
            expect_error(s, feed_wf(s, &out, RFT_READ, 100, 0, 0, 0), mixed);
        else if (round == 1)
            expect_error(s, feed_counters(s, &out, "rft-dcpatch", "total", 1, NULL), mixed);
        else
            expect_error(s, rft_stage_feed(s, &rec, &out), "a second scan record (rft-energy --scan)");
        memcpy(buf, k.raw, k.len);
    }
    /* one without its first field */
    c.n--;
    memmove(&c.name[0], &c.name[1], sizeof c.name[0] * (size_t)c.n);
    memmove(&c.value[0], &c.value[1], sizeof c.value[0] * (size_t)c.n);
    s = new_scan(1, NULL, 1, 0);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_COUNTERS;
    rec.raw = buf;
    rec.len = rft_counters_encode(&c, buf);
    expect_error(s, rft_stage_feed(s, &rec, &out), "scan record: counter 'bank_entries' missing");

    /* a stream gated in banks of 4 scanned in banks of 2 */
    s = new_scan(2, "p.conf", 1, 0);
    CHECK(feed_alloc(s, &out, 100, 2) == 0);
    expect_error(s, feed_alloc(s, &out, 100, 4),
                 "the stream is gated in banks of 4 entries, p.conf in banks of 2 (gating.bank_entries)");
    s = new_scan(2, NULL, 1, 0);
    expect_error(s, feed_alloc(s, &out, 100, 4),
                 "the stream is gated in banks of 4 entries, the scan in banks of 2 (gating.bank_entries)");

    s = new_scan(1, NULL, 1, 0);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_COUNTERS;
    rec.raw = buf;
    rec.len = 3;
    expect_error(s, rft_stage_feed(s, &rec, &out), "malformed counters record");
}

int main(void)
{
    rft_header_init(&hdr, "test");
    hdr.geom = (rft_geom){.lanes = 2, .entries = 4, .block_lanes = 2, .lane_bits = 32};
    test_scan();
    test_errors();
    rft_header_free(&hdr);
    printf("test_escan: ok\n");
    return 0;
}
