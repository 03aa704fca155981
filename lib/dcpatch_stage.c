/* dcpatch_stage.c - rft-dcpatch's stage: DC-Patch (dcpatch.c) on every
 * slice of a stream, its windows, writes and reads; the patch records,
 * the counters per slice and kernel, the log (see dcpatch.h and
 * rft-dcpatch(1)). */
#include "dcpatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "grow.h"
#include "names.h"
#include "replay.h"
#include "rft.h"

/* ---- the stage ---------------------------------------------------------------------- */
const char *const rft_dcpatch_counter_names[RFT_DCPC_N] = {
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

const char rft_dcpatch_log_header[] =
    "record\tcycle\tslice\twf\tvreg\tevent\tcontent\tplace\tflags\n";

void rft_dcpatch_opts_default(rft_dcpatch_opts *o)
{
    memset(o, 0, sizeof *o);
    rft_dcp_opts_default(&o->dcp);
    o->stall_cycles = 4;
    o->stages = RFT_REPLAY_AUTO;
}

typedef struct {
    char *name;
    uint64_t n[RFT_DCPC_N];
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
    uint64_t n[RFT_DCPC_N];
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

typedef struct dcp {
    rft_stage st;
    rft_dcpatch_opts o;
    int given;                  /* maps given in o.maps replace the stream's */
    rft_geom geom;
    uint32_t nb, reg_bytes;
    rft_pattern_opts po;
    rft_fmset opt_maps, stream_maps;
    int stream_had_maps, dropped_alloc;
    uint64_t count;             /* records fed */
    slice *slices;
    uint32_t nslices, slcap;
    rft_slices slice_of;        /* index in the slices */
    wave *waves;
    uint32_t nwaves, wcap, *free_w, nfree;
    rft_map wave_of;            /* wf key -> index */
    uint64_t last_wkey;
    uint32_t last_wave;
    kstat *ks;
    uint32_t nks, cks;
    rft_map ks_of;              /* a name's key -> its kstat */
    rft_map kidx;               /* stream kernel index -> ks index: as many as kernels
                                   met, whatever their indexes (no table by index) */
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
    uint64_t total[RFT_DCPC_N];
    uint8_t *mapbuf;            /* a map record */
    size_t mapcap;
    rft_counters c;             /* scratch for counters records */
    uint8_t cbuf[RFT_COUNTERS_MAX];
    char line[256];             /* a log line: numbers and short words */
    rft_stage *rp;              /* opts.replay: the replay of the output stream, or NULL */
    const rft_sink *down;       /* the sink of the record being fed (tee) */
} dcp;

static int oom(dcp *d) { return rft_stage_fail(&d->st, RFT_EMEM, "out of memory"); }


/* ---- kernels ---------------------------------------------------------------------- */
/* The kstat of a kernel name, created if new; UINT32_MAX: out of memory. */
static uint32_t kstat_of(dcp *d, const char *name, size_t len)
{
    if (!name)
        name = "";              /* a kernel without a name */
    /* O(1): the names are searched in full only when two share a key */
    uint64_t key = rft_name_key(name, len);
    const uint64_t *v = rft_map_get(&d->ks_of, key);
    if (v && strlen(d->ks[*v].name) == len && memcmp(d->ks[*v].name, name, len) == 0)
        return (uint32_t)*v;
    for (uint32_t i = 0; v && i < d->nks; i++)  /* two names share a key */
        if (strlen(d->ks[i].name) == len && memcmp(d->ks[i].name, name, len) == 0)
            return i;
    if (rft_grow((void **)&d->ks, d->nks, &d->cks, sizeof *d->ks, 16))
        return UINT32_MAX;
    kstat *k = memset(&d->ks[d->nks], 0, sizeof *d->ks);
    if (!(k->name = strndup(name, len)) || rft_map_put(&d->ks_of, key, d->nks))
        return UINT32_MAX;
    return d->nks++;
}

static int on_kernel(dcp *d, const rft_kernel *k)
{
    uint32_t ks = kstat_of(d, k->name, k->name_len);
    if (ks == UINT32_MAX || rft_map_put(&d->kidx, k->index, ks))
        return oom(d);
    return 0;
}

/* UINT32_MAX: out of memory */
static uint32_t kernel_of(dcp *d, uint32_t index)
{
    const uint64_t *v = rft_map_get(&d->kidx, index);
    if (v)
        return (uint32_t)*v;
    if (d->none_k == UINT32_MAX)
        d->none_k = kstat_of(d, "(none)", 6);
    return d->none_k;
}

/* ---- slices and their maps -------------------------------------------------------- */
/* The map of a new slice; NULL with the message set. */
static const rft_faultmap *slice_map(dcp *d, uint16_t cu, uint16_t simd, rft_faultmap *tmp)
{
    const rft_faultmap *m;
    if (d->given) {
        if (rft_fm_source_map(&d->o.maps, &d->opt_maps, d->geom.entries, d->nb, cu, simd, tmp,
                              &m)) {
            oom(d);
            return NULL;
        }
        if (!m)
            rft_stage_fail(&d->st, RFT_EFORMAT, "no fault map for slice %u:%u in %s (it has "
                           "neither its rows nor '*' rows)", cu, simd, d->o.maps.csv);
    } else if (!(m = rft_fmset_find(&d->stream_maps, cu, simd))) {
        if (d->stream_had_maps)
            rft_stage_fail(&d->st, RFT_EFORMAT, "no fault map for slice %u:%u before its first "
                           "record", cu, simd);
        else
            rft_stage_fail(&d->st, RFT_EFORMAT, "no fault map for slice %u:%u: the stream carries "
                           "none (add --scenario NAME or --map FILE.csv, or run rft-faultmap "
                           "first)", cu, simd);
    }
    return m;
}

static int slice_new(dcp *d, uint16_t cu, uint16_t simd, const rft_sink *out)
{
    /* its state and, at most, a map of its own (a byte per block) */
    if (rft_stage_reserve_slice(&d->st, sizeof(slice) + rft_dcp_bytes(d->geom.entries, d->nb) +
                                            (uint64_t)d->geom.entries * d->nb,
                                NULL, cu, simd, d->geom.entries))
        return RFT_EMEM;
    rft_faultmap tmp = {0};
    const rft_faultmap *m = slice_map(d, cu, simd, &tmp);
    int e = 0;
    if (!m)
        return RFT_EFORMAT;
    if (rft_grow((void **)&d->slices, d->nslices, &d->slcap, sizeof *d->slices, 16)) {
        rft_faultmap_free(&tmp);
        return oom(d);
    }
    slice *s = memset(&d->slices[d->nslices], 0, sizeof *d->slices);
    s->cu = cu;
    s->simd = simd;
    if (rft_dcp_init(&s->s, m, &d->o.dcp))
        e = oom(d);
    /* the map used, in the stream before the slice's first record (the
     * stream's own maps are dropped): later stages see the faults */
    else if (d->given)
        e = rft_faultmap_put(&d->st, m, cu, simd, out, &d->mapbuf, &d->mapcap);
    rft_faultmap_free(&tmp);
    if (e) {
        rft_dcp_free(&s->s);
        return e;
    }
    uint64_t *c = rft_map_get(&d->cu_of, cu);
    if (!c) {
        cucount *p = realloc(d->cus, (d->ncus + 1) * sizeof *p);
        if (!p)
            goto fail;
        d->cus = p;
        d->cus[d->ncus] = (cucount){0, 0};
        if (rft_map_put(&d->cu_of, cu, ++d->ncus))
            goto fail;
        c = rft_map_get(&d->cu_of, cu);
    }
    s->cu_idx = (uint32_t)*c - 1;
    if (rft_slices_put(&d->slice_of, cu, simd, d->nslices))
        goto fail;
    d->nslices++;
    return 0;
fail:
    rft_dcp_free(&s->s);
    return oom(d);
}

/* The index of a slice, new at a wavefront's begin; UINT32_MAX: failed. */
static uint32_t slice_get(dcp *d, uint16_t cu, uint16_t simd, const rft_sink *out)
{
    long i = rft_slices_find(&d->slice_of, cu, simd);
    if (i < 0 && slice_new(d, cu, simd, out))
        return UINT32_MAX;
    return i >= 0 ? (uint32_t)i : d->nslices - 1;
}

static int on_map_record(dcp *d, const rft_rec *rec)
{
    char why[256], sl[40];
    rft_faultmap m;
    if (rft_faultmap_decode(rec->raw, rec->len, &m, why, sizeof why))
        return rft_stage_fail(&d->st, RFT_EFORMAT, "%s", why);
    d->stream_had_maps = 1;
    if (m.cu == RFT_FM_ALL)
        snprintf(sl, sizeof sl, "all slices");
    else
        snprintf(sl, sizeof sl, "slice %u:%u", m.cu, m.simd);
    int e = 0;
    if (m.entries != d->geom.entries || m.blocks != d->nb)
        e = rft_stage_fail(&d->st, RFT_EFORMAT, "the fault map of %s is %u entries x %u blocks, "
                           "the stream's slices are %u x %u", sl, m.entries, m.blocks,
                           d->geom.entries, d->nb);
    else if (m.cu != RFT_FM_ALL && rft_slices_find(&d->slice_of, m.cu, m.simd) >= 0)
        e = rft_stage_fail(&d->st, RFT_EFORMAT, "fault map of %s after the slice's first record",
                           sl);
    else if (rft_fmset_put(&d->stream_maps, &m))
        e = oom(d);
    rft_faultmap_free(&m);
    return e;
}

/* ---- spilled-register peaks ------------------------------------------------------- */
static void spill_delta(dcp *d, slice *s, uint32_t k, int64_t delta)
{
    cucount *c = &d->cus[s->cu_idx];
    if ((c->cur += delta) > c->peak)
        c->peak = c->cur;
    if (s->s.acc.cur[RFT_DCP_SPILLED_REGS] > s->peak)
        s->peak = s->s.acc.cur[RFT_DCP_SPILLED_REGS];
    uint64_t *v = rft_map_get(&d->kc_of, (uint64_t)k << 32 | s->cu);
    cucount *kc = &d->kc[*v - 1];  /* created at the wavefront's begin */
    if ((kc->cur += delta) > kc->peak)
        kc->peak = kc->cur;
    if (kc->peak > d->ks[k].peak)
        d->ks[k].peak = kc->peak;
}

/* ---- records ---------------------------------------------------------------------- */
static void count(slice *s, kstat *k, int c, uint64_t v)
{
    s->n[c] += v;
    k->n[c] += v;
}

static void stamp(dcp *d, kstat *k, uint64_t t)
{
    if (!d->any)
        d->first = t;
    d->any = 1;
    d->last = t;
    if (!k->seen)
        k->first = t;
    k->seen = 1;
    k->last = t;
}

/* opts.test_corrupt_at (tests only): after that record, move one live
 * register of its slice onto another's place, so that the --check path can
 * be seen to work. */
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

static __attribute__((noinline)) int check_slow(dcp *d, slice *s)
{
    char why[512];
    if (d->o.test_corrupt_at && d->count == d->o.test_corrupt_at)
        corrupt(s);
    if (d->o.check && rft_dcp_check(&s->s, why, sizeof why))
        return rft_stage_fail(&d->st, RFT_EFORMAT, "slice %u:%u: invariant violated: %s", s->cu,
                              s->simd, why);
    return 0;
}

static inline int check(dcp *d, slice *s)
{
    return d->o.check || d->o.test_corrupt_at ? check_slow(d, s) : 0;
}

static void log_line(dcp *d, uint64_t cycle, const slice *s, uint32_t wf, const char *vreg,
                     const char *event, const char *content, const char *place, const char *flags)
{
    snprintf(d->line, sizeof d->line, "%llu\t%llu\t%u:%u\t%u\t%s\t%s\t%s\t%s\t%s\n",
             (unsigned long long)d->count, (unsigned long long)cycle, s->cu, s->simd, wf, vreg,
             event, content, place, flags);
    d->o.log(d->o.log_ctx, d->line);
}

/* A wave slot for a new wavefront; UINT32_MAX: out of memory. */
static uint32_t wave_new(dcp *d)
{
    if (d->nfree)
        return d->free_w[--d->nfree];
    if (d->nwaves == d->wcap) {
        uint32_t cap = d->wcap;
        if (rft_grow((void **)&d->waves, d->nwaves, &d->wcap, sizeof *d->waves, 64) ||
            rft_grow((void **)&d->free_w, d->nwaves, &cap, sizeof *d->free_w, 64))
            return UINT32_MAX;
    }
    return d->nwaves++;
}

/* The kernel's count of spilled registers in a CU, and its slices. */
static int kernel_place(dcp *d, kstat *ks, uint32_t k, uint16_t cu, uint32_t si)
{
    uint64_t kck = (uint64_t)k << 32 | cu, kss = (uint64_t)k << 32 | si;
    if (!rft_map_get(&d->kc_of, kck)) {
        if (rft_grow((void **)&d->kc, d->nkc, &d->kccap, sizeof *d->kc, 16))
            return oom(d);
        d->kc[d->nkc] = (cucount){0, 0};
        if (rft_map_put(&d->kc_of, kck, ++d->nkc))
            return oom(d);
        ks->ncus++;
    }
    if (!rft_map_get(&d->ks_slices, kss)) {
        if (rft_map_put(&d->ks_slices, kss, 1))
            return oom(d);
        ks->nslices++;
    }
    return 0;
}

static int on_begin(dcp *d, const rft_wfbegin *b, const rft_sink *out)
{
    uint32_t si = slice_get(d, b->cu, b->simd, out), k, wi;
    if (si == UINT32_MAX)
        return RFT_EFORMAT;
    slice *s = &d->slices[si];
    uint64_t key = rft_wf_key(b->cu, b->simd, b->wf);
    if (rft_map_get(&d->wave_of, key))
        return rft_stage_fail(&d->st, RFT_EFORMAT, "wavefront %u begins again on slice %u:%u while "
                              "running", b->wf, b->cu, b->simd);
    if ((k = kernel_of(d, b->kernel)) == UINT32_MAX)
        return oom(d);
    kstat *ks = &d->ks[k];
    stamp(d, ks, b->cycle);
    int base = rft_dcp_begin(&s->s, b->nregs, b->wf, b->cycle, &ks->acc);
    if (base < 0)
        return rft_stage_fail(&d->st, RFT_EFORMAT, "window of %u registers of wavefront %u does "
                              "not fit in slice %u:%u (%u of %u rows in use, first fit)", b->nregs,
                              b->wf, b->cu, b->simd, s->s.live_rows, s->s.entries);
    if ((wi = wave_new(d)) == UINT32_MAX)
        return oom(d);
    wave *w = &d->waves[wi];
    w->slice = si;
    w->base = (uint32_t)base;
    w->nregs = b->nregs;
    w->kernel = k;
    w->wf = b->wf;
    w->have_full = 0;
    if (rft_map_put(&d->wave_of, key, wi))
        return oom(d);
    d->last_wkey = UINT64_MAX;
    count(s, ks, RFT_DCPC_WAVES, 1);
    int e = kernel_place(d, ks, k, b->cu, si);
    if (e)
        return e;
    if (d->o.log) {
        char place[48];
        snprintf(place, sizeof place, "rows %u-%u", (unsigned)base, base + b->nregs - 1);
        log_line(d, b->cycle, s, b->wf, "-", "begin", "-", place, "-");
    }
    return check(d, s);
}

/* The failures of wave_get and reg_access, out of their hot path. */
static __attribute__((noinline, cold)) wave *not_running(dcp *d, uint16_t cu, uint16_t simd,
                                                         uint32_t wf, const char *what)
{
    rft_stage_fail(&d->st, RFT_EFORMAT, "%s by wavefront %u, which is not running on slice %u:%u",
                   what, wf, cu, simd);
    return NULL;
}

static __attribute__((noinline, cold)) wave *outside(dcp *d, const wave *w, uint16_t vreg)
{
    rft_stage_fail(&d->st, RFT_EFORMAT, "register v%u outside the window of %u registers of "
                   "wavefront %u", vreg, w->nregs, w->wf);
    return NULL;
}

static inline wave *wave_get(dcp *d, uint16_t cu, uint16_t simd, uint32_t wf, const char *what)
{
    uint64_t key = rft_wf_key(cu, simd, wf);
    if (key == d->last_wkey)
        return &d->waves[d->last_wave];
    uint64_t *v = rft_map_get(&d->wave_of, key);
    if (!v)
        return not_running(d, cu, simd, wf, what);
    d->last_wkey = key;
    d->last_wave = (uint32_t)*v;
    return &d->waves[*v];
}

/* A write or read of register vreg by a running wavefront: its window must
 * hold the register; the kernel's clock moves on.  NULL: it does not. */
static inline wave *reg_access(dcp *d, uint16_t cu, uint16_t simd, uint32_t wf, uint16_t vreg,
                               uint64_t cycle, const char *what)
{
    wave *w = wave_get(d, cu, simd, wf, what);
    if (!w)
        return NULL;
    if (vreg >= w->nregs)
        return outside(d, w, vreg);
    stamp(d, &d->ks[w->kernel], cycle);
    return w;
}

static int on_end(dcp *d, const rft_wfend *e)
{
    wave *w = wave_get(d, e->cu, e->simd, e->wf, "end");
    if (!w)
        return RFT_EFORMAT;
    slice *s = &d->slices[w->slice];
    kstat *k = &d->ks[w->kernel];
    stamp(d, k, e->cycle);
    int64_t sp = s->s.acc.cur[RFT_DCP_SPILLED_REGS];
    uint32_t valid = rft_dcp_end(&s->s, w->base, w->nregs, e->cycle, &k->acc);
    int64_t delta = s->s.acc.cur[RFT_DCP_SPILLED_REGS] - sp;
    if (delta)
        spill_delta(d, s, w->kernel, delta);
    count(s, k, RFT_DCPC_PTW, valid);
    /* the slice patches among them */
    count(s, k, RFT_DCPC_PSU_R, (uint64_t)((int64_t)valid + delta));
    if (d->o.log) {
        char place[32];
        snprintf(place, sizeof place, "released %u", valid);
        log_line(d, e->cycle, s, e->wf, "-", "end", "-", place, "-");
    }
    rft_map_del(&d->wave_of, rft_wf_key(e->cu, e->simd, e->wf));
    d->free_w[d->nfree++] = (uint32_t)(w - d->waves);
    d->last_wkey = UINT64_MAX;
    return check(d, s);
}

static void place_text(const rft_dcp_slice *s, uint32_t row, char *buf, size_t n)
{
    const rft_dcp_row *r = &s->pt[row];
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
static int put_patch(const rft_write *x, const rft_dcp_event *ev, int comp, uint32_t c0,
                     uint32_t de, uint32_t db, const rft_sink *out)
{
    rft_patch_rec p = {x->cycle, x->cu, x->simd, x->wf, x->vreg, RFT_PATCH_NONE, RFT_PATCH_NONE,
                       RFT_PATCH_LDS, 0, 0};
    uint8_t buf[RFT_PATCH_LEN];
    if (ev->place != RFT_DCP_LDS) {
        p.entry = ev->entry;
        p.place = comp ? RFT_PATCH_BLOCK : RFT_PATCH_ENTRY;
        if (comp) {
            p.block = ev->block;
            p.c0 = c0;
            p.code = rft_dcp_code(de, db);
        }
    }
    rft_patch_encode(buf, &p);
    return rft_sink_raw(out, RFT_PATCH, buf, RFT_PATCH_LEN);
}

static void log_write(dcp *d, const rft_write *x, const slice *s, uint32_t row,
                      const rft_dcp_event *ev, int comp, int misp, int div, int mov)
{
    static const char *const ev_name[] = {"normal", "patch-faulty", "patch-reliable", "lds"};
    char vr[16], place[32], flags[64] = "";
    snprintf(vr, sizeof vr, "v%u", x->vreg);
    place_text(&s->s, row, place, sizeof place);
    const char *fl[] = {ev->first ? "first" : NULL, ev->change ? "change" : NULL,
                        ev->from_lds ? "back" : NULL, ev->spill ? "spill" : NULL,
                        misp ? "misp" : NULL, div ? "div" : NULL, mov ? "mov" : NULL};
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (fl[i])
            snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s",
                     *flags ? "," : "", fl[i]);
    log_line(d, x->cycle, s, x->wf, vr, ev_name[ev->place], comp ? "c" : "u", place,
             *flags ? flags : "-");
}

static int on_write(dcp *d, rft_write *x, const rft_sink *out)
{
    wave *w = reg_access(d, x->cu, x->simd, x->wf, x->vreg, x->cycle, "write");
    if (!w)
        return RFT_EFORMAT;
    slice *s = &d->slices[w->slice];
    kstat *k = &d->ks[w->kernel];
    uint32_t row = w->base + x->vreg, nb = d->nb;
    int cls, fb, div;
    uint32_t c0 = x->c0, de = x->de, db = x->db;
    if (x->cls != RFT_CLS_NONE) {   /* annotated by rft-classify */
        cls = x->cls;
        fb = (x->flags & RFT_WF_FIRSTBLOCK) != 0;
        div = (x->flags & RFT_WF_DIVERGENT) != 0;
    } else {
        rft_pattern p;
        uint32_t mb = rft_mask_bytes(&d->geom);
        rft_pattern_classify(x->val, d->geom.lanes, d->geom.block_lanes, &d->po, &p);
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
    int64_t delta = s->s.acc.cur[RFT_DCP_SPILLED_REGS] - sp;
    if (delta)
        spill_delta(d, s, w->kernel, delta);
    x->phys = ev.place == RFT_DCP_LDS ? RFT_NO_PHYS : ev.entry;
    int e = put_patch(x, &ev, comp, c0, de, db, out);
    if (e)
        return e;

    count(s, k, RFT_DCPC_WRITES, 1);
    count(s, k, RFT_DCPC_NORMAL + ev.place, 1);
    count(s, k, RFT_DCPC_FIRST, ev.first);
    count(s, k, RFT_DCPC_CHANGE, ev.change);
    count(s, k, RFT_DCPC_BACK, ev.from_lds);
    count(s, k, RFT_DCPC_SPILLS, ev.spill);
    count(s, k, RFT_DCPC_COMPW, (uint64_t)comp);
    count(s, k, RFT_DCPC_DIV, (uint64_t)div);
    count(s, k, RFT_DCPC_MISP, (uint64_t)misp);
    count(s, k, RFT_DCPC_STALL, misp ? d->o.stall_cycles : 0);
    count(s, k, RFT_DCPC_PTR, 1);
    count(s, k, RFT_DCPC_PSU_S, ev.searches);
    count(s, k, RFT_DCPC_PSU_P, ev.place == RFT_DCP_FAULTY || ev.place == RFT_DCP_RELIABLE);
    count(s, k, RFT_DCPC_PSU_R, ev.released);
    count(s, k, RFT_DCPC_PTW, ev.place != RFT_DCP_NORMAL &&
                                  !(ev.place == RFT_DCP_LDS && !ev.spill &&
                                    ((f & RFT_DCP_COMP) != 0) == comp));
    if (!div) {
        count(s, k, RFT_DCPC_COM, 1);
        count(s, k, RFT_DCPC_COMB, nb);
    }
    if (ev.place == RFT_DCP_LDS)
        count(s, k, RFT_DCPC_LDS_STORE, 1);
    else
        count(s, k, comp ? RFT_DCPC_BW_COMP : RFT_DCPC_BW_UNC, comp ? 1 : nb);
    if (misp)
        count(s, k, RFT_DCPC_BW_MISP, 1);      /* the speculative compressed block */
    if (mov) {
        count(s, k, RFT_DCPC_MOV, 1);
        count(s, k, RFT_DCPC_BR_MOV, 1);
        count(s, k, RFT_DCPC_DEC, 1);
        count(s, k, RFT_DCPC_DECB, nb);
        count(s, k, RFT_DCPC_PTR, 1);
        count(s, k, RFT_DCPC_BW_MOV, nb);
    }
    if (d->o.log)
        log_write(d, x, s, row, &ev, comp, misp, div, mov);
    return check(d, s);
}

static int on_read(dcp *d, rft_regread *x)
{
    wave *w = reg_access(d, x->cu, x->simd, x->wf, x->vreg, x->cycle, "read");
    if (!w)
        return RFT_EFORMAT;
    slice *s = &d->slices[w->slice];
    kstat *k = &d->ks[w->kernel];
    uint32_t row = w->base + x->vreg;
    int kind = rft_dcp_read(&s->s, row);
    x->phys = kind == RFT_DCP_R_COMP || kind == RFT_DCP_R_UNC ? s->s.pt[row].entry : RFT_NO_PHYS;
    count(s, k, RFT_DCPC_READS, 1);
    count(s, k, RFT_DCPC_PTR, 1);
    switch (kind) {
    case RFT_DCP_R_UNWRITTEN: count(s, k, RFT_DCPC_RUNW, 1); break;
    case RFT_DCP_R_COMP:
        count(s, k, RFT_DCPC_RCOMP, 1);
        count(s, k, RFT_DCPC_BR_COMP, 1);
        count(s, k, RFT_DCPC_DEC, 1);
        count(s, k, RFT_DCPC_DECB, d->nb);
        break;
    case RFT_DCP_R_UNC:
        count(s, k, RFT_DCPC_RUNC, 1);
        count(s, k, RFT_DCPC_BR_UNC, d->nb);
        break;
    case RFT_DCP_R_LDS:
        count(s, k, RFT_DCPC_RLDS, 1);
        count(s, k, RFT_DCPC_LDS_LOAD, 1);
        break;
    }
    if (d->o.log) {
        static const char *const name[] = {"read-unwritten", "read-comp", "read-unc", "read-lds"};
        char vr[16], place[32];
        snprintf(vr, sizeof vr, "v%u", x->vreg);
        place_text(&s->s, row, place, sizeof place);
        uint8_t f = s->s.pt[row].flags;
        log_line(d, x->cycle, s, x->wf, vr, name[kind],
                 !(f & RFT_DCP_VALID) ? "-" : f & RFT_DCP_COMP ? "c" : "u", place, "-");
    }
    return 0;
}

/* ---- the replay of the output stream (opts.replay), as rft-replay(1) would
 * read it after this stage: every record that leaves goes through tee. */
static int replay_start(dcp *d, const rft_header *out)
{
    rft_replay_opts ro;
    rft_replay_opts_default(&ro);
    ro.stall_cycles = d->o.stall_cycles;
    ro.stages = d->o.stages;
    int e = rft_replay_rider(&ro, out, &d->rp);
    if (e == RFT_EMEM && !d->rp)
        return oom(d);
    return e ? rft_stage_fail(&d->st, e, "%s", rft_stage_error(d->rp)) : 0;
}

/* A stream the replay cannot follow (out of its memory budget, a malformed
 * unit record) is an error e: never tabled another way (issue 31). */
static int replay_fail(dcp *d, int e)
{
    return rft_stage_fail(&d->st, e, "replay: %s", rft_stage_error(d->rp));
}

static int tee(void *ctx, rft_rec *rec)
{
    dcp *d = ctx;
    int e;
    if (d->rp && (e = rft_replay_ride(d->rp, rec)))
        return replay_fail(d, e);
    return d->down->put(d->down->ctx, rec);
}

static int dcp_start(rft_stage *st, const rft_header *in, rft_header *out)
{
    dcp *d = (dcp *)st;
    char why[RFT_FM_WHY], meta[128];     /* fixed words and a number */
    d->geom = in->geom;
    d->nb = d->geom.lanes / d->geom.block_lanes;
    d->reg_bytes = d->geom.lanes * 4;
    int e = rft_fm_source_load(&d->o.maps, d->geom.entries, d->nb, &d->opt_maps, why, sizeof why);
    if (e)
        return rft_stage_fail(st, e, "%s", why);
    snprintf(meta, sizeof meta, "pick=%s share-reliable=%s repatch=%s stall-cycles=%u",
             d->o.dcp.pick_high ? "high" : "low", d->o.dcp.share_reliable ? "yes" : "no",
             d->o.dcp.release_first ? "release-first" : "preventive", d->o.stall_cycles);
    if ((e = rft_header_set(out, "dcpatch", meta)))
        return e == RFT_EMEM ? oom(d) : rft_stage_fail(st, e, "header: more than %d metadata keys",
                                                       RFT_MAX_META);
    if (d->given && (e = rft_fm_source_header(st, &d->o.maps, out, "dcpatch.maps")))
        return e;
    if (d->o.log)
        d->o.log(d->o.log_ctx, rft_dcpatch_log_header);
    return d->o.replay ? replay_start(d, out) : 0;
}

static int dcp_feed(rft_stage *st, rft_rec *rec, const rft_sink *down)
{
    dcp *d = (dcp *)st;
    int e = 0;
    const rft_sink teed = {tee, d}, *out = d->rp ? &teed : down;
    d->down = down;
    d->count++;
    switch (rec->kind) {
    case RFT_KERNEL: e = on_kernel(d, &rec->u.kernel); break;
    case RFT_WFBEGIN: e = on_begin(d, &rec->u.begin, out); break;
    case RFT_WFEND: e = on_end(d, &rec->u.end); break;
    case RFT_WRITE: e = on_write(d, &rec->w, out); break;
    case RFT_READ: e = on_read(d, &rec->u.read); break;
    case RFT_FAULTMAP:
        if (d->given)
            return 0;           /* maps given here replace the stream's */
        e = on_map_record(d, rec);
        break;
    case RFT_ALLOC:             /* another placement: DC-Patch places the registers */
    case RFT_PATCH:
        if (!d->dropped_alloc++)
            rft_stage_warn(st, "warning: %s: placement records of an earlier stage dropped: "
                           "DC-Patch places the registers itself", st->input);
        return 0;
    }
    return e ? e : out->put(out->ctx, rec);
}

/* Fill the end-of-run counters of a scope. */
static void fill_end(const dcp *d, uint64_t *n, const rft_dcp_acc *a, uint64_t T,
                     uint64_t slice_cycles, uint64_t cu_cycles, int64_t peak)
{
    static const int cats[] = {RFT_DCP_CONV_REL_COMP, RFT_DCP_CONV_REL_UNC, RFT_DCP_CONV_FLT_COMP,
                               RFT_DCP_CONV_FLT_UNC, RFT_DCP_CONV_UNWRITTEN, RFT_DCP_USED_REL_UNC,
                               RFT_DCP_USED_REL_COMP, RFT_DCP_USED_FLT_COMP};
    n[RFT_DCPC_SLICE_CYC] = slice_cycles;
    n[RFT_DCPC_CU_CYC] = cu_cycles;
    n[RFT_DCPC_ENTRY_CYC] = slice_cycles * d->geom.entries;
    for (int i = 0; i < 8; i++)
        n[RFT_DCPC_CONV_RC + i] = rft_dcp_integral(a, cats[i], T);
    n[RFT_DCPC_LDS_BC] = rft_dcp_integral(a, RFT_DCP_SPILLED_REGS, T) * d->reg_bytes;
    n[RFT_DCPC_LDS_PEAK] = (uint64_t)peak * d->reg_bytes;
}

static int put_counters(dcp *d, const char *scope, const uint64_t *n, const rft_sink *out)
{
    rft_counters_set(&d->c, "rft-dcpatch", scope, rft_dcpatch_counter_names, n, RFT_DCPC_N);
    return rft_sink_raw(out, RFT_COUNTERS, d->cbuf, rft_counters_encode(&d->c, d->cbuf));
}

static int dcp_finish(rft_stage *st, const rft_sink *out)
{
    dcp *d = (dcp *)st;
    /* a shard (rft_reader_shard_by): the whole input's span, so that the
     * shards' slice and total counters add up to the whole's (its kernel
     * rows are of the shard's own records) */
    if (st->whole)
        d->any = rft_whole_span(st->whole, RFT_WFBEGIN, RFT_READ, &d->first, &d->last);
    uint64_t span = d->any ? d->last - d->first : 0;
    int64_t peak = 0;
    char scope[RFT_MAX_SCOPE + 1];  /* "kernel " and a kernel name of the stream */
    int e;
    char why[RFT_FM_WHY];
    if (d->given && (e = rft_fmset_check_slices(&d->opt_maps, &d->slice_of, d->o.maps.csv, why,
                                                sizeof why)))
        return rft_stage_fail(st, e, "%s", why);
    for (uint32_t i = 0; i < d->nks; i++) {
        kstat *k = &d->ks[i];
        uint64_t ks = k->seen ? k->last - k->first : 0;
        fill_end(d, k->n, &k->acc, k->last, ks * k->nslices, ks * k->ncus, k->peak);
    }
    rft_dcp_acc all;
    memset(&all, 0, sizeof all);
    for (uint32_t i = 0; i < d->nslices; i++) {
        slice *s = &d->slices[i];
        fill_end(d, s->n, &s->s.acc, d->last, span, span, s->peak);
        for (int c = 0; c < RFT_DCPC_SLICE_CYC; c++)
            d->total[c] += s->n[c];
        for (int c = 0; c < RFT_DCP_NCAT; c++) {
            all.cur[c] += s->s.acc.cur[c];
            all.sdt[c] += s->s.acc.sdt[c];
        }
    }
    for (uint32_t i = 0; i < d->ncus; i++)
        if (d->cus[i].peak > peak)
            peak = d->cus[i].peak;
    fill_end(d, d->total, &all, d->last, span * d->nslices, span * d->ncus, peak);
    for (uint32_t i = 0; i < d->nks; i++) {
        snprintf(scope, sizeof scope, "kernel %s", d->ks[i].name);
        if ((e = put_counters(d, scope, d->ks[i].n, out)))
            return e;
    }
    for (uint32_t i = 0; i < d->nslices; i++) {
        snprintf(scope, sizeof scope, "slice %u:%u", d->slices[i].cu, d->slices[i].simd);
        if ((e = put_counters(d, scope, d->slices[i].n, out)))
            return e;
    }
    if (d->rp)
        d->rp->whole = st->whole;
    if (d->rp && (e = rft_replay_ride_end(d->rp)))
        return replay_fail(d, e);
    return put_counters(d, "total", d->total, out);
}

static void dcp_free(rft_stage *st)
{
    dcp *d = (dcp *)st;
    for (uint32_t i = 0; i < d->nslices; i++)
        rft_dcp_free(&d->slices[i].s);
    for (uint32_t i = 0; i < d->nks; i++)
        free(d->ks[i].name);
    free(d->slices);
    free(d->waves);
    free(d->free_w);
    free(d->ks);
    rft_map_free(&d->kidx);
    free(d->cus);
    free(d->kc);
    free(d->mapbuf);
    rft_slices_free(&d->slice_of);
    rft_map_free(&d->wave_of);
    rft_map_free(&d->cu_of);
    rft_map_free(&d->kc_of);
    rft_map_free(&d->ks_slices);
    rft_map_free(&d->ks_of);
    rft_fmset_free(&d->opt_maps);
    rft_fmset_free(&d->stream_maps);
    rft_stage_free(d->rp);
    free(d);
}

static const rft_stage_ops dcp_ops = {"rft-dcpatch", dcp_start, dcp_feed, dcp_finish, dcp_free, 0};

rft_stage *rft_dcpatch_new(const rft_dcpatch_opts *o)
{
    dcp *d = rft_stage_alloc(sizeof *d, &dcp_ops);
    if (!d)
        return NULL;
    d->o = *o;
    d->given = o->maps.csv || o->maps.have_gen;
    d->none_k = UINT32_MAX;
    d->last_wkey = UINT64_MAX;
    rft_pattern_opts_default(&d->po);
    if (rft_slices_init(&d->slice_of) || rft_map_init(&d->wave_of, 256) ||
        rft_map_init(&d->cu_of, 16) || rft_map_init(&d->kc_of, 64) ||
        rft_map_init(&d->ks_slices, 64) || rft_map_init(&d->ks_of, 64) ||
        rft_map_init(&d->kidx, 64)) {
        dcp_free(&d->st);
        return NULL;
    }
    return &d->st;
}

uint32_t rft_dcpatch_nkernels(const rft_stage *s) { return ((const dcp *)s)->nks; }
uint32_t rft_dcpatch_nslices(const rft_stage *s) { return ((const dcp *)s)->nslices; }
const uint64_t *rft_dcpatch_total(const rft_stage *s) { return ((const dcp *)s)->total; }
const rft_stage *rft_dcpatch_replay(const rft_stage *s) { return ((const dcp *)s)->rp; }

const uint64_t *rft_dcpatch_kernel(const rft_stage *s, uint32_t i, const char **name)
{
    const kstat *k = &((const dcp *)s)->ks[i];
    *name = k->name;
    return k->n;
}

const uint64_t *rft_dcpatch_slice(const rft_stage *s, uint32_t i, uint16_t *cu, uint16_t *simd)
{
    const slice *sl = &((const dcp *)s)->slices[i];
    *cu = sl->cu;
    *simd = sl->simd;
    return sl->n;
}
