/* dec_evg.c - Multi2Sim 4.x Evergreen `--evg-debug-isa` logs.
 *
 * The log (src/arch/evergreen of Multi2Sim before Evergreen was deprecated:
 * emu/ndrange.c, emu/wavefront.c, emu/isa.c, emu/machine.c, asm/inst.c) has:
 *
 *   local_size = 256 (256,1,1)          an ND-Range begins: its shape, then
 *   ...  wavefronts_per_work_group = 4  a table of its work-items
 *   00 ALU: ADDR(32) CNT(4) ...         a control-flow instruction
 *     wavefront[i0-i63]:pred=1111...    an ALU clause starts: its mask
 *         3  x: MOV  R1.x,  R0.x        an ALU group, one line per slot
 *            t: RCP_e  R1.y,  R0.x
 *     i0:PV.x,R1.x<=0x10  i0:PS,...     what each work-item wrote
 *         0  VFETCH R4.x___, R3.y, ...  a fetch of a TEX clause
 *     t0:read(16) R4.x<=(5,7e-45f)      and its results
 *
 * An instruction names no wavefront: the work-items (iN, tN) and the
 * wavefront lines of its results do, and Multi2Sim's functional emulator
 * runs every running wavefront one instruction in turn (work-groups in
 * order, their wavefronts in order, those at a barrier skipped), which
 * attributes the rest.  The log has no time, no placement and no end of a
 * wavefront (the end-of-program bit is not printed): rft-decode(1) gives
 * the issue model and the placement, and every wavefront ends with its
 * ND-Range.
 *
 * Time goes by the emulator's rounds (each running wavefront one
 * instruction): in a round every CU issues its instructions one every
 * issue_cycles, the CUs in parallel, and the round lasts as long as its
 * busiest CU.  A round's records are held and written in cycle order when
 * it ends, so memory holds one round: one instruction per wavefront.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"

#define MAXP 8                  /* registers one instruction may write */
#define MAXR 64                 /* register channels one instruction may read */
#define MAX_WAVES (1u << 22)    /* wavefronts of one ND-Range we track */
#define MAX_MASKS (64u << 20)   /* bytes of their predicate masks */
#define MAX_WPWG 1024u          /* wavefronts of a work-group */

enum { I_NONE, I_CF, I_ALU, I_FETCH };

/* a record of the current round, held until it ends */
typedef struct {
    uint64_t seq;               /* log order: the tie-break of equal cycles */
    int kind;
    union {
        rft_wfbegin begin;
        rft_bundle bundle;
        rft_regread read;
        unsigned char w[offsetof(rft_write, mask)];    /* a write's fields; its mask and
                                                          values are in the arena */
    } u;
    size_t off;                 /* W: mask and values in the arena */
} held;

typedef struct {
    /* ND-Range */
    int hdr;                    /* header lines seen, a bit each */
    int have_ndr;
    uint32_t ndr, kernel;
    uint32_t local, global, groups, nwaves, wpwg;
    uint64_t wf_base, wf_top;   /* stream id of this ND-Range's wavefront 0; next free id */
    uint8_t *pred;              /* nwaves x mask bytes: the predicate mask */
    uint32_t *run, *bar;        /* per work-group: running and barrier lists (wpwg each) */
    uint16_t *nrun, *nbar;
    int64_t next;               /* the wavefront Multi2Sim runs next, -1 unknown */
    /* time: rounds of the emulator; CUs issue in parallel in a round */
    uint64_t start;             /* cycle the round started */
    uint32_t round;             /* its number (0: none yet) */
    uint32_t *wave_round;       /* per wavefront: the last round it ran in */
    uint32_t *cu_issued;        /* per CU: instructions issued in the round */
    uint32_t *touched, ntouched, busiest;
    held *hold;
    size_t nhold, holdcap;
    uint8_t *arena;
    size_t arena_len, arena_cap;
    uint64_t seq;
    rft_dec_emit emit;          /* where records go once the round is in order */
    void *ctx;
    /* the current instruction */
    int kind;
    int64_t wid;                /* its wavefront, -1 not named yet */
    uint8_t slots, flags, update_pred, barrier;
    uint8_t newpred[RFT_MAX_LANES / 8];
    int have_newpred;
    uint8_t pset[RFT_MAX_LANES / 8], pval[RFT_MAX_LANES / 8];   /* predicate writes */
    uint16_t preg[MAXP];
    uint8_t *pmask;             /* MAXP x mask bytes */
    uint32_t *pval32;           /* MAXP x lanes */
    int np;
    uint16_t rreg[MAXR];        /* register channels it reads, once each */
    int nr;
    int completes_barrier;
} evg;

/* ---- rounds: records held, then written in cycle order ------------------------------ */
static int hold(void *ctx, const rft_rec *r)
{
    rft_dec *d = ctx;
    evg *e = d->priv;
    if (r->kind != RFT_WFBEGIN && r->kind != RFT_BUNDLE && r->kind != RFT_READ &&
        r->kind != RFT_WRITE)
        return e->emit(e->ctx, r);      /* kernels and ends come between rounds */
    if (e->nhold == e->holdcap) {
        size_t cap = e->holdcap ? 2 * e->holdcap : 256;
        held *n = realloc(e->hold, cap * sizeof *n);
        if (!n)
            return RFT_EMEM;
        e->hold = n;
        e->holdcap = cap;
    }
    held *h = &e->hold[e->nhold++];
    h->seq = e->seq++;
    h->kind = r->kind;
    if (r->kind == RFT_WFBEGIN) {
        h->u.begin = r->u.begin;
    } else if (r->kind == RFT_BUNDLE) {
        h->u.bundle = r->u.bundle;
    } else if (r->kind == RFT_READ) {
        h->u.read = r->u.read;
    } else {
        uint32_t lanes = d->o.geom.lanes, mb = rft_mask_bytes(&d->o.geom);
        size_t need = mb + 4u * lanes;
        if (e->arena_len + need > e->arena_cap) {
            size_t cap = e->arena_cap ? 2 * e->arena_cap : 65536;
            while (cap < e->arena_len + need)
                cap *= 2;
            uint8_t *a = realloc(e->arena, cap);
            if (!a) {
                e->nhold--;
                return RFT_EMEM;
            }
            e->arena = a;
            e->arena_cap = cap;
        }
        memcpy(h->u.w, &r->w, sizeof h->u.w);
        h->off = e->arena_len;
        memcpy(e->arena + h->off, r->w.mask, mb);
        memcpy(e->arena + h->off + mb, r->w.val, 4u * lanes);
        e->arena_len += need;
    }
    return 0;
}

static uint64_t held_cycle(const held *h)
{
    rft_write w;
    if (h->kind == RFT_WRITE)
        memcpy(&w, h->u.w, sizeof h->u.w);
    return h->kind == RFT_WFBEGIN ? h->u.begin.cycle
         : h->kind == RFT_BUNDLE ? h->u.bundle.cycle
         : h->kind == RFT_READ ? h->u.read.cycle : w.cycle;
}

static int by_time(const void *a, const void *b)
{
    const held *x = a, *y = b;
    uint64_t cx = held_cycle(x), cy = held_cycle(y);
    return cx != cy ? (cx < cy ? -1 : 1) : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The round is over: its records in cycle order, the clock past its busiest CU. */
static int end_round(rft_dec *d, evg *e)
{
    if (e->nhold > 1)
        qsort(e->hold, e->nhold, sizeof *e->hold, by_time);
    uint32_t lanes = d->o.geom.lanes, mb = rft_mask_bytes(&d->o.geom);
    for (size_t i = 0; i < e->nhold; i++) {
        const held *h = &e->hold[i];
        rft_rec *r = &d->rec;
        r->kind = h->kind;
        if (h->kind == RFT_WFBEGIN) {
            r->u.begin = h->u.begin;
        } else if (h->kind == RFT_BUNDLE) {
            r->u.bundle = h->u.bundle;
        } else if (h->kind == RFT_READ) {
            r->u.read = h->u.read;
        } else {
            memcpy(&r->w, h->u.w, sizeof h->u.w);
            memcpy(r->w.mask, e->arena + h->off, mb);
            memcpy(r->w.val, e->arena + h->off + mb, 4u * lanes);
        }
        int err = e->emit(e->ctx, r);
        if (err)
            return err;
    }
    e->nhold = e->arena_len = 0;
    e->start += (uint64_t)e->busiest * d->o.issue_cycles;
    for (uint32_t i = 0; i < e->ntouched; i++)
        e->cu_issued[e->touched[i]] = 0;
    e->ntouched = e->busiest = 0;
    e->round++;
    return 0;
}

/* The cycle of the next instruction of wavefront wid on CU cu; a wavefront
 * that ran in this round already starts the next one. */
static int issue(rft_dec *d, evg *e, uint32_t wid, uint32_t cu, uint64_t *t)
{
    if (e->wave_round[wid] == e->round) {
        int err = end_round(d, e);
        if (err)
            return err;
    }
    e->wave_round[wid] = e->round;
    if (e->cu_issued[cu] == 0)
        e->touched[e->ntouched++] = cu;
    *t = e->start + (uint64_t)e->cu_issued[cu]++ * d->o.issue_cycles;
    if (e->cu_issued[cu] > e->busiest)
        e->busiest = e->cu_issued[cu];
    return 0;
}

static int init(rft_dec *d)
{
    evg *e = calloc(1, sizeof *e);
    if (!e)
        return RFT_EMEM;
    d->priv = e;
    e->next = -1;
    e->pmask = calloc(MAXP, RFT_MAX_LANES / 8);
    e->pval32 = calloc((size_t)MAXP * d->o.geom.lanes, sizeof *e->pval32);
    e->cu_issued = calloc(d->o.cus, sizeof *e->cu_issued);
    e->touched = malloc(d->o.cus * sizeof *e->touched);
    if (!e->pmask || !e->pval32 || !e->cu_issued || !e->touched)
        return RFT_EMEM;
    /* records pass through hold() on their way out (none in a pre-scan) */
    e->emit = d->emit;
    e->ctx = d->ctx;
    if (d->emit) {
        d->emit = hold;
        d->ctx = d;
    }
    d->unordered = 1;
    return 0;
}

static void free_ndr(evg *e)
{
    free(e->wave_round);
    e->wave_round = NULL;
    free(e->pred);
    free(e->run);
    free(e->bar);
    free(e->nrun);
    free(e->nbar);
    e->pred = NULL;
    e->run = e->bar = NULL;
    e->nrun = e->nbar = NULL;
}

static void efree(rft_dec *d)
{
    evg *e = d->priv;
    if (!e)
        return;
    free_ndr(e);
    free(e->pmask);
    free(e->pval32);
    free(e->cu_issued);
    free(e->touched);
    free(e->hold);
    free(e->arena);
    free(e);
}

static int isdig(int c) { return c >= '0' && c <= '9'; }
static int isup(int c) { return (c >= 'A' && c <= 'Z') || c == '_'; }
static int pre(const char *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n >= l && memcmp(s, lit, l) == 0;
}

/* a decimal number at s[*i]: its value, *i past it; -1 when there is none */
static int number(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t a = *i;
    while (*i < n && isdig(s[*i]))
        (*i)++;
    return dec_u64(s + a, *i - a, v);
}

/* ---- wavefronts: geometry, masks, Multi2Sim's round robin ---------------------------- */
static uint32_t mask_bytes(const rft_dec *d) { return rft_mask_bytes(&d->o.geom); }
static uint64_t key_of(const evg *e, uint32_t wid) { return (uint64_t)e->ndr << 36 | wid; }

/* work-items of wavefront wid (the last of a work-group may be partial) */
static uint32_t wave_items(const rft_dec *d, const evg *e, uint32_t wid)
{
    uint32_t lanes = d->o.geom.lanes, first = (wid % e->wpwg) * lanes;
    return e->local - first < lanes ? e->local - first : lanes;
}

/* work-item tid: its wavefront and lane; 0 or an error naming tok */
static int place(rft_dec *d, const evg *e, uint64_t tid, uint32_t *wid, uint32_t *lane,
                 const char *tok, size_t tl)
{
    if (tid >= e->global)
        return dec_bad(d, "work-item '%.*s' is outside the ND-Range of %u work-items",
                       DEC_TOK(tok, tl), e->global);
    uint32_t g = (uint32_t)(tid / e->local), lid = (uint32_t)(tid % e->local);
    *wid = g * e->wpwg + lid / d->o.geom.lanes;
    *lane = lid % d->o.geom.lanes;
    return 0;
}

/* the instruction belongs to wavefront wid: a second one is an error */
static int name_wave(rft_dec *d, evg *e, uint32_t wid, const char *tok, size_t tl)
{
    if (e->kind == I_NONE)
        return dec_bad(d, "'%.*s' without an instruction before it", DEC_TOK(tok, tl));
    if (e->wid >= 0 && e->wid != (int64_t)wid)
        return dec_bad(d, "'%.*s' is in wavefront %u, not in wavefront %lld of the same "
                       "instruction", DEC_TOK(tok, tl), wid, (long long)e->wid);
    e->wid = wid;
    return 0;
}

/* position of wid in its work-group's list, or -1 */
static int find(const uint32_t *list, uint16_t n, uint32_t wid)
{
    for (int i = 0; i < n; i++)
        if (list[i] == wid)
            return i;
    return -1;
}

/* The wavefront run after wid: the next in its work-group's running list,
 * else the first running one of the next work-groups, round and round. */
static int64_t after(const evg *e, uint32_t wid)
{
    uint32_t g = wid / e->wpwg;
    int p = find(e->run + (size_t)g * e->wpwg, e->nrun[g], wid);
    if (p >= 0 && p + 1 < e->nrun[g])
        return e->run[(size_t)g * e->wpwg + (uint32_t)p + 1];
    for (uint32_t k = 1; k <= e->groups; k++) {
        uint32_t h = (g + k) % e->groups;
        if (e->nrun[h])
            return e->run[(size_t)h * e->wpwg];
    }
    return -1;
}

/* GROUP_BARRIER: the wavefront waits; the last to arrive wakes them all,
 * in the order they arrived, behind those still running (emu/machine.c) */
static void reach_barrier(evg *e, uint32_t wid)
{
    uint32_t g = wid / e->wpwg, *run = e->run + (size_t)g * e->wpwg;
    int p = find(run, e->nrun[g], wid);
    if (p < 0)
        return;
    memmove(run + p, run + p + 1, (size_t)(e->nrun[g] - p - 1) * sizeof *run);
    e->nrun[g]--;
    e->bar[(size_t)g * e->wpwg + e->nbar[g]++] = wid;
    if (e->nbar[g] == e->wpwg) {
        memcpy(run + e->nrun[g], e->bar + (size_t)g * e->wpwg, e->nbar[g] * sizeof *run);
        e->nrun[g] = (uint16_t)(e->nrun[g] + e->nbar[g]);
        e->nbar[g] = 0;
    }
}

/* ---- ND-Ranges ------------------------------------------------------------------------- */
static int end_ndrange(rft_dec *d, evg *e)
{
    if (!e->have_ndr)
        return 0;
    int err = end_round(d, e);
    if (err)
        return err;
    d->c[DC_NO_END] += d->wmap.count;   /* no wavefront's end is in the log */
    err = dec_end_all(d, e->start);
    free_ndr(e);
    e->have_ndr = 0;
    e->hdr = 0;
    return err;
}

static int begin_ndrange(rft_dec *d, evg *e)
{
    uint32_t lanes = d->o.geom.lanes, mb = mask_bytes(d);
    if ((uint64_t)e->local * e->groups != e->global)
        return dec_bad(d, "global_size %u is not local_size %u times group_count %u", e->global,
                       e->local, e->groups);
    if (e->wpwg != (e->local + lanes - 1) / lanes)
        return dec_bad(d, "wavefronts_per_work_group = %u does not fit local_size %u and "
                       "wavefronts of %u work-items (--lanes)", e->wpwg, e->local, lanes);
    if ((uint64_t)e->wpwg * e->groups != e->nwaves)
        return dec_bad(d, "wavefront_count = %u is not %u work-groups of %u", e->nwaves,
                       e->groups, e->wpwg);
    uint32_t most = MAX_MASKS / mb < MAX_WAVES ? MAX_MASKS / mb : MAX_WAVES;
    if (e->nwaves > most)
        return dec_bad(d, "an ND-Range of %u wavefronts (at most %u)", e->nwaves, most);
    if (e->wpwg > MAX_WPWG)
        return dec_bad(d, "a work-group of %u wavefronts (at most %u)", e->wpwg, MAX_WPWG);
    int k = dec_ndrange_kernel(d, e->start);
    if (k < 0)
        return k;
    e->ndr = e->kernel = (uint32_t)k;
    e->wf_base = e->wf_top;     /* Multi2Sim's ids restart: keep the stream's unique */
    e->wave_round = calloc(e->nwaves, sizeof *e->wave_round);
    e->round = 1;
    e->pred = malloc((size_t)e->nwaves * mb);
    e->run = malloc((size_t)e->nwaves * sizeof *e->run);
    e->bar = malloc((size_t)e->nwaves * sizeof *e->bar);
    e->nrun = malloc((size_t)e->groups * sizeof *e->nrun);
    e->nbar = calloc(e->groups, sizeof *e->nbar);
    if (!e->wave_round || !e->pred || !e->run || !e->bar || !e->nrun || !e->nbar)
        return RFT_EMEM;
    for (uint32_t w = 0; w < e->nwaves; w++) {
        uint8_t *m = e->pred + (size_t)w * mb;
        uint32_t items = wave_items(d, e, w);
        memset(m, 0, mb);
        for (uint32_t i = 0; i < items; i++)
            m[i >> 3] |= (uint8_t)(1u << (i & 7));
        e->run[w] = w;
    }
    for (uint32_t g = 0; g < e->groups; g++)
        e->nrun[g] = (uint16_t)e->wpwg;
    e->next = e->nwaves ? 0 : -1;
    e->have_ndr = 1;
    return 0;
}

/* "key = N" or "key = N (X,Y,Z)" of the ND-Range header */
static int header_line(rft_dec *d, evg *e, const char *s, size_t n)
{
    static const char *const keys[] = {"local_size = ", "global_size = ", "group_count = ",
                                       "wavefront_count = ", "wavefronts_per_work_group = "};
    int k = 0;
    while (!pre(s, n, keys[k]))
        k++;
    size_t i = strlen(keys[k]);
    uint64_t v;
    if (number(s, n, &i, &v) || v == 0 || v > 0x7fffffff)
        return dec_bad(d, "bad %.*s'%.*s'", (int)strlen(keys[k]) - 2, keys[k],
                       DEC_TOK(s + strlen(keys[k]), n - strlen(keys[k])));
    if (k == 0) {   /* a new ND-Range */
        int err = end_ndrange(d, e);
        if (err)
            return err;
        e->hdr = 0;
    } else if (!(e->hdr & 1) || (e->hdr & (1 << k))) {
        return dec_bad(d, "'%.*s' out of place in an ND-Range header", DEC_TOK(s, n));
    }
    e->hdr |= 1 << k;
    uint32_t *field[] = {&e->local, &e->global, &e->groups, &e->nwaves, &e->wpwg};
    *field[k] = (uint32_t)v;
    d->c[DC_IGNORED]++;
    return e->hdr == 0x1f ? begin_ndrange(d, e) : 0;
}

/* ---- the current instruction --------------------------------------------------------- */
static void reset_inst(evg *e)
{
    e->kind = I_NONE;
    e->wid = -1;
    e->slots = e->flags = e->update_pred = e->barrier = 0;
    e->have_newpred = 0;
    e->completes_barrier = 0;
    e->np = e->nr = 0;
    memset(e->pset, 0, sizeof e->pset);
}

static int begin_wave(rft_dec *d, evg *e, uint32_t wid, uint64_t cycle, dec_wave **out)
{
    uint32_t wg = wid / e->wpwg;
    int err;
    if (e->wf_base + wid > 0xfffffffeu)
        return dec_bad(d, "more than 4294967294 wavefronts");
    d->next_wf = (uint32_t)(e->wf_base + wid);
    dec_wave *w = dec_wave_begin(d, key_of(e, wid), cycle, (uint16_t)(wg % d->o.cus), 0,
                                 e->kernel, wg, &err);
    if (!w)
        return err;
    w->id = wid;
    if (e->wf_base + wid + 1 > e->wf_top)
        e->wf_top = e->wf_base + wid + 1;
    *out = w;
    return 0;
}

/* The instruction is complete: place it in time and write its records. */
static int flush_inst(rft_dec *d, evg *e)
{
    if (e->kind == I_NONE)
        return 0;
    int64_t wid = e->wid >= 0 ? e->wid : e->next;
    if (wid < 0) {
        d->c[DC_UNATTRIBUTED]++;
        reset_inst(e);
        return 0;
    }
    uint32_t mb = mask_bytes(d), lanes = d->o.geom.lanes, cu = (uint32_t)(wid / e->wpwg) % d->o.cus;
    uint64_t t;
    int err = issue(d, e, (uint32_t)wid, cu, &t);
    if (err)
        return err;
    dec_wave *w = dec_wave_get(d, key_of(e, (uint32_t)wid));
    if (!w && (err = begin_wave(d, e, (uint32_t)wid, t, &w)))
        return err;
    uint8_t *pred = e->pred + (size_t)wid * mb;
    if (e->kind == I_ALU && (err = dec_bundle(d, w, t, e->slots, e->flags, pred)))
        return err;
    for (int i = 0; i < e->nr; i++)
        if ((err = dec_read(d, w, t, e->rreg[i], RFT_NO_PHYS)))
            return err;
    for (int i = 0; i < e->np; i++)
        if ((err = dec_write(d, w, t, e->preg[i], RFT_NO_PHYS, e->pmask + i * (RFT_MAX_LANES / 8),
                             e->pval32 + (size_t)i * lanes)))
            return err;
    /* what the instruction did to the predicate applies to the next groups */
    if (e->have_newpred)
        memcpy(pred, e->newpred, mb);
    for (uint32_t i = 0; i < mb; i++)
        pred[i] = (uint8_t)((pred[i] & ~e->pset[i]) | (e->pval[i] & e->pset[i]));
    e->next = after(e, (uint32_t)wid);  /* Multi2Sim chose it before running this one */
    if (e->barrier)
        reach_barrier(e, (uint32_t)wid);
    reset_inst(e);
    return 0;
}

static int start_inst(rft_dec *d, evg *e, int kind, const char *s, size_t n)
{
    int err = flush_inst(d, e);
    if (err)
        return err;
    if (!e->have_ndr)
        return dec_bad(d, "an instruction before the ND-Range header (local_size = ...): '%.*s'",
                       DEC_TOK(s, n));
    e->kind = kind;
    d->c[DC_INSTS]++;
    return 0;
}

/* a read of register channel vreg by the current instruction, once */
static int add_read(rft_dec *d, evg *e, uint32_t vreg, const char *tok, size_t tl)
{
    for (int i = 0; i < e->nr; i++)
        if (e->rreg[i] == vreg)
            return 0;
    if (e->nr == MAXR)
        return dec_bad(d, "instruction reads more than %d register channels at '%.*s'", MAXR,
                       DEC_TOK(tok, tl));
    e->rreg[e->nr++] = (uint16_t)vreg;
    return 0;
}

/* The registers an instruction line names (R5.x, R5.xy__, R5): the kernel
 * holds them, the instruction reads them, except the destination (with
 * dst_first, the first operand: an ALU slot's or a fetch's).  A clause
 * temporary (R from --clause-temps up; T0-T3 are not R) lives within its ALU
 * clause, not in the kernel's registers: it neither widens the window nor
 * reads, and neither does a relative address (R5[A0.x]); those reads are
 * counted as unplaced.  A read without channels (R5) reads all four. */
static int name_regs(rft_dec *d, evg *e, const char *s, size_t n, int dst_first)
{
    const char *comma = dst_first ? memchr(s, ',', n) : s;
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != 'R' || !isdig(s[i + 1]) || (i > 0 && (isup(s[i - 1]) || isdig(s[i - 1]))))
            continue;
        size_t j = i + 1;
        uint64_t g;
        if (number(s, n, &j, &g) || (j < n && (isup(s[j]) || (s[j] >= 'a' && s[j] <= 'z'))))
            continue;
        if (g > 123)
            return dec_bad(d, "bad register '%.*s'", DEC_TOK(s + i, j - i));
        int dst = dst_first && (!comma || s + i < comma);
        if (g >= d->o.clause_temps || (j < n && s[j] == '[')) {
            d->c[DC_UNPLACED] += !dst;
            i = j - 1;
            continue;
        }
        int err = dec_reg(d, e->kernel, 4 * (uint32_t)g + 3, NULL, s + i, j - i);
        if (err)
            return err;
        if (!d->o.prescan && 4 * g >= dec_nregs(d, e->kernel))
            return dec_bad(d, "register '%.*s' outside the window of %u registers of kernel %s",
                           DEC_TOK(s + i, j - i), dec_nregs(d, e->kernel), d->knames[e->kernel]);
        size_t k = j < n && s[j] == ']' ? j + 1 : j;  /* RAT(11)[R0].x___: R0.x */
        int swizzle = k + 1 < n && s[k] == '.' && strchr("xyzw", s[k + 1]);
        if (swizzle)
            for (k++; k < n && s[k] && strchr("xyzw01_", s[k]); k++)
                if (!dst && strchr("xyzw", s[k]) &&
                    (err = add_read(d, e, 4 * (uint32_t)g + (uint32_t)(strchr("xyzw", s[k]) - "xyzw"),
                                    s + i, k + 1 - i)))
                    return err;
        for (uint32_t c = 0; !swizzle && !dst && c < 4; c++)
            if ((err = add_read(d, e, 4 * (uint32_t)g + c, s + i, j - i)))
                return err;
        i = k - 1;
    }
    return 0;
}

/* ---- instruction lines ------------------------------------------------------------------- */
static const char *const trans_only[] = {    /* asm.dat: EvgInstFlagTransOnly, as printed */
    "F_TO_I", "EXP_e", "LOG_sat", "LOG_IEEE", "RECIP_CLAMPED", "RECIP_FF", "RCP_e",
    "RECIPSQRT_CLAMPED", "RECIPSQRT_FF", "REQ_e", "SQRT_e", "SIN", "COS", "MULLO_INT",
    "MULHI_INT", "MULLO_UINT", "MULHI_UINT", "RECIP_INT", "RCP_UINT", "F_TO_U", "I_TO_F",
    "U_TO_F", "MUL_LIT", NULL};
static const char *const vector_ops[] = {"DOT4", "DOT4_e", "CUBE", "MAX4", NULL};

static int listed(const char *const *names, const char *s, size_t n)
{
    for (; *names; names++)
        if (strlen(*names) == n && memcmp(*names, s, n) == 0)
            return 1;
    return 0;
}

static int has_word(const char *s, size_t n, const char *w)
{
    size_t l = strlen(w);
    for (size_t i = 0; i + l <= n; i++)
        if (memcmp(s + i, w, l) == 0 && (i == 0 || s[i - 1] == ' ') && (i + l == n || s[i + l] == ' '))
            return 1;
    return 0;
}

/* "   N  x: MNEMONIC ..." (N on the first slot of a group only) */
static int slot_line(rft_dec *d, evg *e, const char *s, size_t n, size_t at, int first)
{
    int err;
    if (first && (err = start_inst(d, e, I_ALU, s + at, n - at)))
        return err;
    if (!first && e->kind != I_ALU)
        return dec_bad(d, "a slot of an ALU group without its first slot: '%.*s'",
                       DEC_TOK(s + at, n - at));
    static const char letters[] = "xyzwt";
    int slot = (int)(strchr(letters, s[at]) - letters);
    if (e->slots >> slot & 1)
        return dec_bad(d, "slot '%c' twice in one ALU group", s[at]);
    e->slots |= (uint8_t)(1u << slot);
    size_t a = at + 3, b = a;
    while (b < n && s[b] != ' ' && s[b] != '*' && s[b] != '/' && s[b] != ':')
        b++;
    if (b == a)
        return dec_bad(d, "ALU slot without an instruction: '%.*s'", DEC_TOK(s + at, n - at));
    if (slot == 4 && listed(trans_only, s + a, b - a))
        e->flags |= RFT_UF_TRANS;
    if (slot < 4 && listed(vector_ops, s + a, b - a))
        e->flags |= RFT_UF_VECTOR;
    if (b - a == 13 && memcmp(s + a, "GROUP_BARRIER", 13) == 0)
        e->barrier = 1;
    e->update_pred |= has_word(s + b, n - b, "UPDATE_PRED");
    return name_regs(d, e, s + b, n - b, 1);
}

/* ---- results -------------------------------------------------------------------------------- */
/* "wavefront[iA-iB]" at s: its wavefront; *len its length */
static int wave_name(rft_dec *d, const evg *e, const char *s, size_t n, uint32_t *wid, size_t *len)
{
    size_t i = 11;
    uint64_t a, b;
    if (!pre(s, n, "wavefront[i") || number(s, n, &i, &a) || i + 1 >= n || s[i] != '-' ||
        s[i + 1] != 'i')
        return dec_bad(d, "bad wavefront '%.*s'", DEC_TOK(s, n));
    i += 2;
    if (number(s, n, &i, &b) || i >= n || s[i] != ']')
        return dec_bad(d, "bad wavefront '%.*s'", DEC_TOK(s, n));
    *len = i + 1;
    uint32_t lane = 0;
    int err = place(d, e, a, wid, &lane, s, *len);
    if (err)
        return err;
    if (lane != 0 || b < a || b - a + 1 != wave_items(d, e, *wid))
        return dec_bad(d, "'%.*s' is not a wavefront of this ND-Range", DEC_TOK(s, *len));
    return 0;
}

/* a mask of '0'/'1', lane 0 first, of the wavefront's work-items */
static int bits(rft_dec *d, const evg *e, uint32_t wid, const char *s, size_t n, uint8_t *mask,
                const char *tok, size_t tl)
{
    if (n != wave_items(d, e, wid))
        return dec_bad(d, "'%.*s': a mask of %zu work-items for a wavefront of %u",
                       DEC_TOK(tok, tl), n, wave_items(d, e, wid));
    memset(mask, 0, mask_bytes(d));
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '0' && s[i] != '1')
            return dec_bad(d, "bad mask '%.*s'", DEC_TOK(tok, tl));
        if (s[i] == '1')
            mask[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    return 0;
}

/* wavefront[iA-iB]:pred=, :act=, :invert(act)=, :push, :pop(N),act= */
static int wave_token(rft_dec *d, evg *e, const char *s, size_t n)
{
    uint32_t wid;
    size_t i;
    uint8_t m[RFT_MAX_LANES / 8];
    int err = wave_name(d, e, s, n, &wid, &i);
    if (err || (err = name_wave(d, e, wid, s, n)))
        return err;
    if (i >= n || s[i] != ':')
        return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
    const char *r = s + i + 1, *eq = memchr(r, '=', n - i - 1);
    size_t rn = n - i - 1;
    if (rn == 4 && memcmp(r, "push", 4) == 0)
        return 0;
    if (pre(r, rn, "pred=")) {
        if ((err = bits(d, e, wid, r + 5, rn - 5, e->newpred, s, n)))
            return err;
        e->have_newpred = 1;
        return 0;
    }
    if (eq && (pre(r, rn, "act=") || pre(r, rn, "invert(act)=") || pre(r, rn, "pop(")))
        return bits(d, e, wid, eq + 1, (size_t)(s + n - eq - 1), m, s, n);
    return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
}

/* R5.x (or T2.y, R5[A0.x].y): the register and channel; 1 = a register
 * the stream cannot place (clause temporary, relative address) */
static int gpr(rft_dec *d, const char *s, size_t n, uint32_t *vreg)
{
    if (n < 4 || (s[0] != 'R' && s[0] != 'T') || !strchr("xyzw", s[n - 1]) || s[n - 2] != '.')
        return dec_bad(d, "bad register '%.*s'", DEC_TOK(s, n));
    size_t i = 1;
    uint64_t g;
    if (number(s, n, &i, &g))
        return dec_bad(d, "bad register '%.*s'", DEC_TOK(s, n));
    if (s[0] == 'T' || i != n - 2)
        return 1;
    if (g > 123)
        return dec_bad(d, "bad register '%.*s'", DEC_TOK(s, n));
    *vreg = 4 * (uint32_t)g + (uint32_t)(strchr("xyzw", s[n - 1]) - "xyzw");
    return 0;
}

/* a printed value: 0x hex, decimal, %gf, or (0x hex,%gf) and (decimal,%gf);
 * the float counters count those written to registers (reg) */
static int value(rft_dec *d, const char *s, size_t n, uint32_t *v, int reg)
{
    int isf, exact;
    if (n > 2 && s[0] == '(' && s[n - 1] == ')') {
        const char *c = memchr(s, ',', n);
        if (!c)
            return dec_bad(d, "bad value '%.*s'", DEC_TOK(s, n));
        n = (size_t)(c - s) - 1;
        s++;
    }
    if (dec_value32(s, n, v, &isf, &exact))
        return dec_bad(d, "bad value '%.*s'", DEC_TOK(s, n));
    d->c[DC_FLOAT_LANES] += reg && isf;
    d->c[DC_INEXACT_LANES] += reg && isf && !exact;
    return 0;
}

/* lane of the instruction's wavefront writes vreg = v */
static int record_write(rft_dec *d, evg *e, uint32_t lane, uint32_t vreg, uint32_t v,
                        const char *tok, size_t tl)
{
    if (vreg / 4 >= d->o.clause_temps) {
        d->c[DC_UNTRACED]++;    /* a clause temporary, like T0-T3 */
        return 0;
    }
    int err = dec_reg(d, e->kernel, vreg | 3, NULL, tok, tl);   /* a whole GPR is allocated */
    if (err)
        return err;
    if (!d->o.prescan && vreg >= dec_nregs(d, e->kernel))
        return dec_bad(d, "register '%.*s' outside the window of %u registers of kernel %s",
                       DEC_TOK(tok, tl), dec_nregs(d, e->kernel), d->knames[e->kernel]);
    int p = 0;
    while (p < e->np && e->preg[p] != vreg)
        p++;
    if (p == e->np) {
        if (e->np == MAXP)
            return dec_bad(d, "instruction writes more than %d registers", MAXP);
        e->preg[e->np++] = (uint16_t)vreg;
        memset(e->pmask + p * (RFT_MAX_LANES / 8), 0, RFT_MAX_LANES / 8);
    }
    e->pmask[p * (RFT_MAX_LANES / 8) + lane / 8] |= (uint8_t)(1u << (lane & 7));
    e->pval32[(size_t)p * d->o.geom.lanes + lane] = v;
    return 0;
}

/* "REG<=VALUE" (ALU) or "REG<=(INT,FLOAT)" (fetch) at s */
static int reg_value(rft_dec *d, evg *e, uint32_t lane, const char *s, size_t n)
{
    const char *arrow = NULL;
    for (size_t i = 0; i + 1 < n && !arrow; i++)
        if (s[i] == '<' && s[i + 1] == '=')
            arrow = s + i;
    if (!arrow)
        return dec_bad(d, "'%.*s' is not a register write", DEC_TOK(s, n));
    uint32_t vreg = 0, v;
    size_t rl = (size_t)(arrow - s);
    int r = gpr(d, s, rl, &vreg);
    if (r < 0)
        return r;
    int err = value(d, arrow + 2, n - rl - 2, &v, r == 0);
    if (err)
        return err;
    if (r == 1) {
        d->c[DC_UNTRACED]++;
        return 0;
    }
    return record_write(d, e, lane, vreg, v, s, rl);
}

/* iN:... and tN:... */
static int item_token(rft_dec *d, evg *e, const char *s, size_t n)
{
    size_t i = 1;
    uint64_t tid;
    uint32_t wid = 0, lane = 0;
    if (number(s, n, &i, &tid) || i >= n || s[i] != ':')
        return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
    int err = place(d, e, tid, &wid, &lane, s, i + 1);
    if (err || (err = name_wave(d, e, wid, s, i + 1)))
        return err;
    const char *r = s + i + 1;
    size_t rn = n - i - 1;
    if (s[0] == 'i') {
        if (pre(r, rn, "PV.") || pre(r, rn, "PS")) {
            size_t j = pre(r, rn, "PS") ? 2 : 4;
            if (j + 2 <= rn && r[j] == '<' && r[j + 1] == '=')
                return value(d, r + j + 2, rn - j - 2, &(uint32_t){0}, 0);
            if (j < rn && r[j] == ',')
                return reg_value(d, e, lane, r + j + 1, rn - j - 1);
        } else if (pre(r, rn, "act/pred<=") || pre(r, rn, "pred=")) {
            const char *v = memchr(r, '=', rn) + 1;
            if (r + rn - v != 1 || (*v != '0' && *v != '1'))
                return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
            /* "pred=" is printed for an exec-mask-only update too: the group's
             * UPDATE_PRED tells them apart */
            if (r[0] == 'a' || e->update_pred) {
                e->pset[lane / 8] |= (uint8_t)(1u << (lane & 7));
                e->pval[lane / 8] = (uint8_t)((e->pval[lane / 8] & ~(1u << (lane & 7))) |
                                              (uint32_t)(*v - '0') << (lane & 7));
            }
            return 0;
        } else if (pre(r, rn, "LDS[")) {
            return 0;       /* local memory, not the register file */
        }
        return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
    }
    if (pre(r, rn, "read(")) {
        const char *c = memchr(r, ')', rn);
        if (!c)
            return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
        /* then " R4.x<=(5,7e-45f)" per channel written, or "<=(5,7e-45f)" */
        for (const char *p = c + 1, *end = r + rn; p < end;) {
            while (p < end && *p == ' ')
                p++;
            if (p == end)
                break;
            const char *q = memchr(p, ' ', (size_t)(end - p));
            size_t len = q ? (size_t)(q - p) : (size_t)(end - p);
            if (pre(p, len, "<="))
                err = value(d, p + 2, len - 2, &(uint32_t){0}, 0);
            else
                err = reg_value(d, e, lane, p, len);
            if (err)
                return err;
            p += len;
        }
        return 0;
    }
    if (pre(r, rn, "write(") || pre(r, rn, "LDS[") || (rn && r[0] == ' '))
        return 0;           /* stores, LDS queues, atomics: nothing written to registers */
    return dec_bad(d, "'%.*s' fits no grammar of a result", DEC_TOK(s, n));
}

/* a line of results: tokens two blanks apart */
static int result_line(rft_dec *d, evg *e, const char *s, size_t n)
{
    if (e->kind == I_NONE)
        return dec_bad(d, "'%.*s' without an instruction before it", DEC_TOK(s, n));
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == ' ')
            i++;
        if (i == n)
            break;
        size_t j = i;
        while (j < n && !(s[j] == ' ' && j + 1 < n && s[j + 1] == ' ') &&
               !(s[j] == ' ' && j + 1 == n))
            j++;
        int err = s[i] == 'w' ? wave_token(d, e, s + i, j - i) : item_token(d, e, s + i, j - i);
        if (err)
            return err;
        i = j;
    }
    return 0;
}

/* "wavefront[iA-iB] (gid=G) reached barrier (...)" and
 * "work-group[iA-iB] completed barrier, waking up wavefronts" */
static int barrier_line(rft_dec *d, evg *e, const char *s, size_t n)
{
    if (e->kind == I_NONE)
        return dec_bad(d, "'%.*s' without an instruction before it", DEC_TOK(s, n));
    if (pre(s, n, "work-group[i"))
        return 0;       /* follows from the arrivals */
    uint32_t wid;
    size_t len;
    int err = wave_name(d, e, s, n, &wid, &len);
    if (err || (err = name_wave(d, e, wid, s, len)))
        return err;
    if (!e->barrier)
        return dec_bad(d, "'%.*s' without a GROUP_BARRIER", DEC_TOK(s, n));
    return 0;
}

/* ---- lines ------------------------------------------------------------------------------- */
/* A row of the ND-Range's work-item table: 12 numbers, a wavefront, a work-group */
static int table_row(const char *s, size_t n)
{
    size_t i = 0;
    for (int k = 0; k < 12; k++) {
        while (i < n && s[i] == ' ')
            i++;
        if (i == n || !isdig(s[i]))
            return 0;
        while (i < n && isdig(s[i]))
            i++;
    }
    while (i < n && s[i] == ' ')
        i++;
    return pre(s + i, n - i, "wavefront[i");
}

static int line(rft_dec *d, char *s, size_t n)
{
    evg *e = d->priv;
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i == n)
        return 0;
    static const char *const keys[] = {"local_size = ", "global_size = ", "group_count = ",
                                       "wavefront_count = ", "wavefronts_per_work_group = ", NULL};
    for (int k = 0; keys[k]; k++)
        if (i == 0 && pre(s, n, keys[k])) {
            int err = flush_inst(d, e);
            return err ? err : header_line(d, e, s, n);
        }
    if (pre(s + i, n - i, "tid tid2 tid1 tid0") || table_row(s, n)) {
        d->c[DC_IGNORED]++;
        return 0;
    }
    /* "NN MNEMONIC": a control-flow instruction */
    size_t j = i;
    while (j < n && isdig(s[j]))
        j++;
    if (i == 0 && j >= 2 && j + 1 < n && s[j] == ' ' && isup(s[j + 1])) {
        int err = start_inst(d, e, I_CF, s + j + 1, n - j - 1);
        return err ? err : name_regs(d, e, s + j + 1, n - j - 1, 0);
    }
    /* "   N  x: ..." or "      x: ...": an ALU slot; "   N  VFETCH ...": a fetch */
    size_t k = j;
    while (k < n && s[k] == ' ')
        k++;
    if (k + 2 < n && strchr("xyzwt", s[k]) && s[k + 1] == ':' && s[k + 2] == ' ' &&
        (j > i ? k > j : i > 0))
        return slot_line(d, e, s, n, k, j > i);
    if (j > i && k > j && k < n && isup(s[k])) {
        int err = start_inst(d, e, I_FETCH, s + k, n - k);
        return err ? err : name_regs(d, e, s + k, n - k, 1);
    }
    if (j == i && i >= 9 && isup(s[i]) && e->kind == I_FETCH)
        return name_regs(d, e, s + i, n - i, 0);   /* a fetch continued (%nl) */
    if (i == 0 && (pre(s, n, "wavefront[i") || pre(s, n, "work-group[i")) &&
        (memchr(s, '(', n) || pre(s, n, "work-group[i")) && !memchr(s, ':', n))
        return barrier_line(d, e, s, n);
    if (i > 0 && (pre(s + i, n - i, "wavefront[i") ||
                  ((s[i] == 'i' || s[i] == 't') && i + 1 < n && isdig(s[i + 1]))))
        return result_line(d, e, s + i, n - i);
    return dec_bad(d, "line fits no grammar of a Multi2Sim Evergreen log: '%.*s'",
                   DEC_TOK(s + i, n - i));
}

static int finish(rft_dec *d)
{
    evg *e = d->priv;
    int err = flush_inst(d, e);
    return err ? err : end_ndrange(d, e);
}

static void describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    char b[256];
    snprintf(b, sizeof b, "each CU issues one instruction (ALU group, fetch or control flow) every "
             "%u cycles, CUs in parallel, by the emulator's rounds (a round lasts as long as its "
             "busiest CU)", d->o.issue_cycles);
    f(ctx, "issue_model", b);
    snprintf(b, sizeof b, "work-group g on CU g mod %u, SIMD 0", d->o.cus);
    f(ctx, "slice_mapping", b);
    f(ctx, "registers", "R<n>.<c> is register 4n+c (x y z w = 0 1 2 3)");
    if (d->o.clause_temps <= 123) {
        snprintf(b, sizeof b, "R%u-R123 and T0-T3 live within an ALU clause: not in the window, "
                 "not written (untraced_changes), not read (unplaced_reads)", d->o.clause_temps);
        f(ctx, "clause_temporaries", b);
    }
    f(ctx, "reads", "the source registers an instruction line names, at its cycle");
    f(ctx, "wavefront_end", "with its ND-Range (the log does not show it)");
}

const struct dec_ops dec_evg_ops = {init, line, finish, describe, efree, 1, NULL, 0, NULL};
