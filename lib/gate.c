/* gate.c - RC and WC power gating (gate.h). */
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "grow.h"

const char *const rft_gate_counter_names[RFT_GC_N] = {
    "writes", "reads", "divergent_writes", "compressed_writes", "switch_offs", "wakeups", "movs",
    "slice_block_writes", "slice_block_writes_cancelled", "slice_block_reads",
    "slice_block_reads_cancelled", "ctable_reads", "ctable_writes", "ctable_invalidations",
    "comp_unit_activations", "comp_unit_blocks", "decomp_unit_activations", "decomp_unit_blocks"};

typedef struct slice {
    uint16_t cu, simd;
    uint64_t n[RFT_GC_N];
    uint32_t *off;          /* per entry: bits not powered, full - on (RC: full = compressed
                               and off); calloc: all on */
} slice;

typedef struct gate {
    rft_stage st;
    rft_gate_opts o;
    rft_geom geom;
    uint32_t full, blocks, block_bits, mb;  /* bits per entry, blocks per entry, bits per block, mask bytes */
    rft_slices slice_of;
    rft_map wave_of;
    slice *slices;
    uint32_t nslices, cslices;
    uint8_t *masks;         /* per wave slot: mb bytes of its full exec mask, then a "set" byte */
    uint32_t nwaves, wcap, *wfree, nfree;
    uint64_t annotated, total[RFT_GC_N];
    rft_counters c;         /* scratch: counters parsed or emitted */
    uint8_t buf[RFT_COUNTERS_MAX];
} gate;

void rft_gate_opts_default(rft_gate_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scheme = RFT_GATE_RC;
    rft_pattern_opts_default(&o->po);
}

static slice *slice_get(gate *g, uint16_t cu, uint16_t simd)
{
    long ix = rft_slices_find(&g->slice_of, cu, simd);
    if (ix >= 0)
        return &g->slices[ix];
    if (g->nslices == 1u << 20) {
        rft_stage_fail(&g->st, RFT_EFORMAT, "more than %u slices", 1u << 20);
        return NULL;
    }
    if (rft_stage_reserve_slice(&g->st, sizeof(slice) + (uint64_t)g->geom.entries * sizeof *g->slices->off,
                                NULL, cu, simd, g->geom.entries))
        return NULL;
    if (rft_grow((void **)&g->slices, g->nslices, &g->cslices, sizeof *g->slices, 16))
        goto oom;
    slice *s = memset(&g->slices[g->nslices], 0, sizeof *s);
    s->cu = cu;
    s->simd = simd;
    /* cells are on until something switches them off: 0 cells off, fresh
     * zero pages touched only where written */
    if (!(s->off = calloc(g->geom.entries, sizeof *s->off)))
        goto oom;
    if (rft_slices_put(&g->slice_of, cu, simd, g->nslices)) {
        free(s->off);
        goto oom;
    }
    return &g->slices[g->nslices++];
oom:
    rft_stage_fail(&g->st, RFT_EMEM, "out of memory");
    return NULL;
}

/* The full exec mask slot of a wavefront; reset = at its begin record. */
static uint8_t *wave_mask(gate *g, uint16_t cu, uint16_t simd, uint32_t wf, int reset)
{
    uint64_t key = rft_wf_key(cu, simd, wf), *v = rft_map_get(&g->wave_of, key);
    uint32_t i;
    if (v)
        i = (uint32_t)*v;
    else {
        if (g->nfree)
            i = g->wfree[--g->nfree];
        else {
            if (g->nwaves == g->wcap) {
                uint32_t cap = g->wcap ? 2 * g->wcap : 64;
                uint8_t *m = realloc(g->masks, (size_t)cap * (g->mb + 1));
                if (m)
                    g->masks = m;
                uint32_t *f = m ? realloc(g->wfree, cap * sizeof *f) : NULL;
                if (!f)
                    goto oom;
                g->wfree = f;
                g->wcap = cap;
            }
            i = g->nwaves++;
        }
        if (rft_map_put(&g->wave_of, key, i))
            goto oom;
        reset = 1;
    }
    uint8_t *m = g->masks + (size_t)i * (g->mb + 1);
    if (reset)
        m[g->mb] = 0;
    return m;
oom:
    rft_stage_fail(&g->st, RFT_EMEM, "out of memory");
    return NULL;
}

static void wave_end(gate *g, const rft_wfend *e)
{
    uint64_t key = rft_wf_key(e->cu, e->simd, e->wf), *v = rft_map_get(&g->wave_of, key);
    if (v) {
        g->wfree[g->nfree++] = (uint32_t)*v;
        rft_map_del(&g->wave_of, key);
    }
}

/* Blocks (subwavefronts) holding the first `bits` bits of an entry. */
static uint32_t blocks_of(const gate *g, uint32_t bits) { return (bits + g->block_bits - 1) / g->block_bits; }

/* memcmp(a, b, n) == 0 without a call: masks are a few bytes */
static int same_mask(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint64_t x, y;
    for (; n >= 8; n -= 8, a += 8, b += 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    for (; n; n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

/* 1 divergent, 0 not, -1 out of memory */
static int divergent(gate *g, const rft_write *w)
{
    if (w->cls)
        return (w->flags & RFT_WF_DIVERGENT) != 0;
    uint8_t *full = wave_mask(g, w->cu, w->simd, w->wf, 0);
    if (!full)
        return -1;
    if (!full[g->mb]) {         /* the first write sets the wavefront's full mask */
        memcpy(full, w->mask, g->mb);
        full[g->mb] = 1;
    }
    return !same_mask(w->mask, full, g->mb);
}

/* RC: is the write compressible, and how many blocks did the compression
 * unit look at before it gave up (seed 002 5.1.3: it is deactivated for
 * the successive subwavefronts once a block does not fit)? */
static int rc_compressible(const gate *g, const rft_write *w, uint32_t *seen)
{
    rft_pattern p;
    unsigned bs;
    if (w->cls) {
        p.cls = w->cls;
        p.c0 = w->c0;
        p.de = w->de;
        p.db = w->db;
        p.firstblock = (w->flags & RFT_WF_FIRSTBLOCK) != 0;
        bs = w->bs ? w->bs : 8;
    } else {
        rft_pattern_classify(w->val, g->geom.lanes, g->geom.block_lanes, &g->o.po, &p);
        bs = g->o.po.bs;
    }
    if (p.cls != RFT_CLS_OTHER) {
        *seen = g->blocks;
        return 1;
    }
    *seen = 1;
    if (p.firstblock) {
        /* the first lane off the pattern; if every value fits, the rule
         * failed on Db, first used at lane bs */
        uint32_t i = 0, L = g->geom.lanes;
        for (; i < L; i++)
            if (w->val[i] != p.c0 + (uint32_t)(i / bs) * p.db + (uint32_t)(i % bs) * p.de)
                break;
        if (i == L)
            i = bs < L ? bs : L - 1;
        *seen = i / g->geom.block_lanes + 1;
        if (*seen > g->blocks)
            *seen = g->blocks;
    }
    return 0;
}

static uint32_t wc_bits(const gate *g, const rft_write *w)
{
    static const uint32_t per_lane[] = {0, 0, 8, 16, 32};
    uint32_t on;
    if (w->wc >= RFT_WC_BASE && w->wc <= RFT_WC_UNCOMP)
        return 32 + per_lane[w->wc] * (g->geom.lanes - 1);
    rft_wc_classify(w->val, g->geom.lanes, &on);
    return on;
}

static int gate_write(gate *g, slice *s, rft_write *w)
{
    uint64_t *n = s->n;
    uint32_t on = g->full - s->off[w->phys], *cur = &on, B = g->blocks, now;
    int div = divergent(g, w);
    if (div < 0)
        return RFT_EMEM;
    w->flags &= (uint8_t)~(RFT_WF_WAKEUP | RFT_WF_MOV);
    g->annotated += w->cls != 0;
    n[RFT_GC_WRITES]++;
    if (div) {
        n[RFT_GC_DIV]++;
        if (*cur < g->full) {
            /* the compressor is off for divergent writes: a compressed
             * register is first decompressed into its entry by a MOV */
            n[RFT_GC_MOV]++;
            n[RFT_GC_WAKE]++;
            w->flags |= RFT_WF_MOV | RFT_WF_WAKEUP;
            n[RFT_GC_DECOMP]++;
            n[RFT_GC_DECOMP_B] += B;
            if (g->o.scheme == RFT_GATE_RC) {
                n[RFT_GC_CT_R]++;
                n[RFT_GC_CT_INV]++;
            } else {
                uint32_t k = blocks_of(g, *cur);
                n[RFT_GC_BR] += k;
                n[RFT_GC_BR_X] += B - k;
            }
            n[RFT_GC_BW] += B;
        }
        n[RFT_GC_BW] += B;
        now = g->full;
    } else if (g->o.scheme == RFT_GATE_RC) {
        uint32_t seen;
        int comp = rc_compressible(g, w, &seen);
        n[RFT_GC_COMP]++;
        n[RFT_GC_COMP_B] += seen;
        if (comp) {
            n[RFT_GC_COMPR]++;
            n[RFT_GC_CT_W]++;
            if (*cur) {     /* written, then switched off */
                n[RFT_GC_OFF]++;
                n[RFT_GC_BW] += B;
            } else {        /* stays off: nothing reaches the slice */
                n[RFT_GC_BW_X] += B;
            }
            now = 0;
        } else {
            if (*cur == 0) {
                n[RFT_GC_WAKE]++;
                n[RFT_GC_CT_INV]++;
                w->flags |= RFT_WF_WAKEUP;
            }
            n[RFT_GC_BW] += B;
            now = g->full;
        }
    } else {
        now = wc_bits(g, w);
        uint32_t k = blocks_of(g, now);
        n[RFT_GC_COMP]++;
        n[RFT_GC_COMP_B] += B;
        n[RFT_GC_BW] += k;
        n[RFT_GC_BW_X] += B - k;
        n[RFT_GC_COMPR] += now < g->full;
        n[RFT_GC_OFF] += now < *cur;
        if (now > *cur) {
            n[RFT_GC_WAKE]++;
            w->flags |= RFT_WF_WAKEUP;
        }
    }
    s->off[w->phys] = g->full - now;
    w->on_bits = now;
    return 0;
}

static void gate_read(gate *g, slice *s, const rft_regread *r)
{
    uint64_t *n = s->n;
    uint32_t cur = g->full - s->off[r->phys], B = g->blocks;
    n[RFT_GC_READS]++;
    if (g->o.scheme == RFT_GATE_RC) {
        /* the compression table is read beside the slice; a compressed
         * register cancels the slice reads after the first subwavefront */
        n[RFT_GC_CT_R]++;
        n[RFT_GC_DECOMP]++;
        if (cur == 0) {
            n[RFT_GC_DECOMP_B] += B;
            n[RFT_GC_BR] += 1;
            n[RFT_GC_BR_X] += B - 1;
        } else {
            n[RFT_GC_DECOMP_B] += 1;
            n[RFT_GC_BR] += B;
        }
    } else {
        uint32_t k = blocks_of(g, cur);
        n[RFT_GC_BR] += k;
        n[RFT_GC_BR_X] += B - k;
        if (cur < g->full) {
            n[RFT_GC_DECOMP]++;
            n[RFT_GC_DECOMP_B] += B;
        }
    }
}

static slice *slice_for(gate *g, uint16_t cu, uint16_t simd, uint16_t phys)
{
    if (phys == RFT_NO_PHYS) {
        rft_stage_fail(&g->st, RFT_EFORMAT, "no physical entries: run rft-alloc first");
        return NULL;
    }
    if (phys >= g->geom.entries) {
        rft_stage_fail(&g->st, RFT_EFORMAT, "physical entry %u outside the slice of %u entries",
                       phys, g->geom.entries);
        return NULL;
    }
    return slice_get(g, cu, simd);
}

static int start(rft_stage *st, const rft_header *in, rft_header *out)
{
    gate *g = (gate *)st;
    char meta[96];
    g->geom = in->geom;
    g->full = 32 * g->geom.lanes;
    g->block_bits = 32 * g->geom.block_lanes;
    g->blocks = blocks_of(g, g->full);
    g->mb = rft_mask_bytes(&g->geom);
    if (g->o.scheme == RFT_GATE_WC)
        snprintf(meta, sizeof meta, "scheme=wc");
    else if (g->o.po.any)
        snprintf(meta, sizeof meta, "scheme=rc bs=%u deltas=any", g->o.po.bs);
    else
        snprintf(meta, sizeof meta, "scheme=rc bs=%u deltas=pow2 max-delta=%u", g->o.po.bs,
                 g->o.po.max_delta);
    const char *old = rft_header_get(in, "gate");
    if (old)
        rft_stage_warn(st, "warning: %s: gating again a stream gated with %s", st->input, old);
    if (rft_header_set(out, "gate", meta))
        return rft_stage_fail(st, RFT_EFORMAT, "header: more than %d metadata keys", RFT_MAX_META);
    return 0;
}

static int feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    gate *g = (gate *)st;
    slice *s;
    switch (rec->kind) {
    case RFT_WFBEGIN:
        if (!slice_get(g, rec->u.begin.cu, rec->u.begin.simd) ||
            !wave_mask(g, rec->u.begin.cu, rec->u.begin.simd, rec->u.begin.wf, 1))
            return RFT_EFORMAT;
        break;
    case RFT_WFEND: wave_end(g, &rec->u.end); break;
    case RFT_WRITE:
        if (!(s = slice_for(g, rec->w.cu, rec->w.simd, rec->w.phys)))
            return RFT_EFORMAT;
        if (gate_write(g, s, &rec->w))
            return rft_stage_fail(st, RFT_EMEM, "out of memory");
        break;
    case RFT_READ:
        if (!(s = slice_for(g, rec->u.read.cu, rec->u.read.simd, rec->u.read.phys)))
            return RFT_EFORMAT;
        gate_read(g, s, &rec->u.read);
        break;
    case RFT_COUNTERS:  /* our own from an earlier run are replaced */
        if (rft_counters_parse(rec->raw, rec->len, &g->c) == 0 && strcmp(g->c.stage, "rft-gate") == 0)
            return 0;
        break;
    }
    return out->put(out->ctx, rec);
}

static int by_slice(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    return x->cu != y->cu ? (x->cu > y->cu) - (x->cu < y->cu) : (x->simd > y->simd) - (x->simd < y->simd);
}

static int emit(gate *g, const char *scope, const uint64_t *n, const rft_sink *out)
{
    rft_counters_set(&g->c, "rft-gate", scope, rft_gate_counter_names, n, RFT_GC_N);
    return rft_sink_raw(out, RFT_COUNTERS, g->buf, rft_counters_encode(&g->c, g->buf));
}

static int finish(rft_stage *st, const rft_sink *out)
{
    gate *g = (gate *)st;
    int e;
    if (g->nslices > 1)
        qsort(g->slices, g->nslices, sizeof *g->slices, by_slice);
    for (uint32_t i = 0; i < g->nslices; i++) {
        char scope[32];
        snprintf(scope, sizeof scope, "slice %u:%u", g->slices[i].cu, g->slices[i].simd);
        if ((e = emit(g, scope, g->slices[i].n, out)))
            return e;
        for (int k = 0; k < RFT_GC_N; k++)
            g->total[k] += g->slices[i].n[k];
    }
    if ((e = emit(g, "total", g->total, out)))
        return e;
    if (g->o.po_set && g->annotated)
        rft_stage_warn(st, "warning: %s: %llu writes were gated by their rft-classify annotation; "
                       "--bs, --deltas and --max-delta applied to the others only",
                       st->input, (unsigned long long)g->annotated);
    return 0;
}

static void gate_free(rft_stage *st)
{
    gate *g = (gate *)st;
    for (uint32_t i = 0; i < g->nslices; i++)
        free(g->slices[i].off);
    free(g->slices);
    free(g->masks);
    free(g->wfree);
    rft_slices_free(&g->slice_of);
    rft_map_free(&g->wave_of);
    free(g);
}

static const rft_stage_ops ops = {"rft-gate", start, feed, finish, gate_free, 0};

rft_stage *rft_gate_new(const rft_gate_opts *o)
{
    gate *g = rft_stage_alloc(sizeof *g, &ops);
    if (!g)
        return NULL;
    g->o = *o;
    if (rft_slices_init(&g->slice_of) || rft_map_init(&g->wave_of, 256)) {
        gate_free(&g->st);
        return NULL;
    }
    return &g->st;
}

uint32_t rft_gate_nslices(const rft_stage *s) { return ((const gate *)s)->nslices; }

const uint64_t *rft_gate_counts(const rft_stage *s, uint32_t i, uint16_t *cu, uint16_t *simd)
{
    const gate *g = (const gate *)s;
    if (i >= g->nslices) {
        *cu = *simd = 0xFFFF;
        return g->total;
    }
    *cu = g->slices[i].cu;
    *simd = g->slices[i].simd;
    return g->slices[i].n;
}
