/* test_replay_lds.c - unit tests of the LDS unit of lib/replay.c (replay.h,
 * "the LDS"): a wavefront's wait in its compute unit's LDS queue hides an
 * added latency; a wavefront alone pays it; nothing added replays every
 * traced span; monotone, never above the upper bound (both LDS orders, the
 * slices of a compute unit sharing it); a unit record (kind 0x07) makes a
 * store an LDS instruction; a late request holds up the ones after it only
 * with lds_inorder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static int drop_put(void *ctx, rft_rec *rec) { (void)ctx; (void)rec; return 0; }
static const rft_sink sink = {drop_put, NULL};
static rft_rec rec;

static rft_stage *start(const rft_replay_opts *o)
{
    rft_header h, out;
    rft_header_init(&h, "test");
    rft_geom_default(&h.geom);      /* 64 lanes: issue 4, the LDS 32 cycles an instruction */
    rft_stage *s = rft_replay_new(o);
    CHECK(s && rft_stage_start(s, &h, &out) == 0);
    rft_header_free(&out);
    rft_header_free(&h);
    return s;
}

static void begin(rft_stage *s, uint64_t t, uint16_t simd, uint32_t wf)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_WFBEGIN;
    rec.u.begin = (rft_wfbegin){.cycle = t, .simd = simd, .wf = wf, .nregs = 8,
                                .kernel = RFT_NO_KERNEL, .wg = RFT_NO_WG};
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

static void end(rft_stage *s, uint64_t t, uint16_t simd, uint32_t wf)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_WFEND;
    rec.u.end = (rft_wfend){.cycle = t, .simd = simd, .wf = wf};
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

static void readrec(rft_stage *s, uint64_t t, uint16_t simd, uint32_t wf, int src)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_READ;
    rec.u.read = (rft_regread){.cycle = t, .simd = simd, .wf = wf, .vreg = (uint16_t)src,
                               .phys = RFT_NO_PHYS};
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

/* An instruction of wf on slice 0:simd at t reading src (-1: none) and
 * writing dst with the write flags (RFT_WF_LDS: an LDS load); on_bits: a
 * gated write (RFT_WF_WAKEUP in flags: a wake-up). */
static void instr(rft_stage *s, uint64_t t, uint16_t simd, uint32_t wf, int src, int dst,
                  uint8_t flags, uint32_t on_bits)
{
    if (src >= 0)
        readrec(s, t, simd, wf, src);
    rec.kind = RFT_WRITE;
    rec.w.cycle = t, rec.w.cu = 0, rec.w.simd = simd, rec.w.wf = wf, rec.w.vreg = (uint16_t)dst;
    rec.w.phys = RFT_NO_PHYS, rec.w.flags = flags, rec.w.on_bits = on_bits, rec.w.cls = 0;
    memset(rec.w.mask, 0xff, sizeof rec.w.mask);
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

/* A unit record (rft(5), kind 0x07) of wf at t: 0 or the feed's error. */
static uint8_t ub[RFT_UNITREC_LEN];
static int unitrec(rft_stage *s, uint64_t t, uint16_t simd, uint32_t wf, uint8_t unit, uint32_t len)
{
    rft_unit_encode(ub, &(rft_unitrec){t, 0, simd, wf, unit});
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_UNITREC;
    rec.raw = ub;
    rec.len = len;
    return rft_stage_feed(s, &rec, &sink);
}

static const rft_replay_row *total(rft_stage *s)
{
    CHECK(rft_stage_finish(s, &sink) == 0);
    uint32_t n = rft_replay_nrows(s);
    const rft_replay_row *w = rft_replay_get(s, n - 1);
    CHECK(w->scope == RFT_RP_TOTAL);
    for (uint32_t i = 0; i < n; i++)
        if (rft_replay_get(s, i)->scope == RFT_RP_SLICE)
            CHECK(rft_replay_get(s, i)->replayed <= rft_replay_get(s, i)->upper);
    return w;
}

static rft_replay_opts opts(uint32_t add, int hold)
{
    rft_replay_opts o;
    rft_replay_opts_default(&o);
    o.add_latency = add;
    o.hold = hold;
    return o;
}

/* A saturated LDS: four wavefronts on the four SIMDs of compute unit 0,
 * each a vector ALU instruction 4 cycles after its last LDS load completed
 * and its next LDS load (reading the ALU result) 124 cycles later; the
 * LDS completes one load every 32 cycles, back to back.  A load waits 92
 * cycles beyond its own 32 in the LDS's queue: an ALU latency up to that
 * is hidden (the LDS stays busy); without the LDS unit (lds_issue 0) every
 * wavefront is alone on its SIMD and pays it in full. */
/* the events of that trace in cycle order: instruction i (k = i / 8, w = i /
 * 2 % 4, an ALU one when i is even) at its cycle; a wake-up on late */
typedef struct ev { uint64_t t; int i; } ev;
static int by_t(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    return x->t != y->t ? (x->t > y->t) - (x->t < y->t) : x->i - y->i;
}

static void feed_saturated(rft_stage *s, int n, int late)
{
    ev e[8 * 40];
    for (int i = 0; i < 8 * n; i++) {
        uint64_t c = 32 * (uint64_t)(i / 2) + 160;      /* the load's completion */
        e[i] = (ev){i % 2 ? c : c - 124, i};
    }
    qsort(e, (size_t)(8 * n), sizeof *e, by_t);
    for (uint16_t w = 0; w < 4; w++)
        begin(s, 0, w, w);
    for (int j = 0; j < 8 * n; j++) {
        int i = e[j].i;
        uint16_t w = (uint16_t)(i / 2 % 4);
        if (i % 2)
            instr(s, e[j].t, w, w, 1, 2, RFT_WF_LDS, RFT_NO_GATE);
        else
            instr(s, e[j].t, w, w, -1, 1, i == late ? RFT_WF_WAKEUP : 0,
                  i == late ? 0x800 : RFT_NO_GATE);
    }
    for (uint16_t w = 0; w < 4; w++)
        end(s, 32 * (4 * (uint64_t)n + w) + 164, w, w);
}

static uint64_t saturated(rft_replay_opts o, uint64_t *naive)
{
    rft_stage *s = start(&o);
    feed_saturated(s, 20, -1);
    const rft_replay_row *t = total(s);
    *naive = t->naive;
    CHECK(t->replayed <= t->upper);
    uint64_t r = t->replayed;
    rft_stage_free(s);
    return r;
}

/* (Only the end pays, waiting for the wavefront's results: L.  The first
 * load, at the head of the queue, pays its ALU latency; its wavefront's
 * next load, waiting 92 cycles, absorbs that and the next latency: up to 46
 * each.  In the traced order, the first load's lateness passes down the
 * whole busy LDS.) */
static void hidden(void)
{
    uint64_t naive;
    rft_replay_opts d;
    rft_replay_opts_default(&d);
    CHECK(d.lds_issue == RFT_REPLAY_AUTO && d.lds_inorder == 0);
    for (uint32_t L = 0; L <= 44; L += 4) {
        rft_replay_opts o = opts(L, 1);
        CHECK(saturated(o, &naive) == naive + L);
        o.lds_inorder = 1;
        CHECK(saturated(o, &naive) == naive + 2 * L);     /* the first load's L passed on */
    }
    /* beyond the wait, the LDS idles */
    CHECK(saturated(opts(120, 1), &naive) > naive);
    /* no LDS unit: the loads are the SIMD's, each wavefront alone on its SIMD
     * pays every latency */
    for (uint32_t L = 4; L <= 12; L += 4) {
        rft_replay_opts o = opts(L, 1);
        o.lds_issue = 0;
        CHECK(saturated(o, &naive) >= naive + 20 * (uint64_t)L);
    }
}

/* One wavefront alone: ALU, LDS load, ALU, ... 40 cycles apart; it pays
 * every added cycle of its ALU instructions. */
static void alone(void)
{
    const int n = 30;
    for (uint32_t L = 0; L <= 12; L += 4) {
        rft_replay_opts o = opts(L, 0);
        rft_stage *s = start(&o);
        begin(s, 0, 0, 1);
        for (int k = 0; k < n; k++)
            instr(s, 40 + 40 * (uint64_t)k, 0, 1, k % 2, (k + 1) % 2, k % 2 ? RFT_WF_LDS : 0,
                  RFT_NO_GATE);
        end(s, 40 + 40 * (uint64_t)n, 0, 1);
        const rft_replay_row *w = total(s);
        CHECK(w->replayed == w->naive + (uint64_t)n / 2 * L);
        CHECK(w->upper == w->replayed);
        rft_stage_free(s);
    }
}

/* A store (reads only) marked by a unit record is an LDS instruction: an
 * ALU latency, held, does not touch it; unmarked it is an ALU one and pays
 * (--deps all: the next waits for it). */
static uint64_t stores(uint32_t L, int marked, uint64_t *naive)
{
    rft_replay_opts o = opts(L, 1);
    o.deps = RFT_REPLAY_DEPS_ALL;
    rft_stage *s = start(&o);
    begin(s, 0, 0, 1);
    const int n = 20;
    for (int k = 0; k < n; k++) {
        readrec(s, 40 + 40 * (uint64_t)k, 0, 1, 0);
        if (marked)
            CHECK(unitrec(s, 40 + 40 * (uint64_t)k, 0, 1, RFT_WF_LDS, RFT_UNITREC_LEN) == 0);
    }
    end(s, 40 + 40 * (uint64_t)n, 0, 1);
    const rft_replay_row *w = total(s);
    *naive = w->naive;
    CHECK(w->instructions == (uint64_t)n);
    uint64_t r = w->replayed;
    rft_stage_free(s);
    return r;
}

static void unit_records(void)
{
    uint64_t naive;
    for (uint32_t L = 0; L <= 12; L += 4) {
        CHECK(stores(L, 1, &naive) == naive);
        CHECK(stores(L, 0, &naive) == naive + 20 * (uint64_t)L);
    }
    /* the record alone is an instruction; another shard's wavefront is
     * skipped; a malformed one is refused */
    rft_replay_opts o = opts(0, 0);
    rft_stage *s = start(&o);
    begin(s, 0, 0, 1);
    CHECK(unitrec(s, 8, 0, 1, RFT_WF_LDS, RFT_UNITREC_LEN) == 0);
    CHECK(unitrec(s, 8, 0, 7, RFT_WF_VMEM, RFT_UNITREC_LEN) == 0);
    end(s, 12, 0, 1);
    CHECK(total(s)->instructions == 1);
    rft_stage_free(s);
    s = start(&o);
    begin(s, 0, 0, 1);
    CHECK(unitrec(s, 8, 0, 1, RFT_WF_LDS, RFT_UNITREC_LEN - 1) == RFT_EFORMAT);
    CHECK(strstr(rft_stage_error(s), "unit record") != NULL);
    rft_stage_free(s);
    s = start(&o);
    begin(s, 0, 0, 1);
    CHECK(unitrec(s, 8, 0, 1, 0x01, RFT_UNITREC_LEN) == RFT_EFORMAT);
    rft_stage_free(s);
}

/* One request late beyond its wait (a 200-cycle wake-up before wavefront
 * 0's ALU instruction of round 5): the LDS gives its place to the others
 * (default), or they wait behind it (lds_inorder); the cycles wavefront 1's
 * slice (0:1) lost. */
static uint64_t one_late(int inorder, uint64_t *late0)
{
    rft_replay_opts o = opts(0, 0);
    o.wakeup_cycles = 200;
    o.lds_inorder = inorder;
    rft_stage *s = start(&o);
    feed_saturated(s, 20, 5 * 8);
    const rft_replay_row *t = total(s), *s0 = rft_replay_get(s, 0), *s1 = rft_replay_get(s, 1);
    CHECK(s0->scope == RFT_RP_SLICE && s0->simd == 0 && s1->simd == 1);
    *late0 = s0->replayed - s0->naive;
    CHECK(t->replayed > t->naive);
    uint64_t r = s1->replayed - s1->naive;
    rft_stage_free(s);
    return r;
}

static void order(void)
{
    uint64_t late0, late0_in;
    CHECK(one_late(0, &late0) == 0 && late0 > 0);
    /* in the traced order the LDS waits for it, but a slice is never later
     * than the cycles added to it (none on 0:1): the upper bound */
    CHECK(one_late(1, &late0_in) == 0 && late0_in == late0);
}

/* Pseudo-random traces on the 4 SIMDs of one compute unit, a third of the
 * instructions LDS loads: nothing added replays every span; monotone; never
 * above the upper bound (slices, kernel-less total). */
static uint64_t seed;
static uint32_t rnd(uint32_t n)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(seed >> 33) % n;
}

static uint64_t random_trace(uint32_t L, int inorder, uint32_t issue)
{
    rft_replay_opts o = opts(L, 1);
    o.lds_inorder = inorder;
    o.lds_issue = issue;
    rft_stage *s = start(&o);
    seed = 7;
    uint64_t t = 1, alive = 0, r = 0;
    uint32_t next = 0, slot[8];
    for (int step = 0; step < 4000; step++) {
        if (__builtin_popcountll(alive) < 8 && rnd(8) == 0) {
            uint32_t k = 0;
            while (alive & (1u << k))
                k++;
            slot[k] = next++;
            begin(s, t, (uint16_t)(k % 4), slot[k]);
            alive |= 1u << k;
        } else if (alive) {
            uint32_t k;
            do
                k = rnd(8);
            while (!(alive & (1u << k)));
            if (rnd(60) == 0) {
                end(s, t, (uint16_t)(k % 4), slot[k]);
                alive &= ~(1u << k);
            } else if (rnd(6) == 0) {
                readrec(s, t, (uint16_t)(k % 4), slot[k], (int)rnd(8));
                CHECK(unitrec(s, t, (uint16_t)(k % 4), slot[k], RFT_WF_LDS, RFT_UNITREC_LEN) == 0);
            } else {
                instr(s, t, (uint16_t)(k % 4), slot[k], rnd(3) ? (int)rnd(8) : -1, (int)rnd(8),
                      rnd(3) == 0 ? RFT_WF_LDS : 0, RFT_NO_GATE);
            }
        }
        t += rnd(3) ? rnd(12) : 20 + rnd(60);
    }
    CHECK(rft_stage_finish(s, &sink) == 0);
    for (uint32_t i = 0; i < rft_replay_nrows(s); i++) {
        const rft_replay_row *w = rft_replay_get(s, i);
        CHECK(w->replayed <= w->upper);
        if (L == 0)
            CHECK(w->replayed == w->naive);
        if (w->scope == RFT_RP_TOTAL)
            r = w->replayed;
    }
    rft_stage_free(s);
    return r;
}

static void properties(void)
{
    static const uint32_t issues[] = {RFT_REPLAY_AUTO, 8, 0};
    for (int inorder = 0; inorder <= 1; inorder++)
        for (int i = 0; i < 3; i++) {
            uint64_t prev = 0;
            for (uint32_t L = 0; L <= 40; L += 2) {
                uint64_t r = random_trace(L, inorder, issues[i]);
                CHECK(r >= prev);
                prev = r;
            }
        }
}

int main(void)
{
    hidden();
    alone();
    unit_records();
    order();
    properties();
    puts("test_replay_lds: ok");
    return 0;
}
