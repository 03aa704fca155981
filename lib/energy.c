/* energy.c - the energy models of rft-energy(1) (see energy.h). */
#include "energy.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parameters ------------------------------------------------------------ */
/* "%.2f" (or "%.0f") of any double: sign, DBL_MAX_10_EXP + 1 digits, point,
 * decimals.  The notes are sized from it (energy.h), so none is ever cut. */
#define FIXED_CHARS (DBL_MAX_10_EXP + 8)
_Static_assert(RFT_ENOTE_LEN > 3 * (FIXED_CHARS + 16) + 2 * FIXED_CHARS + 2 * 32 + 128,
               "a note of a derived point fits");
_Static_assert(RFT_ENOTE_LEN > RFT_PARAM_VAL_MAX, "a note.* value fits");

typedef struct {
    rft_params *ps;
    char *why;
    size_t whylen;
} ld;

static int num(ld *l, const char *key, double lo, double *v)
{
    return rft_params_num(l->ps, key, 1, lo, v, l->why, l->whylen) ? RFT_EFORMAT : 0;
}

/* A positive number (clock, geometry). */
static int pos(ld *l, const char *key, double *v)
{
    if (num(l, key, 0, v))
        return RFT_EFORMAT;
    if (*v <= 0)
        return rft_param_fail(rft_params_find(l->ps, key), l->why, l->whylen,
                              "%s: must be above 0", key);
    return 0;
}

/* A share, 0 to 1. */
static int share(ld *l, const char *key, double *v)
{
    if (num(l, key, 0, v))
        return RFT_EFORMAT;
    if (*v > 1)
        return rft_param_fail(rft_params_find(l->ps, key), l->why, l->whylen,
                              "%s: '%s' is not a share from 0 to 1", key, rft_params_str(l->ps, key));
    return 0;
}

/* A whole number in [lo, hi]. */
static int whole(ld *l, const char *key, double lo, double hi, uint32_t *v)
{
    double x;
    if (num(l, key, 0, &x))
        return RFT_EFORMAT;
    if (x != floor(x) || x < lo || x > hi)
        return rft_param_fail(rft_params_find(l->ps, key), l->why, l->whylen,
                              "%s: '%s' is not a whole number from %g to %g", key,
                              rft_params_str(l->ps, key), lo, hi);
    *v = (uint32_t)x;
    return 0;
}

static void note(rft_eparams *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(rft_eparams *e, const char *fmt, ...)
{
    if (e->nnotes == RFT_ENOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->note[e->nnotes++], RFT_ENOTE_LEN, fmt, ap);
    va_end(ap);
}

const char *const rft_epoint_field[3] = {"read_pj", "write_pj", "static_mw"};

int rft_eparams_point(const rft_eparams *e, const char *name)
{
    for (int i = 0; i < e->npt; i++)
        if (strcmp(e->pt[i].name, name) == 0)
            return i;
    return -1;
}

/* The points slice.NAME.* of the undervolt model, in file order. */
static int load_points(rft_eparams *e, ld *l)
{
    rft_params *ps = l->ps;
    for (int i = 0; i < ps->n; i++) {
        const char *k = ps->p[i].key;
        if (strncmp(k, "slice.", 6) != 0)
            continue;
        const char *dot = strchr(k + 6, '.');
        size_t n = dot ? (size_t)(dot - k - 6) : 0;
        if (!dot || n == 0 || n >= sizeof e->pt[0].name)
            continue;   /* refused later as an unknown key */
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)n, k + 6);
        if (rft_eparams_point(e, name) >= 0)
            continue;
        if (e->npt == RFT_EPOINTS) {
            snprintf(l->why, l->whylen, "%s: more than %d slice points", ps->name, RFT_EPOINTS);
            return RFT_EFORMAT;
        }
        rft_epoint *p = &e->pt[e->npt++];
        memset(p, 0, sizeof *p);
        snprintf(p->name, sizeof p->name, "%s", name);
        p->from = -1;
    }
    /* values: given, or derived from another point (dynamic ~ Vdd^2,
     * static ~ Vdd: seed 001 V-B) */
    for (int i = 0; i < e->npt; i++) {
        rft_epoint *p = &e->pt[i];
        char key[96], dk[96];
        snprintf(key, sizeof key, "slice.%s.vdd_mv", p->name);
        if (pos(l, key, &p->vdd_mv))
            return RFT_EFORMAT;
        snprintf(dk, sizeof dk, "slice.%s.derive", p->name);
        const rft_param *d = rft_params_find(ps, dk);
        int from = -1;
        if (d) {
            from = rft_eparams_point(e, d->val);
            if (from < 0 || from == i)
                return rft_param_fail(d, l->why, l->whylen, "%s: '%s' is not another slice point",
                                      dk, d->val);
            char fk[96];    /* d->val is a point's name: at most 31 bytes */
            snprintf(fk, sizeof fk, "slice.%s.derive", d->val);
            if (rft_params_find(ps, fk))
                return rft_param_fail(d, l->why, l->whylen, "%s: point '%s' is itself derived",
                                      dk, d->val);
        }
        double *val[] = {&p->read_pj, &p->write_pj, &p->static_mw};
        for (int f = 0; f < 3; f++) {
            snprintf(key, sizeof key, "slice.%s.%s", p->name, rft_epoint_field[f]);
            int rc = rft_params_num(ps, key, from < 0, 0, val[f], l->why, l->whylen);
            if (rc < 0)
                return RFT_EFORMAT;
            if (rc == 1) {      /* derived below, once its source is read */
                p->from = from;
                p->derived |= 1u << f;
            }
        }
    }
    for (int i = 0; i < e->npt; i++) {
        rft_epoint *p = &e->pt[i];
        if (!p->derived)
            continue;
        const rft_epoint *s = &e->pt[p->from];
        double r = p->vdd_mv / s->vdd_mv;
        double *val[] = {&p->read_pj, &p->write_pj, &p->static_mw};
        double from[] = {s->read_pj * r * r, s->write_pj * r * r, s->static_mw * r};
        char what[3 * (FIXED_CHARS + 16)] = "";     /* room for the three */
        size_t n = 0;
        for (int f = 0; f < 3; f++) {
            if (!(p->derived & 1u << f))
                continue;
            *val[f] = from[f];
            n += (size_t)snprintf(what + n, sizeof what - n, "%s%s %.2f %s", n ? ", " : "",
                                  f == 0 ? "read" : f == 1 ? "write" : "static", from[f],
                                  f == 2 ? "mW" : "pJ");
        }
        note(e, "slice at %s (%.0f mV): %s, from %s at %.0f mV (dynamic energy ~ Vdd^2, "
                "static power ~ Vdd, seed 001 V-B)",
             p->name, p->vdd_mv, what, s->name, s->vdd_mv);
    }
    return 0;
}

static int load_undervolt(rft_eparams *e, ld *l)
{
    if (load_points(e, l))
        return RFT_EFORMAT;
    e->conv = rft_eparams_point(e, "conv");
    e->smooth = rft_eparams_point(e, "smooth");
    if (e->conv < 0 || e->smooth < 0) {
        snprintf(l->why, l->whylen, "%s: missing key 'slice.%s.vdd_mv'", l->ps->name,
                 e->conv < 0 ? "conv" : "smooth");
        return RFT_EFORMAT;
    }
    if (num(l, "com.write_pj", 0, &e->com_pj) || num(l, "com.static_mw", 0, &e->com_mw) ||
        num(l, "com.units", 0, &e->com_units) || num(l, "dec.read_pj", 0, &e->dec_pj) ||
        num(l, "dec.static_mw", 0, &e->dec_mw) || num(l, "dec.units", 0, &e->dec_units) ||
        num(l, "pt.read_pj", 0, &e->ptab_read_pj) || num(l, "pt.write_pj", 0, &e->ptab_write_pj) ||
        num(l, "pt.static_mw", 0, &e->ptab_mw) || num(l, "psu.search_pj", 0, &e->psu_pj) ||
        num(l, "psu.static_mw", 0, &e->psu_mw) || num(l, "perf.lds_load_cycles", 0, &e->lds_load_cycles))
        return RFT_EFORMAT;
    /* LDS: given per register, or as that many blocks of a slice point */
    int given = rft_params_find(l->ps, "lds.load_pj") || rft_params_find(l->ps, "lds.store_pj");
    if (given) {
        if (num(l, "lds.load_pj", 0, &e->lds_load_pj) || num(l, "lds.store_pj", 0, &e->lds_store_pj))
            return RFT_EFORMAT;
    } else {
        double blocks;
        const char *pname = rft_params_str(l->ps, "lds.point");
        if (num(l, "lds.blocks", 0, &blocks))
            return RFT_EFORMAT;
        int p = pname ? rft_eparams_point(e, pname) : -1;
        if (p < 0) {
            const rft_param *q = rft_params_find(l->ps, "lds.point");
            if (q)
                rft_param_fail(q, l->why, l->whylen, "lds.point: '%s' is not a slice point", q->val);
            else
                snprintf(l->why, l->whylen, "%s: missing key 'lds.load_pj' (or lds.blocks and lds.point)",
                         l->ps->name);
            return RFT_EFORMAT;
        }
        e->lds_load_pj = blocks * e->pt[p].read_pj;
        e->lds_store_pj = blocks * e->pt[p].write_pj;
        note(e, "LDS: a spilled register load %.2f pJ, store %.2f pJ: %g block accesses of the "
                "slice at %s (no LDS number in seed 001)",
             e->lds_load_pj, e->lds_store_pj, blocks, e->pt[p].name);
    }
    return 0;
}

static int load_gating(rft_eparams *e, ld *l)
{
    if (num(l, "slice.read_pj", 0, &e->slice_read_pj) || num(l, "slice.write_pj", 0, &e->slice_write_pj) ||
        num(l, "slice.leak_mw", 0, &e->slice_leak_mw) || share(l, "slice.off_leak", &e->off_leak) ||
        num(l, "ctable.read_pj", 0, &e->ct_read_pj) || num(l, "ctable.write_pj", 0, &e->ct_write_pj) ||
        num(l, "ctable.leak_mw", 0, &e->ct_leak_mw) || num(l, "rc.comp_pj", 0, &e->rc_comp_pj) ||
        num(l, "rc.comp_mw", 0, &e->rc_comp_mw) || num(l, "rc.decomp_pj", 0, &e->rc_decomp_pj) ||
        num(l, "rc.decomp_mw", 0, &e->rc_decomp_mw) || num(l, "wc.comp_pj", 0, &e->wc_comp_pj) ||
        num(l, "wc.comp_mw", 0, &e->wc_comp_mw) || num(l, "wc.decomp_pj", 0, &e->wc_decomp_pj) ||
        num(l, "wc.decomp_mw", 0, &e->wc_decomp_mw) || num(l, "units.comp", 0, &e->comp_units) ||
        num(l, "units.decomp", 0, &e->decomp_units) || num(l, "wakeup.pj", 0, &e->wakeup_pj) ||
        num(l, "wakeup.cycles", 0, &e->wakeup_cycles) ||
        whole(l, "gating.bank_entries", 1, RFT_MAX_ENTRIES, &e->bank_entries))
        return RFT_EFORMAT;
    if (rft_params_find(l->ps, "alloc.base_mw") || rft_params_find(l->ps, "alloc.argo_mw")) {
        e->alloc_given = 1;     /* one without the other is a missing key */
        if (num(l, "alloc.base_mw", 0, &e->alloc_base_mw) ||
            num(l, "alloc.argo_mw", 0, &e->alloc_argo_mw))
            return RFT_EFORMAT;
    }
    return 0;
}

const char *rft_eparams_default_set(const rft_geom *g, int model)
{
    int uv = model == RFT_EM_UNDERVOLT;
    if (g && g->lanes == 32 && g->entries == 512 && g->block_lanes == 8)
        return uv ? "nvidia-undervolt-28nm" : "nvidia-gating-32nm";
    return uv ? "seed001-28nm" : "seed002-32nm";
}

int rft_eparams_load(rft_eparams *e, rft_params *ps, char *why, size_t whylen)
{
    ld l = {ps, why, whylen};
    memset(e, 0, sizeof *e);
    const rft_param *m = rft_params_find(ps, "model");
    if (!m) {
        snprintf(why, whylen, "%s: missing key 'model'", ps->name ? ps->name : "parameters");
        return RFT_EFORMAT;
    }
    if (strcmp(m->val, "undervolt") == 0)
        e->model = RFT_EM_UNDERVOLT;
    else if (strcmp(m->val, "gating") == 0)
        e->model = RFT_EM_GATING;
    else
        return rft_param_fail(m, why, whylen, "model: '%s' is not undervolt or gating", m->val);
    if (pos(&l, "clock_mhz", &e->clock_mhz) ||
        whole(&l, "geometry.lanes", 1, RFT_MAX_LANES, &e->lanes) ||
        whole(&l, "geometry.entries", 1, RFT_MAX_ENTRIES, &e->entries) ||
        whole(&l, "geometry.block_lanes", 1, RFT_MAX_LANES, &e->block_lanes) ||
        num(&l, "perf.mov_cycles", 0, &e->mov_cycles) ||
        share(&l, "perf.added_static", &e->added_static))
        return RFT_EFORMAT;
    if (e->lanes % e->block_lanes) {
        snprintf(why, whylen, "%s: geometry.block_lanes does not divide geometry.lanes",
                 ps->name ? ps->name : "parameters");
        return RFT_EFORMAT;
    }
    if (e->model == RFT_EM_UNDERVOLT ? load_undervolt(e, &l) : load_gating(e, &l))
        return RFT_EFORMAT;
    /* free-text notes of the file: assumptions it wants printed */
    int nkeys = 0;
    for (int i = 0; i < ps->n; i++)
        if (strncmp(ps->p[i].key, "note.", 5) == 0) {
            if (++nkeys > RFT_ENOTE_KEYS)
                return rft_param_fail(&ps->p[i], why, whylen, "more than %d note.* keys",
                                      RFT_ENOTE_KEYS);
            ps->p[i].used = 1;
            note(e, "%s", ps->p[i].val);
        }
    const rft_param *u = rft_params_unused(ps);
    if (u)
        return rft_param_fail(u, why, whylen, "unknown key '%s' for model %s", u->key, m->val);
    return 0;
}

/* ---- undervolt -------------------------------------------------------------------- */
/* pJ of a power in mW over c cycles */
static double over(const rft_eparams *e, double mw, double c) { return mw * c * 1000.0 / e->clock_mhz; }

static void sum(rft_eresult *r, int ncat)
{
    r->total = 0;
    for (int i = 0; i < ncat; i++)
        r->total += r->cat[i];
}

static int need(const rft_counters *c, const char *const *names, uint64_t *const *dst, int n,
                const char **missing)
{
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < c->n && strcmp(c->name[j], names[i]) != 0)
            j++;
        if (j == c->n) {
            *missing = names[i];
            return RFT_EFORMAT;
        }
        *dst[i] += c->value[j];
    }
    return 0;
}

int rft_dcp_in_from(const rft_counters *c, rft_dcp_in *in, const char **missing)
{
    static const char *const names[] = {
        "reads", "writes", "slice_cycles", "block_reads_compressed", "block_reads_uncompressed",
        "block_reads_mov", "block_writes_compressed", "block_writes_uncompressed",
        "block_writes_mispredicted", "block_writes_mov", "com_unit_blocks", "dec_unit_blocks",
        "pt_reads", "pt_writes", "psu_searches", "lds_loads", "lds_stores", "stall_cycles",
        "mov_injected"};
    uint64_t *const dst[] = {&in->reads, &in->writes, &in->slice_cycles, &in->block_reads,
                             &in->block_reads, &in->block_reads, &in->block_writes, &in->block_writes,
                             &in->block_writes, &in->block_writes, &in->com_blocks, &in->dec_blocks,
                             &in->pt_reads, &in->pt_writes, &in->psu_searches, &in->lds_loads,
                             &in->lds_stores, &in->stall_cycles, &in->movs};
    memset(in, 0, sizeof *in);
    return need(c, names, dst, (int)(sizeof names / sizeof names[0]), missing);
}

void rft_energy_conv(const rft_eparams *e, const rft_dcp_in *in, int pt, rft_eresult *r)
{
    const rft_epoint *p = &e->pt[pt];
    double B = rft_eparams_blocks(e);
    memset(r, 0, sizeof *r);
    r->vdd_mv = p->vdd_mv;
    r->cycles = (double)in->slice_cycles;
    r->cat[RFT_EU_STATIC] = over(e, p->static_mw, r->cycles);
    r->cat[RFT_EU_READ] = p->read_pj * B * (double)in->reads;
    r->cat[RFT_EU_WRITE] = p->write_pj * B * (double)in->writes;
    sum(r, RFT_EU_NCAT);
}

void rft_energy_dcpatch(const rft_eparams *e, const rft_dcp_in *in, int pt, rft_eresult *r)
{
    const rft_epoint *p = &e->pt[pt];
    memset(r, 0, sizeof *r);
    r->vdd_mv = p->vdd_mv;
    r->cycles = (double)in->slice_cycles;
    r->added = (double)in->stall_cycles + e->mov_cycles * (double)in->movs +
               e->lds_load_cycles * (double)in->lds_loads;
    if (in->bounded)            /* the two extra stages of every result counted too */
        r->added = in->bound;
    r->replay = in->replay;
    r->replayed = in->replay ? in->replayed : 0;
    double c = r->cycles + (in->leak == RFT_LEAK_TRACE ? 0
                            : in->leak == RFT_LEAK_REPLAYED && in->replay ? r->replayed
                            : e->added_static * r->added);
    r->cat[RFT_EU_STATIC] = over(e, p->static_mw, c);
    r->cat[RFT_EU_READ] = p->read_pj * (double)in->block_reads;
    r->cat[RFT_EU_WRITE] = p->write_pj * (double)in->block_writes;
    r->cat[RFT_EU_COMDEC] = e->com_pj * (double)in->com_blocks + e->dec_pj * (double)in->dec_blocks +
                            over(e, e->com_units * e->com_mw + e->dec_units * e->dec_mw, c);
    r->cat[RFT_EU_PATCH] = e->ptab_read_pj * (double)in->pt_reads +
                           e->ptab_write_pj * (double)in->pt_writes +
                           e->psu_pj * (double)in->psu_searches + over(e, e->ptab_mw + e->psu_mw, c);
    r->cat[RFT_EU_LDS] = e->lds_load_pj * (double)in->lds_loads + e->lds_store_pj * (double)in->lds_stores;
    sum(r, RFT_EU_NCAT);
}

/* ---- gating ----------------------------------------------------------------------- */
int rft_gate_in_from(const rft_counters *c, rft_gate_in *in, const char **missing)
{
    static const char *const names[] = {"slice_block_reads", "slice_block_writes", "ctable_reads",
                                        "ctable_writes", "ctable_invalidations", "comp_unit_blocks",
                                        "decomp_unit_blocks", "wakeups", "movs"};
    uint64_t *const dst[] = {&in->block_reads, &in->block_writes, &in->ct_reads, &in->ct_writes,
                             &in->ct_inval, &in->comp_blocks, &in->decomp_blocks, &in->wakeups,
                             &in->movs};
    for (int i = 0; i < 9; i++)
        *dst[i] = 0;
    return need(c, names, dst, 9, missing);
}

void rft_energy_baseline(const rft_eparams *e, const rft_gate_in *in, rft_eresult *r)
{
    double B = rft_eparams_blocks(e);
    memset(r, 0, sizeof *r);
    r->cycles = (double)in->slice_cycles;
    r->powered = 1;
    r->cat[RFT_EG_LEAK_SLICE] = over(e, e->slice_leak_mw, r->cycles);
    r->cat[RFT_EG_DYN_SLICE] = e->slice_read_pj * B * (double)in->reads +
                               e->slice_write_pj * B * (double)in->writes;
    sum(r, RFT_EG_NCAT);
}

void rft_energy_gating(const rft_eparams *e, const rft_gate_in *in, int slowdown, rft_eresult *r)
{
    double B = rft_eparams_blocks(e);
    double cells = (double)e->entries * 32.0 * e->lanes;
    memset(r, 0, sizeof *r);
    r->cycles = (double)in->slice_cycles;
    r->powered = r->cycles > 0 ? in->powered_cell_cycles / (cells * r->cycles) : 0;
    /* switched-off cells keep off_leak of their leakage */
    double share = r->powered + e->off_leak * (1 - r->powered);
    double comp_pj = 0, comp_mw = 0, decomp_pj = 0, decomp_mw = 0, ct_mw = 0;
    if (in->gate == RFT_GATE_RC) {
        comp_pj = e->rc_comp_pj, comp_mw = e->rc_comp_mw;
        decomp_pj = e->rc_decomp_pj, decomp_mw = e->rc_decomp_mw;
        ct_mw = e->ct_leak_mw;
    } else if (in->gate == RFT_GATE_WC) {
        comp_pj = e->wc_comp_pj, comp_mw = e->wc_comp_mw;
        decomp_pj = e->wc_decomp_pj, decomp_mw = e->wc_decomp_mw;
    }
    if (in->gate != RFT_GATE_NONE) {
        r->added = e->wakeup_cycles * (double)in->wakeups + e->mov_cycles * (double)in->movs;
        r->cat[RFT_EG_DYN_SLICE] = e->slice_read_pj * (double)in->block_reads +
                                   e->slice_write_pj * (double)in->block_writes;
    } else {
        r->cat[RFT_EG_DYN_SLICE] = e->slice_read_pj * B * (double)in->reads +
                                   e->slice_write_pj * B * (double)in->writes;
    }
    if (in->bounded)
        r->added = in->bound;
    double added = e->added_static * r->added, c = r->cycles + (slowdown ? added : 0);
    r->replay = in->replay;
    r->replayed = in->replay ? in->replayed : 0;
    if (!slowdown && in->leak == RFT_LEAK_REPLAYED && in->replay)
        c = r->cycles + r->replayed;
    double slice_mw = e->slice_leak_mw * share;
    double logic_mw = e->comp_units * comp_mw + e->decomp_units * decomp_mw + ct_mw;
    r->cat[RFT_EG_LEAK_SLICE] = over(e, slice_mw, c);
    r->cat[RFT_EG_LEAK_LOGIC] = over(e, logic_mw, c);
    r->slowdown_leak = over(e, slice_mw + logic_mw, added);
    r->cat[RFT_EG_DYN_LOGIC] = comp_pj * (double)in->comp_blocks + decomp_pj * (double)in->decomp_blocks +
                               e->ct_read_pj * (double)in->ct_reads +
                               e->ct_write_pj * (double)(in->ct_writes + in->ct_inval);
    r->cat[RFT_EG_WAKEUP] = e->wakeup_pj * (double)(in->wakeups + in->alloc_wakeups);
    sum(r, RFT_EG_NCAT);
}

double rft_energy_mw_per_cu(const rft_eparams *e, double pj, double slice_cycles,
                            double slices_per_cu)
{
    /* pJ over ns is mW; a cycle is 1000 / clock_mhz ns */
    return slice_cycles > 0 ? pj * slices_per_cu / (slice_cycles * 1000.0 / e->clock_mhz) : 0;
}

/* ---- powered cells ---------------------------------------------------------------- */
int rft_power_init(rft_power *p, uint32_t entries, uint32_t full, uint32_t bank, uint64_t t0)
{
    memset(p, 0, sizeof *p);
    p->entries = entries;
    p->full = full;
    p->bank = bank ? bank : 1;
    p->t = p->t0 = t0;
    /* every entry on until the placement says otherwise (no bit off, no
     * bank off: zeros, fresh pages touched only where written); those never
     * taken are taken out at the end */
    p->off = calloc(entries, sizeof *p->off);
    p->st = calloc(entries, 1);
    if (!p->off || !p->st) {
        rft_power_free(p);
        return RFT_EMEM;
    }
    p->on = (uint64_t)entries * full;
    return 0;
}

void rft_power_free(rft_power *p)
{
    free(p->off);
    free(p->st);
    p->off = NULL;
    p->st = NULL;
}

static void advance(rft_power *p, uint64_t t)
{
    if (t > p->t) {
        p->acc += p->on * (t - p->t);
        p->t = t;
    }
}

/* Gated placement: switch the bank holding entry i off when none of its
 * entries is in a window, on (every cell: the old values are lost) when
 * one is. */
static void settle_bank(rft_power *p, uint32_t i)
{
    uint32_t b0 = i / p->bank * p->bank, b1 = b0 + p->bank;
    if (b1 > p->entries)
        b1 = p->entries;
    int off = 1;
    for (uint32_t j = b0; j < b1 && off; j++)
        off = !(p->st[j] & RFT_PW_WINDOW);
    int was_on = !(p->st[b0] & RFT_PW_BANKOFF);
    if (off == !was_on)
        return;
    for (uint32_t j = b0; j < b1; j++) {
        if (off) {
            p->on -= p->full - p->off[j];
            p->st[j] |= RFT_PW_BANKOFF;
        } else {
            p->off[j] = 0;
            p->on += p->full;
            p->st[j] &= (uint8_t)~RFT_PW_BANKOFF;
            p->wakeups++;
        }
    }
}

void rft_power_window(rft_power *p, uint64_t t, uint32_t base, uint32_t n, int alloc, int gated)
{
    advance(p, t);
    if (gated && !p->gated) {
        /* the first window record of the slice: under gated placement
         * every entry was off from t0 */
        p->gated = 1;
        p->acc = 0;
        for (uint32_t i = 0; i < p->entries; i += p->bank)
            settle_bank(p, i);
    }
    if (n > p->entries)
        n = p->entries;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = (base + k) % p->entries;
        if (alloc)
            p->st[i] |= RFT_PW_WINDOW | RFT_PW_TAKEN;
        else
            p->st[i] &= (uint8_t)~RFT_PW_WINDOW;
    }
    if (!p->gated)
        return;
    for (uint32_t k = 0; k < n; k++) {     /* every bank the window touches */
        uint32_t i = (base + k) % p->entries;
        if (k == 0 || i % p->bank == 0)
            settle_bank(p, i);
    }
}

void rft_power_use(rft_power *p, uint64_t t, uint32_t i)
{
    if (i < p->entries)
        p->st[i] |= RFT_PW_TAKEN;
}

void rft_power_write(rft_power *p, uint64_t t, uint32_t i, uint32_t on_bits)
{
    if (i >= p->entries)
        return;
    p->st[i] |= RFT_PW_TAKEN;
    if (on_bits == RFT_NO_GATE)
        return;
    advance(p, t);
    if (on_bits > p->full)
        on_bits = p->full;
    if (!(p->st[i] & RFT_PW_BANKOFF))
        p->on = p->on - (p->full - p->off[i]) + on_bits;
    p->off[i] = p->full - on_bits;
}

void rft_power_rebase(rft_power *p, uint64_t t0)
{
    if (t0 >= p->t0)
        return;
    if (!p->gated)
        p->acc += (uint64_t)p->entries * p->full * (p->t0 - t0);
    p->t0 = t0;
}

uint64_t rft_power_total(const rft_power *p, uint64_t t_end)
{
    uint64_t acc = p->acc + (t_end > p->t ? p->on * (t_end - p->t) : 0);
    if (p->gated || t_end <= p->t0)
        return acc;
    /* ungated placement: banks no window ever took were off all along */
    for (uint32_t b0 = 0; b0 < p->entries; b0 += p->bank) {
        uint32_t b1 = b0 + p->bank < p->entries ? b0 + p->bank : p->entries, j = b0;
        while (j < b1 && !(p->st[j] & RFT_PW_TAKEN))
            j++;
        if (j == b1)
            acc -= (uint64_t)(b1 - b0) * p->full * (t_end - p->t0);
    }
    return acc;
}
