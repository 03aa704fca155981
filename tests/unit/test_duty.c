/* test_duty.c - unit and property tests of lib/duty.c and lib/nbti.c: the
 * duty record, the accounting engine against a cell-by-cell reference, the
 * statistics, and the NBTI models. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dcpatch.h"
#include "duty.h"
#include "nbti.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static rft_duty_rec new_rec(uint32_t lanes)
{
    rft_duty_rec d = {0};
    d.t1 = calloc(RFT_MAX_LANES * 32, sizeof *d.t1);
    d.toff = calloc(RFT_MAX_LANES * 32, sizeof *d.toff);
    CHECK(d.t1 && d.toff);
    d.lanes = (uint16_t)lanes;
    d.bits = 32 * lanes;
    return d;
}

/* ---- the record ------------------------------------------------------------- */
static void test_record(void)
{
    rft_duty_rec a = new_rec(64), b = new_rec(64);
    uint8_t *buf = malloc(rft_duty_max_len(64 * 32)), *buf2 = malloc(rft_duty_max_len(64 * 32));
    const char *why;
    a.span = RFT_SPAN_BUSY;
    a.flags = RFT_DUTY_WINDOW;
    a.cu = 3;
    a.simd = 1;
    a.entry = 200;
    a.entries = 256;
    a.first = 10;
    a.last = 1000;
    a.cycles = 777;
    for (int round = 0; round < 50; round++) {
        for (uint32_t i = 0; i < a.bits; i++) {
            a.t1[i] = round % 5 == 0 ? 0 : rnd() % (a.cycles + 1);
            a.toff[i] = round % 3 == 0 ? 777 - a.t1[i] : (rnd() % (a.cycles - a.t1[i] + 1));
            if (round % 7 == 1)
                a.toff[i] = i < 100 ? 5 : 0;    /* runs */
            if (a.t1[i] + a.toff[i] > a.cycles)
                a.toff[i] = a.cycles - a.t1[i];
        }
        uint32_t len = rft_duty_encode(&a, buf);
        CHECK(len <= rft_duty_max_len(a.bits));
        CHECK(rft_duty_parse(buf, len, &b, &why) == 0);
        CHECK(b.span == a.span && b.flags == a.flags && b.cu == 3 && b.simd == 1);
        CHECK(b.entry == 200 && b.entries == 256 && b.lanes == 64 && b.bits == 2048);
        CHECK(b.first == 10 && b.last == 1000 && b.cycles == 777);
        CHECK(memcmp(a.t1, b.t1, a.bits * 8) == 0 && memcmp(a.toff, b.toff, a.bits * 8) == 0);
        CHECK(rft_duty_encode(&b, buf2) == len && memcmp(buf, buf2, len) == 0);  /* canonical */
        /* every truncation and a trailing byte are refused */
        for (uint32_t cut = 0; cut < len; cut += 1 + len / 64)
            CHECK(rft_duty_parse(buf, cut, &b, &why) == RFT_EFORMAT);
        buf[len] = 0;
        CHECK(rft_duty_parse(buf, len + 1, &b, &why) == RFT_EFORMAT);
    }
    /* more time than the window */
    memset(a.t1, 0, a.bits * 8);
    memset(a.toff, 0, a.bits * 8);
    a.t1[5] = 700;
    a.toff[5] = 78;
    uint32_t len = rft_duty_encode(&a, buf);
    CHECK(rft_duty_parse(buf, len, &b, &why) == RFT_EFORMAT && strstr(why, "more time"));
    a.toff[5] = 77;
    len = rft_duty_encode(&a, buf);
    CHECK(rft_duty_parse(buf, len, &b, &why) == 0);
    buf[0] = 9;
    CHECK(rft_duty_parse(buf, len, &b, &why) == RFT_EFORMAT && strstr(why, "version"));
    /* adding */
    buf[0] = RFT_DUTY_VERSION;
    CHECK(rft_duty_parse(buf, len, &b, &why) == 0);
    CHECK(rft_duty_add(&a, &b, &why) == 0);
    CHECK(a.cycles == 2 * 777 && a.t1[5] == 1400 && a.toff[5] == 154);
    b.entries = 128;
    CHECK(rft_duty_add(&a, &b, &why) == RFT_EFORMAT && strstr(why, "geometry"));
    b.entries = 256;
    b.span = RFT_SPAN_SLICE;
    CHECK(rft_duty_add(&a, &b, &why) == RFT_EFORMAT && strstr(why, "semantics"));
    free(buf);
    free(buf2);
    free(a.t1);
    free(a.toff);
    free(b.t1);
    free(b.toff);
}

/* ---- the engine against a reference -------------------------------------------- */
#define RL 2                /* lanes: 64 cells per entry */
#define RE 6                /* entries */
#define RB (32 * RL)

typedef struct {            /* the reference: every cell, every event */
    uint64_t t0[RE][RB], t1[RE][RB], toff[RE][RB], pend[RE];
    uint32_t on[RE], val[RE][RL];
    int born[RE], gated, live;
    int inwin[RE], bank_on[RE]; /* gated slices: entries in a window, banks on */
    uint64_t clock, start;
    int any;
} refsim;

static int bit_of(const uint32_t *v, uint32_t b) { return (v[b / 32] >> (b % 32)) & 1; }

static void ref_advance(refsim *s, uint64_t clk)
{
    uint64_t dt = clk - s->clock;
    s->clock = clk;
    for (int e = 0; e < RE; e++) {
        if (!s->born[e]) {
            s->pend[e] += dt;
            continue;
        }
        for (uint32_t b = 0; b < RB; b++) {
            if (b >= s->on[e])
                s->toff[e][b] += dt;
            else if (bit_of(s->val[e], b))
                s->t1[e][b] += dt;
            else
                s->t0[e][b] += dt;
        }
    }
}

static void ref_birth(refsim *s, int e)
{
    if (s->born[e])
        return;
    s->born[e] = 1;
    for (uint32_t b = 0; b < RB; b++)
        (s->gated ? s->toff : s->t0)[e][b] += s->pend[e];
    s->pend[e] = 0;
    s->on[e] = RB;
}

static void set_val(uint32_t *dst, const uint32_t *src, uint32_t on)
{
    for (uint32_t l = 0; l < RL; l++)
        for (uint32_t i = 0; i < 32; i++) {
            uint32_t b = 32 * l + i;
            if (b >= on)
                dst[l] &= ~(1u << i);
            else
                dst[l] = (dst[l] & ~(1u << i)) | (src[l] & (1u << i));
        }
}

static void feed(rft_duty *d, const rft_rec *r)
{
    int e = rft_duty_feed(d, r);
    if (e < 0)
        fprintf(stderr, "feed: %s\n", rft_duty_error(d));
    CHECK(e >= 0);
}

/* One slice, random events; span slice, busy or stream with a window that
 * cuts both ends (window > 0: its length); gated slices in banks of bank
 * entries; compare every cell. */
static void run_random(int span, int gated_slice, int big_gap, unsigned nev, uint64_t window,
                       uint32_t bank)
{
    rft_geom g = {RL, RE, 16, 32};
    rft_duty_opts o = {.span = span};
    rft_duty *d = rft_duty_new(&g, &o);
    static refsim s;
    memset(&s, 0, sizeof s);
    CHECK(d);
    uint64_t cyc = 1000 + rnd() % 100, first = cyc, last = cyc;
    if (window) {
        o.window_set = 1;
        o.from = cyc + 500;
        o.to = o.from + window;
        rft_duty_free(d);
        d = rft_duty_new(&g, &o);
    }
    int wf_live = 0;
    rft_rec r;
    memset(&r, 0, sizeof r);
    uint8_t raw[RFT_ALLOC_LEN];
    int first_ev = 1;
    for (unsigned i = 0; i < nev; i++) {
        unsigned kind = first_ev ? 0 : (unsigned)(rnd() % 10);
        if (kind == 9 && big_gap)
            cyc += 5000000000ull;   /* past 2^32: the planes are drained */
        else if (!first_ev)
            cyc += rnd() % 4 == 0 ? 0 : rnd() % 300;
        uint64_t clk;
        /* clock of the reference: busy counts only while a wavefront lives */
        if (span == RFT_SPAN_BUSY) {
            clk = s.clock + (s.live ? cyc - last : 0);
        } else if (window) {
            clk = (cyc < o.from ? o.from : cyc > o.to ? o.to : cyc) - o.from;
        } else {
            clk = cyc - first;
        }
        ref_advance(&s, clk);
        last = cyc;
        memset(&r, 0, sizeof r);
        if (kind == 0 || (kind == 1 && wf_live < 3)) {          /* a wavefront begins */
            r.kind = RFT_WFBEGIN;
            r.u.begin = (rft_wfbegin){.cycle = cyc, .cu = 2, .simd = 1, .wf = 7, .nregs = 1};
            feed(d, &r);
            s.live++;
            wf_live++;
            first_ev = 0;
        } else if (kind == 1 && wf_live) {                      /* and ends */
            r.kind = RFT_WFEND;
            r.u.end = (rft_wfend){.cycle = cyc, .cu = 2, .simd = 1, .wf = 7};
            feed(d, &r);
            s.live--;
            wf_live--;
        } else if (kind == 2 || kind == 3) {                    /* an allocation event */
            rft_alloc_rec a = {.cycle = cyc, .cu = 2, .simd = 1, .wf = 7,
                               .base = (uint16_t)(rnd() % RE), .n = (uint16_t)(1 + rnd() % 3),
                               .event = kind == 2 ? RFT_ALLOC_EV_ALLOC : RFT_ALLOC_EV_FREE,
                               .flags = gated_slice ? RFT_AF_GATED : 0, .bank = (uint16_t)bank};
            rft_alloc_encode(raw, &a);
            r.kind = RFT_ALLOC;
            r.raw = raw;
            r.len = RFT_ALLOC_LEN;
            feed(d, &r);
            s.gated = gated_slice;
            for (uint32_t k = 0; k < a.n; k++) {
                int e = (a.base + k) % RE;
                ref_birth(&s, e);
                s.inwin[e] = a.event == RFT_ALLOC_EV_ALLOC;
            }
            /* a bank the window touches switches when its first entry enters a
             * window or its last one leaves: every entry of it woken holding
             * zeros, or off and its content lost */
            for (uint32_t q = 0; gated_slice && q * bank < RE; q++) {
                int touched = 0, want = 0;
                for (uint32_t k = 0; k < a.n; k++)
                    touched |= (a.base + k) % RE / bank == q;
                for (uint32_t j = q * bank; j < (q + 1) * bank && j < RE; j++)
                    want |= s.inwin[j];
                if (!touched || want == s.bank_on[q])
                    continue;
                s.bank_on[q] = want;
                for (uint32_t j = q * bank; j < (q + 1) * bank && j < RE; j++) {
                    ref_birth(&s, (int)j);
                    if (s.on[j] == (want ? RB : 0))
                        continue;
                    memset(s.val[j], 0, sizeof s.val[j]);
                    s.on[j] = want ? RB : 0;
                }
            }
        } else if (kind == 4) {                                 /* a read: an event only */
            r.kind = RFT_READ;
            r.u.read = (rft_regread){.cycle = cyc, .cu = 2, .simd = 1, .wf = 7, .phys = 1};
            feed(d, &r);
        } else {                                                /* a write */
            int e = (int)(rnd() % RE);
            r.kind = RFT_WRITE;
            r.w.cycle = cyc;
            r.w.cu = 2;
            r.w.simd = 1;
            r.w.wf = 7;
            r.w.phys = (uint16_t)e;
            unsigned m = (unsigned)(rnd() % 6);
            r.w.on_bits = m == 0 ? RFT_NO_GATE : m == 1 ? 0 : m == 2 ? (uint32_t)(rnd() % RB) : RB;
            for (uint32_t l = 0; l < RL; l++)
                r.w.val[l] = rnd() % 3 == 0 ? 0 : (uint32_t)rnd() & (uint32_t)rnd();
            feed(d, &r);
            ref_birth(&s, e);
            uint32_t on = r.w.on_bits == RFT_NO_GATE ? RB : r.w.on_bits;
            set_val(s.val[e], r.w.val, on);
            s.on[e] = on;
        }
    }
    CHECK(rft_duty_finish(d) == 0);
    if (window) {           /* the window goes on after the last event */
        ref_advance(&s, window);
        first = o.from;
        last = o.to;
    }
    /* never-allocated entries: off for the whole window */
    for (int e = 0; e < RE; e++)
        if (!s.born[e])
            for (uint32_t b = 0; b < RB; b++)
                s.toff[e][b] += s.pend[e];
    CHECK(rft_duty_count(d) == RE);
    rft_duty_rec x = new_rec(RL);
    uint8_t *buf = malloc(rft_duty_max_len(RB));
    const char *why;
    for (size_t i = 0; i < RE; i++) {
        uint32_t len = rft_duty_emit(d, i, buf);
        CHECK(rft_duty_parse(buf, len, &x, &why) == 0);
        CHECK(x.cu == 2 && x.simd == 1 && x.entry == i && x.span == span);
        CHECK(x.first == first && x.last == last);
        CHECK(x.cycles == s.clock);
        CHECK((x.flags & RFT_DUTY_UNUSED) == (s.born[i] ? 0 : RFT_DUTY_UNUSED));
        for (uint32_t b = 0; b < RB; b++) {
            if (x.t1[b] != s.t1[i][b] || x.toff[b] != s.toff[i][b] ||
                x.cycles - x.t1[b] - x.toff[b] != s.t0[i][b])
                fprintf(stderr, "entry %zu bit %u: t1 %llu/%llu toff %llu/%llu\n", i, b,
                        (unsigned long long)x.t1[b], (unsigned long long)s.t1[i][b],
                        (unsigned long long)x.toff[b], (unsigned long long)s.toff[i][b]);
            CHECK(x.t1[b] == s.t1[i][b]);
            CHECK(x.toff[b] == s.toff[i][b]);
            CHECK(s.t0[i][b] + s.t1[i][b] + s.toff[i][b] == x.cycles);
        }
    }
    free(buf);
    free(x.t1);
    free(x.toff);
    rft_duty_free(d);
}

/* Hand-checked: one wavefront, known values at known cycles. */
static void test_hand(void)
{
    rft_geom g;
    rft_geom_default(&g);
    rft_duty_opts o = {.span = RFT_SPAN_SLICE};
    rft_duty *d = rft_duty_new(&g, &o);
    rft_rec r;
    memset(&r, 0, sizeof r);
    r.kind = RFT_WFBEGIN;
    r.u.begin = (rft_wfbegin){.cycle = 100, .cu = 0, .simd = 0, .wf = 1, .nregs = 2};
    feed(d, &r);
    memset(&r, 0, sizeof r);
    r.kind = RFT_WRITE;
    r.w.cycle = 100;
    r.w.phys = 0;
    r.w.on_bits = RFT_NO_GATE;
    r.w.val[0] = 1;                 /* bit 0 '1' from 100 */
    feed(d, &r);
    r.w.cycle = 150;
    r.w.val[0] = 3;                 /* bit 1 '1' from 150 */
    feed(d, &r);
    r.w.cycle = 160;
    r.w.phys = 1;
    r.w.val[0] = 0xffffffff;
    r.w.on_bits = 0;                /* compressed: entry 1 off from 160 */
    feed(d, &r);
    memset(&r, 0, sizeof r);
    r.kind = RFT_WFEND;
    r.u.end = (rft_wfend){.cycle = 200, .cu = 0, .simd = 0, .wf = 1};
    feed(d, &r);
    CHECK(rft_duty_finish(d) == 0);
    rft_duty_rec x = new_rec(64);
    uint8_t *buf = malloc(rft_duty_max_len(2048));
    const char *why;
    CHECK(rft_duty_parse(buf, rft_duty_emit(d, 0, buf), &x, &why) == 0);
    CHECK(x.cycles == 100 && x.first == 100 && x.last == 200);
    CHECK(x.t1[0] == 100 && x.toff[0] == 0);            /* t0 = 0 */
    CHECK(x.t1[1] == 50 && x.toff[1] == 0);             /* t0 = 50 */
    CHECK(x.t1[2] == 0 && x.toff[2] == 0 && x.t1[2047] == 0);   /* t0 = 100 */
    CHECK(rft_duty_parse(buf, rft_duty_emit(d, 1, buf), &x, &why) == 0);
    CHECK(x.t1[0] == 0 && x.toff[0] == 40 && x.toff[2047] == 40);  /* t0 = 60 (zeros) */
    CHECK(rft_duty_parse(buf, rft_duty_emit(d, 2, buf), &x, &why) == 0);
    CHECK(x.flags & RFT_DUTY_UNUSED && x.toff[0] == 100 && x.t1[0] == 0);
    /* statistics over the three */
    rft_duty_stats st = {0};
    for (size_t i = 0; i < 3; i++) {
        CHECK(rft_duty_parse(buf, rft_duty_emit(d, i, buf), &x, &why) == 0);
        CHECK(rft_duty_stats_add(&st, &x) == 0);
    }
    CHECK(st.records == 3 && st.used == 2 && st.slices == 1);
    CHECK(st.max1.entry == 0 && st.max1.bit == 0 && st.max1.t1 == 100);
    CHECK(st.max0.entry == 0 && st.max0.bit == 2 && st.max0.t0 == 100);
    free(buf);
    free(x.t1);
    free(x.toff);
    rft_duty_free(d);
    /* a write without a physical entry */
    d = rft_duty_new(&g, &o);
    memset(&r, 0, sizeof r);
    r.kind = RFT_WRITE;
    r.w.phys = RFT_NO_PHYS;
    CHECK(rft_duty_feed(d, &r) == RFT_EFORMAT);
    CHECK(strcmp(rft_duty_error(d), "no physical entries: run rft-alloc first") == 0);
    rft_duty_free(d);
}

/* DC-Patch placements (patch records): a compressed register writes one
 * block (its code in the first two lanes, zeros), the other blocks keep
 * theirs; a spilled register writes no cell; a patch must precede its write. */
static void test_patch(void)
{
    rft_geom g;
    rft_geom_default(&g);       /* 64 lanes in 4 blocks of 16 */
    rft_duty_opts o = {.span = RFT_SPAN_SLICE};
    rft_duty *d = rft_duty_new(&g, &o);
    rft_rec r, p;
    uint8_t raw[RFT_PATCH_LEN];
    rft_patch_rec pr;
    memset(&r, 0, sizeof r);
    memset(&p, 0, sizeof p);
    p.kind = RFT_PATCH;
    p.raw = raw;
    p.len = RFT_PATCH_LEN;
    r.kind = RFT_WRITE;
    r.w.wf = 1;
    r.w.on_bits = RFT_NO_GATE;
    r.w.phys = RFT_NO_PHYS;     /* the patch record places it */
    for (uint32_t l = 0; l < 64; l++)
        r.w.val[l] = 0xffffffffu;
    CHECK(rft_dcp_code(1, 8) == (0u | 3u << 3 | 1u << 6) && rft_dcp_code(0, 64) == (7u | 6u << 3 | 64u));
    /* cycle 0: v0 uncompressed into entry 2 (every cell '1') */
    pr = (rft_patch_rec){0, 0, 0, 1, 0, 2, RFT_PATCH_NONE, RFT_PATCH_ENTRY, 0, 0};
    rft_patch_encode(raw, &pr);
    feed(d, &p);
    feed(d, &r);
    /* cycle 10: v1 compressed into block 1 of entry 2: lanes 16, 17 = c0,
     * code; lanes 18-31 zero; blocks 0, 2, 3 keep v0's ones */
    pr = (rft_patch_rec){10, 0, 0, 1, 1, 2, 1, RFT_PATCH_BLOCK, 0x80000001u, 0x58};
    rft_patch_encode(raw, &pr);
    feed(d, &p);
    r.w.cycle = 10;
    r.w.vreg = 1;
    feed(d, &r);
    /* cycle 30: v2 spilled to the LDS: no cell changes */
    pr = (rft_patch_rec){30, 0, 0, 1, 2, RFT_PATCH_NONE, RFT_PATCH_NONE, RFT_PATCH_LDS, 0, 0};
    rft_patch_encode(raw, &pr);
    feed(d, &p);
    r.w.cycle = 30;
    r.w.vreg = 2;
    feed(d, &r);
    memset(&r, 0, sizeof r);
    r.kind = RFT_WFEND;
    r.u.end = (rft_wfend){.cycle = 40, .cu = 0, .simd = 0, .wf = 1};
    feed(d, &r);
    CHECK(rft_duty_finish(d) == 0);
    rft_duty_rec x = new_rec(64);
    uint8_t *buf = malloc(rft_duty_max_len(2048));
    const char *why;
    CHECK(rft_duty_parse(buf, rft_duty_emit(d, 2, buf), &x, &why) == 0);
    CHECK(x.cycles == 40 && !(x.flags & RFT_DUTY_UNUSED));
    CHECK(x.t1[0] == 40 && x.t1[511] == 40 && x.t1[1024] == 40 && x.t1[2047] == 40);
    CHECK(x.t1[16 * 32] == 40 && x.t1[16 * 32 + 31] == 40);        /* c0 bits 0 and 31 */
    CHECK(x.t1[16 * 32 + 1] == 10);                                 /* c0 bit 1: 0 from 10 */
    CHECK(x.t1[17 * 32 + 3] == 40 && x.t1[17 * 32 + 6] == 40);      /* the code */
    CHECK(x.t1[17 * 32 + 0] == 10 && x.t1[18 * 32] == 10 && x.t1[31 * 32 + 31] == 10);
    for (uint32_t b = 0; b < 2048; b++)
        CHECK(x.toff[b] == 0);
    for (size_t e = 0; e < 256; e++)    /* the spilled write left no entry born */
        if (e != 2) {
            CHECK(rft_duty_parse(buf, rft_duty_emit(d, e, buf), &x, &why) == 0);
            CHECK(x.flags & RFT_DUTY_UNUSED);
        }
    rft_duty_free(d);
    /* a patch not followed by its write, or followed by another's */
    static const char *const bad[] = {"a patch record of v0 not followed by its write",
                                      "the patch record before it names v0 of wavefront 1 at cycle 0",
                                      "the stream ends after a patch record, before its write"};
    for (int i = 0; i < 3; i++) {
        d = rft_duty_new(&g, &o);
        pr = (rft_patch_rec){0, 0, 0, 1, 0, 2, RFT_PATCH_NONE, RFT_PATCH_ENTRY, 0, 0};
        rft_patch_encode(raw, &pr);
        feed(d, &p);
        memset(&r, 0, sizeof r);
        r.kind = i == 0 ? RFT_READ : RFT_WRITE;
        r.w.wf = 1;
        r.w.vreg = 1;
        if (i < 2) {
            CHECK(rft_duty_feed(d, &r) == RFT_EFORMAT);
        } else {
            CHECK(rft_duty_finish(d) == RFT_EFORMAT);
        }
        if (strcmp(rft_duty_error(d), bad[i]) != 0)
            fprintf(stderr, "got '%s'\n", rft_duty_error(d));
        CHECK(strcmp(rft_duty_error(d), bad[i]) == 0);
        rft_duty_free(d);
    }
    /* malformed and out-of-range patches */
    d = rft_duty_new(&g, &o);
    pr = (rft_patch_rec){0, 0, 0, 1, 0, 2, 4, RFT_PATCH_BLOCK, 0, 0};     /* block 4 of 4 */
    rft_patch_encode(raw, &pr);
    CHECK(rft_duty_feed(d, &p) == RFT_EFORMAT);
    pr.place = RFT_PATCH_LDS;       /* the LDS with an entry */
    rft_patch_encode(raw, &pr);
    CHECK(rft_patch_parse(raw, RFT_PATCH_LEN, &pr) == RFT_EFORMAT);
    CHECK(rft_patch_parse(raw, RFT_PATCH_LEN - 1, &pr) == RFT_EFORMAT);
    rft_duty_free(d);
    free(buf);
    free(x.t1);
    free(x.toff);
}

/* ---- NBTI -------------------------------------------------------------------- */
static void test_nbti(void)
{
    rft_nbti p, q;
    rft_nbti_defaults(&p);
    double y3 = 3 * RFT_YEAR;
    CHECK(rft_nbti_eq3_norm(&p, 1) == 1 && rft_nbti_eq3_norm(&p, 0) == 0);
    CHECK(fabs(rft_nbti_eq3_norm(&p, 0.5) - pow(0.5, 0.25) * (1 - sqrt(0.35) * 0.5)) < 1e-12);
    /* Eq. 3 scales as in Fig. 19 */
    CHECK(fabs(rft_nbti_eq3(&p, 0.5 * y3, 0.5 * y3) / rft_nbti_eq3(&p, y3, 0) -
               rft_nbti_eq3_norm(&p, 0.5)) < 1e-12);
    /* eq3_a is calibrated on the RD model: all stress, 3 years */
    double e = rft_nbti_eq3(&p, y3, 0), rd = rft_nbti_rd(&p, 1, y3);
    CHECK(fabs(e - rd) / rd < 1e-4 && rd > 0.04 && rd < 0.07);
    /* RD grows with duty and time */
    CHECK(rft_nbti_rd(&p, 0.3, y3) < rft_nbti_rd(&p, 0.6, y3));
    CHECK(rft_nbti_rd(&p, 0.6, y3) < rft_nbti_rd(&p, 0.6, 2 * y3));
    CHECK(rft_nbti_rd(&p, 0, y3) == 0);
    /* the long-term form follows the period-by-period iteration of Eqs. 3-4 */
    for (double a = 0.2; a <= 1.0; a += 0.4) {
        unsigned long n = 200000;
        double it = rft_nbti_rd_iterate(&p, a, n), cf = rft_nbti_rd(&p, a, n * p.rd_tclk);
        CHECK(fabs(it - cf) / it < 0.03);
    }
    /* delay (seed 003 Eq. 7) and lifetime */
    CHECK(fabs(rft_nbti_delay(&p, 0.1) - 1.3 * 0.1 / (1.2 - 0.365)) < 1e-12);
    double life = rft_nbti_lifetime(&p, 0.8, 1), tgt = rft_nbti_snm_dvth(&p);
    CHECK(isfinite(life) && fabs(rft_nbti_rd(&p, 0.8, life) - tgt) / tgt < 1e-6);
    life = rft_nbti_lifetime(&p, 0.8, 0);
    CHECK(fabs(rft_nbti_eq3(&p, 0.8 * life, 0.2 * life) - tgt) / tgt < 1e-9);
    CHECK(isinf(rft_nbti_lifetime(&p, 0, 1)));
    /* the parameters, through params.h */
    char why[512], text[4096] = "", *t = text;
    rft_params ps;
    for (size_t i = 0; rft_nbti_key(i); i++)
        t += sprintf(t, "%s = %.17g  # comment\n", rft_nbti_key(i), rft_nbti_get(&p, rft_nbti_key(i)));
    rft_params_init(&ps);
    CHECK(rft_params_parse(&ps, "n.conf", text, strlen(text), why, sizeof why) == 0);
    memset(&q, 0, sizeof q);
    CHECK(rft_nbti_from_params(&q, &ps, 1, why, sizeof why) == 0);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    rft_params_free(&ps);
    char *cut = strstr(text, "rd_xi2");
    memcpy(cut, "#d_xi2", 6);
    rft_params_init(&ps);
    CHECK(rft_params_parse(&ps, "n.conf", text, strlen(text), why, sizeof why) == 0);
    CHECK(rft_nbti_from_params(&q, &ps, 1, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "n.conf: missing key 'rd_xi2'") == 0);
    /* not required: what is missing keeps its value */
    q.rd_xi2 = 7;
    CHECK(rft_nbti_from_params(&q, &ps, 0, why, sizeof why) == 0 && q.rd_xi2 == 7);
    rft_params_free(&ps);
    static const char *const bad[][2] = {
        {"vdd = 1.2x\n", "b.conf: line 1: vdd: '1.2x' is not a number"},
        {"\n\nfoo = 1\n", "b.conf: line 3: unknown constant 'foo'"},
        {"eq3_eta = 2\n", "b.conf: line 1: eq3_eta: 2 is out of range 0..1"},
        {"vdd = 0\n", "b.conf: line 1: vdd: 0 is out of range >0..100"},
        {"tox = -1\n", "b.conf: line 1: tox: '-1' is negative"},
        {"vth0 = 2\n", "b.conf: vth0 (2) must be below vdd (1.2)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rft_params_init(&ps);
        CHECK(rft_params_parse(&ps, "b.conf", bad[i][0], strlen(bad[i][0]), why, sizeof why) == 0);
        rft_nbti_defaults(&q);
        CHECK(rft_nbti_from_params(&q, &ps, 0, why, sizeof why) == RFT_EFORMAT);
        if (strcmp(why, bad[i][1]) != 0)
            fprintf(stderr, "got '%s'\n", why);
        CHECK(strcmp(why, bad[i][1]) == 0);
        rft_params_free(&ps);
    }
}

/* ---- maps side by side (rft-vth) ---------------------------------------------------- */
static int count_put(void *ctx, rft_rec *rec)
{
    (*(int *)ctx)++;
    return 0;
}

/* Feed map i of c the duty records recs[0..n-1] (and a trace record when
 * trace) through its stage, as the driver does; the stage's result. */
static int feed_map(rft_duty_cmp *c, size_t i, const char *name, rft_duty_rec *recs, int n,
                    int trace, char *why)
{
    rft_stage *st = rft_duty_cmp_stage(c, i);
    rft_header in, out;
    int passed = 0, e = 0;
    rft_sink sink = {count_put, &passed};
    uint8_t *buf = malloc(rft_duty_max_len(RFT_MAX_LANES * 32));
    CHECK(st && buf);
    rft_header_init(&in, "test");
    st->input = name;
    CHECK(rft_stage_start(st, &in, &out) == 0);
    for (int k = 0; k < n + trace && !e; k++) {
        rft_rec r = {0};
        if (k < n) {
            r.kind = RFT_DUTY;
            r.raw = buf;
            r.len = rft_duty_encode(&recs[k], buf);
        } else {
            r.kind = RFT_WFEND;
        }
        e = rft_stage_feed(st, &r, &sink);
    }
    if (!e)
        e = rft_stage_finish(st, &sink);
    CHECK(e || passed == n + trace);    /* every record passed on */
    snprintf(why, RFT_STAGE_WHY, "%s", rft_stage_error(st));
    rft_stage_free(st);
    rft_header_free(&in);
    rft_header_free(&out);
    free(buf);
    return e;
}

/* One map uses entry 0 only (entry 1 off: unused), the other both: both
 * average the same two entries; a map of other geometry is refused. */
static void test_cmp(void)
{
    rft_duty_rec r[2] = {new_rec(1), new_rec(1)};
    for (int k = 0; k < 2; k++) {
        r[k].span = RFT_SPAN_SLICE;
        r[k].entry = (uint16_t)k;
        r[k].entries = 2;
        r[k].first = 0;
        r[k].last = 99;
        r[k].cycles = 100;
    }
    rft_duty_cmp_opts o = {.per_bit = 1};
    rft_duty_cmp *c = rft_duty_cmp_new(&o, 3);
    char why[RFT_STAGE_WHY];
    CHECK(c);
    /* map 0: entry 0 at '0' all the time, entry 1 never allocated (off) */
    for (uint32_t b = 0; b < 32; b++)
        r[1].toff[b] = 100;
    r[1].flags = RFT_DUTY_UNUSED;
    CHECK(feed_map(c, 0, "m0", r, 2, 0, why) == 0);
    /* map 1: both at '0' all the time, and a trace record after them */
    for (uint32_t b = 0; b < 32; b++)
        r[1].toff[b] = 0;
    r[1].flags = 0;
    CHECK(feed_map(c, 1, "m1", r, 2, 1, why) == 0);
    CHECK(rft_duty_cmp_map(c, 1)->trace == 3 && rft_duty_cmp_map(c, 1)->nduty == 2);
    rft_duty_cmp_finish(c);
    const rft_duty_stats *a = &rft_duty_cmp_map(c, 0)->all, *b = &rft_duty_cmp_map(c, 1)->all;
    CHECK(a->used == 1 && a->avg_n == 2 && a->avg_cells == 64);
    CHECK(a->s0 == 32 && a->soff == 32 && a->bit0[5] == 1 && a->bitoff[5] == 1);
    CHECK(rft_duty_cmp_map(c, 0)->nsl == 1 && rft_duty_cmp_map(c, 0)->sl[0].st.soff == 32);
    CHECK(b->used == 2 && b->avg_n == 2 && b->s0 == 64 && b->soff == 0);
    /* map 2: two lanes, not the geometry of the first */
    rft_duty_rec w = new_rec(2);
    w.span = RFT_SPAN_SLICE;
    w.entries = 2;
    w.cycles = 100;
    CHECK(feed_map(c, 2, "m2", &w, 1, 0, why) == RFT_EFORMAT);
    CHECK(strcmp(why, "geometry 2 lanes x 2 entries differs from m0 (1 x 2)") == 0);
    rft_duty_cmp_free(c);
    for (int k = 0; k < 2; k++)
        free(r[k].t1), free(r[k].toff);
    free(w.t1);
    free(w.toff);
    /* the worst transistors: stressed all the time, each model's own figures */
    rft_nbti p;
    rft_nbti_worst wt;
    rft_nbti_defaults(&p);
    rft_nbti_worst_of(&p, 1, 0.5, RFT_YEAR, &wt);
    CHECK(wt.norm[0] == 1 && wt.rd[0] == rft_nbti_rd(&p, 1, RFT_YEAR) && wt.rd_max == wt.rd[0]);
    CHECK(wt.rd[1] < wt.rd[0] && wt.delay_rd == rft_nbti_delay(&p, wt.rd[0]));
    CHECK(wt.life_rd == rft_nbti_lifetime(&p, 1, 1));
}

int main(void)
{
    test_record();
    test_hand();
    for (int i = 0; i < 40; i++) {
        uint32_t bank = i % 4 == 3 ? 4 : 1 + (uint32_t)(i % 4);  /* 1, 2, 3 (uneven) and 4 */
        run_random(RFT_SPAN_SLICE, i % 2, 0, 400, 0, bank);
        run_random(RFT_SPAN_BUSY, i % 2, 0, 400, 0, bank);
        run_random(RFT_SPAN_STREAM, i % 2, 0, 400, 1 + rnd() % 60000, bank);
    }
    for (int i = 0; i < 6; i++)
        run_random(RFT_SPAN_SLICE, i % 2, 1, 300, 0, 1 + (uint32_t)i % 3);
    test_patch();
    test_nbti();
    test_cmp();
    printf("test_duty: ok\n");
    return 0;
}
