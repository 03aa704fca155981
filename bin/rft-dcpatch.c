/* rft-dcpatch - DC-Patch (seed 001 section IV) over an rft stream, one slice
 * at a time: where every register write goes (normal, a patch to a faulty or
 * a reliable entry, the LDS), mispredictions, LDS spills, occupancy, and the
 * events an energy model prices, as counters records and a table; every
 * write of the output stream is placed (a patch record before it) for
 * rft-duty(1). */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fmsource.h"
#include "dcpatch.h"
#include "faultmap.h"
#include "pattern.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-dcpatch [--scenario NAME] [--seed N] [--shares A/B/C/D/E] [--systematic W]\n"
    "                   [--corr-length N] [--map FILE.csv] [--same] [--pick low|high]\n"
    "                   [--share-reliable yes|no] [--repatch preventive|release-first]\n"
    "                   [--stall-cycles N] [--check] [--log FILE] [--summary[=FILE] | -s FILE]\n"
    "                   [--report perf|occupancy|events] [--by kernel|slice] [--counts]\n"
    "                   [--format table|tsv|csv|json] [-o FILE] [--level N] [--flush] [FILE]\n"
    "Run the DC-Patch fault-patching mechanism (seed 001) over an rft stream that\n"
    "carries fault maps (rft-faultmap) or with maps given here; append its counters.\n";

/* ---- counters (names in rft-dcpatch(1)) ----------------------------------------- */
enum {
    C_WRITES, C_NORMAL, C_PFAULTY, C_PRELIABLE, C_WLDS, C_FIRST, C_CHANGE, C_BACK, C_COMPW,
    C_DIV, C_MISP, C_MOV, C_SPILLS, C_READS, C_RCOMP, C_RUNC, C_RLDS, C_RUNW,
    C_BR_COMP, C_BR_UNC, C_BR_MOV, C_BW_COMP, C_BW_UNC, C_BW_MISP, C_BW_MOV,
    C_COM, C_COMB, C_DEC, C_DECB, C_PTR, C_PTW, C_PSU_S, C_PSU_P, C_PSU_R,
    C_LDS_LOAD, C_LDS_STORE, C_STALL, C_WAVES,
    /* filled at the end */
    C_SLICE_CYC, C_CU_CYC, C_ENTRY_CYC, C_CONV_RC, C_CONV_RU, C_CONV_FC, C_CONV_FU, C_CONV_NEW,
    C_USED_RU, C_USED_RC, C_USED_FC, C_LDS_BC, C_LDS_PEAK, NCTR
};
static const char *const ctr_name[NCTR] = {
    "writes", "writes_normal", "writes_patch_faulty", "writes_patch_reliable", "writes_lds",
    "writes_first", "writes_state_change", "writes_back_from_lds", "writes_compressed",
    "writes_divergent", "writes_mispredicted", "mov_injected", "spills", "reads",
    "reads_compressed", "reads_uncompressed", "reads_lds", "reads_unwritten",
    "block_reads_compressed", "block_reads_uncompressed", "block_reads_mov",
    "block_writes_compressed", "block_writes_uncompressed", "block_writes_mispredicted",
    "block_writes_mov", "com_unit", "com_unit_blocks", "dec_unit", "dec_unit_blocks", "pt_reads",
    "pt_writes", "psu_searches", "psu_patches", "psu_releases", "lds_loads", "lds_stores",
    "stall_cycles", "wavefronts", "slice_cycles", "cu_cycles", "entry_cycles",
    "conv_rel_comp_entry_cycles", "conv_rel_unc_entry_cycles", "conv_faulty_comp_entry_cycles",
    "conv_faulty_unc_entry_cycles", "conv_unwritten_entry_cycles", "dcp_rel_unc_entry_cycles",
    "dcp_rel_comp_entry_cycles", "dcp_faulty_comp_entry_cycles", "lds_spill_byte_cycles",
    "lds_peak_bytes"};

typedef struct {
    char *name;
    uint64_t n[NCTR];
    rft_dcp_acc acc;            /* occupancy of its registers */
    uint64_t first, last;       /* cycles of its records */
    int seen;
    uint32_t nslices, ncus;
    int64_t peak;               /* spilled registers: the most in one CU */
} kstat;

typedef struct {
    uint16_t cu, simd;
    uint32_t cu_idx;
    rft_dcp_slice s;
    uint64_t n[NCTR];
    int64_t peak;               /* spilled registers */
} slice;

typedef struct {
    uint32_t slice, base, nregs, kernel, wf;
    int have_full;
    uint8_t full[RFT_MAX_LANES / 8];   /* exec mask of its first write */
} wave;

typedef struct {
    int64_t cur, peak;
} cucount;

static struct {
    const char *input, *output, *summary, *log_path;
    FILE *summary_out;          /* opened before the work */
    int check, counts, by_slice, report;
    enum cli_fmt fmt;
    fm_source fm;               /* --scenario, --map, ... */
    rft_dcp_opts o;
    unsigned stall;
    rft_writer_opts wo;
    FILE *log;
    rft_geom geom;
    uint32_t nb, reg_bytes;
    rft_pattern_opts po;
    rft_fmset opt_maps, stream_maps;
    int stream_had_maps, dropped_alloc;
    /* state */
    slice *slices;
    uint32_t nslices, slcap;
    rft_map slice_of;           /* slice key -> index + 1 */
    uint32_t last_key, last_slice;
    wave *waves;
    uint32_t nwaves, wcap, *free_w, nfree;
    rft_map wave_of;            /* wf key -> index */
    uint64_t last_wkey;
    uint32_t last_wave;
    kstat *ks;
    uint32_t nks;
    uint32_t *kidx, nkidx;      /* stream kernel index -> ks index */
    uint32_t none_k;            /* ks index for wavefronts without a kernel */
    cucount *cus;               /* per CU (index) */
    uint32_t ncus;
    rft_map cu_of;              /* cu -> index + 1 */
    cucount *kc;                /* per (kernel, CU) */
    uint32_t nkc, kccap;
    rft_map kc_of;              /* kernel << 32 | cu -> index + 1 */
    rft_map ks_slices;          /* kernel << 32 | slice -> 1 */
    uint64_t first, last;
    int any;
} g = {.input = "-", .fm = FM_SOURCE_INIT, .stall = 4, .none_k = UINT32_MAX, .last_key = UINT32_MAX,
       .last_wkey = UINT64_MAX};

enum { REPORT_PERF, REPORT_OCC, REPORT_EVENTS };

static void xput(rft_map *m, uint64_t k, uint64_t v)
{
    if (rft_map_put(m, k, v))
        stage_fail("out of memory");
}

/* ---- kernels ---------------------------------------------------------------------- */
static uint32_t kstat_of(const char *name, size_t len)
{
    for (uint32_t i = 0; i < g.nks; i++)
        if (strlen(g.ks[i].name) == len && memcmp(g.ks[i].name, name, len) == 0)
            return i;
    g.ks = xrealloc(g.ks, (g.nks + 1) * sizeof *g.ks);
    memset(&g.ks[g.nks], 0, sizeof g.ks[g.nks]);
    if (!(g.ks[g.nks].name = strndup(name, len)))
        stage_fail("out of memory");
    return g.nks++;
}

static void on_kernel(const rft_kernel *k)
{
    if (k->index > 1u << 24)
        stage_fail("kernel index %u", k->index);
    if (k->index >= g.nkidx) {
        g.kidx = xrealloc(g.kidx, (k->index + 1) * sizeof *g.kidx);
        for (uint32_t i = g.nkidx; i <= k->index; i++)
            g.kidx[i] = UINT32_MAX;
        g.nkidx = k->index + 1;
    }
    g.kidx[k->index] = kstat_of(k->name, k->name_len);
}

static uint32_t kernel_of(uint32_t index)
{
    if (index < g.nkidx && g.kidx[index] != UINT32_MAX)
        return g.kidx[index];
    if (g.none_k == UINT32_MAX)
        g.none_k = kstat_of("(none)", 6);
    return g.none_k;
}

/* ---- slices and their maps -------------------------------------------------------- */

static uint32_t slice_get(uint16_t cu, uint16_t simd)
{
    uint32_t key = rft_slice_key(cu, simd);
    if (key == g.last_key)
        return g.last_slice;
    uint64_t *v = rft_map_get(&g.slice_of, key);
    if (v) {
        g.last_key = key;
        return g.last_slice = (uint32_t)*v - 1;
    }
    /* a new slice: its map */
    const rft_faultmap *m;
    rft_faultmap tmp = {0};
    if (g.fm.have_gen || g.fm.map_path) {
        if (rft_fm_for_slice(&g.opt_maps, g.fm.have_gen ? &g.fm.gen : NULL, g.fm.same, g.geom.entries,
                             g.nb, cu, simd, &tmp, &m))
            stage_fail("out of memory");
        if (!m)
            stage_fail("no fault map for slice %u:%u in %s (it has neither its rows nor '*' rows)", cu,
                simd, g.fm.map_path);
    } else if (!(m = rft_fmset_find(&g.stream_maps, cu, simd))) {
        if (g.stream_had_maps)
            stage_fail("no fault map for slice %u:%u before its first record", cu, simd);
        stage_fail("no fault map for slice %u:%u: the stream carries none (add --scenario NAME or "
            "--map FILE.csv, or run rft-faultmap first)", cu, simd);
    }
    if (g.nslices == g.slcap) {
        g.slcap = g.slcap ? 2 * g.slcap : 16;
        g.slices = xrealloc(g.slices, g.slcap * sizeof *g.slices);
    }
    slice *s = &g.slices[g.nslices];
    memset(s, 0, sizeof *s);
    s->cu = cu;
    s->simd = simd;
    if (rft_dcp_init(&s->s, m, &g.o))
        stage_fail("out of memory");
    if (stage.w && (g.fm.have_gen || g.fm.map_path)) {
        /* the map used, in the stream before the slice's first record (the
         * stream's own maps are dropped): later stages see the faults */
        rft_faultmap own;
        if (rft_faultmap_copy(&own, m))
            stage_fail("out of memory");
        own.cu = cu;
        own.simd = simd;
        size_t len = rft_faultmap_record_len(&own);
        uint8_t *buf = xrealloc(NULL, len);
        rft_faultmap_encode(&own, buf);
        stage_put(rft_write_raw(stage.w, RFT_FAULTMAP, buf, (uint32_t)len));
        free(buf);
        rft_faultmap_free(&own);
    }
    rft_faultmap_free(&tmp);
    uint64_t *c = rft_map_get(&g.cu_of, cu);
    if (!c) {
        g.cus = xrealloc(g.cus, (g.ncus + 1) * sizeof *g.cus);
        g.cus[g.ncus] = (cucount){0, 0};
        xput(&g.cu_of, cu, ++g.ncus);
        c = rft_map_get(&g.cu_of, cu);
    }
    s->cu_idx = (uint32_t)*c - 1;
    xput(&g.slice_of, key, ++g.nslices);
    g.last_key = key;
    return g.last_slice = g.nslices - 1;
}

static void on_map_record(const rft_rec *rec)
{
    char why[256], sl[40];
    rft_faultmap m;
    if (g.fm.have_gen || g.fm.map_path)
        return;                 /* maps given here replace the stream's */
    if (rft_faultmap_decode(rec->raw, rec->len, &m, why, sizeof why))
        stage_fail("%s", why);
    g.stream_had_maps = 1;
    if (m.cu == RFT_FM_ALL)
        snprintf(sl, sizeof sl, "all slices");
    else
        snprintf(sl, sizeof sl, "slice %u:%u", m.cu, m.simd);
    if (m.entries != g.geom.entries || m.blocks != g.nb)
        stage_fail("the fault map of %s is %u entries x %u blocks, the stream's slices are %u x %u", sl,
            m.entries, m.blocks, g.geom.entries, g.nb);
    if (m.cu != RFT_FM_ALL && rft_map_get(&g.slice_of, rft_slice_key(m.cu, m.simd)))
        stage_fail("fault map of %s after the slice's first record", sl);
    if (rft_fmset_put(&g.stream_maps, &m))
        stage_fail("out of memory");
}

/* ---- spilled-register peaks ------------------------------------------------------- */
static void spill_delta(slice *s, uint32_t k, int64_t d)
{
    cucount *c = &g.cus[s->cu_idx];
    if ((c->cur += d) > c->peak)
        c->peak = c->cur;
    if (s->s.acc.cur[RFT_DCP_SPILLED_REGS] > s->peak)
        s->peak = s->s.acc.cur[RFT_DCP_SPILLED_REGS];
    uint64_t key = (uint64_t)k << 32 | s->cu;
    uint64_t *v = rft_map_get(&g.kc_of, key);
    cucount *kc = &g.kc[*v - 1];  /* created at the wavefront's begin */
    if ((kc->cur += d) > kc->peak)
        kc->peak = kc->cur;
    if (kc->peak > g.ks[k].peak)
        g.ks[k].peak = kc->peak;
}

/* ---- records ---------------------------------------------------------------------- */
static void count(slice *s, kstat *k, int c, uint64_t v)
{
    s->n[c] += v;
    k->n[c] += v;
}

static void stamp(kstat *k, uint64_t t)
{
    if (!g.any)
        g.first = t;
    g.any = 1;
    g.last = t;
    if (!k->seen)
        k->first = t;
    k->seen = 1;
    k->last = t;
}

/* RFT_TEST_DCPATCH_CORRUPT=N (tests only, rft-dcpatch(1)): after record N,
 * move one live register of its slice onto another's place, so that the
 * --check path can be seen to work. */
static uint64_t corrupt_at;

static void corrupt(slice *s)
{
    rft_dcp_row *a = NULL;
    for (uint32_t i = 0; i < s->s.entries; i++) {
        rft_dcp_row *r = &s->s.pt[i];
        if ((r->flags & (RFT_DCP_VALID | RFT_DCP_SPILLED)) != RFT_DCP_VALID)
            continue;
        if (!a) {
            a = r;
            continue;
        }
        r->entry = a->entry;
        r->block = a->block;
        return;
    }
    if (a)
        a->flags ^= RFT_DCP_COMP;
}

static void check(slice *s)
{
    char why[512];
    if (corrupt_at && rft_reader_count(stage.r) == corrupt_at)
        corrupt(s);
    if (g.check && rft_dcp_check(&s->s, why, sizeof why))
        stage_fail("slice %u:%u: invariant violated: %s", s->cu, s->simd, why);
}

static void log_line(uint64_t cycle, const slice *s, uint32_t wf, const char *vreg,
                     const char *event, const char *content, const char *place, const char *flags)
{
    fprintf(g.log, "%llu\t%llu\t%u:%u\t%u\t%s\t%s\t%s\t%s\t%s\n",
            (unsigned long long)rft_reader_count(stage.r), (unsigned long long)cycle, s->cu, s->simd,
            wf, vreg, event, content, place, flags);
}

static void on_begin(const rft_wfbegin *b)
{
    uint32_t si = slice_get(b->cu, b->simd);
    slice *s = &g.slices[si];
    uint64_t key = rft_wf_key(b->cu, b->simd, b->wf);
    if (rft_map_get(&g.wave_of, key))
        stage_fail("wavefront %u begins again on slice %u:%u while running", b->wf, b->cu, b->simd);
    uint32_t k = kernel_of(b->kernel), wi;
    kstat *ks = &g.ks[k];
    stamp(ks, b->cycle);
    int base = rft_dcp_begin(&s->s, b->nregs, b->wf, b->cycle, &ks->acc);
    if (base < 0)
        stage_fail("window of %u registers of wavefront %u does not fit in slice %u:%u (%u of %u rows "
            "in use, first fit)", b->nregs, b->wf, b->cu, b->simd, s->s.live_rows,
            s->s.entries);
    if (g.nfree) {
        wi = g.free_w[--g.nfree];
    } else {
        if (g.nwaves == g.wcap) {
            g.wcap = g.wcap ? 2 * g.wcap : 64;
            g.waves = xrealloc(g.waves, g.wcap * sizeof *g.waves);
            g.free_w = xrealloc(g.free_w, g.wcap * sizeof *g.free_w);
        }
        wi = g.nwaves++;
    }
    wave *w = &g.waves[wi];
    w->slice = si;
    w->base = (uint32_t)base;
    w->nregs = b->nregs;
    w->kernel = k;
    w->wf = b->wf;
    w->have_full = 0;
    xput(&g.wave_of, key, wi);
    g.last_wkey = UINT64_MAX;
    count(s, ks, C_WAVES, 1);
    uint64_t kck = (uint64_t)k << 32 | b->cu;
    if (!rft_map_get(&g.kc_of, kck)) {
        if (g.nkc == g.kccap) {
            g.kccap = g.kccap ? 2 * g.kccap : 16;
            g.kc = xrealloc(g.kc, g.kccap * sizeof *g.kc);
        }
        g.kc[g.nkc] = (cucount){0, 0};
        xput(&g.kc_of, kck, ++g.nkc);
        ks->ncus++;
    }
    uint64_t kss = (uint64_t)k << 32 | si;
    if (!rft_map_get(&g.ks_slices, kss)) {
        xput(&g.ks_slices, kss, 1);
        ks->nslices++;
    }
    if (g.log) {
        char place[48];
        snprintf(place, sizeof place, "rows %u-%u", (unsigned)base, base + b->nregs - 1);
        log_line(b->cycle, s, b->wf, "-", "begin", "-", place, "-");
    }
    check(s);
}

static wave *wave_get(uint16_t cu, uint16_t simd, uint32_t wf, const char *what)
{
    uint64_t key = rft_wf_key(cu, simd, wf);
    if (key == g.last_wkey)
        return &g.waves[g.last_wave];
    uint64_t *v = rft_map_get(&g.wave_of, key);
    if (!v)
        stage_fail("%s by wavefront %u, which is not running on slice %u:%u", what, wf, cu, simd);
    g.last_wkey = key;
    g.last_wave = (uint32_t)*v;
    return &g.waves[*v];
}

/* A write or read of register vreg by a running wavefront: its window must
 * hold the register; the kernel's clock moves on. */
static wave *reg_access(uint16_t cu, uint16_t simd, uint32_t wf, uint16_t vreg, uint64_t cycle,
                        const char *what)
{
    wave *w = wave_get(cu, simd, wf, what);
    if (vreg >= w->nregs)
        stage_fail("register v%u outside the window of %u registers of wavefront %u", vreg,
                   w->nregs, wf);
    stamp(&g.ks[w->kernel], cycle);
    return w;
}

static void on_end(const rft_wfend *e)
{
    wave *w = wave_get(e->cu, e->simd, e->wf, "end");
    slice *s = &g.slices[w->slice];
    kstat *k = &g.ks[w->kernel];
    stamp(k, e->cycle);
    int64_t sp = s->s.acc.cur[RFT_DCP_SPILLED_REGS];
    uint32_t valid = rft_dcp_end(&s->s, w->base, w->nregs, e->cycle, &k->acc);
    int64_t d = s->s.acc.cur[RFT_DCP_SPILLED_REGS] - sp;
    if (d)
        spill_delta(s, w->kernel, d);
    count(s, k, C_PTW, valid);
    count(s, k, C_PSU_R, (uint64_t)((int64_t)valid + d));   /* the slice patches among them */
    if (g.log) {
        char place[32];
        snprintf(place, sizeof place, "released %u", valid);
        log_line(e->cycle, s, e->wf, "-", "end", "-", place, "-");
    }
    rft_map_del(&g.wave_of, rft_wf_key(e->cu, e->simd, e->wf));
    g.free_w[g.nfree++] = (uint32_t)(w - g.waves);
    g.last_wkey = UINT64_MAX;
    check(s);
}

static void place_text(const rft_dcp_slice *d, uint32_t row, char *buf, size_t n)
{
    const rft_dcp_row *r = &d->pt[row];
    if (!(r->flags & RFT_DCP_VALID))
        snprintf(buf, n, "-");
    else if (r->flags & RFT_DCP_SPILLED)
        snprintf(buf, n, "lds");
    else if (r->flags & RFT_DCP_COMP)
        snprintf(buf, n, "%u.%u", r->entry, r->block);
    else
        snprintf(buf, n, "%u", r->entry);
}

/* The patch record before a write: where its content goes, for rft-duty. */
static void put_patch(const rft_write *x, const rft_dcp_event *ev, int comp, uint32_t c0,
                      uint32_t de, uint32_t db)
{
    rft_patch_rec p = {x->cycle, x->cu, x->simd, x->wf, x->vreg, RFT_PATCH_NONE, RFT_PATCH_NONE,
                       RFT_PATCH_LDS, 0, 0};
    if (ev->place != RFT_DCP_LDS) {
        p.entry = ev->entry;
        p.place = comp ? RFT_PATCH_BLOCK : RFT_PATCH_ENTRY;
        if (comp) {
            p.block = ev->block;
            p.c0 = c0;
            p.code = rft_dcp_code(de, db);
        }
    }
    stage_put(rft_write_patch(stage.w, &p));
}

static void on_write(rft_write *x)
{
    wave *w = reg_access(x->cu, x->simd, x->wf, x->vreg, x->cycle, "write");
    slice *s = &g.slices[w->slice];
    kstat *k = &g.ks[w->kernel];
    uint32_t row = w->base + x->vreg, nb = g.nb;
    int cls, fb, div;
    uint32_t c0 = x->c0, de = x->de, db = x->db;
    if (x->cls != RFT_CLS_NONE) {   /* annotated by rft-classify */
        cls = x->cls;
        fb = (x->flags & RFT_WF_FIRSTBLOCK) != 0;
        div = (x->flags & RFT_WF_DIVERGENT) != 0;
    } else {
        rft_pattern p;
        uint32_t mb = rft_mask_bytes(&g.geom);
        rft_pattern_classify(x->val, g.geom.lanes, g.geom.block_lanes, &g.po, &p);
        cls = p.cls;
        fb = p.firstblock;
        c0 = p.c0;
        de = p.de;
        db = p.db;
        if (!w->have_full) {
            memcpy(w->full, x->mask, mb);
            w->have_full = 1;
        }
        div = memcmp(x->mask, w->full, mb) != 0;
    }
    /* the compressor is off for divergent writes; a compressed register in
     * the slice first needs an injected MOV that decompresses it */
    int comp = !div && cls != RFT_CLS_OTHER;
    int misp = !div && !comp && fb;
    uint8_t f = s->s.pt[row].flags;
    int mov = div && (f & RFT_DCP_VALID) && (f & RFT_DCP_COMP) && !(f & RFT_DCP_SPILLED);
    int64_t sp = s->s.acc.cur[RFT_DCP_SPILLED_REGS];
    rft_dcp_event ev;
    rft_dcp_write(&s->s, row, comp, x->cycle, &k->acc, &ev);
    int64_t d = s->s.acc.cur[RFT_DCP_SPILLED_REGS] - sp;
    if (d)
        spill_delta(s, w->kernel, d);
    x->phys = ev.place == RFT_DCP_LDS ? RFT_NO_PHYS : ev.entry;
    if (stage.w)
        put_patch(x, &ev, comp, c0, de, db);

    count(s, k, C_WRITES, 1);
    count(s, k, C_NORMAL + ev.place, 1);
    count(s, k, C_FIRST, ev.first);
    count(s, k, C_CHANGE, ev.change);
    count(s, k, C_BACK, ev.from_lds);
    count(s, k, C_SPILLS, ev.spill);
    count(s, k, C_COMPW, (uint64_t)comp);
    count(s, k, C_DIV, (uint64_t)div);
    count(s, k, C_MISP, (uint64_t)misp);
    count(s, k, C_STALL, misp ? g.stall : 0);
    count(s, k, C_PTR, 1);
    count(s, k, C_PSU_S, ev.searches);
    count(s, k, C_PSU_P, ev.place == RFT_DCP_FAULTY || ev.place == RFT_DCP_RELIABLE);
    count(s, k, C_PSU_R, ev.released);
    count(s, k, C_PTW, ev.place != RFT_DCP_NORMAL && !(ev.place == RFT_DCP_LDS && !ev.spill &&
                                                       ((f & RFT_DCP_COMP) != 0) == comp));
    if (!div) {
        count(s, k, C_COM, 1);
        count(s, k, C_COMB, nb);
    }
    if (ev.place == RFT_DCP_LDS)
        count(s, k, C_LDS_STORE, 1);
    else
        count(s, k, comp ? C_BW_COMP : C_BW_UNC, comp ? 1 : nb);
    if (misp)
        count(s, k, C_BW_MISP, 1);      /* the speculative compressed block */
    if (mov) {
        count(s, k, C_MOV, 1);
        count(s, k, C_BR_MOV, 1);
        count(s, k, C_DEC, 1);
        count(s, k, C_DECB, nb);
        count(s, k, C_PTR, 1);
        count(s, k, C_BW_MOV, nb);
    }
    if (g.log) {
        static const char *const ev_name[] = {"normal", "patch-faulty", "patch-reliable", "lds"};
        char vr[16], place[32], flags[64] = "";
        snprintf(vr, sizeof vr, "v%u", x->vreg);
        place_text(&s->s, row, place, sizeof place);
        const char *fl[] = {ev.first ? "first" : NULL, ev.change ? "change" : NULL,
                            ev.from_lds ? "back" : NULL, ev.spill ? "spill" : NULL,
                            misp ? "misp" : NULL, div ? "div" : NULL, mov ? "mov" : NULL};
        for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
            if (fl[i])
                snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s",
                         *flags ? "," : "", fl[i]);
        log_line(x->cycle, s, x->wf, vr, ev_name[ev.place], comp ? "c" : "u", place,
                 *flags ? flags : "-");
    }
    check(s);
}

static void on_read(rft_regread *x)
{
    wave *w = reg_access(x->cu, x->simd, x->wf, x->vreg, x->cycle, "read");
    slice *s = &g.slices[w->slice];
    kstat *k = &g.ks[w->kernel];
    uint32_t row = w->base + x->vreg;
    int kind = rft_dcp_read(&s->s, row);
    x->phys = kind == RFT_DCP_R_COMP || kind == RFT_DCP_R_UNC ? s->s.pt[row].entry : RFT_NO_PHYS;
    count(s, k, C_READS, 1);
    count(s, k, C_PTR, 1);
    switch (kind) {
    case RFT_DCP_R_UNWRITTEN: count(s, k, C_RUNW, 1); break;
    case RFT_DCP_R_COMP:
        count(s, k, C_RCOMP, 1);
        count(s, k, C_BR_COMP, 1);
        count(s, k, C_DEC, 1);
        count(s, k, C_DECB, g.nb);
        break;
    case RFT_DCP_R_UNC:
        count(s, k, C_RUNC, 1);
        count(s, k, C_BR_UNC, g.nb);
        break;
    case RFT_DCP_R_LDS:
        count(s, k, C_RLDS, 1);
        count(s, k, C_LDS_LOAD, 1);
        break;
    }
    if (g.log) {
        static const char *const name[] = {"read-unwritten", "read-comp", "read-unc", "read-lds"};
        char vr[16], place[32];
        snprintf(vr, sizeof vr, "v%u", x->vreg);
        place_text(&s->s, row, place, sizeof place);
        uint8_t f = s->s.pt[row].flags;
        log_line(x->cycle, s, x->wf, vr, name[kind],
                 !(f & RFT_DCP_VALID) ? "-" : f & RFT_DCP_COMP ? "c" : "u", place, "-");
    }
}

/* ---- results ---------------------------------------------------------------------- */
/* Fill the end-of-run counters of a scope. */
static void finish(uint64_t *n, const rft_dcp_acc *a, uint64_t T, uint64_t slice_cycles,
                   uint64_t cu_cycles, int64_t peak)
{
    static const int cats[] = {RFT_DCP_CONV_REL_COMP, RFT_DCP_CONV_REL_UNC, RFT_DCP_CONV_FLT_COMP,
                               RFT_DCP_CONV_FLT_UNC, RFT_DCP_CONV_UNWRITTEN, RFT_DCP_USED_REL_UNC,
                               RFT_DCP_USED_REL_COMP, RFT_DCP_USED_FLT_COMP};
    n[C_SLICE_CYC] = slice_cycles;
    n[C_CU_CYC] = cu_cycles;
    n[C_ENTRY_CYC] = slice_cycles * g.geom.entries;
    for (int i = 0; i < 8; i++)
        n[C_CONV_RC + i] = rft_dcp_integral(a, cats[i], T);
    n[C_LDS_BC] = rft_dcp_integral(a, RFT_DCP_SPILLED_REGS, T) * g.reg_bytes;
    n[C_LDS_PEAK] = (uint64_t)peak * g.reg_bytes;
}

static void put_counters(const char *scope, const uint64_t *n)
{
    rft_counters c;
    memset(&c, 0, sizeof c);
    snprintf(c.stage, sizeof c.stage, "rft-dcpatch");
    snprintf(c.scope, sizeof c.scope, "%s", scope);
    for (int i = 0; i < NCTR; i++)
        rft_counters_add(&c, ctr_name[i], n[i]);
    stage_put(rft_write_counters(stage.w, &c));
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void perf_row(cli_table *t, const char *name, const uint64_t *n)
{
    uint64_t w = n[C_WRITES];
    table_str(t, name);
    table_u64(t, w);
    for (int c = C_NORMAL; c <= C_WLDS; c++)
        g.counts ? table_u64(t, n[c]) : table_dbl(t, pct(n[c], w), 2);
    g.counts ? table_u64(t, n[C_MISP]) : table_dbl(t, pct(n[C_MISP], w), 2);
    table_u64(t, n[C_MOV]);
    table_u64(t, n[C_READS]);
    g.counts ? table_u64(t, n[C_LDS_LOAD]) : table_dbl(t, pct(n[C_LDS_LOAD], n[C_READS]), 3);
    table_u64(t, n[C_LDS_PEAK]);
    table_dbl(t, ratio(n[C_LDS_BC], n[C_CU_CYC]), 1);
    table_u64(t, n[C_STALL]);
    table_end_row(t);
}

static void occ_row(cli_table *t, const char *name, const uint64_t *n)
{
    uint64_t all = n[C_ENTRY_CYC], used = 0, conv = 0;
    table_str(t, name);
    for (int c = C_CONV_RC; c <= C_USED_FC; c++) {
        if (c <= C_CONV_NEW)
            conv += n[c];
        else
            used += n[c];
        g.counts ? table_dbl(t, ratio(n[c], n[C_SLICE_CYC]), 2) : table_dbl(t, pct(n[c], all), 2);
        if (c == C_CONV_NEW) {
            uint64_t unalloc = all - conv;
            g.counts ? table_dbl(t, ratio(unalloc, n[C_SLICE_CYC]), 2)
                     : table_dbl(t, pct(unalloc, all), 2);
        }
    }
    uint64_t unused = all - used;
    g.counts ? table_dbl(t, ratio(unused, n[C_SLICE_CYC]), 2) : table_dbl(t, pct(unused, all), 2);
    table_end_row(t);
}

static void summary(FILE *out, const uint64_t *total)
{
    static const char *const perf[2][13] = {
        {"kernel", "writes", "normal%", "patch_faulty%", "patch_reliable%", "lds%", "mispred%", "mov",
         "reads", "ldsload%", "lds_peak_B", "lds_mean_B", "stall_cycles"},
        {"kernel", "writes", "normal", "patch_faulty", "patch_reliable", "lds", "mispred", "mov", "reads",
         "ldsload", "lds_peak_B", "lds_mean_B", "stall_cycles"}};
    static const char *const occ[2][11] = {
        {"kernel", "conv_rel_comp%", "conv_rel_unc%", "conv_flt_comp%", "conv_flt_unc%",
         "conv_unwritten%", "conv_unalloc%", "dcp_rel_unc%", "dcp_rel_comp%", "dcp_flt_comp%",
         "dcp_unused%"},
        {"kernel", "conv_rel_comp", "conv_rel_unc", "conv_flt_comp", "conv_flt_unc",
         "conv_unwritten", "conv_unalloc", "dcp_rel_unc", "dcp_rel_comp", "dcp_flt_comp",
         "dcp_unused"}};
    static const char *const ev[] = {"scope", "name", "value"};
    const char *names[13];
    cli_table *t;
    char scope[RFT_MAX_SCOPE + 1];  /* "kernel " and a kernel name of the stream */
    if (g.report == REPORT_EVENTS) {
        t = table_new(g.fmt, out, 3, ev);
        for (uint32_t i = 0; i <= g.nks + g.nslices; i++) {
            const uint64_t *n;
            if (i < g.nks) {
                snprintf(scope, sizeof scope, "kernel %s", g.ks[i].name);
                n = g.ks[i].n;
            } else if (i < g.nks + g.nslices) {
                const slice *s = &g.slices[i - g.nks];
                snprintf(scope, sizeof scope, "slice %u:%u", s->cu, s->simd);
                n = s->n;
            } else {
                snprintf(scope, sizeof scope, "total");
                n = total;
            }
            for (int c = 0; c < NCTR; c++) {
                table_str(t, scope);
                table_str(t, ctr_name[c]);
                table_u64(t, n[c]);
                table_end_row(t);
            }
        }
        table_free(t);
        return;
    }
    int ncol = g.report == REPORT_PERF ? 13 : 11;
    memcpy(names, g.report == REPORT_PERF ? perf[g.counts] : occ[g.counts],
           (size_t)ncol * sizeof *names);
    if (g.by_slice)
        names[0] = "slice";
    t = table_new(g.fmt, out, ncol, names);
    void (*row)(cli_table *, const char *, const uint64_t *) =
        g.report == REPORT_PERF ? perf_row : occ_row;
    if (g.by_slice)
        for (uint32_t i = 0; i < g.nslices; i++) {
            snprintf(scope, sizeof scope, "%u:%u", g.slices[i].cu, g.slices[i].simd);
            row(t, scope, g.slices[i].n);
        }
    else
        for (uint32_t i = 0; i < g.nks; i++)
            row(t, g.ks[i].name, g.ks[i].n);
    row(t, "total", total);
    table_free(t);
}

/* ---- main ------------------------------------------------------------------------- */
static void run(void)
{
    const rft_header *in = rft_reader_header(stage_open(g.input));
    g.geom = in->geom;
    g.nb = g.geom.lanes / g.geom.block_lanes;
    g.reg_bytes = g.geom.lanes * 4;
    if (g.fm.map_path) {
        char why[RFT_FM_WHY];
        if (rft_faultmap_csv_read(g.fm.map_path, g.geom.entries, g.nb, &g.opt_maps, why, sizeof why))
            die("%s", why);
    }
    if (rft_map_init(&g.slice_of, 64) || rft_map_init(&g.wave_of, 256) ||
        rft_map_init(&g.cu_of, 16) || rft_map_init(&g.kc_of, 64) ||
        rft_map_init(&g.ks_slices, 64))
        die("out of memory");
    if (g.output) {
        rft_header h;
        char meta[128];     /* fixed words and a number */
        rft_header_init(&h, "rft-dcpatch");
        if (rft_header_copy(&h, in))
            die("out of memory");
        snprintf(meta, sizeof meta, "pick=%s share-reliable=%s repatch=%s stall-cycles=%u",
                 g.o.pick_high ? "high" : "low", g.o.share_reliable ? "yes" : "no",
                 g.o.release_first ? "release-first" : "preventive", g.stall);
        cli_header_set(&h, "dcpatch", meta);
        if (g.fm.have_gen || g.fm.map_path) {
            static char *maps;  /* static: still reachable if the header refuses it */
            maps = fm_source_describe(&g.fm);
            cli_header_set(&h, "dcpatch.maps", maps);
            free(maps);
        }
        stage_output(g.output, &h, &g.wo);
        rft_header_free(&h);
    }
    if (g.log)
        fputs("record\tcycle\tslice\twf\tvreg\tevent\tcontent\tplace\tflags\n", g.log);
    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    int e;
    while ((e = rft_read(stage.r, rec)) == 0) {
        switch (rec->kind) {
        case RFT_KERNEL: on_kernel(&rec->u.kernel); break;
        case RFT_WFBEGIN: on_begin(&rec->u.begin); break;
        case RFT_WFEND: on_end(&rec->u.end); break;
        case RFT_WRITE: on_write(&rec->w); break;
        case RFT_READ: on_read(&rec->u.read); break;
        case RFT_FAULTMAP:
            on_map_record(rec);
            if (g.fm.have_gen || g.fm.map_path)
                continue;       /* the maps used are written at each slice */
            break;
        case RFT_ALLOC:         /* another placement: DC-Patch places the registers */
        case RFT_PATCH:
            if (!g.dropped_alloc++)
                warnx("warning: %s: placement records of an earlier stage dropped: DC-Patch "
                      "places the registers itself", g.input);
            continue;
        }
        if (stage.w)
            stage_put(rft_write_rec(stage.w, rec));
    }
    stage_read_end(e);
    free(rec);
}

static void results(void)
{
    uint64_t total[NCTR] = {0}, span = g.any ? g.last - g.first : 0;
    int64_t peak = 0;
    char scope[RFT_MAX_SCOPE + 1];  /* "kernel " and a kernel name of the stream */
    for (uint32_t i = 0; i < g.nks; i++) {
        kstat *k = &g.ks[i];
        uint64_t ks = k->seen ? k->last - k->first : 0;
        finish(k->n, &k->acc, k->last, ks * k->nslices, ks * k->ncus, k->peak);
    }
    rft_dcp_acc all;
    memset(&all, 0, sizeof all);
    for (uint32_t i = 0; i < g.nslices; i++) {
        slice *s = &g.slices[i];
        finish(s->n, &s->s.acc, g.last, span, span, s->peak);
        for (int c = 0; c < C_SLICE_CYC; c++)
            total[c] += s->n[c];
        for (int c = 0; c < RFT_DCP_NCAT; c++) {
            all.cur[c] += s->s.acc.cur[c];
            all.sdt[c] += s->s.acc.sdt[c];
        }
    }
    for (uint32_t i = 0; i < g.ncus; i++)
        if (g.cus[i].peak > peak)
            peak = g.cus[i].peak;
    finish(total, &all, g.last, span * g.nslices, span * g.ncus, peak);
    if (stage.w) {
        for (uint32_t i = 0; i < g.nks; i++) {
            snprintf(scope, sizeof scope, "kernel %s", g.ks[i].name);
            put_counters(scope, g.ks[i].n);
        }
        for (uint32_t i = 0; i < g.nslices; i++) {
            snprintf(scope, sizeof scope, "slice %u:%u", g.slices[i].cu, g.slices[i].simd);
            put_counters(scope, g.slices[i].n);
        }
        put_counters("total", total);
    }
    /* the other outputs before the end record: a failure leaves none */
    if (g.summary_out) {
        summary(g.summary_out, total);
        side_close(g.summary_out, g.summary);
    }
    if (g.log)
        side_close(g.log, g.log_path);
    stage_close();
}

static int yes_no(const char *opt, const char *v)
{
    if (strcmp(v, "yes") == 0)
        return 1;
    if (strcmp(v, "no") != 0)
        usage_error("%s: '%s' is not yes or no", opt, v);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        FM_SOURCE_OPTIONS,                       {"pick", required_argument, 0, 'P'},
        {"share-reliable", required_argument, 0, 'H'}, {"repatch", required_argument, 0, 'R'},
        {"stall-cycles", required_argument, 0, 'c'}, {"check", no_argument, 0, 'k'},
        {"log", required_argument, 0, 'g'},      {"summary", optional_argument, 0, 'Y'},
        {"report", required_argument, 0, 'e'},   {"by", required_argument, 0, 'b'},
        {"counts", no_argument, 0, 'n'},         {"format", required_argument, 0, 'f'},
        CLI_FILTER_OPTIONS,                      {0, 0, 0, 0}};
    int shape_set = 0, c;
    cli_init(argc, argv, usage);
    rft_dcp_opts_default(&g.o);
    rft_pattern_opts_default(&g.po);
    g.wo.level = RFT_DEFAULT_LEVEL;
    g.fmt = FMT_TABLE;
    while ((c = getopt_long(argc, argv, "o:s:f:", opts, NULL)) != -1) {
        switch (c) {
        case 'P':
            g.o.pick_high = cli_choice("--pick", optarg, "low|high");
            break;
        case 'H': g.o.share_reliable = yes_no("--share-reliable", optarg); break;
        case 'R':
            g.o.release_first = cli_choice("--repatch", optarg, "preventive|release-first");
            break;
        case 'c': g.stall = (unsigned)cli_uint("--stall-cycles", optarg, 0, 1000000); break;
        case 'k': g.check = 1; break;
        case 'g': g.log_path = optarg; break;
        case 'Y': g.summary = optarg ? optarg : "-"; break;
        case 's': g.summary = optarg; break;
        case 'e':
            shape_set = 1;
            g.report = cli_choice("--report", optarg, "perf|occupancy|events");  /* REPORT_* */
            break;
        case 'b':
            shape_set = 1;
            g.by_slice = cli_choice("--by", optarg, "kernel|slice");
            break;
        case 'n': shape_set = 1; g.counts = 1; break;
        case 'f': shape_set = 1; g.fmt = cli_format(optarg); break;
        default:
            if (!fm_source_option(&g.fm, c) && !cli_filter_option(c, &g.output, &g.wo))
                cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    fm_source_check(&g.fm);
    if (!g.summary && shape_set)
        usage_error("--report, --by, --counts and --format shape the --summary table");
    /* --summary alone: the table on stdout and no stream; -o FILE adds the stream */
    int stream = g.output || !g.summary || strcmp(g.summary, "-") != 0;
    if (stream && !g.output)
        g.output = "-";
    if (stream && g.summary && !strcmp(g.output, "-") && !strcmp(g.summary, "-"))
        usage_error("the stream and the summary cannot both go to standard output");
    if (!stream)
        g.output = NULL;
    if (g.log_path && strcmp(g.log_path, "-") == 0 &&
        ((g.output && !strcmp(g.output, "-")) || (g.summary && !strcmp(g.summary, "-"))))
        usage_error("--log -: standard output already carries the %s",
                    g.output && !strcmp(g.output, "-") ? "stream" : "summary");
    if (g.log_path)
        g.log = side_open(g.log_path);
    if (g.summary)
        g.summary_out = side_open(g.summary);
    const char *ca = getenv("RFT_TEST_DCPATCH_CORRUPT");
    if (ca)
        corrupt_at = strtoull(ca, NULL, 10);
    run();
    results();
    for (uint32_t i = 0; i < g.nslices; i++)
        rft_dcp_free(&g.slices[i].s);
    for (uint32_t i = 0; i < g.nks; i++)
        free(g.ks[i].name);
    free(g.slices);
    free(g.waves);
    free(g.free_w);
    free(g.ks);
    free(g.kidx);
    free(g.cus);
    free(g.kc);
    rft_map_free(&g.slice_of);
    rft_map_free(&g.wave_of);
    rft_map_free(&g.cu_of);
    rft_map_free(&g.kc_of);
    rft_map_free(&g.ks_slices);
    rft_fmset_free(&g.opt_maps);
    rft_fmset_free(&g.stream_maps);
    return cli_close_stdout();
}
