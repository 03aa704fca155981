/* test_stage_alloc.c - the allocation (lib/alloc.c) and classification
 * (lib/classify.c) stages run in memory, without files: records built
 * here go through rft_stage_feed, what the stages hand on is collected and
 * checked value by value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "classify.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)
#define LANES 16

/* ---- what a stage handed on ---- */
typedef struct {
    int kind;
    uint32_t wf;
    uint16_t vreg, phys;
    uint8_t cls, bs, wc, flags;
    uint32_t c0, de, db;
    rft_alloc_rec a;        /* RFT_ALLOC */
    uint32_t len;           /* other kinds: payload length */
} seen;

static seen got[64];
static int ngot;

static int collect(void *ctx, rft_rec *r)
{
    seen *s = &got[ngot++];
    CHECK(ngot <= 64);
    memset(s, 0, sizeof *s);
    s->kind = r->kind;
    switch (r->kind) {
    case RFT_WRITE:
        *s = (seen){r->kind, r->w.wf, r->w.vreg, r->w.phys, r->w.cls, r->w.bs, r->w.wc,
                    r->w.flags, r->w.c0, r->w.de, r->w.db, {0}, 0};
        break;
    case RFT_READ:
        s->wf = r->u.read.wf;
        s->vreg = r->u.read.vreg;
        s->phys = r->u.read.phys;
        break;
    case RFT_ALLOC: CHECK(rft_alloc_parse(r->raw, r->len, &s->a) == 0); break;
    default: s->len = r->len;
    }
    return 0;
}

static const rft_sink collector = {collect, NULL};

/* A sink feeding the next stage, whose records go to the collector. */
static int feed_next(void *ctx, rft_rec *r) { return rft_stage_feed(ctx, r, &collector); }

/* ---- records ---- */
static rft_rec *mk_kernel(rft_rec *r, uint32_t index, const char *name)
{
    r->kind = RFT_KERNEL;
    r->u.kernel = (rft_kernel){0, index, 0, name, (uint16_t)strlen(name)};
    return r;
}

static rft_rec *mk_begin(rft_rec *r, uint64_t cycle, uint32_t wf, uint16_t nregs, uint32_t k)
{
    r->kind = RFT_WFBEGIN;
    r->u.begin = (rft_wfbegin){cycle, 0, 0, wf, nregs, 0, RFT_NO_WG, k};
    return r;
}

static rft_rec *mk_end(rft_rec *r, uint64_t cycle, uint32_t wf)
{
    r->kind = RFT_WFEND;
    r->u.end = (rft_wfend){cycle, 0, 0, wf};
    return r;
}

static rft_rec *mk_read(rft_rec *r, uint64_t cycle, uint32_t wf, uint16_t vreg)
{
    r->kind = RFT_READ;
    r->u.read = (rft_regread){cycle, 0, 0, wf, vreg, RFT_NO_PHYS};
    return r;
}

/* A write of lanes c0 + (i / bs) * db + (i % bs) * de, active lanes 0..active-1. */
static rft_rec *mk_write(rft_rec *r, uint64_t cycle, uint32_t wf, uint16_t vreg, unsigned active,
                      uint32_t c0, uint32_t de, uint32_t db, unsigned bs)
{
    memset(&r->w, 0, sizeof r->w);
    r->kind = RFT_WRITE;
    r->w.cycle = cycle;
    r->w.wf = wf;
    r->w.vreg = vreg;
    r->w.phys = RFT_NO_PHYS;
    r->w.on_bits = RFT_NO_GATE;
    for (unsigned i = 0; i < active; i++)
        r->w.mask[i / 8] |= (uint8_t)(1u << (i % 8));
    for (unsigned i = 0; i < LANES; i++)
        r->w.val[i] = c0 + (i / bs) * db + (i % bs) * de;
    return r;
}

static rft_rec *mk_raw(rft_rec *r, int kind, const uint8_t *p, uint32_t len)
{
    r->kind = kind;
    r->raw = p;
    r->len = len;
    return r;
}

static void header(rft_header *h, uint32_t entries)
{
    rft_header_init(h, "test");
    h->geom = (rft_geom){LANES, entries, 4, 32};
}

static int events;
static void count_event(void *ctx, const rft_alloc_rec *a) { events += a->event != 0; }

static void check_alloc(int i, int event, uint32_t wf, uint16_t base, uint16_t rot, uint16_t nfree)
{
    const rft_alloc_rec *a = &got[i].a;
    CHECK(got[i].kind == RFT_ALLOC);
    CHECK(a->event == event && a->wf == wf && a->base == base && a->n == 10 && a->rot == rot);
    CHECK(a->nfree == nfree && a->flags == 0 && a->bank == 1);
}

/* RAR in a slice of 32 entries: windows of 10 at 0 and 10; the window
 * placed again at 0 turns by one, so its v9 lands on entry 0 (seed 002
 * 5.2).  An RFT_ALLOC record follows each B and E; an old one is dropped,
 * an unknown kind passes. */
static void test_alloc_rar(rft_rec *r)
{
    rft_alloc_opts o;
    rft_header in, out;
    rft_alloc_opts_default(&o);
    o.scheme = RFT_ALLOC_RAR;
    o.occupancy = 1;
    o.on_event = count_event;
    rft_stage *s = rft_alloc_new(&o);
    CHECK(s);
    header(&in, 32);
    CHECK(rft_stage_start(s, &in, &out) == 0);
    CHECK(strcmp(out.producer, "rft-alloc") == 0);
    CHECK(strcmp(rft_header_get(&out, "alloc"), "scheme=rar granularity=wavefront") == 0);

    uint8_t old[RFT_ALLOC_LEN], opaque[3] = {1, 2, 3};
    rft_alloc_encode(old, &(rft_alloc_rec){0, 0, 0, 7, 0, 4, 0, 28, RFT_ALLOC_EV_ALLOC, 0, 1});
    ngot = events = 0;
    CHECK(rft_stage_feed(s, mk_kernel(r, 0, "k"), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_raw(r, RFT_ALLOC, old, sizeof old), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_begin(r, 1, 0, 10, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_begin(r, 1, 1, 10, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_write(r, 2, 0, 9, LANES, 0, 0, 0, 8), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_read(r, 3, 1, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_raw(r, 0x30, opaque, sizeof opaque), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_end(r, 4, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_begin(r, 5, 2, 10, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_write(r, 6, 2, 9, LANES, 0, 0, 0, 8), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_end(r, 7, 1), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_end(r, 8, 2), &collector) == 0);
    CHECK(rft_stage_finish(s, &collector) == 0);

    CHECK(ngot == 17 && events == 6);
    CHECK(got[0].kind == RFT_KERNEL);
    CHECK(got[1].kind == RFT_WFBEGIN);
    check_alloc(2, RFT_ALLOC_EV_ALLOC, 0, 0, 0, 22);
    CHECK(got[3].kind == RFT_WFBEGIN);
    check_alloc(4, RFT_ALLOC_EV_ALLOC, 1, 10, 0, 12);
    CHECK(got[5].kind == RFT_WRITE && got[5].phys == 9);
    CHECK(got[6].kind == RFT_READ && got[6].phys == 10);
    CHECK(got[7].kind == 0x30 && got[7].len == 3);
    CHECK(got[8].kind == RFT_WFEND);
    check_alloc(9, RFT_ALLOC_EV_FREE, 0, 0, 0, 22);
    CHECK(got[10].kind == RFT_WFBEGIN);
    check_alloc(11, RFT_ALLOC_EV_ALLOC, 2, 0, 1, 12);
    CHECK(got[12].kind == RFT_WRITE && got[12].phys == 0);     /* (0 + (1 + 9) % 10) */
    CHECK(got[13].kind == RFT_WFEND);
    check_alloc(14, RFT_ALLOC_EV_FREE, 1, 10, 0, 22);
    CHECK(got[15].kind == RFT_WFEND);
    check_alloc(16, RFT_ALLOC_EV_FREE, 2, 0, 1, 32);

    /* utilization: two windows of 10 at once, 20 of 32 entries */
    const rft_occ *occ = rft_alloc_occupancy(s);
    rft_occ_row row;
    CHECK(occ && rft_occ_rows(occ) == 2);
    rft_occ_get(occ, 0, &row);
    CHECK(strcmp(row.kernel, "k") == 0 && row.vgprs_min == 10 && row.vgprs_max == 10);
    CHECK(row.max_wf == 2 && row.peak == 20 && row.slices == 1 && row.cycles == 7);
    CHECK(rft_alloc_geom(s)->entries == 32);
    rft_header_free(&in);
    rft_header_free(&out);
    rft_stage_free(s);
}

/* Errors come back as codes and one line that names no place. */
static void test_alloc_errors(rft_rec *r)
{
    rft_alloc_opts o;
    rft_header in, out;
    char why[128];
    rft_alloc_opts_default(&o);
    header(&in, 16);
    o.scheme = RFT_ALLOC_ARGO;
    o.bank = 32;
    CHECK(rft_alloc_opts_check(&o, &in.geom, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "--bank: 32 entries is more than the 16 of a slice") == 0);
    rft_stage *s = rft_alloc_new(&o);
    CHECK(rft_stage_start(s, &in, &out) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(s), why) == 0);
    rft_header_free(&out);
    rft_stage_free(s);

    o.bank = 4;
    s = rft_alloc_new(&o);
    CHECK(rft_stage_start(s, &in, &out) == 0);
    CHECK(strcmp(rft_header_get(&out, "alloc"), "scheme=argo granularity=wavefront wrap=ring bank=4") == 0);
    ngot = 0;
    CHECK(rft_stage_feed(s, mk_write(r, 1, 3, 0, LANES, 0, 0, 0, 8), &collector) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(s), "write of wavefront 3 on slice (0,0), which has no window "
                                     "(no begin record)") == 0);
    CHECK(rft_stage_feed(s, mk_begin(r, 1, 3, 12, 0), &collector) == 0);
    CHECK(got[1].kind == RFT_ALLOC && got[1].a.flags == RFT_AF_GATED && got[1].a.bank == 4);
    CHECK(rft_stage_feed(s, mk_begin(r, 2, 4, 5, 0), &collector) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(s), "window of 5 registers of wavefront 4 does not fit in slice "
                                     "(0,0) at cycle 2 (4 free entries, largest free run 4)") == 0);
    CHECK(rft_stage_feed(s, mk_read(r, 3, 3, 12), &collector) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(s), "read of register v12 outside the window of 12 registers "
                                     "of wavefront 3") == 0);
    rft_header_free(&in);
    rft_header_free(&out);
    rft_stage_free(s);
}

/* The seed 002 patterns with BS 8 and the hardware rule, in a stream the
 * allocation stage feeds: phys from alloc, the annotations from classify;
 * then the counters of the kernel. */
static void test_alloc_then_classify(rft_rec *r)
{
    rft_alloc_opts ao;
    rft_classify_opts co;
    rft_header in, mid, out;
    rft_alloc_opts_default(&ao);
    rft_classify_opts_default(&co);
    rft_stage *a = rft_alloc_new(&ao), *c = rft_classify_new(&co);
    CHECK(a && c);
    header(&in, 32);
    CHECK(rft_stage_start(a, &in, &mid) == 0 && rft_stage_start(c, &mid, &out) == 0);
    CHECK(strcmp(rft_header_get(&out, "classify"), "bs=8 deltas=pow2 max-delta=64") == 0);
    CHECK(strcmp(rft_header_get(&out, "alloc"), "scheme=first-fit granularity=wavefront") == 0);
    const rft_sink to_classify = {feed_next, c};
    ngot = 0;
    CHECK(rft_stage_feed(a, mk_kernel(r, 0, "k"), &to_classify) == 0);
    CHECK(rft_stage_feed(a, mk_begin(r, 1, 0, 4, 0), &to_classify) == 0);
    CHECK(rft_stage_feed(a, mk_write(r, 2, 0, 1, LANES, 0, 1, 8, 8), &to_classify) == 0);  /* ids */
    CHECK(rft_stage_feed(a, mk_write(r, 3, 0, 2, LANES, 32, 0, 0, 8), &to_classify) == 0); /* constant */
    CHECK(rft_stage_feed(a, mk_write(r, 4, 0, 3, LANES, 2, 2, 8, 8), &to_classify) == 0);  /* C0 2, De 2, Db 8 */
    CHECK(rft_stage_feed(a, mk_write(r, 5, 0, 0, LANES, 0, 1, 3, 8), &to_classify) == 0);  /* Db 3 */
    CHECK(rft_stage_feed(a, mk_write(r, 6, 0, 1, 8, 0, 1, 8, 8), &to_classify) == 0);      /* divergent */
    CHECK(rft_stage_feed(a, mk_write(r, 7, 0, 0, 8, 5, 0, 7, 8), &to_classify) == 0);      /* divergent */
    CHECK(rft_stage_feed(a, mk_end(r, 8, 0), &to_classify) == 0);
    CHECK(rft_stage_finish(a, &to_classify) == 0 && rft_stage_finish(c, &collector) == 0);

    CHECK(ngot == 11);
    const seen *w = &got[3];
    CHECK(w[0].kind == RFT_WRITE && w[0].phys == 1 && w[0].cls == RFT_CLS_SINGLE && w[0].bs == 8);
    CHECK(w[0].c0 == 0 && w[0].de == 1 && w[0].db == 8 && w[0].wc == RFT_WC_DELTA1);
    CHECK(w[0].flags == RFT_WF_FIRSTBLOCK);
    CHECK(w[1].phys == 2 && w[1].cls == RFT_CLS_CONST && w[1].c0 == 32 && w[1].wc == RFT_WC_BASE);
    CHECK(w[2].phys == 3 && w[2].cls == RFT_CLS_DOUBLE && w[2].c0 == 2 && w[2].de == 2 && w[2].db == 8);
    /* Db 3 is no power of two: not compressible, though the first block
     * (lanes 0..3) fits: a misprediction */
    CHECK(w[3].phys == 0 && w[3].cls == RFT_CLS_OTHER && w[3].flags == RFT_WF_FIRSTBLOCK);
    /* v1 was compressed: the divergent write needs a MOV */
    CHECK(w[4].phys == 1 && w[4].cls == RFT_CLS_SINGLE &&
          w[4].flags == (RFT_WF_FIRSTBLOCK | RFT_WF_DIVERGENT | RFT_WF_MOV));
    /* v0 was not: no MOV */
    CHECK(w[5].phys == 0 && w[5].cls == RFT_CLS_OTHER &&
          w[5].flags == (RFT_WF_FIRSTBLOCK | RFT_WF_DIVERGENT));

    rft_classify_kernel k;
    CHECK(rft_classify_nkernels(c) == 1 && rft_classify_lanes(c) == LANES);
    rft_classify_kernel_get(c, 0, &k);
    /* writes, const, single, double, other, compressed, mispredicted,
     * divergent, MOVs, WC base, delta1, delta2, uncompressed, WC bits on */
    static const uint64_t want[RFT_CC_N] = {6, 1, 2, 1, 2, 3, 1, 2, 1, 1, 5, 0, 0,
                                            32 + (32 + 8 * 15) * 5};
    CHECK(strcmp(k.name, "k") == 0 && k.bs == 8 && k.nreg == 0);
    CHECK(memcmp(k.all->n, want, sizeof want) == 0);
    rft_header_free(&in);
    rft_header_free(&mid);
    rft_header_free(&out);
    rft_stage_free(a);
    rft_stage_free(c);
}

static void feed_kernels(rft_stage *s, rft_rec *r)
{
    CHECK(rft_stage_feed(s, mk_kernel(r, 0, "tile4"), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_begin(r, 1, 0, 2, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_write(r, 2, 0, 0, LANES, 0, 1, 16, 4), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_write(r, 3, 0, 1, LANES, 7, 2, 32, 4), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_end(r, 4, 0), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_kernel(r, 1, "flat"), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_begin(r, 5, 1, 1, 1), &collector) == 0);
    CHECK(rft_stage_feed(s, mk_write(r, 6, 1, 0, LANES, 9, 0, 0, 8), &collector) == 0);
    CHECK(rft_stage_finish(s, &collector) == 0);
}

/* --bs auto: a coverage pass counts what fits bs 1, 2, 4, ... 64; the
 * kernel of 4-lane tiles gets bs 4, the constant one keeps 8 (a tie). */
static void test_classify_auto(rft_rec *r)
{
    rft_classify_opts o;
    rft_header in, out;
    rft_classify_opts_default(&o);
    o.cover = RFT_COVER_POW2;
    rft_stage *cover = rft_classify_new(&o);
    header(&in, 32);
    CHECK(rft_stage_start(cover, &in, &out) == 0);
    CHECK(rft_header_get(&out, "classify") == NULL);   /* nothing annotated */
    rft_header_free(&out);
    ngot = 0;
    feed_kernels(cover, r);
    CHECK(ngot == 8 && got[2].cls == RFT_CLS_NONE);    /* records pass unchanged */
    CHECK(rft_classify_nrules(cover) == 7 && rft_classify_rule(cover, 2)->bs == 4);
    rft_classify_kernel k;
    rft_classify_kernel_get(cover, 0, &k);
    static const uint64_t tile4[7] = {0, 0, 2, 0, 0, 0, 0};
    CHECK(strcmp(k.name, "tile4") == 0 && k.all->n[RFT_CC_WRITES] == 2);
    CHECK(memcmp(k.cover, tile4, sizeof tile4) == 0);

    o.cover = RFT_COVER_NONE;
    o.bs_auto = 1;
    rft_stage *s = rft_classify_new(&o);
    CHECK(rft_classify_choose_bs(s, cover) == 0);
    CHECK(rft_classify_choose_bs(cover, s) == RFT_EFORMAT);     /* not a coverage stage */
    rft_stage_free(cover);
    CHECK(rft_stage_start(s, &in, &out) == 0);
    CHECK(strcmp(rft_header_get(&out, "classify"), "bs=auto deltas=pow2 max-delta=64") == 0);
    ngot = 0;
    feed_kernels(s, r);
    CHECK(got[2].cls == RFT_CLS_DOUBLE && got[2].bs == 4 && got[2].de == 1 && got[2].db == 16);
    CHECK(got[3].cls == RFT_CLS_DOUBLE && got[3].bs == 4 && got[3].c0 == 7);
    CHECK(got[7].cls == RFT_CLS_CONST && got[7].bs == 8 && got[7].c0 == 9);
    rft_classify_kernel_get(s, 1, &k);
    CHECK(strcmp(k.name, "flat") == 0 && k.bs == 8 && k.all->n[RFT_CC_CONST] == 1);
    rft_header_free(&in);
    rft_header_free(&out);
    rft_stage_free(s);
}

int main(void)
{
    rft_rec *r = calloc(1, sizeof *r);
    CHECK(r);
    test_alloc_rar(r);
    test_alloc_errors(r);
    test_alloc_then_classify(r);
    test_classify_auto(r);
    free(r);
    puts("test_stage_alloc: ok");
    return 0;
}
