/* test_synth.c - the synthetic workload generator without files: its size is
 * exact, its records depend on the seed alone (pinned), a sink that changes
 * records changes nothing that follows, a failing sink stops it, bad options
 * are refused with rft-synth's messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

typedef struct {
    uint64_t n[256], hash;
    unsigned lanes;
    int scribble;           /* change every record, as a later stage may */
    uint64_t fail_at;       /* return RFT_EPIPE at this record (1-based), 0: never */
} tally;

static void mix(tally *t, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        t->hash = (t->hash ^ ((const uint8_t *)p)[i]) * 0x100000001b3ull;   /* FNV-1a */
}

static int put(void *ctx, rft_rec *r)
{
    tally *t = ctx;
    uint64_t seen = 0;
    for (int k = 0; k < 256; k++)
        seen += t->n[k];
    if (t->fail_at && seen + 1 >= t->fail_at) {
        t->n[r->kind & 0xff]++;
        return RFT_EPIPE;
    }
    t->n[r->kind & 0xff]++;
    uint64_t cycle = rft_rec_cycle(r);
    mix(t, &r->kind, sizeof r->kind);
    mix(t, &cycle, sizeof cycle);
    if (r->kind == RFT_WRITE) {
        const rft_write *w = &r->w;
        mix(t, &w->wf, sizeof w->wf);
        mix(t, &w->vreg, sizeof w->vreg);
        mix(t, &w->phys, sizeof w->phys);
        mix(t, &w->on_bits, sizeof w->on_bits);
        mix(t, &w->cls, 1);
        mix(t, w->mask, t->lanes / 8);
        mix(t, w->val, t->lanes * sizeof w->val[0]);
        if (t->scribble) {
            memset(r->w.mask, 0xa5, sizeof r->w.mask);
            memset(r->w.val, 0x5a, sizeof r->w.val);
            r->w.phys = 7;
            r->w.cls = RFT_CLS_CONST;
            r->w.on_bits = 0;
        }
    } else if (r->kind == RFT_BUNDLE) {
        mix(t, &r->u.bundle.slots, 1);
        mix(t, &r->u.bundle.flags, 1);
        mix(t, r->u.bundle.mask, t->lanes / 8);
        if (t->scribble)
            memset(r->u.bundle.mask, 0xa5, sizeof r->u.bundle.mask);
    }
    return 0;
}

/* Run o into a tally; returns rft_synth_run's result. */
static int run(const rft_synth_opts *o, tally *t, uint64_t *size)
{
    rft_synth *s;
    CHECK(rft_synth_new(&s, o) == 0);
    CHECK(rft_synth_error(s) == NULL);
    t->hash = 0xcbf29ce484222325ull;
    t->lanes = o->lanes;
    rft_sink sink = {put, t};
    int e = rft_synth_run(s, &sink);
    *size = rft_synth_size(s);
    CHECK(rft_synth_run(s, &sink) != 0);    /* once only */
    rft_synth_free(s);
    return e;
}

/* The records' hash, pinned on the stream rft-synth wrote before it used
 * this library (the same bytes: compared with cmp). */
static void pinned(const char *what, uint64_t got, uint64_t want)
{
    if (got != want) {
        fprintf(stderr, "%s: records hash %016llx, want %016llx\n", what, (unsigned long long)got,
                (unsigned long long)want);
        exit(1);
    }
}

static void refused(const rft_synth_opts *o, const char *why)
{
    rft_synth *s;
    CHECK(rft_synth_new(&s, o) == RFT_EFORMAT);
    if (strcmp(rft_synth_error(s), why)) {
        fprintf(stderr, "got '%s', want '%s'\n", rft_synth_error(s), why);
        exit(1);
    }
    rft_synth_free(s);
}

int main(void)
{
    rft_synth_opts o;
    tally a, b;
    uint64_t size;

    /* gcn: the size made is the size planned, exactly; pinned records */
    rft_synth_opts_default(&o, RFT_SYNTH_GCN);
    o.size = 20000;
    o.seed = 7;
    memset(&a, 0, sizeof a);
    CHECK(run(&o, &a, &size) == 0);
    CHECK(a.n[RFT_WRITE] == size);
    CHECK(size > 19000 && size < 21000);
    CHECK(a.n[RFT_KERNEL] == 6);
    CHECK(a.n[RFT_WFBEGIN] == a.n[RFT_WFEND]);
    CHECK(a.n[RFT_BUNDLE] == 0);
    /* rft-synth --writes 20000 --seed 7 of before the library: 20096 writes, 30822 reads */
    CHECK(a.n[RFT_WRITE] == 20096 && a.n[RFT_READ] == 30822 && a.n[RFT_WFBEGIN] == 368);
    pinned("gcn", a.hash, 0x797a5430e07cbe58ull);

    /* a sink that changes the records changes nothing after */
    memset(&b, 0, sizeof b);
    b.scribble = 1;
    CHECK(run(&o, &b, &size) == 0);
    CHECK(b.hash == a.hash);
    /* another seed: other values, the same kernels and wavefronts */
    o.seed = 8;
    memset(&b, 0, sizeof b);
    CHECK(run(&o, &b, &size) == 0);
    CHECK(b.hash != a.hash);
    CHECK(b.n[RFT_WFBEGIN] == a.n[RFT_WFBEGIN] && b.n[RFT_WRITE] == a.n[RFT_WRITE]);

    /* a failing sink: its error back, nothing handed on after it */
    memset(&b, 0, sizeof b);
    b.fail_at = 1000;
    CHECK(run(&o, &b, &size) == RFT_EPIPE);
    uint64_t total = 0;
    for (int k = 0; k < 256; k++)
        total += b.n[k];
    CHECK(total == 1000);

    /* evergreen: bundles as planned, pinned */
    rft_synth_opts_default(&o, RFT_SYNTH_EVERGREEN);
    CHECK(o.cus == 20 && o.simds == 1 && o.lanes == 64);
    o.size = 20000;
    o.seed = 9;
    memset(&a, 0, sizeof a);
    CHECK(run(&o, &a, &size) == 0);
    CHECK(a.n[RFT_BUNDLE] == size);
    CHECK(a.n[RFT_WRITE] < size && a.n[RFT_READ] == 0);
    CHECK(a.n[RFT_BUNDLE] == 19989 && a.n[RFT_WRITE] == 7599);
    pinned("evergreen", a.hash, 0x46989eca0037bda4ull);

    /* the header names the workload */
    rft_synth *s;
    rft_synth_opts_default(&o, RFT_SYNTH_GCN);
    o.kernels = "transpose,histogram";
    o.size = 2000;
    o.cus = 3;
    o.lanes = 32;
    CHECK(rft_synth_new(&s, &o) == 0);
    rft_header h;
    rft_header_init(&h, "test");
    CHECK(rft_synth_header(s, &h) == 0);
    CHECK(h.geom.lanes == 32 && h.geom.block_lanes == 16);
    CHECK(strcmp(rft_header_get(&h, "kernels"), "transpose,histogram") == 0);
    CHECK(strcmp(rft_header_get(&h, "writes"), "2000") == 0);
    CHECK(strcmp(rft_header_get(&h, "cus"), "3") == 0);
    CHECK(rft_header_get(&h, "arch") == NULL && rft_header_get(&h, "wg_size") == NULL);
    rft_header_free(&h);
    rft_synth_free(s);

    /* options it cannot run */
    rft_synth_opts_default(&o, RFT_SYNTH_EVERGREEN);
    o.kernels = "vecadd";
    refused(&o, "--kernels: unknown model 'vecadd' (see --list)");
    o.kernels = "fwt,,sobel";
    refused(&o, "--kernels: empty name in 'fwt,,sobel'");
    rft_synth_opts_default(&o, RFT_SYNTH_GCN);
    o.kernels = "matmul";
    o.wg_size = 256;
    refused(&o, "--wg-size: 256 work-items are 4 wavefronts, more than the 3 of model matmul "
                "that fit a slice");
    o.wg_size = 0;
    o.lanes = 12;
    refused(&o, "options out of range (synth.h)");

    /* the models as listed */
    CHECK(rft_synth_nmodels(RFT_SYNTH_GCN) == 6 && rft_synth_nmodels(RFT_SYNTH_EVERGREEN) == 6);
    rft_synth_model m;
    rft_synth_model_info(RFT_SYNTH_EVERGREEN, 0, &m);
    CHECK(strcmp(m.name, "reduction") == 0 && m.share[0] == 50.7 && m.wg_items == 256);
    rft_synth_model_info(RFT_SYNTH_GCN, 1, &m);
    CHECK(strcmp(m.name, "matmul") == 0 && m.nregs == 69 && !m.share);
    puts("test_synth: ok");
    return 0;
}
