/* fuzz_stage.c - the analysis stages fed an arbitrary stream through the
 * reader, as their programs and `rft run` feed them (rft.h, "stages"): one
 * family of stages, named at build time by FUZZ_STAGE, the Makefile building
 * one harness stage-NAME per name in FUZZ_STAGES:
 *   alloc     rft-alloc | rft-gate | rft-duty | rft-vth's reader of the map
 *   classify  rft-classify
 *   dcpatch   rft-faultmap (a generated map) | rft-dcpatch (with its replay)
 *   escan     rft-energy --scan (the energy scan, with its replay)
 *   replay    rft-replay (the shift replay; the compute-unit model, --model cu)
 *   heal      rft-heal's profile (the stage) and its replay of degraded SCs
 *   merge     rft-merge of the stream with itself
 * Each family has several option sets (below); an input runs with one of
 * them, chosen by its length (a replay, fuzz_every_way: with each).
 *
 * Input: an rft stream as a file holds it, or its content alone, compressed
 * here first (as fuzz_reader.c does), read with rule 8 checked
 * (RFT_READ_ORDER) as every stage program reads.  Every record a stage hands
 * on is read whole and formatted (fuzz_use_record).  The process's memory
 * budget is 64 MiB and a fault map's output 1 MiB: a refusal is an answer,
 * a crash, a leak, undefined behaviour or a hang is a finding. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "alloc.h"
#include "classify.h"
#include "cumodel.h"
#include "dcpatch.h"
#include "duty.h"
#include "escan.h"
#include "faultmap.h"
#include "fuzz.h"
#include "gate.h"
#include "heal.h"
#include "merge.h"
#include "replay.h"

#ifndef FUZZ_STAGE
#error "build with -DFUZZ_STAGE='\"NAME\"'"
#endif

#define MAX_RECORDS (1u << 16)  /* a small input may decompress to many */
#define MAX_STAGES 4

/* A chain of stages: stage k hands its records to stage k + 1, the last to
 * the end sink. */
typedef struct chain {
    rft_stage *st[MAX_STAGES];
    int n;
    rft_header hdr[MAX_STAGES];   /* the output header of each */
    int started;
    rft_duty_cmp *cmp;            /* alloc: rft-vth's reader of the duty map */
} chain;

typedef struct link {
    chain *c;
    int k;                        /* the stage this sink feeds (c->n: the end) */
} link;
static link links[MAX_STAGES + 1];

static int put_next(void *ctx, rft_rec *rec)
{
    link *l = ctx;
    chain *c = l->c;
    if (l->k == c->n) {
        fuzz_use_record(&c->hdr[c->n - 1].geom, rec);
        return 0;
    }
    return rft_stage_feed(c->st[l->k], rec, &(rft_sink){put_next, &links[l->k + 1]});
}

static void add(chain *c, rft_stage *s)
{
    FUZZ_ASSERT(s != NULL && c->n < MAX_STAGES);
    c->st[c->n++] = s;
}

/* The families' option sets: the stages of set i into c. */
static int nsets(void);
static void make(chain *c, int set);

#define IS(name) (strcmp(FUZZ_STAGE, name) == 0)

static int nsets(void)
{
    return IS("alloc") ? 4 : IS("classify") ? 2 : IS("dcpatch") ? 3 : IS("escan") ? 2
         : IS("replay") ? 5 : IS("heal") ? 2 : 1;
}

static void make(chain *c, int set)
{
    if (IS("alloc")) {
        rft_alloc_opts a;
        rft_alloc_opts_default(&a);
        a.scheme = set == 0 ? RFT_ALLOC_FIRSTFIT : set == 1 ? RFT_ALLOC_RAR : RFT_ALLOC_ARGO;
        a.bank = set == 3 ? 4 : 1;
        a.occupancy = set >= 2;
        a.steady = set == 1;
        a.by_group = set == 3;
        add(c, rft_alloc_new(&a));
        rft_gate_opts g;
        rft_gate_opts_default(&g);
        g.scheme = set % 2 ? RFT_GATE_WC : RFT_GATE_RC;
        add(c, rft_gate_new(&g));
        rft_duty_opts d = {.span = set == 2 ? RFT_SPAN_BUSY : set == 3 ? RFT_SPAN_STREAM
                                                                       : RFT_SPAN_SLICE,
                           .unused_on = set == 3, .steady = set == 1,
                           .alloc_scheme = a.scheme, .alloc_ring = 1};
        add(c, rft_duty_stage_new(&d, set % 2));
        rft_duty_cmp_opts v = {.per_bit = set == 0, .per_reg = set == 1, .by_fault = set == 2,
                               .include_unused = set == 3};
        FUZZ_ASSERT((c->cmp = rft_duty_cmp_new(&v, 1)) != NULL);
        add(c, rft_duty_cmp_stage(c->cmp, 0));
    } else if (IS("classify")) {
        rft_classify_opts o;
        rft_classify_opts_default(&o);
        o.by_reg = set == 1;
        o.cover = set == 1 ? RFT_COVER_POW2 : 0;
        add(c, rft_classify_new(&o));
    } else if (IS("dcpatch")) {
        rft_fm_source src = {.have_gen = 1, .same = set == 1};
        char why[256];
        FUZZ_ASSERT(rft_fm_gen_scenario(&src.gen, "dispersed", why, sizeof why) == 0);
        src.gen.seed = 3;
        rft_stage *fm = rft_faultmap_stage_new(&src);
        FUZZ_ASSERT(fm != NULL);
        rft_faultmap_stage_max_output(fm, 1u << 20);
        add(c, fm);
        rft_dcpatch_opts o;
        rft_dcpatch_opts_default(&o);
        o.check = set == 0;
        o.replay = set != 1;
        o.dcp.pick_high = set == 2;
        o.dcp.share_reliable = set != 2;
        add(c, rft_dcpatch_new(&o));
    } else if (IS("escan")) {
        rft_escan_opts o;
        rft_escan_opts_default(&o);
        o.emit = 1;
        o.bank = set == 1 ? 4 : 1;
        o.replay_opts.add_latency = set == 1 ? 3 : 0;
        add(c, rft_escan_new(&o));
    } else if (IS("replay") && set >= 3) {  /* rft-replay --model cu */
        rft_replay_opts o;
        rft_replay_opts_default(&o);
        rft_m2scfg traced, whatif;
        rft_m2scfg_default(&traced);
        whatif = traced;
        if (set == 4) {         /* a what-if, the scheme's run with stages and healing */
            whatif.rew_latency += 4;
            whatif.vm_write_latency += 10;
            whatif.lds_write_latency += 4;
            o.stages = 2;
            o.degraded_scs = 1;
        }
        o.cu_calibrate = set == 4;  /* the calibration's runs (model v7), and v6's without */
        o.cu_placements = set == 4 ? 2 : 0;     /* and two placements perturbed (v8) */
        add(c, rft_cumodel_new(set == 4, &traced, &whatif, &o));
    } else if (IS("replay")) {
        rft_replay_opts o;
        rft_replay_opts_default(&o);
        o.emit = 1;
        o.trust = 1;
        o.add_latency = set == 1 ? 5 : 0;
        o.hold = set == 1;
        o.lds_issue = set == 2 ? 0 : o.lds_issue;
        o.lds_inorder = set == 1;
        o.degraded_scs = set == 2 ? 1 : 0;
        add(c, rft_replay_new(&o));
    } else if (IS("heal")) {
        rft_heal_opts h;
        rft_heal_opts_default(&h);
        h.wfrule = set ? RFT_HEAL_WF_CEIL : RFT_HEAL_WF_SEED;
        add(c, rft_heal_stage_new(&h));
        rft_replay_opts o;
        rft_replay_opts_default(&o);
        o.emit = 1;
        o.trust = 1;
        o.degraded_scs = 1 + set;
        o.degraded_sweep = 1;
        o.wfrule = h.wfrule;
        add(c, rft_replay_new(&o));
    }
}

static void chain_free(chain *c)
{
    for (int k = 0; k < c->n; k++)
        rft_stage_free(c->st[k]);
    for (int k = 0; k < c->started; k++)
        rft_header_free(&c->hdr[k]);
    if (c->cmp) {
        rft_duty_cmp_finish(c->cmp);
        (void)rft_duty_cmp_map(c->cmp, 0);
    }
    rft_duty_cmp_free(c->cmp);
}

static rft_reader *open_input(const uint8_t *in, size_t n)
{
    char err[256];
    rft_reader *r = rft_reader_open_mem(in, n, RFT_READ_ORDER, err, sizeof err);
    return r;
}

/* The stream through the chain of set: its stages' errors are answers. */
static void run_chain(const uint8_t *in, size_t n, int set)
{
    rft_reader *r = open_input(in, n);
    if (!r)
        return;
    static chain c;
    memset(&c, 0, sizeof c);
    make(&c, set);
    for (int k = 0; k <= c.n; k++)
        links[k] = (link){&c, k};
    const rft_header *h = rft_reader_header(r);
    int e = 0;
    for (int k = 0; k < c.n && !e; k++) {
        e = rft_stage_start(c.st[k], k ? &c.hdr[k - 1] : h, &c.hdr[k]);
        c.started = k + 1;
    }
    static rft_rec rec;
    uint64_t count = 0;
    while (!e && count++ < MAX_RECORDS && (e = rft_read(r, &rec)) == 0)
        e = rft_stage_feed(c.st[0], &rec, &(rft_sink){put_next, &links[1]});
    if (e == RFT_EOF) {
        e = 0;
        for (int k = 0; k < c.n && !e; k++)
            e = rft_stage_finish(c.st[k], &(rft_sink){put_next, &links[k + 1]});
    }
    if (e && e != RFT_EOF)
        for (int k = 0; k < c.n; k++)
            (void)rft_stage_error(c.st[k]);
    rft_reader_close(r);
    chain_free(&c);
}

static int put_use(void *ctx, rft_rec *rec)
{
    fuzz_use_record(ctx, rec);
    return 0;
}

/* rft-merge: the stream twice, as two inputs (refused or added up). */
static void run_merge(const uint8_t *in, size_t n)
{
    rft_merge *m = rft_merge_new();
    FUZZ_ASSERT(m != NULL);
    static rft_rec rec;
    rft_geom g = {0};
    int e = 0;
    for (int i = 0; i < 2 && !e; i++) {
        rft_reader *r = open_input(in, n);
        if (!r)
            break;
        const rft_header *h = rft_reader_header(r);
        g = h->geom;
        rft_sink out = {put_use, &g};
        e = rft_merge_input(m, i ? "b" : "a", h);
        uint64_t count = 0;
        while (!e && count++ < MAX_RECORDS && (e = rft_read(r, &rec)) == 0)
            e = rft_merge_feed(m, &rec, &out);
        if (e == RFT_EOF)
            e = rft_merge_input_end(m);
        rft_reader_close(r);
        if (!e && i == 1)
            e = rft_merge_finish(m, &out);
    }
    if (e)
        (void)rft_merge_why(m);
    rft_merge_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    static ZSTD_CCtx *cctx;
    static uint8_t *z;
    static size_t zcap;
    static int init;
    if (!init) {
        rft_mem_limit(64u << 20, NULL);
        init = 1;
    }
    const uint8_t *in = data;
    size_t n = size;
    if (size < 4 || memcmp(data, zstd_magic, 4) != 0) {
        size_t cap = ZSTD_compressBound(size);
        if (cap > zcap) {
            free(z);
            FUZZ_ASSERT((z = malloc(zcap = cap)) != NULL);
        }
        FUZZ_ASSERT(cctx || (cctx = ZSTD_createCCtx()) != NULL);
        n = ZSTD_compressCCtx(cctx, z, cap, data, size, 1);
        FUZZ_ASSERT(!ZSTD_isError(n));
        in = z;
    }
    if (IS("merge")) {
        run_merge(in, n);
        return 0;
    }
    int sets = nsets();
    for (int s = 0; s < sets; s++)
        if (fuzz_every_way || s == (int)(size % (size_t)sets))
            run_chain(in, n, s);
    FUZZ_ASSERT(rft_mem_held() == 0);
    return 0;
}
