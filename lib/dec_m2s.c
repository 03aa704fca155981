/* dec_m2s.c - Multi2Sim 4.x/5.x Southern Islands `--si-debug-isa` logs.
 *
 * The log (src/arch/southern-islands/emu/wavefront.c and machine.c of
 * Multi2Sim) is a sequence of blocks, one per instruction a wavefront runs:
 *
 *    <blank>
 *     v_add_i32     v1, vcc, v1, v2          // 00000030: 4A020501
 *    t0: V1<=(0) (0 + 0) vcc<=(0) t1: V1<=(1) (1 + 0) vcc<=(0) ...
 *
 * an instruction line (the disassembly and "// ADDRESS: ENCODING"), then
 * what it changed: "tN: VR<=(value)" per work-item for vector registers,
 * "wfN: ..." or bare "S3<=(...)" for scalar ones.  A value is printed as
 * 0x hex, %u, %d or %gf and may be followed by detail in parentheses; a
 * load prints "(address)(value)" or "(address)(value,%gf)".  An ND-Range
 * starts with an "Initialization Summary" block.  Work-item tN is the N-th
 * work-item of the ND-Range, so its wavefront and lane follow from the
 * work-group size.  The log has no time and no placement: the issue model
 * and the work-group mapping of rft-decode(1) supply them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"

#define MAXP 16        /* registers one instruction may write */
#define MAXOPS 32      /* vector registers an instruction may name */

typedef struct {
    uint32_t tid, reg;
    uint32_t val, hi;   /* hi: upper half of a 64-bit write */
    uint8_t wide;
} item;

typedef struct {
    /* ND-Range */
    int in_summary;
    int have_ndr;
    uint32_t ndr, kernel;
    uint64_t clock;
    uint32_t wgsize, wpwg;      /* work-items per work-group, wavefronts per work-group */
    uint8_t *ended;             /* bit per wavefront id of the ND-Range */
    size_t ended_bytes;
    uint32_t *run;              /* running wavefront ids, ascending */
    uint32_t nrun, runcap;
    int64_t cur;                /* wavefront of the last instruction, -1 none */
    uint64_t wf_base, wf_top;   /* stream id of this ND-Range's wavefront 0; next free id */
    /* the current instruction */
    int have_inst;
    uint64_t inst_cycle;
    char mnem[48];
    int vector, endpgm, barrier, waitcnt, to_sgpr, had_t;
    int by_lane, s_is_v;        /* its results name lanes; its "S[..]" is a vector register */
    uint8_t smask[RFT_MAX_LANES / 8];   /* lanes of its scalar results ("tN: vcc<=", N the lane) */
    uint8_t unit;               /* its results' unit: RFT_WF_VMEM, RFT_WF_LDS, 0 vector ALU */
    uint16_t src[MAXOPS];
    int nsrc;
    int64_t wid;                /* wavefront it belongs to, -1 not known yet */
    uint64_t pc, next_pc;       /* its address, and the address after it */
    int branch;                 /* a branch (s_branch, s_cbranch_*, s_setpc, s_swappc) */
    int taken;                  /* branch taken 1, not taken 0, not printed -1 */
    uint64_t target;            /* 1 + its target (label_XXXX: address / 4), 0 not known */
    rft_m2s_inst ti;            /* where the pipeline trace ran it (m2s_next set) */
    uint16_t preg[MAXP];
    uint8_t *pmask;             /* MAXP x mask bytes */
    uint32_t *pval;             /* MAXP x lanes */
    int np;
    /* a result line being parsed */
    item *items;
    uint32_t nitems, itemcap;
    /* execute stamping: records sorted by cycle in a window of cap (a min-heap) */
    rft_rec *win;
    uint64_t *key;              /* per slot: its place in the heap's order (seq) */
    uint32_t *heap, nheap, cap;
    uint8_t *ubuf;              /* per slot: a unit record's payload */
    uint64_t seq, out_cycle;
    rft_dec_emit emit;
    void *ectx;
    uint64_t issue_only;        /* vector ALU instructions given an empty bundle */
} m2s;

static const char *find_lit(const char *s, size_t n, const char *lit);
static int local_given(const rft_dec *d) { return d->o.local[0] != 0; }
/* time and placement come from the pipeline trace (not in a pre-scan) */
static int traced(const rft_dec *d) { return d->o.m2s_next && !d->o.prescan; }

/* ---- execute stamping: the sort window ------------------------------------------------ */
static int before(const m2s *m, uint32_t a, uint32_t b)
{
    uint64_t ca = rft_rec_cycle(&m->win[a]), cb = rft_rec_cycle(&m->win[b]);
    return ca != cb ? ca < cb : m->key[a] < m->key[b];
}

/* the earliest held record out; refused when it is before one already written */
static int pop_min(rft_dec *d, m2s *m)
{
    uint32_t top = m->heap[0];
    const rft_rec *r = &m->win[top];
    if (rft_rec_cycle(r) < m->out_cycle)
        return dec_bad(d, "the pipeline trace's execute stages are more than %u records out of "
                       "fetch order (cycle %llu after %llu): raise --reorder", m->cap,
                       (unsigned long long)rft_rec_cycle(r), (unsigned long long)m->out_cycle);
    m->out_cycle = rft_rec_cycle(r);
    int e = m->emit(m->ectx, r);
    m->heap[0] = m->heap[--m->nheap];
    m->heap[m->nheap] = top;    /* the slot is free again */
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r2 = l + 1, s = i;
        if (l < m->nheap && before(m, m->heap[l], m->heap[s]))
            s = l;
        if (r2 < m->nheap && before(m, m->heap[r2], m->heap[s]))
            s = r2;
        if (s == i)
            break;
        uint32_t t = m->heap[i];
        m->heap[i] = m->heap[s];
        m->heap[s] = t;
        i = s;
    }
    return e;
}

static int sorted_emit(void *ctx, const rft_rec *r)
{
    rft_dec *d = ctx;
    m2s *m = d->priv;
    int e;
    if (r->kind == RFT_KERNEL) {    /* it names a string of the decoder's: all out first */
        while (m->nheap)
            if ((e = pop_min(d, m)))
                return e;
        /* at its last instruction's cycle, or after its last record, an
         * s_endpgm at its completion: 4.2 starts an ND-range once every
         * work-group of the one before has ended */
        rft_rec k = *r;
        if (k.u.kernel.cycle < m->out_cycle)
            k.u.kernel.cycle = m->out_cycle;
        m->out_cycle = k.u.kernel.cycle;
        return m->emit(m->ectx, &k);
    }
    if (m->nheap == m->cap && (e = pop_min(d, m)))
        return e;
    uint32_t slot = m->heap[m->nheap], i = m->nheap++;
    m->win[slot] = *r;
    m->win[slot].raw = NULL;
    m->win[slot].len = 0;
    if (r->kind == RFT_UNITREC && r->len == RFT_UNITREC_LEN) {     /* its payload kept */
        memcpy(m->ubuf + (size_t)slot * RFT_UNITREC_LEN, r->raw, RFT_UNITREC_LEN);
        m->win[slot].raw = m->ubuf + (size_t)slot * RFT_UNITREC_LEN;
        m->win[slot].len = RFT_UNITREC_LEN;
    }
    m->key[slot] = m->seq++;
    for (; i && before(m, slot, m->heap[(i - 1) / 2]); i = (i - 1) / 2)
        m->heap[i] = m->heap[(i - 1) / 2];
    m->heap[i] = slot;
    return 0;
}

static int sort_init(rft_dec *d, m2s *m)
{
    if (!d->o.m2s_exec || !traced(d) || !d->emit)
        return 0;
    m->cap = d->o.reorder ? (uint32_t)d->o.reorder : 4096;
    m->win = malloc((size_t)m->cap * sizeof *m->win);
    m->key = malloc((size_t)m->cap * sizeof *m->key);
    m->heap = malloc((size_t)m->cap * sizeof *m->heap);
    m->ubuf = malloc((size_t)m->cap * RFT_UNITREC_LEN);
    if (!m->win || !m->key || !m->heap || !m->ubuf)
        return RFT_EMEM;
    for (uint32_t i = 0; i < m->cap; i++)
        m->heap[i] = i;
    m->emit = d->emit;
    m->ectx = d->ctx;
    d->emit = sorted_emit;
    d->ctx = d;
    d->unordered = 1;
    return 0;
}

static int init(rft_dec *d)
{
    m2s *m = calloc(1, sizeof *m);
    if (!m)
        return RFT_EMEM;
    d->priv = m;
    uint32_t lanes = d->o.geom.lanes;
    uint64_t ws = local_given(d) ? (uint64_t)d->o.local[0] * (d->o.local[1] ? d->o.local[1] : 1) *
                                       (d->o.local[2] ? d->o.local[2] : 1)
                                 : lanes;
    if (ws == 0 || ws > 1u << 20)
        return dec_bad(d, "work-group size %llu out of range", (unsigned long long)ws);
    m->wgsize = (uint32_t)ws;
    m->wpwg = (m->wgsize + lanes - 1) / lanes;
    m->cur = -1;
    m->wid = -1;
    m->pmask = calloc(MAXP, RFT_MAX_LANES / 8);
    m->pval = calloc((size_t)MAXP * lanes, sizeof *m->pval);
    m->itemcap = 4096;
    m->items = malloc(m->itemcap * sizeof *m->items);
    if (!m->pmask || !m->pval || !m->items)
        return RFT_EMEM;
    return sort_init(d, m);
}

static void mfree(rft_dec *d)
{
    m2s *m = d->priv;
    if (!m)
        return;
    free(m->ended);
    free(m->win);
    free(m->key);
    free(m->heap);
    free(m->ubuf);
    free(m->run);
    free(m->pmask);
    free(m->pval);
    free(m->items);
    free(m);
}

static uint64_t key_of(const m2s *m, uint32_t wid) { return (uint64_t)m->ndr << 36 | wid; }

/* ---- running wavefronts of the ND-Range -------------------------------------------- */
static int run_add(m2s *m, uint32_t wid)
{
    if (m->nrun == m->runcap) {
        uint32_t cap = m->runcap ? 2 * m->runcap : 64;
        uint32_t *r = realloc(m->run, cap * sizeof *r);
        if (!r)
            return RFT_EMEM;
        m->run = r;
        m->runcap = cap;
    }
    uint32_t i = m->nrun;
    while (i > 0 && m->run[i - 1] > wid) {
        m->run[i] = m->run[i - 1];
        i--;
    }
    m->run[i] = wid;
    m->nrun++;
    return 0;
}

static void run_del(m2s *m, uint32_t wid)
{
    for (uint32_t i = 0; i < m->nrun; i++)
        if (m->run[i] == wid) {
            memmove(m->run + i, m->run + i + 1, (m->nrun - i - 1) * sizeof *m->run);
            m->nrun--;
            return;
        }
}

static int is_ended(const m2s *m, uint32_t wid)
{
    return (size_t)wid / 8 < m->ended_bytes && (m->ended[wid / 8] >> (wid & 7) & 1);
}

static int set_ended(m2s *m, uint32_t wid)
{
    if ((size_t)wid / 8 >= m->ended_bytes) {
        size_t n = m->ended_bytes ? m->ended_bytes : 64;
        while (n <= (size_t)wid / 8)
            n *= 2;
        uint8_t *e = realloc(m->ended, n);
        if (!e)
            return RFT_EMEM;
        memset(e + m->ended_bytes, 0, n - m->ended_bytes);
        m->ended = e;
        m->ended_bytes = n;
    }
    m->ended[wid / 8] |= (uint8_t)(1u << (wid & 7));
    return 0;
}

/* The wavefront an instruction that named none belongs to.  The functional
 * emulator runs the wavefronts of its running work-groups round robin, one
 * instruction each, skipping those waiting at a barrier; a detailed run
 * prints them in the order its fetch stage runs them, which is not that.
 * So, in round-robin order from the last wavefront, the first whose next
 * instruction is at this one's address (*exact 2), else the first whose
 * next one can be there (either address after a branch whose outcome is not
 * printed: *exact 1), else the first not at a barrier (*exact 0).
 * Wavefronts at the same address are alike to what follows (only s_endpgm
 * and s_barrier change a wavefront without naming it). */
static int64_t predict(rft_dec *d, m2s *m, int *exact)
{
    *exact = 0;
    if (m->nrun == 0)
        return -1;
    uint32_t start = 0;
    if (m->cur >= 0) {
        while (start < m->nrun && m->run[start] <= (uint32_t)m->cur)
            start++;
    }
    int64_t free_ = -1, maybe = -1;
    for (uint32_t k = 0; k < m->nrun; k++) {
        uint32_t wid = m->run[(start + k) % m->nrun];
        dec_wave *w = dec_wave_get(d, key_of(m, wid));
        if (!w || w->barrier)
            continue;
        if (w->pc == m->pc + 1 && !w->pc2) {
            *exact = 2;
            return wid;
        }
        if ((w->pc == m->pc + 1 || w->pc2 == m->pc + 1) && maybe < 0)
            maybe = wid;
        if (free_ < 0)
            free_ = wid;
    }
    if (maybe >= 0) {
        *exact = 1;
        return maybe;
    }
    return free_ >= 0 ? free_ : m->run[start % m->nrun];
}

/* ---- ND-Ranges --------------------------------------------------------------------- */
static int end_ndrange(rft_dec *d, m2s *m)
{
    if (!m->have_ndr)
        return 0;
    d->c[DC_NO_END] += m->nrun;
    int e = dec_end_all(d, m->clock);
    m->nrun = 0;
    m->cur = -1;
    if (m->ended)
        memset(m->ended, 0, m->ended_bytes);
    m->have_ndr = 0;
    return e;
}

static int begin_ndrange(rft_dec *d, m2s *m)
{
    int k = dec_ndrange_kernel(d, m->clock);
    if (k < 0)
        return k;
    const char *kn = d->knames[k];
    m->ndr = (uint32_t)k;
    m->kernel = (uint32_t)k;
    m->have_ndr = 1;
    m->wf_base = m->wf_top;     /* Multi2Sim's ids restart: keep the stream's unique */
    uint16_t n = dec_nregs(d, m->kernel);
    if (!d->o.prescan && (n == 0 || n > d->o.geom.entries))
        return dec_bad(d, "kernel %s: a window of %u registers does not fit a slice of %u entries",
                       kn, n, d->o.geom.entries);
    return 0;
}

/* ---- the current instruction --------------------------------------------------------- */
static void reset_inst(m2s *m)
{
    m->have_inst = 0;
    m->np = 0;
    m->nsrc = 0;
    m->wid = -1;
    m->had_t = 0;
    memset(m->smask, 0, sizeof m->smask);
}

static int begin_wave(rft_dec *d, m2s *m, uint32_t wid, uint64_t cycle, dec_wave **out)
{
    uint32_t wg = wid / m->wpwg;
    uint16_t cu = (uint16_t)(wg % d->o.cus), simd = (uint16_t)(wg / d->o.cus % d->o.simds);
    if (traced(d)) {    /* the trace's placement, and its work-group: an ND-range's
                           own local size where a log's kernels differ */
        cu = m->ti.cu;
        simd = m->ti.simd;
        wg = m->ti.wg;
    }
    int e;
    if (m->wf_base + wid > 0xfffffffeu)
        return dec_bad(d, "more than 4294967294 wavefronts");
    d->next_wf = (uint32_t)(m->wf_base + wid);
    dec_wave *w = dec_wave_begin(d, key_of(m, wid), cycle, cu, simd, m->kernel, wg, &e);
    if (!w)
        return e;
    w->id = wid;
    w->begun = cycle;
    if (m->wf_base + wid + 1 > m->wf_top)
        m->wf_top = m->wf_base + wid + 1;
    if ((e = run_add(m, wid)))
        return e;
    *out = w;
    if (!local_given(d) || d->o.prescan)
        return 0;
    /* the simulator presets v0..v2 to the local work-item ids */
    uint32_t lanes = d->o.geom.lanes, lx = d->o.local[0], ly = d->o.local[1] ? d->o.local[1] : 1;
    uint8_t mask[RFT_MAX_LANES / 8];
    uint32_t val[3][RFT_MAX_LANES];
    memset(mask, 0, sizeof mask);
    for (uint32_t i = 0; i < lanes; i++) {
        uint32_t lid = (wid % m->wpwg) * lanes + i;
        if (lid >= m->wgsize) {
            val[0][i] = val[1][i] = val[2][i] = 0;
            continue;
        }
        mask[i >> 3] |= (uint8_t)(1u << (i & 7));
        val[0][i] = lid % lx;
        val[1][i] = lid / lx % ly;
        val[2][i] = lid / (lx * ly);
    }
    for (uint32_t r = 0; r < 3 && r < w->nregs; r++) {
        d->c[DC_PRESETS]++;
        if ((e = dec_write(d, w, cycle, r, RFT_NO_PHYS, mask, val[r])))
            return e;
    }
    return 0;
}

static int flush_inst(rft_dec *d, m2s *m)
{
    if (!m->have_inst)
        return 0;
    int exact = 2;
    int64_t wid = m->wid >= 0 ? m->wid : predict(d, m, &exact);
    /* with several running, an instruction no wavefront can be at, or an
     * s_endpgm no wavefront is sure to be at: which one ran it is not known
     * (a detailed run's order; it writes no vector register); those left
     * running end with the ND-Range */
    if (wid < 0 || (m->nrun > 1 && (exact == 0 || (m->endpgm && exact < 2)))) {
        d->c[DC_UNATTRIBUTED]++;
        reset_inst(m);
        return 0;
    }
    uint64_t cycle = m->inst_cycle;
    dec_wave *w = dec_wave_get(d, key_of(m, (uint32_t)wid));
    int e;
    if (!w && (e = begin_wave(d, m, (uint32_t)wid, cycle, &w)))
        return e;
    /* with the pipeline trace: the first vector instruction after an
     * s_waitcnt (an s_barrier) says that its wavefront waited there for its
     * memory accesses (4.2 waits at an s_waitcnt for every one, and nowhere
     * else) or for its work-group, in a unit record of unit wait (barrier)
     * at its cycle (rft(5)), which rft-replay --model cu reads */
    if (traced(d) && m->waitcnt)
        w->waited |= RFT_WF_WAIT;
    if (traced(d) && m->barrier)
        w->waited |= RFT_WF_BARRIER;
    /* with the pipeline trace: an LDS access's arrival at its unit (lds-d),
     * before its completion (its records, lds-w), in a mark of its own at
     * its cycle (rft(5): arrive), so that rft-replay --model cu tells the
     * wavefront's own time from its wait in the LDS's queue; none before
     * its wavefront's begin record (its first instruction's completion) */
    if (traced(d) && m->unit == RFT_WF_LDS && m->ti.arrived && m->ti.arrived <= cycle &&
        m->ti.arrived >= w->begun && (e = dec_unit(d, w, m->ti.arrived, RFT_WF_ARRIVE)))
        return e;
    /* with the pipeline trace: the scalar unit's marks (rft(5): sload, sdone,
     * shold, srel), so that rft-replay --model cu tells a wavefront's wait
     * behind scalar loads from its own time */
    if (traced(d) && m->ti.smem && cycle >= w->begun &&
        ((e = dec_unit(d, w, cycle, RFT_WF_SLOAD)) ||
         (m->ti.rel >= cycle && (e = dec_unit(d, w, m->ti.rel, RFT_WF_SDONE)))))
        return e;
    if (traced(d) && !m->ti.smem && m->ti.rel && m->ti.hold >= w->begun &&
        m->ti.hold <= m->ti.rel &&
        ((e = dec_unit(d, w, m->ti.hold, RFT_WF_SHOLD)) ||
         (e = dec_unit(d, w, m->ti.rel, RFT_WF_SREL))))
        return e;
    if (traced(d) && m->vector && w->waited) {
        for (uint8_t k = RFT_WF_WAIT; k; k = (uint8_t)(k << 1))
            if ((w->waited & k) && (e = dec_unit(d, w, cycle, k)))
                return e;
        w->waited = 0;
    }
    if (m->vector && m->had_t)
        for (int i = 0; i < m->nsrc; i++)
            if ((e = dec_read(d, w, cycle, m->src[i], RFT_NO_PHYS)))
                return e;
    /* with the pipeline trace: a vector ALU instruction that reads and
     * writes no vector register (v_cmp of scalars to vcc, one with no lane
     * active) still held its SIMD: an empty bundle at its cycle (rft(5),
     * TIMING), under the lanes of its scalar results */
    if (traced(d) && m->vector && !m->unit && !m->np && !(m->had_t && m->nsrc)) {
        m->issue_only++;
        if ((e = dec_bundle(d, w, cycle, 0, 0, m->smask)))
            return e;
    }
    /* with the pipeline trace: a vector memory or LDS instruction that wrote
     * no register (a store, ds_write, a load with no lane active) says its
     * unit in a unit record (rft(5), kind 0x07), so that rft-replay does not
     * take it for a vector ALU instruction */
    if (traced(d) && m->unit && !m->np && (e = dec_unit(d, w, cycle, m->unit)))
        return e;
    uint32_t lanes = d->o.geom.lanes;
    for (int i = 0; i < m->np; i++)
        if ((e = dec_write_unit(d, w, cycle, m->preg[i], RFT_NO_PHYS,
                                m->pmask + i * (RFT_MAX_LANES / 8), m->pval + (size_t)i * lanes,
                                m->unit)))
            return e;
    /* with the pipeline trace: a vector memory access's completion (its
     * mem-w stage, where 4.2's write buffer takes it) in a mark of its own
     * (rft(5): done), which rft-replay --model cu serialises its write
     * buffer at; the instruction is at its mem-m stage */
    if (traced(d) && m->unit == RFT_WF_VMEM && m->ti.done &&  /* 0: none; after mem-m */
        (e = dec_unit(d, w, m->ti.done, RFT_WF_DONE)))
        return e;
    if (m->barrier) {
        w->barrier = 1;
        uint32_t wg = (uint32_t)wid / m->wpwg, all = 1;
        for (uint32_t i = 0; i < m->nrun; i++) {
            dec_wave *o = dec_wave_get(d, key_of(m, m->run[i]));
            if (o && m->run[i] / m->wpwg == wg && !o->barrier)
                all = 0;
        }
        if (all)
            for (uint32_t i = 0; i < m->nrun; i++) {
                dec_wave *o = dec_wave_get(d, key_of(m, m->run[i]));
                if (o && m->run[i] / m->wpwg == wg)
                    o->barrier = 0;
            }
    }
    m->cur = wid;
    /* where it goes next */
    w->pc = m->branch && m->taken == 1 ? m->target : m->next_pc + 1;
    w->pc2 = m->branch && m->taken < 0 ? m->target : 0;
    if (m->endpgm) {
        run_del(m, (uint32_t)wid);
        if ((e = set_ended(m, (uint32_t)wid)) || (e = dec_wave_end(d, w, cycle)))
            return e;
    }
    reset_inst(m);
    return 0;
}

/* ---- instruction lines -------------------------------------------------------------- */
static int isal(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
static int isdig(int c) { return c >= '0' && c <= '9'; }

static int is_inst_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == 0 || i >= n || s[i] < 'a' || s[i] > 'z')
        return 0;
    for (size_t k = i; k + 12 <= n; k++)
        if (s[k] == '/' && s[k + 1] == '/' && s[k + 2] == ' ') {
            size_t j = k + 3;
            for (int h = 0; h < 8; h++, j++)
                if (j >= n || !(isdig(s[j]) || ((s[j] | 32) >= 'a' && (s[j] | 32) <= 'f')))
                    return 0;
            return j < n && s[j] == ':';
        }
    return 0;
}

static int add_src(rft_dec *d, m2s *m, uint32_t r, const char *tok, size_t tl)
{
    int e = dec_reg(d, m->kernel, r, NULL, tok, tl);
    if (e)
        return e;
    if (!d->o.prescan && r >= dec_nregs(d, m->kernel))
        return dec_bad(d, "register '%.*s' outside the window of %u registers of kernel %s",
                       DEC_TOK(tok, tl), dec_nregs(d, m->kernel), d->knames[m->kernel]);
    for (int i = 0; i < m->nsrc; i++)
        if (m->src[i] == r)
            return 0;
    if (m->nsrc == MAXOPS)
        return dec_bad(d, "instruction names more than %d vector registers", MAXOPS);
    m->src[m->nsrc++] = (uint16_t)r;
    return 0;
}

/* the vector registers an operand names: vN or v[A:B] (under modifiers) */
static int operand_vregs(rft_dec *d, m2s *m, const char *s, size_t n, int use)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != 'v' || (i > 0 && isal(s[i - 1])))
            continue;
        size_t j = i + 1;
        uint64_t a, b;
        if (j < n && isdig(s[j])) {
            while (j < n && isdig(s[j]))
                j++;
            if (j < n && isal(s[j]))
                continue;
            if (dec_u64(s + i + 1, j - i - 1, &a) || a > 65534)
                return dec_bad(d, "bad register '%.*s'", DEC_TOK(s + i, j - i));
            b = a;
        } else if (j < n && s[j] == '[') {
            size_t c = j + 1, e = c;
            while (e < n && isdig(s[e]))
                e++;
            if (e == c || e >= n || s[e] != ':')
                return dec_bad(d, "bad register range '%.*s'", DEC_TOK(s + i, n - i));
            size_t f = e + 1, g = f;
            while (g < n && isdig(s[g]))
                g++;
            if (g == f || g >= n || s[g] != ']' || dec_u64(s + c, e - c, &a) ||
                dec_u64(s + f, g - f, &b) || b < a || b > 65534 || b - a >= MAXOPS)
                return dec_bad(d, "bad register range '%.*s'", DEC_TOK(s + i, g + (g < n) - i));
            j = g + 1;
        } else {
            continue;
        }
        for (uint64_t r = a; r <= b; r++) {
            int e;
            if (use)
                e = add_src(d, m, (uint32_t)r, s + i, j - i);
            else if ((e = dec_reg(d, m->kernel, (uint32_t)r, NULL, s + i, j - i)) == 0 &&
                     !d->o.prescan && r >= dec_nregs(d, m->kernel))
                e = dec_bad(d, "register '%.*s' outside the window of %u registers of kernel %s",
                            DEC_TOK(s + i, j - i), dec_nregs(d, m->kernel), d->knames[m->kernel]);
            if (e)
                return e;
        }
        i = j - 1;
    }
    return 0;
}

static int has(const char *s, const char *lit) { return strstr(s, lit) != NULL; }
static int pre_n(const char *s, size_t n, const char *lit)
{
    return n >= strlen(lit) && memcmp(s, lit, strlen(lit)) == 0;
}
static int pre(const char *s, const char *lit) { return strncmp(s, lit, strlen(lit)) == 0; }

/* Multi2Sim (4.2 and 5.0) prints these instructions' work-items by their lane
 * in the wavefront, where every other vector result names the work-item's
 * global id; v_add_f64 and v_mul_f64 also print their vector destination as
 * "S[N:+1]".  (v_lshr_b64 and v_ashr_i64 print theirs as two scalar
 * registers, the second without its lane: read as scalar results, as before.) */
static int prints_lanes(const char *mnem, int *s_is_v)
{
    *s_is_v = strcmp(mnem, "v_add_f64") == 0 || strcmp(mnem, "v_mul_f64") == 0;
    return *s_is_v || strcmp(mnem, "v_med3_i32") == 0 || strcmp(mnem, "v_max3_i32") == 0;
}

static int inst_line(rft_dec *d, m2s *m, const char *s, size_t n)
{
    int e;
    if ((e = flush_inst(d, m)))
        return e;
    if (!m->have_ndr && (e = begin_ndrange(d, m)))
        return e;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t a = i;
    while (i < n && isal(s[i]))
        i++;
    if (i - a >= sizeof m->mnem)
        return dec_bad(d, "instruction name '%.*s' too long", DEC_TOK(s + a, i - a));
    memcpy(m->mnem, s + a, i - a);
    m->mnem[i - a] = 0;
    const char *cm = NULL;
    for (size_t k = i; k + 1 < n; k++)
        if (s[k] == '/' && s[k + 1] == '/') {
            cm = s + k;
            break;
        }
    size_t end = (size_t)(cm - s);
    /* "// 0000000C: 8381FF01 0000FFFF": the address, and a word per 8 digits */
    uint32_t pc;
    size_t c = end + 3;
    if (dec_hex32(s + c, 8, &pc))
        return dec_bad(d, "bad address '%.*s'", DEC_TOK(s + c, n - c));
    m->pc = pc;
    m->next_pc = pc;
    for (c += 9; c < n; c++)
        if (s[c] != ' ' && (c == 0 || s[c - 1] == ' '))
            m->next_pc += 4;
    m->branch = pre(m->mnem, "s_branch") || pre(m->mnem, "s_cbranch") ||
                pre(m->mnem, "s_setpc") || pre(m->mnem, "s_swappc");
    m->taken = pre(m->mnem, "s_cbranch") ? -1 : 1;
    m->target = 0;
    const char *lb = find_lit(s + i, end - i, "label_");
    uint32_t la;
    if (m->branch && lb && dec_hex32(lb + 6, 4, &la) == 0)
        m->target = (uint64_t)la * 4 + 1;
    m->vector = !pre(m->mnem, "s_");
    /* the unit of its results: vector memory (buffer, typed buffer, image,
     * flat), the LDS (ds_), else the vector ALU (s_ ones write no vector
     * register) */
    m->unit = pre(m->mnem, "buffer_") || pre(m->mnem, "tbuffer_") || pre(m->mnem, "image_") ||
                      pre(m->mnem, "flat_") || pre(m->mnem, "global_")
                  ? RFT_WF_VMEM
              : pre(m->mnem, "ds_") ? RFT_WF_LDS
                                    : 0;
    m->endpgm = strcmp(m->mnem, "s_endpgm") == 0;
    m->barrier = strcmp(m->mnem, "s_barrier") == 0;
    m->waitcnt = strcmp(m->mnem, "s_waitcnt") == 0;
    m->by_lane = prints_lanes(m->mnem, &m->s_is_v);
    m->to_sgpr = pre(m->mnem, "v_readfirstlane") || pre(m->mnem, "v_readlane");
    int op0_src = has(m->mnem, "_store") || pre(m->mnem, "ds_write") || pre(m->mnem, "exp") ||
                  has(m->mnem, "atomic") || pre(m->mnem, "v_mac_") || pre(m->mnem, "v_fmac_");
    m->nsrc = 0;
    if (m->vector) {
        size_t at = i, o, len;
        for (int k = 0; dec_operand(s, &at, end, &o, &len); k++)
            if ((e = operand_vregs(d, m, s + o, len, k > 0 || op0_src)))
                return e;
    }
    m->have_inst = 1;
    d->c[DC_INSTS]++;
    if (traced(d)) {
        if ((e = d->o.m2s_next(d->o.m2s_ctx, &m->ti)) < 0)
            return e;
        if (e == 0)
            return dec_bad(d, "the pipeline trace ends before instruction %llu (%s)",
                           (unsigned long long)d->c[DC_INSTS], m->mnem);
        if (strcmp(m->ti.mnem, m->mnem) != 0)
            return dec_bad(d, "instruction %llu is %s in the log but %s in the pipeline trace: "
                           "not the same run", (unsigned long long)d->c[DC_INSTS], m->mnem,
                           m->ti.mnem);
        if (m->ti.cycle < m->clock && !d->o.m2s_exec)
            return dec_bad(d, "the pipeline trace goes back in time");
        m->clock = m->ti.cycle;
        m->wid = m->ti.wf;
    }
    m->inst_cycle = m->clock;
    if (!traced(d))
        m->clock += d->o.issue_cycles;
    return 0;
}

/* ---- result lines -------------------------------------------------------------------- */
static int tid_place(const m2s *m, const rft_dec *d, uint32_t tid, uint32_t *wid, uint32_t *lane)
{
    uint32_t wg = tid / m->wgsize, lid = tid % m->wgsize, lanes = d->o.geom.lanes;
    *wid = wg * m->wpwg + lid / lanes;
    *lane = lid % lanes;
    return 0;
}

/* one parenthesised group at s[*i] == '(': its content [*a, *b) */
static int group(const char *s, size_t n, size_t *i, size_t *a, size_t *b)
{
    if (*i >= n || s[*i] != '(')
        return -1;
    int depth = 0;
    for (size_t j = *i; j < n; j++) {
        if (s[j] == '(')
            depth++;
        else if (s[j] == ')' && --depth == 0) {
            *a = *i + 1;
            *b = j;
            *i = j + 1;
            return 0;
        }
    }
    return -1;
}

/* a load's second group "(value)" or "(value,%gf)": a plain number first */
static int load_group(const char *s, size_t a, size_t b, size_t *vb)
{
    size_t j = a + (a < b && s[a] == '-');
    if (j >= b)
        return 0;
    if (s[j] == '0' && j + 1 < b && (s[j + 1] | 32) == 'x') {
        j += 2;
        while (j < b && (isdig(s[j]) || ((s[j] | 32) >= 'a' && (s[j] | 32) <= 'f')))
            j++;
    } else {
        size_t k = j;
        while (j < b && isdig(s[j]))
            j++;
        if (j == k)
            return 0;
    }
    if (j == b || s[j] == ',') {
        *vb = j;
        return 1;
    }
    return 0;
}

static int value_tok(rft_dec *d, const char *s, size_t n, uint32_t *v, const char *reg, size_t rl)
{
    int isf, exact;
    if (dec_value32(s, n, v, &isf, &exact))
        return dec_bad(d, "bad value '(%.*s)' of %.*s", DEC_TOK(s, n), DEC_TOK(reg, rl));
    d->c[DC_FLOAT_LANES] += isf;
    d->c[DC_INEXACT_LANES] += isf && !exact;
    return 0;
}

static int push_item(rft_dec *d, m2s *m, item it)
{
    if (m->nitems == m->itemcap) {
        uint32_t cap = 2 * m->itemcap;
        item *x = realloc(m->items, cap * sizeof *x);
        if (!x)
            return RFT_EMEM;
        m->items = x;
        m->itemcap = cap;
    }
    (void)d;
    m->items[m->nitems++] = it;
    return 0;
}

/* "tN: V5<=(...)..." items; the rest of the line is the simulator's detail */
static int result_items(rft_dec *d, m2s *m, const char *s, size_t n, int64_t *lwid, int *nt)
{
    int depth = 0, s_is_v = m->s_is_v, by_lane = m->by_lane;
    m->nitems = 0;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '(') {
            depth++;
            i++;
            continue;
        }
        if (c == ')') {
            depth -= depth > 0;
            i++;
            continue;
        }
        if (c != 't' || depth || (i > 0 && s[i - 1] != ' ' && s[i - 1] != ')' && s[i - 1] != '\t') ||
            i + 1 >= n || !isdig(s[i + 1])) {
            i++;
            continue;
        }
        size_t a = i + 1, j = a;
        while (j < n && isdig(s[j]))
            j++;
        if (j >= n || s[j] != ':') {
            i = j;
            continue;
        }
        uint64_t tid;
        if (dec_u64(s + a, j - a, &tid) || tid > 0xffffffffu)
            return dec_bad(d, "bad work-item '%.*s'", DEC_TOK(s + i, j + 1 - i));
        /* "tN: S[4:+1]<=(1)", "tN: vcc<=(1)": N is the lane of a scalar result
         * (compares, v_readlane), in 4.2 and 5.0 alike: it names no
         * work-item and writes no vector register */
        size_t dst = j + 1;
        while (dst < n && s[dst] == ' ')
            dst++;
        if (dst < n && ((s[dst] == 'S' && !s_is_v) || pre_n(s + dst, n - dst, "vcc") ||
                        pre_n(s + dst, n - dst, "exec"))) {
            (*nt)++;                        /* it ran, on a wavefront it does not name */
            if (tid < d->o.geom.lanes)
                m->smask[tid >> 3] |= (uint8_t)(1u << (tid & 7));
            i = dst;
            continue;
        }
        (*nt)++;
        int placed = 1;
        if (by_lane && *lwid < 0 && d->o.prescan) {
            placed = 0;         /* the prescan counts registers; the wavefront comes later */
        } else if (by_lane) {   /* the lane of the wavefront the pipeline trace names */
            if (*lwid < 0)
                return dec_bad(d, "%s names its work-items by lane in Multi2Sim's log: "
                               "its wavefront is known only from the pipeline trace "
                               "(--cycles-from)", m->mnem);
            if (tid >= d->o.geom.lanes)
                return dec_bad(d, "lane '%.*s' of %s past the wavefront's %u lanes",
                               DEC_TOK(s + i, j + 1 - i), m->mnem, d->o.geom.lanes);
            uint64_t w = (uint64_t)*lwid;
            tid += (w / m->wpwg) * m->wgsize + (w % m->wpwg) * d->o.geom.lanes;
            if (tid > 0xffffffffu)
                return dec_bad(d, "bad work-item '%.*s'", DEC_TOK(s + i, j + 1 - i));
        }
        uint32_t wid, lane;
        tid_place(m, d, (uint32_t)tid, &wid, &lane);
        if (placed) {
            if (*lwid < 0)
                *lwid = wid;
            else if (*lwid != wid)
                return dec_bad(d, "work-item '%.*s' is in wavefront %u, not in wavefront %lld of "
                               "the same instruction", DEC_TOK(s + i, j + 1 - i), wid,
                               (long long)*lwid);
            if (is_ended(m, wid))
                return dec_bad(d, "work-item '%.*s' belongs to wavefront %u, which has ended",
                               DEC_TOK(s + i, j + 1 - i), wid);
        }
        i = j + 1;
        while (i < n && s[i] == ' ')
            i++;
        if (i >= n || (s[i] != 'V' && !(s_is_v && s[i] == 'S')))
            continue;                       /* vcc<=, a store, ...: no vector register */
        size_t r0 = i, r1;
        uint64_t reg;
        int wide = 0;
        if (i + 1 < n && s[i + 1] == '[') {   /* V[5:+1]<=(%lgf); v_med3_i32's V[5]<=, v_movreld_b32's V[5+2]<= */
            size_t k = i + 2;
            while (k < n && isdig(s[k]))
                k++;
            if (k == i + 2 || dec_u64(s + i + 2, k - i - 2, &reg))
                return dec_bad(d, "bad register '%.*s'", DEC_TOK(s + i, n - i));
            uint64_t off;
            size_t k2 = k + 1;
            while (k2 < n && isdig(s[k2]))
                k2++;
            if (k + 4 <= n && memcmp(s + k, ":+1]", 4) == 0) {
                wide = 1;
                r1 = k + 4;
            } else if (k < n && s[k] == ']') {
                r1 = k + 1;
            } else if (k < n && s[k] == '+' && k2 > k + 1 && k2 < n && s[k2] == ']' &&
                       !dec_u64(s + k + 1, k2 - k - 1, &off) && off <= 65535) {
                reg += off;     /* v_movreld_b32: V[base+M0]<= */
                r1 = k2 + 1;
            } else {
                return dec_bad(d, "bad register '%.*s'", DEC_TOK(s + i, n - i));
            }
        } else {
            size_t k = i + 1;
            while (k < n && isdig(s[k]))
                k++;
            if (k == i + 1 || dec_u64(s + i + 1, k - i - 1, &reg))
                return dec_bad(d, "bad register '%.*s'", DEC_TOK(s + i, k + (k < n) - i));
            r1 = k;
        }
        if (reg > 65533)
            return dec_bad(d, "bad register '%.*s'", DEC_TOK(s + r0, r1 - r0));
        if (r1 + 2 >= n || s[r1] != '<' || s[r1 + 1] != '=')
            return dec_bad(d, "'%.*s' is not a register write", DEC_TOK(s + r0, n - r0));
        i = r1 + 2;
        size_t va, vb;
        if (group(s, n, &i, &va, &vb))
            return dec_bad(d, "'%.*s' has no value in parentheses", DEC_TOK(s + r0, n - r0));
        item it = {(uint32_t)tid, (uint32_t)reg, 0, 0, (uint8_t)wide};
        if (wide) {
            uint64_t v;
            int exact;
            if (dec_value64(s + va, vb - va, &v, &exact))
                return dec_bad(d, "bad value '(%.*s)' of %.*s", DEC_TOK(s + va, vb - va),
                               DEC_TOK(s + r0, r1 - r0));
            d->c[DC_DOUBLE_LANES]++;
            d->c[DC_INEXACT_LANES] += !exact;
            it.val = (uint32_t)v;
            it.hi = (uint32_t)(v >> 32);
        } else {
            size_t la, lb, lv, save = i;
            /* "(address)(value[,%gf])": a load; else the first group is the value */
            if (i < n && s[i] == '(' && group(s, n, &i, &la, &lb) == 0 && load_group(s, la, lb, &lv)) {
                if (value_tok(d, s + la, lv - la, &it.val, s + r0, r1 - r0))
                    return RFT_EFORMAT;
            } else {
                i = save;
                /* "(1, 1.4013e-45f)": the value, then its bits as a float */
                size_t ve = va;
                while (ve < vb && s[ve] != ',')
                    ve++;
                if (value_tok(d, s + va, ve - va, &it.val, s + r0, r1 - r0))
                    return RFT_EFORMAT;
            }
        }
        if (m->to_sgpr)
            continue;                       /* v_readfirstlane: "V" is a scalar register */
        int e = push_item(d, m, it);
        if (e)
            return e;
    }
    return 0;
}

/* lit in s[0..n): lines come by length, with no NUL after them */
static const char *find_lit(const char *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    for (size_t i = 0; i + l <= n; i++)
        if (s[i] == lit[0] && memcmp(s + i, lit, l) == 0)
            return s + i;
    return NULL;
}

static int find_p(m2s *m, uint32_t reg)
{
    for (int i = 0; i < m->np; i++)
        if (m->preg[i] == reg)
            return i;
    if (m->np == MAXP)
        return -1;
    m->preg[m->np] = (uint16_t)reg;
    memset(m->pmask + m->np * (RFT_MAX_LANES / 8), 0, RFT_MAX_LANES / 8);
    return m->np++;
}

static int result_line(rft_dec *d, m2s *m, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    const char *p = s + i;
    size_t pn = n - i;
    /* "Group 3 wavefront 12 reached barrier (...)", "Group 3 completed barrier" */
    if (pn > 6 && memcmp(p, "Group ", 6) == 0) {
        const char *w = find_lit(p, pn, " wavefront ");
        if (w) {
            uint64_t wid;
            size_t a = (size_t)(w - s) + 11, b = a;
            while (b < n && isdig(s[b]))
                b++;
            if (dec_u64(s + a, b - a, &wid) || wid > 0xfffffffeu)   /* shown with what stopped it */
                return dec_bad(d, "bad wavefront '%.*s'", DEC_TOK(s + a, b - a + (b < n)));
            if (m->have_inst && m->wid < 0)
                m->wid = (int64_t)wid;
        }
        return 0;
    }
    if (!m->have_inst)
        return dec_bad(d, "a result line without an instruction before it: '%.*s'", DEC_TOK(p, pn));
    int64_t lwid = m->wid;
    if (pn > 2 && p[0] == 'w' && p[1] == 'f' && isdig(p[2])) {   /* wfN: scalar results */
        size_t b = 2;
        while (b < pn && isdig(p[b]))
            b++;
        uint64_t wid;
        if (b >= pn || p[b] != ':' || dec_u64(p + 2, b - 2, &wid) || wid > 0xfffffffeu)
            return dec_bad(d, "bad wavefront '%.*s'", DEC_TOK(p, b + (b < pn)));
        if (lwid < 0)
            lwid = (int64_t)wid;
        else if (lwid != (int64_t)wid)
            return dec_bad(d, "'%.*s' names wavefront %llu in an instruction of wavefront %lld",
                           DEC_TOK(p, b + 1), (unsigned long long)wid, (long long)lwid);
        m->wid = lwid;
        if (m->branch && find_lit(p, pn, "(not taken)"))    /* "wf3: SCC=0 (not taken)" */
            m->taken = 0;
        else if (m->branch && find_lit(p, pn, "(taken)"))
            m->taken = 1;
        return 0;
    }
    /* what else the simulator prints after an instruction */
    static const char *const known[] = {"scc<=", "vcc<=", "exec", "SCC", "VCC", "EXEC", "M0",
                                        "m0", "GDS", "DS[", "LDS", "wf_id", NULL};
    int ok = (p[0] == 't' || p[0] == 'S') && pn > 1 && (isdig(p[1]) || p[1] == '[');
    for (int k = 0; known[k] && !ok; k++)
        ok = pn >= strlen(known[k]) && memcmp(p, known[k], strlen(known[k])) == 0;
    if (!ok)
        return dec_bad(d, "line fits no grammar of a Multi2Sim log: '%.*s'", DEC_TOK(p, pn));
    int nt = 0;
    int e = result_items(d, m, s, n, &lwid, &nt);
    if (e)
        return e;
    m->had_t |= nt > 0;
    m->wid = lwid;
    /* every item is valid: apply them */
    uint32_t lanes = d->o.geom.lanes;
    uint16_t nregs = dec_nregs(d, m->kernel);
    for (uint32_t k = 0; k < m->nitems; k++) {
        item *it = &m->items[k];
        uint32_t wid, lane;
        tid_place(m, d, it->tid, &wid, &lane);
        for (int h = 0; h <= it->wide; h++) {
            uint32_t reg = it->reg + (uint32_t)h;
            char tok[24];
            snprintf(tok, sizeof tok, "V%u", reg);
            if ((e = dec_reg(d, m->kernel, reg, NULL, tok, strlen(tok))))
                return e;
            if (!d->o.prescan && reg >= nregs)
                return dec_bad(d, "register 'V%u' outside the window of %u registers of kernel %s",
                               reg, nregs, d->knames[m->kernel]);
            int pi = find_p(m, reg);
            if (pi < 0)
                return dec_bad(d, "instruction writes more than %d registers", MAXP);
            m->pmask[pi * (RFT_MAX_LANES / 8) + lane / 8] |= (uint8_t)(1u << (lane & 7));
            m->pval[(size_t)pi * lanes + lane] = h ? it->hi : it->val;
        }
    }
    return 0;
}

/* ---- lines ------------------------------------------------------------------------- */

static int line(rft_dec *d, char *s, size_t n)
{
    m2s *m = d->priv;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return 0;
    if (find_lit(s, n, "Initialization Summary")) {
        int e;
        if ((e = flush_inst(d, m)) || (e = end_ndrange(d, m)))
            return e;
        m->in_summary = 1;
        /* traced: the kernel starts at its first instruction's cycle */
        return traced(d) ? 0 : begin_ndrange(d, m);
    }
    if (m->in_summary) {
        size_t k = i;
        while (k < n && s[k] == '=')
            k++;
        if (k == n && n - i >= 8)
            m->in_summary = 0;
        d->c[DC_IGNORED]++;
        return 0;
    }
    if (is_inst_line(s, n))
        return inst_line(d, m, s, n);
    return result_line(d, m, s, n);
}

static int finish(rft_dec *d)
{
    m2s *m = d->priv;
    int e = flush_inst(d, m);
    if (!e)
        e = end_ndrange(d, m);
    while (!e && m->nheap)
        e = pop_min(d, m);
    return e;
}

static void describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    const m2s *m = d->priv;
    char b[512];            /* fixed text and numbers: no path or name of the user's */
    if (d->o.m2s_next) {
        f(ctx, "cycles_from", d->o.m2s_trace ? d->o.m2s_trace : "-");
        snprintf(b, sizeof b, "simulated: Multi2Sim's pipeline trace (cycles_from), each "
                 "instruction at %s",
                 d->o.m2s_exec ? "the cycle of its unit's execute stage (simd-e, mem-m, lds-w, "
                                 "su-e, su-m, bu-e; its fetch where it has none; s_endpgm at its "
                                 "completion, after its wavefront's memory accesses)"
                               : "the cycle its wavefront fetched it");
        size_t l = strlen(b);
        if (d->o.m2s_mhz[0] && d->o.m2s_mhz[0] != d->o.m2s_mhz[1])
            snprintf(b + l, sizeof b - l, ", in cycles of the GPU's %u MHz clock (the trace "
                     "counts %u MHz)", d->o.m2s_mhz[0], d->o.m2s_mhz[1]);
        f(ctx, "cycles", b);
        f(ctx, "slice_mapping", "the pipeline trace's: compute unit, wavefront pool as SIMD");
    } else {
        snprintf(b, sizeof b, "one instruction every %u cycles, in log order", d->o.issue_cycles);
        f(ctx, "issue_model", b);
        snprintf(b, sizeof b, "work-group g on CU g mod %u, SIMD (g div %u) mod %u", d->o.cus,
                 d->o.cus, d->o.simds);
        f(ctx, "slice_mapping", b);
    }
    if (local_given(d))
        snprintf(b, sizeof b, "%u,%u,%u", d->o.local[0], d->o.local[1] ? d->o.local[1] : 1,
                 d->o.local[2] ? d->o.local[2] : 1);
    else
        snprintf(b, sizeof b, "%u (one wavefront; not given)", m->wgsize);
    f(ctx, "local_size", b);
}

static void counters(const rft_dec *d, rft_counters *c)
{
    const m2s *m = d->priv;
    if (traced(d))
        rft_counters_add(c, "issue_only_instructions", m->issue_only);
}

const struct dec_ops dec_m2s_ops = {init, line, finish, describe, mfree, 1, counters, 0, NULL};
