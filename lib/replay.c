/* replay.c - the trace-driven replay of each slice's schedule (replay.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcpatch.h"
#include "grow.h"
#include "heal.h"
#include "pattern.h"
#include "replay.h"

/* ---- per wavefront ------------------------------------------------------------ */
enum { G_BEGIN = 1, G_INSTR = 2, G_END = 4 };
/* SC healing: a work-group's wavefronts begun, given their twins, alive */
#define GROUP(b, a, l) ((uint64_t)(b) << 42 | (uint64_t)(a) << 21 | (uint64_t)(l))
#define G_BEGUN(v) ((uint32_t)((v) >> 42))
#define G_ASSIGNED(v) ((uint32_t)((v) >> 21) & 0x1fffff)
#define G_ALIVE(v) ((uint32_t)(v) & 0x1fffff)


typedef struct wave {
    uint64_t key;
    uint32_t slice, kslice;     /* its slice, its (kernel, slice) pair or UINT32_MAX */
    uint32_t kernel;            /* kernel index or RFT_NO_KERNEL */
    uint32_t kslot;             /* its kernel's index in ks (kernel_slot), UINT32_MAX: none */
    uint32_t wg;                /* work-group or RFT_NO_WG */
    uint32_t twins;             /* SC healing: redundant wavefronts shadowing it */
    uint64_t t_last, r_last;    /* its last event: traced and replayed cycle */
    uint64_t a_last;            /* cycles added to that event's result */
    uint64_t t_free;            /* traced: when its last instruction left the SIMD */
    /* the open event: its records at cycle g_t */
    int grp;                    /* G_* (0: none open) */
    uint64_t g_t;
    uint32_t g_wake, g_mov, g_misp, g_lds;
    uint8_t g_unit;             /* RFT_WF_UNIT flags of its writes */
    int64_t g_src;              /* the latest a source of the open event is due (see dep) */
    /* per register of its window (one block, cap entries): when its value is
     * due, as lateness against the trace (the writer's lateness and added
     * latency); the registers the open event writes; patched streams: where
     * each register is */
    int64_t *due;
    uint16_t *wl;
    uint8_t *place;
    uint16_t nregs, cap, nwl;
    int64_t due_max;            /* the latest of all its writes */
    uint8_t pend;               /* place of the patch record before the next write (0: none) */
    uint8_t have_full;
    uint8_t full[RFT_MAX_LANES / 8];
} wave;

/* ---- per slice, per kernel ------------------------------------------------------ */
typedef struct stats {
    int seen;
    uint64_t first_t, last_t, min_r, max_r;
    uint64_t added, instr, wake, mov, misp, lds;
} stats;

typedef struct slice {
    uint16_t cu, simd;
    int has_q;                  /* its last traced instruction q */
    uint64_t tq, run_start;     /* q's cycle; start of the back-to-back run up to q */
    uint64_t q_key;             /* q's wavefront (its key) and index */
    uint32_t q_wave;
    uint64_t bq_start, bq_extra; /* q's replayed issue, its cycles beyond issue */
    /* its last traced vector ALU instruction: traced cycle, replayed issue,
     * the latency it held the SIMD (--hold) beyond issue: the slice's next
     * vector ALU instruction waits for it, other units' instructions do not */
    int has_a;
    uint64_t ta, ba_start, ba_hold;
    uint64_t end_late;          /* lateness of the latest wavefront that ended here */
    stats st;
} slice;

typedef struct kslice { uint64_t first, last, added; uint32_t kslot; } kslice;

/* a compute unit's LDS (replay.h): its last traced LDS instruction q (its
 * completion), q's replayed completion and extra cycles, the start of the
 * run of completions back to back up to q */
typedef struct ldsu {
    int has_q;
    uint64_t tq, bq_done, bq_extra, run_start;
} ldsu;

typedef struct replay {
    rft_stage st;
    rft_replay_opts o;
    rft_geom geom;
    uint32_t issue, stages;
    int timed, patched;
    char *issue_model;
    rft_pattern_opts po;
    /* wavefronts */
    rft_map wmap;               /* key -> index in w */
    wave *w;
    uint32_t nw, wcap, *freel, nfree;
    uint32_t *open;             /* waves with an open event */
    uint32_t nopen, opencap;
    uint64_t now;               /* cycle of the open events */
    int started;
    int idle;                   /* a sweep's member past the slice's SCs: replays nothing */
    /* slices and kernels */
    rft_slices slice_of;
    slice *sl;
    uint32_t nsl, slcap;
    stats *ks;                  /* per kernel, in the order first met (kernel_slot) */
    char **kname;
    uint32_t *kidx;             /* its kernel index */
    uint32_t nk, kcap, kstcap, kidxcap;
    rft_map kmap;               /* kernel index -> its slot: as many as kernels met, whatever
                                   their indexes (2^31 is no table of 2^31) */
    rft_map ksmap;              /* kernel << 32 | slice -> index in kss */
    rft_map wgmap;              /* SC healing: kernel << 32 | wg -> GROUP(begun, assigned, alive) */
    kslice *kss;
    uint32_t nkss, kscap;
    rft_map lmap;               /* cu -> index in lu */
    ldsu *lu;
    uint32_t nlu, lucap;
    uint32_t lds_issue;         /* the LDS's cycles per instruction; 0: no LDS unit */
    stats total;
    /* result */
    rft_replay_row *rows;
    uint32_t nrows;
    char **rowname;             /* kernel names of rows (owned) */
    rft_counters c;
    uint8_t buf[RFT_COUNTERS_MAX];
} replay;

void rft_replay_opts_default(rft_replay_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scheme = 1;
    o->wakeup_cycles = 10;
    o->mov_cycles = 4;
    o->stall_cycles = 4;
    o->lds_cycles = 4;
    o->stages = RFT_REPLAY_AUTO;
    o->pass = 1;
    o->cu_calibrate = 1;
    o->latency_unit = RFT_REPLAY_U_ALU;
    o->max_wg = 256;
    o->wfrule = RFT_HEAL_WF_SEED;
    o->lds_issue = RFT_REPLAY_AUTO;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
    return rft_grow_to(p, cap, need, size, 8);
}

static int oom(replay *r) { return rft_stage_fail(&r->st, RFT_EMEM, "out of memory"); }

/* The wavefronts' state, bytes more for b's, counted in the process's
 * memory budget before it is allocated (issue 31): 0, or RFT_EMEM with the
 * message. */
static int charge(replay *r, uint64_t bytes, const rft_wfbegin *b)
{
    return rft_stage_reserve_wf(&r->st, bytes, b->wf, b->cu, b->simd, b->nregs);
}

/* ---- statistics ------------------------------------------------------------------- */
static void see(stats *x, uint64_t t, uint64_t rr)
{
    if (!x->seen) {
        x->seen = 1;
        x->first_t = x->last_t = t;
        x->min_r = x->max_r = rr;
        return;
    }
    if (t < x->first_t)
        x->first_t = t;
    if (t > x->last_t)
        x->last_t = t;
    if (rr < x->min_r)
        x->min_r = rr;
    if (rr > x->max_r)
        x->max_r = rr;
}

static void count(stats *x, uint64_t added, const wave *w, uint64_t misp)
{
    x->added += added;
    x->instr++;
    x->wake += w->g_wake;
    x->mov += w->g_mov;
    x->misp += misp;
    x->lds += w->g_lds;
}

static void event(replay *r, wave *w, uint64_t t, uint64_t rr)
{
    see(&r->sl[w->slice].st, t, rr);
    see(&r->total, t, rr);
    if (w->kslot != UINT32_MAX)
        see(&r->ks[w->kslot], t, rr);
    if (w->kslice != UINT32_MAX) {
        kslice *k = &r->kss[w->kslice];
        if (t < k->first)
            k->first = t;
        if (t > k->last)
            k->last = t;
    }
}

/* ---- events ----------------------------------------------------------------------- */
/* The registers the open event wrote are due `late` cycles after the trace. */
static void written(wave *w, int64_t late)
{
    for (uint16_t k = 0; k < w->nwl; k++)
        w->due[w->wl[k]] = late;
    if (w->nwl && late > w->due_max)
        w->due_max = late;
    w->nwl = 0;
}

/* How late against the trace w's next event can be ready: as late as its
 * last event, or as the latest result it waits for (src: its sources, or
 * all its results; --deps all: its last event's result). */
static int64_t lateness(const replay *r, const wave *w, int64_t src)
{
    int64_t late = (int64_t)(w->r_last - w->t_last);
    if (r->o.deps == RFT_REPLAY_DEPS_ALL)
        return late + (int64_t)w->a_last;
    if (r->o.deps == RFT_REPLAY_DEPS_NONE)
        return late;
    return src > late ? src : late;
}

/* w's instruction at traced t replayed at rr, its result a later, added
 * cycles in the upper bound: its wavefront, registers and counts */
static int done(replay *r, wave *w, uint64_t t, uint64_t rr, uint64_t a, uint64_t added)
{
    if (rr > RFT_REPLAY_MAX_CYCLE || r->total.added + added > RFT_REPLAY_MAX_CYCLE)
        return rft_stage_fail(&r->st, RFT_EFORMAT, "cycle %llu: replayed past cycle 2^62, where "
                              "the replay's arithmetic stops (rft-replay(1))",
                              (unsigned long long)t);
    w->t_last = t;
    w->r_last = rr;
    w->a_last = a;
    written(w, (int64_t)(rr - t) + (int64_t)a);
    count(&r->sl[w->slice].st, added, w, w->g_misp);
    count(&r->total, added, w, w->g_misp);
    if (w->kslot != UINT32_MAX)
        count(&r->ks[w->kslot], added, w, w->g_misp);
    if (w->kslice != UINT32_MAX)
        r->kss[w->kslice].added += added;
    event(r, w, t, rr);
    return 0;
}

/* The cycles w's open instruction adds: its result a later, extra on its
 * unit (a stall; a redundant twin's slot cycles), the extra LDS load and
 * the MOVs before it; added, their sum, is the upper bound's share. */
typedef struct cost { uint64_t a, extra, lds, mov, added; } cost;
static cost cost_of(const replay *r, const wave *w, uint64_t lat, uint64_t slot)
{
    cost c;
    c.a = lat + r->stages + (uint64_t)w->g_wake * r->o.wakeup_cycles;
    c.extra = (uint64_t)w->g_misp * r->o.stall_cycles + (uint64_t)w->twins * slot;
    c.lds = (uint64_t)w->g_lds * r->o.lds_cycles;
    c.mov = (uint64_t)w->g_mov * r->o.mov_cycles;
    c.added = c.a + c.extra + c.lds + c.mov;
    return c;
}

/* When w's open instruction, ready at traced ready_t, is ready replayed:
 * as late as its wavefront or sources (lateness), after the extra LDS load. */
static uint64_t ready_at(const replay *r, const wave *w, uint64_t ready_t, uint64_t lds)
{
    int64_t rd = (int64_t)ready_t + lateness(r, w, w->g_src);
    return (rd > 0 ? (uint64_t)rd : 0) + lds;
}

/* The LDS of compute unit cu (NULL: out of memory). */
static ldsu *lds_of(replay *r, uint16_t cu)
{
    uint64_t *v = rft_map_get(&r->lmap, cu);
    if (v)
        return &r->lu[*v];
    if (grow((void **)&r->lu, &r->lucap, r->nlu + 1, sizeof *r->lu) ||
        rft_map_put(&r->lmap, cu, r->nlu))
        return NULL;
    memset(&r->lu[r->nlu], 0, sizeof *r->lu);
    return &r->lu[r->nlu++];
}

/* An LDS instruction of w at traced cycle t, its completion (replay.h, "the
 * LDS"): the compute unit's LDS completes one instruction per lds_issue
 * cycles at most, in the traced order; an instruction in a run of
 * completions back to back waited on the LDS from the run's start (or from
 * lds_issue after its wavefront's previous event, if later: its own access),
 * the rest of its gap is its own. */
static int lds_instruction(replay *r, wave *w, uint64_t t)
{
    ldsu *L = lds_of(r, r->sl[w->slice].cu);
    if (!L)
        return oom(r);
    const uint64_t S = r->lds_issue;
    uint64_t held = L->has_q && t - L->tq < S ? t - L->tq : S;
    uint64_t avail = L->has_q ? L->bq_done + held + L->bq_extra : 0;
    int b2b = L->has_q && t - L->tq <= S;
    if (!b2b)
        L->run_start = t;
    uint64_t own = w->t_last + S < t ? w->t_last + S : t;
    uint64_t ready_t = b2b && L->run_start > own ? L->run_start : b2b ? own : t;
    /* a redundant twin's access takes the LDS as long again */
    cost c = cost_of(r, w, r->o.latency_unit & RFT_REPLAY_U_LDS ? r->o.add_latency : 0, S);
    uint64_t rr = t;
    if (r->timed) {
        uint64_t ready = ready_at(r, w, ready_t, c.lds) + c.mov;
        rr = ready > avail ? ready : avail;
        /* the LDS passes lateness between the slices of its compute unit in
         * the traced order, where a late request would rather be overtaken:
         * never later than every cycle added to its own slice so far (the
         * upper bound) */
        uint64_t cap = t + r->sl[w->slice].st.added + c.added;
        if (rr > cap)
            rr = cap;
    }
    L->has_q = 1;
    L->tq = t;
    /* a request late against the LDS's schedule gives its place to the ones
     * after it (the LDS serves the requests ready first): the LDS goes on at
     * its schedule; --lds-order traced: it waits for the late one */
    L->bq_done = rr > avail && !r->o.lds_inorder ? (avail > t ? avail : t) : rr;
    L->bq_extra = c.extra;
    return done(r, w, t, rr, c.a, c.added);
}

/* A vector instruction of w at traced cycle t (replay.h). */
static int instruction(replay *r, wave *w, uint64_t t)
{
    slice *s = &r->sl[w->slice];
    const uint64_t issue = r->issue;
    unsigned unit = w->g_unit & RFT_WF_VMEM  ? RFT_REPLAY_U_VMEM
                    : w->g_unit & RFT_WF_LDS ? RFT_REPLAY_U_LDS
                                             : RFT_REPLAY_U_ALU;
    if (unit == RFT_REPLAY_U_LDS && r->lds_issue)
        return lds_instruction(r, w, t);
    /* the slice's previous instruction held the SIMD at most up to this one:
     * the SIMD is free for it from avail on */
    uint64_t held = issue;
    if (s->has_q && t - s->tq < issue) {
        held = t - s->tq;
        if (s->q_wave < r->nw && r->w[s->q_wave].key == s->q_key)
            r->w[s->q_wave].t_free = t;
    }
    uint64_t avail = s->has_q ? s->bq_start + held + s->bq_extra : 0;
    /* add_latency: on the units chosen; held only by a vector ALU instruction */
    if (unit == RFT_REPLAY_U_ALU && s->has_a) {
        uint64_t va = s->ba_start + (t - s->ta < issue ? t - s->ta : issue) + s->ba_hold;
        if (va > avail)
            avail = va;
    }
    /* the trace: from when the wavefront waited on other wavefronts' run of
     * instructions (never before its own last one left the SIMD) */
    int b2b = s->has_q && t - s->tq <= issue;
    if (!b2b)
        s->run_start = t;
    uint64_t ready_t = b2b ? s->run_start : t;
    if (ready_t < w->t_free)
        ready_t = w->t_free;
    if (ready_t < w->t_last)
        ready_t = w->t_last;
    uint64_t lat = r->o.latency_unit & unit ? r->o.add_latency : 0;
    uint64_t held_lat = r->o.hold && unit == RFT_REPLAY_U_ALU ? lat : 0;
    /* the upper bound: every cycle in full, the held latency once */
    cost c = cost_of(r, w, lat, issue);
    uint64_t rr = t;
    if (r->timed) {
        uint64_t ready = ready_at(r, w, ready_t, c.lds);
        for (uint32_t i = 0; i < w->g_mov; i++) {     /* injected MOVs first */
            uint64_t m = ready > avail ? ready : avail;
            ready = avail = m + r->o.mov_cycles;
        }
        rr = ready > avail ? ready : avail;
    }
    s->has_q = 1;
    s->tq = t;
    s->bq_start = rr;
    s->bq_extra = c.extra;
    if (unit == RFT_REPLAY_U_ALU) {
        s->has_a = 1;
        s->ta = t;
        s->ba_start = rr;
        s->ba_hold = held_lat;
    }
    s->q_key = w->key;
    s->q_wave = (uint32_t)(w - r->w);
    w->t_free = t + issue;
    return done(r, w, t, rr, c.a, c.added);
}

static void drop(replay *r, uint32_t i)
{
    wave *w = &r->w[i];
    uint64_t gk = (uint64_t)w->kernel << 32 | w->wg, *v;
    if (r->o.degraded_scs && w->wg != RFT_NO_WG && (v = rft_map_get(&r->wgmap, gk))) {
        /* a group is gone when every wavefront begun in it ended */
        if (G_ALIVE(*v) <= 1)
            rft_map_del(&r->wgmap, gk);
        else
            *v = GROUP(G_BEGUN(*v), G_ASSIGNED(*v), G_ALIVE(*v) - 1);
    }
    rft_map_del(&r->wmap, w->key);
    w->key = UINT64_MAX;
    r->freel[r->nfree++] = i;
}

/* SC healing: whether w, the k-th wavefront of its work-group to begin,
 * is shadowed by a redundant one (the group's n wavefronts begun so far
 * need rft_heal_group_rule's extra ones). */
static void twins(replay *r, wave *w)
{
    uint64_t *v = rft_map_get(&r->wgmap, (uint64_t)w->kernel << 32 | w->wg);
    if (!v)
        return;
    uint32_t n = G_BEGUN(*v), k = G_ASSIGNED(*v);
    rft_heal_group hg;
    uint32_t nsc = r->geom.block_lanes;
    uint64_t deg = r->o.degraded_scs >= 64 ? ~0ull : (1ull << r->o.degraded_scs) - 1;
    if (rft_heal_group_rule(n * r->geom.lanes, deg, nsc, r->geom.lanes, r->o.max_wg, r->o.wfrule,
                            &hg) == 0 && hg.wf_healthy > hg.wf_naive)
        w->twins = k < hg.wf_healthy - hg.wf_naive ? 1 + (k == 0 && hg.wf_healthy - hg.wf_naive > n
                                                             ? hg.wf_healthy - hg.wf_naive - n : 0)
                                                  : 0;
    *v = GROUP(n, k + 1, G_ALIVE(*v));
}

/* Close the open event of wave i. */
static int close_event(replay *r, uint32_t i)
{
    wave *w = &r->w[i];
    int g = w->grp, e;
    uint64_t t = w->g_t;
    w->grp = 0;
    if ((g & G_BEGIN) && r->o.degraded_scs && w->wg != RFT_NO_WG)
        twins(r, w);
    if (g & G_BEGIN) {     /* its writes: presets */
        uint64_t rr = t + (r->timed ? r->sl[w->slice].end_late : 0);
        w->t_last = t;
        w->r_last = rr;
        w->a_last = 0;
        w->due_max = (int64_t)(rr - t);
        written(w, w->due_max);
        event(r, w, t, rr);
    } else if ((g & G_INSTR) && (e = instruction(r, w, t)))
        return e;
    if (g & G_END) {       /* after its last result */
        uint64_t rr = t;
        if (r->timed) {
            int64_t late = lateness(r, w, w->due_max);
            rr = late > -(int64_t)t ? (uint64_t)((int64_t)t + late) : 0;
            r->sl[w->slice].end_late = rr > t ? rr - t : 0;
        }
        event(r, w, t, rr);
        drop(r, i);
    }
    w->g_wake = w->g_mov = w->g_misp = w->g_lds = 0;
    w->g_unit = 0;
    w->g_src = INT64_MIN;
    w->nwl = 0;
    return 0;
}

static int close_all(replay *r)
{
    for (uint32_t k = 0; k < r->nopen; k++) {
        int e;
        if (r->w[r->open[k]].grp && (e = close_event(r, r->open[k])))
            return e;
    }
    r->nopen = 0;
    return 0;
}

/* Open (or join) the event of wave i at cycle t. */
static int join(replay *r, uint32_t i, int g)
{
    wave *w = &r->w[i];
    if (!w->grp) {
        if (grow((void **)&r->open, &r->opencap, r->nopen + 1, sizeof *r->open))
            return oom(r);
        r->open[r->nopen++] = i;
        w->g_t = r->now;
    }
    w->grp |= g;
    return 0;
}

/* ---- records ---------------------------------------------------------------------- */
static long slice_index(replay *r, uint16_t cu, uint16_t simd)
{
    long k = rft_slices_find(&r->slice_of, cu, simd);
    if (k >= 0)
        return k;
    if (grow((void **)&r->sl, &r->slcap, r->nsl + 1, sizeof *r->sl) ||
        rft_slices_put(&r->slice_of, cu, simd, r->nsl))
        return -1;
    slice *s = &r->sl[r->nsl];
    memset(s, 0, sizeof *s);
    s->cu = cu;
    s->simd = simd;
    return r->nsl++;
}

/* The slot of kernel index k in ks, kname and kidx, made when first met:
 * 0, or RFT_EMEM. */
static int kernel_slot(replay *r, uint32_t k, uint32_t *slot)
{
    uint64_t *x = rft_map_get(&r->kmap, k);
    if (x) {
        *slot = (uint32_t)*x;
        return 0;
    }
    uint32_t i = r->nk;
    if (grow((void **)&r->kname, &r->kcap, i + 1, sizeof *r->kname) ||
        grow((void **)&r->ks, &r->kstcap, i + 1, sizeof *r->ks) ||
        grow((void **)&r->kidx, &r->kidxcap, i + 1, sizeof *r->kidx) || rft_map_put(&r->kmap, k, i))
        return RFT_EMEM;
    r->kname[i] = NULL;
    memset(&r->ks[i], 0, sizeof r->ks[i]);
    r->kidx[i] = k;
    r->nk = i + 1;
    *slot = i;
    return 0;
}

static int on_kernel(replay *r, const rft_kernel *k)
{
    uint32_t slot;
    if (kernel_slot(r, k->index, &slot))
        return oom(r);
    char *n = malloc((size_t)k->name_len + 1);
    if (!n)
        return oom(r);
    if (k->name_len)
        memcpy(n, k->name, k->name_len);
    n[k->name_len] = 0;
    free(r->kname[slot]);
    r->kname[slot] = n;
    return 0;
}

static int on_begin(replay *r, const rft_wfbegin *b)
{
    uint64_t key = rft_wf_key(b->cu, b->simd, b->wf);
    uint64_t *v = rft_map_get(&r->wmap, key);
    int e;
    if (v) {    /* the same wavefront again: its end first, if it ended at this cycle */
        if (!(r->w[*v].grp & G_END))
            return rft_stage_fail(&r->st, RFT_EFORMAT, "wavefront %u begins again on slice %u:%u "
                                  "before it ended", b->wf, b->cu, b->simd);
        if ((e = close_event(r, (uint32_t)*v)))
            return e;
    }
    long si = slice_index(r, b->cu, b->simd);
    if (si < 0)
        return oom(r);
    uint32_t i;
    if (r->nfree) {
        i = r->freel[--r->nfree];
    } else {
        uint32_t old = r->wcap;
        uint64_t more = (uint64_t)(old ? old : 8) * (sizeof *r->w + sizeof *r->freel);
        if (r->nw + 1 > old && charge(r, more, b))
            return RFT_EMEM;
        if (grow((void **)&r->w, &r->wcap, r->nw + 1, sizeof *r->w))
            return oom(r);
        if (r->wcap != old) {   /* room to free every wave */
            void *f = realloc(r->freel, (size_t)r->wcap * sizeof *r->freel);
            if (!f)
                return oom(r);
            r->freel = f;
        }
        i = r->nw++;
        r->w[i].due = NULL;
        r->w[i].cap = 0;
    }
    wave *w = &r->w[i];
    int64_t *due = w->due;
    uint16_t cap = w->cap;
    memset(w, 0, sizeof *w);
    w->due = due;
    w->cap = cap;
    w->key = key;
    w->slice = (uint32_t)si;
    w->kernel = b->kernel;
    w->wg = b->wg;
    w->kslice = UINT32_MAX;
    w->kslot = UINT32_MAX;
    if (r->o.degraded_scs && b->wg != RFT_NO_WG) {
        uint64_t gk = (uint64_t)b->kernel << 32 | b->wg, *g = rft_map_get(&r->wgmap, gk);
        uint64_t nv = g ? GROUP(G_BEGUN(*g) + 1, G_ASSIGNED(*g), G_ALIVE(*g) + 1) : GROUP(1, 0, 1);
        if (G_BEGUN(nv) >= 0x1fffff || rft_map_put(&r->wgmap, gk, nv))
            return oom(r);
    }
    w->nregs = b->nregs;
    if (rft_map_put(&r->wmap, key, i))
        return oom(r);
    if (b->kernel != RFT_NO_KERNEL) {
        if (kernel_slot(r, b->kernel, &w->kslot))
            return oom(r);
        uint64_t kk = (uint64_t)b->kernel << 32 | (uint32_t)si;
        uint64_t *x = rft_map_get(&r->ksmap, kk);
        if (!x) {
            if (grow((void **)&r->kss, &r->kscap, r->nkss + 1, sizeof *r->kss) ||
                rft_map_put(&r->ksmap, kk, r->nkss))
                return oom(r);
            r->kss[r->nkss] = (kslice){r->now, r->now, 0, w->kslot};
            x = rft_map_get(&r->ksmap, kk);
            r->nkss++;
        }
        w->kslice = (uint32_t)*x;
    }
    int fresh = 0;
    if (b->nregs > w->cap) {
        if (charge(r, (uint64_t)(b->nregs - w->cap) * (sizeof *w->due + sizeof *w->wl + 1), b))
            return RFT_EMEM;
        /* calloc, not realloc: the old contents are cleared anyway, and a
         * large block comes as zero pages, paid for when touched */
        free(w->due);
        w->due = calloc(b->nregs, sizeof *w->due + sizeof *w->wl + 1);
        w->cap = w->due ? b->nregs : 0;
        if (!w->due)
            return oom(r);
        fresh = 1;
    }
    w->wl = (uint16_t *)(w->due + w->cap);
    w->place = (uint8_t *)(w->wl + w->cap);
    if (!fresh) {
        memset(w->due, 0, (size_t)b->nregs * sizeof *w->due);
        memset(w->place, 0, b->nregs);
    }
    w->g_src = INT64_MIN;
    return join(r, i, G_BEGIN);
}

static int find(replay *r, const char *what, uint16_t cu, uint16_t simd, uint32_t wf, uint32_t *i)
{
    uint64_t *v = rft_map_get(&r->wmap, rft_wf_key(cu, simd, wf));
    if (!v)
        return rft_stage_fail(&r->st, RFT_EFORMAT, "%s of wavefront %u on slice %u:%u, which has "
                              "not begun", what, wf, cu, simd);
    *i = (uint32_t)*v;
    return 0;
}

/* Scheme events of a write (replay.h). */
static void write_events(replay *r, wave *w, const rft_write *x)
{
    if (!r->o.scheme)
        return;
    if (x->on_bits != RFT_NO_GATE) {    /* rft-gate */
        w->g_wake += (x->flags & RFT_WF_WAKEUP) != 0;
        w->g_mov += (x->flags & RFT_WF_MOV) != 0;
    }
    if (r->patched && w->pend)
        rft_patch_write_cost(&r->geom, &r->po, x, &w->pend, w->place, w->nregs, w->full, &w->have_full,
                             &w->g_mov, &w->g_misp);
}

static int pass(replay *r, rft_rec *rec, const rft_sink *out)
{
    return r->o.pass ? out->put(out->ctx, rec) : 0;
}

static int feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    replay *r = (replay *)st;
    uint16_t cu, simd;
    uint32_t wf, i;
    int e;
    if (r->idle)
        return pass(r, rec, out);
    if (rec->kind == RFT_KERNEL)
        return (e = on_kernel(r, &rec->u.kernel)) ? e : pass(r, rec, out);
    if (rec->kind == RFT_PATCH) {
        rft_patch_rec p;
        if (rft_patch_parse(rec->raw, rec->len, &p))
            return rft_stage_fail(st, RFT_EFORMAT, "malformed patch record");
        if (r->patched && r->o.scheme && !(e = find(r, "patch", p.cu, p.simd, p.wf, &i)))
            r->w[i].pend = p.place;
        else if (r->patched && r->o.scheme)
            return e;
        return pass(r, rec, out);
    }
    rft_unitrec u = {0};
    int unitrec = rec->kind == RFT_UNITREC;
    if (unitrec) {
        if (rft_unit_parse(rec->raw, rec->len, &u))
            return rft_stage_fail(st, RFT_EFORMAT, "malformed unit record");
        cu = u.cu, simd = u.simd, wf = u.wf;
    } else if (!rft_rec_wf(rec, &cu, &simd, &wf)) {
        return pass(r, rec, out);
    }
    uint64_t t = unitrec ? u.cycle : rft_rec_cycle(rec);
    if (t > RFT_REPLAY_MAX_CYCLE)   /* rft(5) allows 2^64 - 1: refused, never wrapped */
        return rft_stage_fail(st, RFT_EFORMAT, "cycle %llu: the replay counts cycles below 2^62 "
                              "(rft-replay(1))", (unsigned long long)t);
    if (!r->started || t > r->now) {
        if ((e = close_all(r)))
            return e;
        r->now = t;     /* an earlier cycle counts as the open one */
        r->started = 1;
    }
    switch (rec->kind) {
    case RFT_WFBEGIN: e = on_begin(r, &rec->u.begin); break;
    case RFT_WFEND:
        if (!(e = find(r, "end", cu, simd, wf, &i)))
            e = join(r, i, G_END);
        break;
    case RFT_WRITE:
        if ((e = find(r, "write", cu, simd, wf, &i)))
            break;
        write_events(r, &r->w[i], &rec->w);
        r->w[i].g_unit |= rec->w.flags & RFT_WF_UNIT;
        if (rec->w.vreg < r->w[i].nregs && r->w[i].nwl < r->w[i].nregs)
            r->w[i].wl[r->w[i].nwl++] = rec->w.vreg;
        e = join(r, i, G_INSTR);
        break;
    case RFT_READ:
        if ((e = find(r, "read", cu, simd, wf, &i)))
            break;
        if (r->patched && r->o.scheme && rec->u.read.vreg < r->w[i].nregs &&
            r->w[i].place[rec->u.read.vreg] == RFT_PATCH_LDS)
            r->w[i].g_lds++;
        if (rec->u.read.vreg < r->w[i].nregs && r->w[i].due[rec->u.read.vreg] > r->w[i].g_src)
            r->w[i].g_src = r->w[i].due[rec->u.read.vreg];
        e = join(r, i, G_INSTR);
        break;
    case RFT_UNITREC:   /* a store's unit; a wavefront not seen (another shard's): skipped;
                           a mark (a wait at an s_waitcnt or an s_barrier): no
                           instruction, no shift (the compute-unit model's, cumodel.c) */
        if (!(u.flags & RFT_WF_MARK) && rft_map_get(&r->wmap, rft_wf_key(cu, simd, wf)) && !(e = find(r, "unit", cu, simd, wf, &i))) {
            r->w[i].g_unit |= u.flags;
            e = join(r, i, G_INSTR);
        }
        break;
    default:    /* bundle */
        if (!(e = find(r, "bundle", cu, simd, wf, &i)))
            e = join(r, i, G_INSTR);
    }
    return e ? e : pass(r, rec, out);
}

static int start(rft_stage *st, const rft_header *in, rft_header *out)
{
    replay *r = (replay *)st;
    r->geom = in->geom;
    /* a slice has block_lanes SCs: one at least stays healthy to take the work */
    if (r->o.degraded_scs >= in->geom.block_lanes && r->o.degraded_sweep)
        r->idle = 1;
    else if (r->o.degraded_scs >= in->geom.block_lanes)
        return rft_stage_fail(st, RFT_EFORMAT, "--degraded-scs %u: a slice of this stream has %u "
                              "SCs (its block lanes): at most %u can rest", r->o.degraded_scs,
                              in->geom.block_lanes, in->geom.block_lanes - 1);
    r->issue = r->o.issue ? r->o.issue : in->geom.lanes / in->geom.block_lanes;
    if (!r->issue)
        r->issue = 1;
    r->lds_issue = r->o.lds_issue != RFT_REPLAY_AUTO ? r->o.lds_issue : in->geom.lanes / 2;
    r->patched = rft_header_get(in, "dcpatch") != NULL;
    r->stages = r->o.stages != RFT_REPLAY_AUTO ? r->o.stages : r->patched && r->o.scheme ? 2 : 0;
    const char *im = rft_header_get(in, "issue_model");
    r->timed = !im || r->o.trust;
    if (im) {
        r->issue_model = malloc(strlen(im) + 1);
        if (!r->issue_model)
            return oom(r);
        strcpy(r->issue_model, im);
    }
    return 0;
}

/* ---- the result ------------------------------------------------------------------- */
static void row_of(rft_replay_row *w, const stats *x, int timed)
{
    w->naive = x->seen ? x->last_t - x->first_t : 0;
    w->replayed = timed && x->seen ? x->max_r - x->min_r : 0;
    w->instructions = x->instr;
    w->added = x->added;
    w->wakeups = x->wake;
    w->movs = x->mov;
    w->mispredictions = x->misp;
    w->lds_loads = x->lds;
}

/* A kernel's index and slot, sorted by index (the rows' order). */
typedef struct { uint32_t index, slot; } kslot_of;
static int by_index(const void *a, const void *b)
{
    uint32_t x = ((const kslot_of *)a)->index, y = ((const kslot_of *)b)->index;
    return x < y ? -1 : x > y;
}

static int rows(replay *r)
{
    uint32_t n = r->nsl + r->nk + 1;
    r->rows = calloc(n, sizeof *r->rows);
    r->rowname = calloc(n, sizeof *r->rowname);
    /* the upper bound of a row over several slices: its latest slice's
     * traced end plus every cycle added to that slice (of the kernel) */
    uint64_t *kcyc = calloc(r->nk + 1, sizeof *kcyc), end = 0;
    if (!r->rows || !r->rowname || !kcyc) {
        free(kcyc);
        return oom(r);
    }
    for (uint32_t i = 0; i < r->nsl; i++) {
        rft_replay_row *w = &r->rows[r->nrows++];
        w->scope = RFT_RP_SLICE;
        w->cu = r->sl[i].cu;
        w->simd = r->sl[i].simd;
        row_of(w, &r->sl[i].st, r->timed);
        w->upper = w->naive + w->added;
        if (r->sl[i].st.last_t + w->added > end)
            end = r->sl[i].st.last_t + w->added;
    }
    for (uint32_t i = 0; i < r->nkss; i++)
        if (r->kss[i].last + r->kss[i].added > kcyc[r->kss[i].kslot])
            kcyc[r->kss[i].kslot] = r->kss[i].last + r->kss[i].added;
    /* kernels by name, launches added up, in the order of their indexes */
    kslot_of *order = malloc((r->nk + 1) * sizeof *order);
    if (!order) {
        free(kcyc);
        return oom(r);
    }
    for (uint32_t k = 0; k < r->nk; k++)
        order[k] = (kslot_of){r->kidx[k], k};
    qsort(order, r->nk, sizeof *order, by_index);
    for (uint32_t o = 0; o < r->nk; o++) {
        uint32_t k = order[o].slot;
        if (!r->ks[k].seen)
            continue;
        const char *name = r->kname[k] ? r->kname[k] : "?";
        rft_replay_row *w = NULL;
        uint32_t j;
        for (j = r->nsl; j < r->nrows; j++)
            if (strcmp(r->rows[j].name, name) == 0)
                w = &r->rows[j];
        rft_replay_row one = {0};
        row_of(&one, &r->ks[k], r->timed);
        one.upper = (kcyc[k] > r->ks[k].last_t ? kcyc[k] : r->ks[k].last_t) - r->ks[k].first_t;
        if (!w) {
            w = &r->rows[r->nrows];
            r->rowname[r->nrows] = malloc(strlen(name) + 1);
            if (!r->rowname[r->nrows]) {
                free(kcyc);
                free(order);
                return oom(r);
            }
            strcpy(r->rowname[r->nrows], name);
            *w = one;
            w->scope = RFT_RP_KERNEL;
            w->name = r->rowname[r->nrows++];
            continue;
        }
        w->naive += one.naive, w->replayed += one.replayed, w->upper += one.upper;
        w->instructions += one.instructions, w->added += one.added, w->wakeups += one.wakeups;
        w->movs += one.movs, w->mispredictions += one.mispredictions, w->lds_loads += one.lds_loads;
    }
    free(kcyc);
    free(order);
    rft_replay_row *w = &r->rows[r->nrows++];
    w->scope = RFT_RP_TOTAL;
    uint64_t first = 0, last = 0;
    if (r->st.whole && r->total.seen &&
        rft_whole_span(r->st.whole, RFT_WFBEGIN, RFT_BUNDLE, &first, &last)) {
        /* a shard: the whole input's traced span, its replay from the
         * whole's first record (a slice's first, a begin, is replayed at its
         * traced cycle), so that the shards' largest total is the whole's */
        r->total.first_t = r->total.min_r = first;
        r->total.last_t = last;
    }
    row_of(w, &r->total, r->timed);
    w->upper = r->total.seen ? (end > r->total.last_t ? end : r->total.last_t) - r->total.first_t : 0;
    return 0;
}

static const char *const cnames[] = {"cycles_naive", "cycles_replayed", "cycles_upper",
                                     "instructions", "added_cycles", "wakeups", "movs",
                                     "mispredictions", "lds_loads", "replayed"};

static int emit(replay *r, const rft_sink *out)
{
    for (uint32_t i = 0; i < r->nrows; i++) {
        const rft_replay_row *w = &r->rows[i];
        char scope[RFT_MAX_SCOPE + 1];
        if (w->scope == RFT_RP_SLICE)
            snprintf(scope, sizeof scope, "slice %u:%u", w->cu, w->simd);
        else if (w->scope == RFT_RP_KERNEL)
            snprintf(scope, sizeof scope, "kernel %.*s", RFT_MAX_STR, w->name);
        else
            snprintf(scope, sizeof scope, "total");
        const uint64_t v[] = {w->naive, w->replayed, w->upper, w->instructions, w->added,
                              w->wakeups, w->movs, w->mispredictions, w->lds_loads,
                              (uint64_t)r->timed};
        rft_counters_set(&r->c, "rft-replay", scope, cnames, v, (int)(sizeof v / sizeof v[0]));
        int e = rft_sink_raw(out, RFT_COUNTERS, r->buf, rft_counters_encode(&r->c, r->buf));
        if (e)
            return e;
    }
    return 0;
}

static int finish(rft_stage *st, const rft_sink *out)
{
    replay *r = (replay *)st;
    int e = close_all(r);
    if (e)
        return e;
    if ((e = rows(r)))
        return e;
    return r->o.emit ? emit(r, out) : 0;
}

static void replay_free(rft_stage *st)
{
    replay *r = (replay *)st;
    for (uint32_t i = 0; i < r->nw; i++)
        free(r->w[i].due);
    free(r->w);
    free(r->freel);
    free(r->open);
    free(r->sl);
    for (uint32_t i = 0; i < r->nk; i++)
        free(r->kname[i]);
    free(r->kname);
    free(r->ks);
    free(r->kidx);
    rft_map_free(&r->kmap);
    free(r->kss);
    for (uint32_t i = 0; r->rowname && i < r->nrows; i++)
        free(r->rowname[i]);
    free(r->rowname);
    free(r->rows);
    free(r->issue_model);
    rft_map_free(&r->wmap);
    rft_map_free(&r->ksmap);
    rft_map_free(&r->wgmap);
    rft_map_free(&r->lmap);
    free(r->lu);
    rft_slices_free(&r->slice_of);
    free(r);
}

static const rft_stage_ops ops = {"rft-replay", start, feed, finish, replay_free, 1};

rft_stage *rft_replay_new(const rft_replay_opts *o)
{
    replay *r = rft_stage_alloc(sizeof *r, &ops);
    if (!r)
        return NULL;
    r->o = *o;
    rft_pattern_opts_default(&r->po);
    if (rft_slices_init(&r->slice_of) || rft_map_init(&r->wmap, 64) || rft_map_init(&r->ksmap, 64) || rft_map_init(&r->kmap, 16) ||
        rft_map_init(&r->wgmap, 64) || rft_map_init(&r->lmap, 16)) {
        replay_free(&r->st);
        return NULL;
    }
    return &r->st;
}

int rft_replay_timed(const rft_stage *s, const char **why)
{
    const replay *r = (const replay *)s;
    if (why)
        *why = r->issue_model;
    return r->timed;
}

uint32_t rft_replay_stages(const rft_stage *s) { return ((const replay *)s)->stages; }
uint32_t rft_replay_nrows(const rft_stage *s) { return ((const replay *)s)->nrows; }
const rft_replay_row *rft_replay_get(const rft_stage *s, uint32_t i)
{
    const replay *r = (const replay *)s;
    return i < r->nrows ? &r->rows[i] : NULL;
}

/* ---- a replay riding inside another stage ---------------------------------------- */
static int ride_nothing(void *ctx, rft_rec *rec) { (void)ctx; (void)rec; return 0; }
static const rft_sink ride_none = {ride_nothing, NULL};

int rft_replay_rider(const rft_replay_opts *o, const rft_header *in, rft_stage **rp)
{
    rft_replay_opts ro = *o;
    ro.pass = ro.emit = 0;
    if (!(*rp = rft_replay_new(&ro)))
        return RFT_EMEM;
    rft_header h;
    int e = rft_stage_start(*rp, in, &h);
    rft_header_free(&h);
    return e;
}

int rft_replay_ride(rft_stage *s, rft_rec *rec) { return rft_stage_feed(s, rec, &ride_none); }
int rft_replay_ride_end(rft_stage *s) { return rft_stage_finish(s, &ride_none); }
