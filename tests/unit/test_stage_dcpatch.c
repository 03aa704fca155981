/* test_stage_dcpatch.c - the DC-Patch stage (rft_dcpatch_new) and the
 * fault-map stage (rft_faultmap_stage_new) run in memory on records built
 * here, as a simulator would run them: every record they hand on, the
 * counters, the log and the errors checked exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcpatch.h"
#include "faultmap.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* ---- what a stage hands on ------------------------------------------------------------ */
#define MAXOUT 64
typedef struct {
    int n;
    int kind[MAXOUT];
    uint16_t phys[MAXOUT];          /* writes and reads */
    rft_patch_rec patch[MAXOUT];    /* patch records */
    rft_faultmap map[MAXOUT];       /* map records (decoded: free them) */
    rft_counters *ctr[MAXOUT];      /* counters records */
} out_t;

static int put(void *ctx, rft_rec *r)
{
    out_t *o = ctx;
    char why[RFT_FM_WHY];
    CHECK(o->n < MAXOUT);
    int i = o->n++;
    o->kind[i] = r->kind;
    switch (r->kind) {
    case RFT_WRITE: o->phys[i] = r->w.phys; break;
    case RFT_READ: o->phys[i] = r->u.read.phys; break;
    case RFT_PATCH: CHECK(rft_patch_parse(r->raw, r->len, &o->patch[i]) == 0); break;
    case RFT_FAULTMAP:
        CHECK(rft_faultmap_decode(r->raw, r->len, &o->map[i], why, sizeof why) == 0);
        break;
    case RFT_COUNTERS:
        CHECK((o->ctr[i] = malloc(sizeof *o->ctr[i])) != NULL);
        CHECK(rft_counters_parse(r->raw, r->len, o->ctr[i]) == 0);
        break;
    }
    return 0;
}

static void out_free(out_t *o)
{
    for (int i = 0; i < o->n; i++) {
        if (o->kind[i] == RFT_FAULTMAP)
            rft_faultmap_free(&o->map[i]);
        free(o->ctr[i]);
    }
    memset(o, 0, sizeof *o);
}

/* what the log and warn callbacks got */
static char text[4096];
static void append(void *ctx, const char *s)
{
    CHECK(strlen(text) + strlen(s) + 1 < sizeof text);
    strcat(text, s);
}

static void warn_line(void *ctx, const char *msg)
{
    append(ctx, msg);
    append(ctx, "\n");
}

/* ---- records ----------------------------------------------------------------------------- */
static rft_rec *rec;                /* large: one, reused */
static uint8_t rawbuf[1024];

static void geom8(rft_header *h)
{
    rft_header_init(h, "test");
    h->geom = (rft_geom){64, 8, 16, 32};    /* 8 entries of 4 blocks */
}

/* The map of test_dcpatch.c: entry 1 faulty in blocks 0 and 2, entry 2 one
 * bit (ECP repairs it), entry 3 faulty everywhere. */
static void small_map(rft_faultmap *m, uint16_t cu, uint16_t simd)
{
    CHECK(rft_faultmap_init(m, 8, 4) == 0);
    m->cu = cu;
    m->simd = simd;
    m->ecp = RFT_FM_ECP;
    snprintf(m->origin, sizeof m->origin, "test");
    m->bits[1 * 4 + 0] = m->bits[1 * 4 + 2] = 1;
    m->bits[2 * 4 + 3] = 1;
    for (int b = 0; b < 4; b++)
        m->bits[3 * 4 + b] = 1;
}

static rft_rec *map_rec(const rft_faultmap *m)
{
    CHECK(rft_faultmap_record_len(m) <= sizeof rawbuf);
    rft_faultmap_encode(m, rawbuf);
    rec->kind = RFT_FAULTMAP;
    rec->raw = rawbuf;
    rec->len = (uint32_t)rft_faultmap_record_len(m);
    return rec;
}

static rft_rec *kernel_rec(const char *name)
{
    rec->kind = RFT_KERNEL;
    rec->u.kernel = (rft_kernel){0, 0, 0, name, (uint16_t)strlen(name)};
    return rec;
}

static rft_rec *begin_rec(uint64_t t, uint16_t cu, uint16_t simd, uint32_t wf, uint16_t nregs)
{
    rec->kind = RFT_WFBEGIN;
    rec->u.begin = (rft_wfbegin){t, cu, simd, wf, nregs, RFT_BF_KERNEL, RFT_NO_WG, 0};
    return rec;
}

static rft_rec *end_rec(uint64_t t, uint32_t wf)
{
    rec->kind = RFT_WFEND;
    rec->u.end = (rft_wfend){t, 0, 0, wf};
    return rec;
}

/* a write of every lane: linear (100 + lane: single-delta, compressible)
 * or quadratic (lane^2: fits no pattern, not even in the first block) */
static rft_rec *write_rec(uint64_t t, uint32_t wf, uint16_t vreg, int linear)
{
    rft_write *w = &rec->w;
    rec->kind = RFT_WRITE;
    memset(w, 0, offsetof(rft_write, val));
    w->cycle = t;
    w->wf = wf;
    w->vreg = vreg;
    w->phys = RFT_NO_PHYS;
    w->on_bits = RFT_NO_GATE;
    memset(w->mask, 0xff, 8);
    for (uint32_t i = 0; i < 64; i++)
        w->val[i] = linear ? 100 + i : i * i;
    return rec;
}

static rft_rec *read_rec(uint64_t t, uint32_t wf, uint16_t vreg)
{
    rec->kind = RFT_READ;
    rec->u.read = (rft_regread){t, 0, 0, wf, vreg, RFT_NO_PHYS};
    return rec;
}

/* ---- one stage under test at a time ------------------------------------------------------- */
static rft_header in, out;
static out_t got;
static rft_sink sink = {put, &got};

/* Start st on an 8-entry stream; its warnings (and log) go to text. */
static rft_stage *start(rft_stage *st)
{
    CHECK(st);
    geom8(&in);
    st->warn = warn_line;
    text[0] = 0;
    CHECK(rft_stage_start(st, &in, &out) == 0);
    return st;
}

static void stop(rft_stage *st)
{
    rft_stage_free(st);
    rft_header_free(&out);
    rft_header_free(&in);
    out_free(&got);
}

static int feed(rft_stage *st, rft_rec *r) { return rft_stage_feed(st, r, &sink); }

/* ---- DC-Patch with the stream's maps ------------------------------------------------------ */
static const char expect_log[] =
    "record\tcycle\tslice\twf\tvreg\tevent\tcontent\tplace\tflags\n"
    "3\t0\t0:0\t0\t-\tbegin\t-\trows 0-3\t-\n"
    "4\t1\t0:0\t0\tv0\tpatch-faulty\tc\t1.1\tfirst\n"
    "5\t2\t0:0\t0\tv1\tpatch-reliable\tu\t0\tfirst\n"
    "6\t3\t0:0\t0\tv1\tpatch-faulty\tc\t1.3\tchange\n"
    "7\t4\t0:0\t0\tv1\tread-comp\tc\t1.3\t-\n"
    "8\t5\t0:0\t0\tv2\tread-unwritten\t-\t-\t-\n"
    "9\t6\t0:0\t0\t-\tend\t-\treleased 2\t-\n";

/* The counters of the run below, worked out by hand: v0 compressed into
 * the usable block 1 of faulty entry 1; v1 uncompressed into reliable
 * entry 0, then compressed into block 3 of entry 1 (entry 0 released); a
 * read of v1 (compressed), one of v2 (never written); the end releases two. */
static const struct { const char *name; uint64_t v; } expect_ctr[] = {
    {"writes", 3}, {"writes_normal", 0}, {"writes_patch_faulty", 2}, {"writes_patch_reliable", 1},
    {"writes_lds", 0}, {"writes_first", 2}, {"writes_state_change", 1}, {"writes_compressed", 2},
    {"writes_divergent", 0}, {"writes_mispredicted", 0}, {"reads", 2}, {"reads_compressed", 1},
    {"reads_unwritten", 1}, {"block_reads_compressed", 1}, {"block_writes_compressed", 2},
    {"block_writes_uncompressed", 4}, {"com_unit", 3}, {"com_unit_blocks", 12}, {"dec_unit", 1},
    {"dec_unit_blocks", 4}, {"pt_reads", 5}, {"pt_writes", 5}, {"psu_searches", 5},
    {"psu_patches", 3}, {"psu_releases", 3}, {"wavefronts", 1}, {"slice_cycles", 6},
    {"cu_cycles", 6}, {"entry_cycles", 48},
    /* entry cycles up to cycle 6: v0 in reliable natural entry 0 compressed
     * from 1; v1 in faulty natural entry 1 uncompressed 2-3, compressed
     * 3-6; unwritten rows: 4 x 6 - 5 - 4 */
    {"conv_rel_comp_entry_cycles", 5}, {"conv_rel_unc_entry_cycles", 0},
    {"conv_faulty_comp_entry_cycles", 3}, {"conv_faulty_unc_entry_cycles", 1},
    {"conv_unwritten_entry_cycles", 15}, {"dcp_rel_unc_entry_cycles", 1},
    {"dcp_rel_comp_entry_cycles", 0}, {"dcp_faulty_comp_entry_cycles", 5},
    {"lds_spill_byte_cycles", 0}, {"lds_peak_bytes", 0}};

static void check_counters(const uint64_t *n)
{
    for (size_t i = 0; i < sizeof expect_ctr / sizeof expect_ctr[0]; i++) {
        int k = 0;
        while (strcmp(rft_dcpatch_counter_names[k], expect_ctr[i].name))
            k++;
        if (n[k] != expect_ctr[i].v)
            fprintf(stderr, "counter %s: %llu, expected %llu\n", expect_ctr[i].name,
                    (unsigned long long)n[k], (unsigned long long)expect_ctr[i].v);
        CHECK(n[k] == expect_ctr[i].v);
    }
}

static void test_stream_maps(void)
{
    rft_dcpatch_opts o;
    rft_faultmap m;
    rft_dcpatch_opts_default(&o);
    o.log = append;
    o.check = 1;
    rft_stage *st = start(rft_dcpatch_new(&o));
    CHECK(strcmp(rft_stage_name(st), "rft-dcpatch") == 0);
    CHECK(strcmp(out.producer, "rft-dcpatch") == 0);
    CHECK(strcmp(rft_header_get(&out, "dcpatch"),
                 "pick=low share-reliable=yes repatch=preventive stall-cycles=4") == 0);
    CHECK(rft_header_get(&out, "dcpatch.maps") == NULL);

    small_map(&m, RFT_FM_ALL, RFT_FM_ALL);
    CHECK(feed(st, map_rec(&m)) == 0);
    rft_faultmap_free(&m);
    CHECK(feed(st, kernel_rec("k")) == 0);
    CHECK(feed(st, begin_rec(0, 0, 0, 0, 4)) == 0);
    CHECK(feed(st, write_rec(1, 0, 0, 1)) == 0);
    CHECK(feed(st, write_rec(2, 0, 1, 0)) == 0);
    CHECK(feed(st, write_rec(3, 0, 1, 1)) == 0);
    CHECK(feed(st, read_rec(4, 0, 1)) == 0);
    CHECK(feed(st, read_rec(5, 0, 2)) == 0);
    CHECK(feed(st, end_rec(6, 0)) == 0);
    CHECK(rft_stage_finish(st, &sink) == 0);

    /* every record passed on, a patch before each write, counters at the end */
    static const int kinds[] = {RFT_FAULTMAP, RFT_KERNEL, RFT_WFBEGIN, RFT_PATCH, RFT_WRITE,
                                RFT_PATCH, RFT_WRITE, RFT_PATCH, RFT_WRITE, RFT_READ, RFT_READ,
                                RFT_WFEND, RFT_COUNTERS, RFT_COUNTERS, RFT_COUNTERS};
    CHECK(got.n == (int)(sizeof kinds / sizeof kinds[0]));
    for (int i = 0; i < got.n; i++)
        CHECK(got.kind[i] == kinds[i]);
    /* v0: block 1 of entry 1, C0 100, De 1 (code 0), Db 8 (code 3), valid */
    rft_patch_rec *p = &got.patch[3];
    CHECK(p->cycle == 1 && p->wf == 0 && p->vreg == 0 && p->place == RFT_PATCH_BLOCK);
    CHECK(p->entry == 1 && p->block == 1 && p->c0 == 100 && p->code == (0 | 3 << 3 | 1 << 6));
    CHECK(got.phys[4] == 1);
    /* v1 uncompressed: the whole of entry 0 */
    p = &got.patch[5];
    CHECK(p->vreg == 1 && p->place == RFT_PATCH_ENTRY && p->entry == 0 &&
          p->block == RFT_PATCH_NONE && p->c0 == 0 && p->code == 0);
    CHECK(got.phys[6] == 0);
    p = &got.patch[7];
    CHECK(p->place == RFT_PATCH_BLOCK && p->entry == 1 && p->block == 3 && p->c0 == 100);
    CHECK(got.phys[8] == 1 && got.phys[9] == 1 && got.phys[10] == RFT_NO_PHYS);
    /* counters: kernel k, slice 0:0, total, all alike (one kernel, one slice) */
    static const char *const scopes[] = {"kernel k", "slice 0:0", "total"};
    for (int i = 0; i < 3; i++) {
        rft_counters *c = got.ctr[12 + i];
        CHECK(strcmp(c->stage, "rft-dcpatch") == 0 && strcmp(c->scope, scopes[i]) == 0);
        CHECK(c->n == RFT_DCPC_N);
        uint64_t n[RFT_DCPC_N];
        for (int k = 0; k < RFT_DCPC_N; k++) {
            CHECK(strcmp(c->name[k], rft_dcpatch_counter_names[k]) == 0);
            n[k] = c->value[k];
        }
        check_counters(n);
    }
    /* the same through the accessors */
    const char *name;
    uint16_t cu, simd;
    CHECK(rft_dcpatch_nkernels(st) == 1 && rft_dcpatch_nslices(st) == 1);
    check_counters(rft_dcpatch_kernel(st, 0, &name));
    CHECK(strcmp(name, "k") == 0);
    check_counters(rft_dcpatch_slice(st, 0, &cu, &simd));
    CHECK(cu == 0 && simd == 0);
    check_counters(rft_dcpatch_total(st));
    if (strcmp(text, expect_log))
        fprintf(stderr, "log:\n%s", text);
    CHECK(strcmp(text, expect_log) == 0);
    stop(st);
}

/* ---- DC-Patch with maps given: they replace the stream's ---------------------------------- */
static int read_mem(void *ctx, const char *path, uint32_t entries, uint32_t blocks, rft_fmset *s,
                    char *why, size_t whylen)
{
    rft_faultmap m;
    CHECK(strcmp(path, "mem.csv") == 0 && entries == 8 && blocks == 4);
    small_map(&m, RFT_FM_ALL, RFT_FM_ALL);
    return rft_fmset_put(s, &m);
}

static void test_given_maps(void)
{
    rft_dcpatch_opts o;
    rft_faultmap clean;
    uint8_t alloc_payload[8] = {0};
    rft_dcpatch_opts_default(&o);
    o.maps.csv = "mem.csv";
    o.maps.read_csv = read_mem;
    o.dcp.pick_high = 1;
    o.stall_cycles = 7;
    rft_stage *st = start(rft_dcpatch_new(&o));
    st->input = "t.rft";
    CHECK(strcmp(rft_header_get(&out, "dcpatch"),
                 "pick=high share-reliable=yes repatch=preventive stall-cycles=7") == 0);
    CHECK(strcmp(rft_header_get(&out, "dcpatch.maps"), "csv:mem.csv") == 0);
    /* the stream's own (fault-free) map and an earlier placement are dropped */
    CHECK(rft_faultmap_init(&clean, 8, 4) == 0);
    CHECK(feed(st, map_rec(&clean)) == 0);
    rft_faultmap_free(&clean);
    rec->kind = RFT_ALLOC;
    rec->raw = alloc_payload;
    rec->len = sizeof alloc_payload;
    CHECK(feed(st, rec) == 0);
    CHECK(feed(st, rec) == 0);  /* warned once */
    CHECK(strcmp(text, "warning: t.rft: placement records of an earlier stage dropped: DC-Patch "
                       "places the registers itself\n") == 0);
    /* the map used goes out before the slice's first record, as that slice's */
    CHECK(feed(st, begin_rec(0, 2, 1, 5, 2)) == 0);
    CHECK(got.n == 2 && got.kind[0] == RFT_FAULTMAP && got.kind[1] == RFT_WFBEGIN);
    CHECK(got.map[0].cu == 2 && got.map[0].simd == 1 && got.map[0].bits[1 * 4 + 2] == 1 &&
          got.map[0].bits[0] == 0 && strcmp(got.map[0].origin, "test") == 0);
    /* --pick high: the highest usable block of the faulty entry */
    write_rec(1, 5, 0, 1);
    rec->w.cu = 2;
    rec->w.simd = 1;
    CHECK(feed(st, rec) == 0);
    CHECK(got.n == 4 && got.kind[2] == RFT_PATCH && got.patch[2].cu == 2 &&
          got.patch[2].entry == 1 && got.patch[2].block == 3 && got.phys[3] == 1);
    stop(st);
}

/* ---- bad input: the message of each, without the place (the driver adds it) ---------------- */
static void test_errors(void)
{
    rft_dcpatch_opts o;
    rft_faultmap m;
    rft_dcpatch_opts_default(&o);

    rft_stage *st = start(rft_dcpatch_new(&o));
    CHECK(feed(st, begin_rec(0, 0, 0, 0, 4)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st), "no fault map for slice 0:0: the stream carries none (add "
                 "--scenario NAME or --map FILE.csv, or run rft-faultmap first)") == 0);
    stop(st);

    st = start(rft_dcpatch_new(&o));
    small_map(&m, RFT_FM_ALL, RFT_FM_ALL);
    CHECK(feed(st, map_rec(&m)) == 0);
    CHECK(feed(st, begin_rec(0, 0, 0, 0, 6)) == 0);
    CHECK(feed(st, begin_rec(0, 0, 0, 1, 3)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st), "window of 3 registers of wavefront 1 does not fit in slice "
                 "0:0 (6 of 8 rows in use, first fit)") == 0);
    CHECK(feed(st, begin_rec(1, 0, 0, 0, 1)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st), "wavefront 0 begins again on slice 0:0 while running") == 0);
    CHECK(feed(st, write_rec(2, 3, 0, 1)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st),
                 "write by wavefront 3, which is not running on slice 0:0") == 0);
    CHECK(feed(st, read_rec(2, 0, 6)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st), "register v6 outside the window of 6 registers of "
                 "wavefront 0") == 0);
    /* a map of a slice after its first record */
    m.cu = m.simd = 0;
    CHECK(feed(st, map_rec(&m)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st),
                 "fault map of slice 0:0 after the slice's first record") == 0);
    rft_faultmap_free(&m);
    stop(st);

    /* a broken invariant, seen by the check */
    o.check = 1;
    o.test_corrupt_at = 4;
    st = start(rft_dcpatch_new(&o));
    small_map(&m, RFT_FM_ALL, RFT_FM_ALL);
    CHECK(feed(st, map_rec(&m)) == 0);
    rft_faultmap_free(&m);
    CHECK(feed(st, begin_rec(0, 0, 0, 0, 2)) == 0);
    CHECK(feed(st, write_rec(1, 0, 0, 1)) == 0);
    CHECK(feed(st, write_rec(2, 0, 1, 1)) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st), "slice 0:0: invariant violated: v0 of wavefront 0 and v1 of "
                 "wavefront 0 share block 1 of entry 1") == 0);
    stop(st);
}

/* ---- the fault-map stage: a generated map before each slice's first record ------------------ */
static void test_faultmap_stage(void)
{
    rft_fm_source src = {0};
    rft_faultmap m, want;
    char why[256];
    CHECK(rft_fm_gen_options(&src.gen, "clustered", NULL, 4, -1, 0, why, sizeof why) == 0);
    src.have_gen = 1;
    rft_stage *st = start(rft_faultmap_stage_new(&src));
    CHECK(strcmp(rft_header_get(&out, "faultmap"), "clustered seed=4 per-slice") == 0);
    small_map(&m, 0, 0);
    CHECK(feed(st, map_rec(&m)) == 0);        /* replaced */
    rft_faultmap_free(&m);
    CHECK(feed(st, kernel_rec("k")) == 0);
    CHECK(feed(st, begin_rec(0, 0, 1, 0, 2)) == 0);
    CHECK(feed(st, begin_rec(0, 3, 0, 1, 2)) == 0);
    CHECK(feed(st, begin_rec(1, 0, 1, 2, 2)) == 0);
    CHECK(rft_stage_finish(st, &sink) == 0);
    CHECK(strcmp(text, "warning: -: 1 fault map records of the input replaced\n") == 0);
    static const int kinds[] = {RFT_KERNEL, RFT_FAULTMAP, RFT_WFBEGIN, RFT_FAULTMAP, RFT_WFBEGIN,
                                RFT_WFBEGIN};
    CHECK(got.n == 6);
    for (int i = 0; i < got.n; i++)
        CHECK(got.kind[i] == kinds[i]);
    /* each the map the generator makes for its slice */
    for (int i = 1; i <= 3; i += 2) {
        CHECK(rft_faultmap_init(&want, 8, 4) == 0);
        rft_faultmap_generate(&want, &src.gen, got.map[i].cu, got.map[i].simd);
        CHECK(memcmp(want.bits, got.map[i].bits, 32) == 0 && got.map[i].seed == 4);
        rft_faultmap_free(&want);
    }
    CHECK(got.map[1].cu == 0 && got.map[1].simd == 1 && got.map[3].cu == 3 && got.map[3].simd == 0);
    stop(st);
    /* no source of maps at all */
    rft_fm_source none = {0};
    st = rft_faultmap_stage_new(&none);
    geom8(&in);
    CHECK(rft_stage_start(st, &in, &out) == RFT_EFORMAT);
    CHECK(strcmp(rft_stage_error(st), "no fault maps: neither a CSV map nor a generator") == 0);
    stop(st);
}

int main(void)
{
    CHECK((rec = calloc(1, sizeof *rec)) != NULL);
    test_stream_maps();
    test_given_maps();
    test_errors();
    test_faultmap_stage();
    free(rec);
    puts("test_stage_dcpatch: ok");
    return 0;
}
