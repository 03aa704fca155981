/* escan.c - the energy scan of a stream (escan.h). */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "energy.h"
#include "escan.h"

typedef struct escan {
    rft_stage st;
    rft_escan_opts o;
    rft_escan r;
    rft_geom geom;
    rft_slices slice_of;        /* index in sl */
    rft_map cu_of;              /* compute units seen */
    rft_power *sl;              /* powered cells per slice */
    uint32_t cap;
    int counted, adopted;       /* records counted; a scan record taken */
    rft_stage *rp;              /* the replay, or NULL */
    rft_counters c;             /* scratch: a counters record parsed or emitted */
    uint8_t buf[RFT_COUNTERS_MAX];
} escan;

#define SCAN_STAGE "rft-energy"     /* the scan record: stage, scope "scan" */
/* The scan record's fields, in order (escan.h). */
static const char *const field[] = {
    "bank_entries", "reads", "writes", "timed", "first_cycle", "last_cycle", "gated", "slices",
    "compute_units", "powered_cell_cycles", "alloc_wakeups", "dcpatch_records", "gate_records"};
enum { NFIELD = sizeof field / sizeof field[0], PCC = 9 };
/* the stages whose total counters are kept, and their prefix in the record */
static const char *const kept[] = {"rft-dcpatch", "rft-gate"};
/* the replay's fields, after the others (optional when a scan record is read) */
static const char *const rfield[] = {"replay", "replay_naive", "replay_cycles", "replay_upper"};
enum { NRFIELD = sizeof rfield / sizeof rfield[0] };

void rft_escan_opts_default(rft_escan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bank = 1;
    o->pass = 1;
    o->replay = 1;
    rft_replay_opts_default(&o->replay_opts);
}

static void fields_of(const rft_escan *r, uint64_t *v)
{
    uint64_t bits;
    memcpy(&bits, &r->powered_cell_cycles, sizeof bits);
    const uint64_t x[NFIELD] = {r->bank, r->reads, r->writes, (uint64_t)r->timed, r->first, r->last,
                                (uint64_t)r->gated, r->slices, r->cus, bits, r->alloc_wakeups,
                                (uint64_t)r->ndcpatch, (uint64_t)r->ngate};
    memcpy(v, x, sizeof x);
}

static rft_counters *kept_counters(rft_escan *r, int k) { return k ? &r->gate : &r->dcpatch; }

static int mixed(escan *s)
{
    return rft_stage_fail(&s->st, RFT_EFORMAT, "a scan record (rft-energy --scan) among records to scan");
}

/* A scan record c into r; 0, or RFT_EFORMAT and why. */
static int scan_parse(const rft_counters *c, rft_escan *r, char *why, size_t whylen)
{
    uint64_t v[NFIELD] = {0};
    int seen = 0;
    memset(r, 0, sizeof *r);
    for (int k = 0; k < 2; k++) {
        rft_counters *kc = kept_counters(r, k);
        strcpy(kc->stage, kept[k]);
        strcpy(kc->scope, "total");
    }
    for (int i = 0; i < c->n; i++) {
        const char *name = c->name[i];
        int f = 0, k = 0;
        while (f < NFIELD && strcmp(name, field[f]) != 0)
            f++;
        if (f < NFIELD) {
            v[f] = c->value[i];
            seen |= 1 << f;
            continue;
        }
        if (strcmp(name, rfield[0]) == 0 && c->value[i] <= RFT_ESCAN_ESTIMATED) {
            r->replay = (int)c->value[i];
            continue;
        }
        if (strcmp(name, rfield[1]) == 0 || strcmp(name, rfield[2]) == 0 ||
            strcmp(name, rfield[3]) == 0) {
            *(name[7] == 'n' ? &r->replay_naive : name[7] == 'c' ? &r->replay_cycles
                                                                 : &r->replay_upper) = c->value[i];
            continue;
        }
        size_t l = 0;
        while (k < 2 && !((l = strlen(kept[k])) && strncmp(name, kept[k], l) == 0 && name[l] == '.'))
            k++;
        if (k == 2) {
            snprintf(why, whylen, "scan record: unknown counter '%s'", name);
            return RFT_EFORMAT;
        }
        if (rft_counters_add(kept_counters(r, k), name + l + 1, c->value[i])) {
            snprintf(why, whylen, "scan record: too many counters");
            return RFT_EFORMAT;
        }
    }
    for (int f = 0; f < NFIELD; f++)
        if (!(seen & 1 << f)) {
            snprintf(why, whylen, "scan record: counter '%s' missing", field[f]);
            return RFT_EFORMAT;
        }
    double pcc;
    memcpy(&pcc, &v[PCC], sizeof pcc);
    if (v[0] < 1 || v[0] > RFT_MAX_ENTRIES || v[3] > 1 || v[6] > 1 || v[7] > UINT32_MAX ||
        v[8] > UINT32_MAX || v[11] > INT32_MAX || v[12] > INT32_MAX || !isfinite(pcc) || pcc < 0) {
        snprintf(why, whylen, "scan record: a counter out of its range");
        return RFT_EFORMAT;
    }
    r->bank = (uint32_t)v[0];
    r->reads = v[1], r->writes = v[2], r->timed = (int)v[3], r->first = v[4], r->last = v[5];
    r->gated = (int)v[6], r->slices = (uint32_t)v[7], r->cus = (uint32_t)v[8];
    r->powered_cell_cycles = pcc, r->alloc_wakeups = v[10];
    r->ndcpatch = (int)v[11], r->ngate = (int)v[12];
    return 0;
}

/* A scan record (in s->c) taken as the result. */
static int adopt(escan *s)
{
    char why[RFT_STAGE_WHY];
    if (s->adopted)
        return rft_stage_fail(&s->st, RFT_EFORMAT, "a second scan record (rft-energy --scan)");
    if (s->counted)
        return mixed(s);
    s->adopted = 1;
    return scan_parse(&s->c, &s->r, why, sizeof why) ? rft_stage_fail(&s->st, RFT_EFORMAT, "%s", why) : 0;
}

static int pass(escan *s, rft_rec *rec, const rft_sink *out)
{
    return s->o.pass ? out->put(out->ctx, rec) : 0;
}

static int counters(escan *s, rft_rec *rec, const rft_sink *out)
{
    rft_counters *c = &s->c;
    if (rft_counters_parse(rec->raw, rec->len, c))
        return rft_stage_fail(&s->st, RFT_EFORMAT, "malformed counters record");
    if (strcmp(c->stage, SCAN_STAGE) == 0 && strcmp(c->scope, "scan") == 0)
        return adopt(s);        /* not passed on: emitted again if asked */
    for (int k = 0; k < 2; k++)
        if (strcmp(c->scope, "total") == 0 && strcmp(c->stage, kept[k]) == 0) {
            if (s->adopted)
                return mixed(s);
            s->counted = 1;
            *kept_counters(&s->r, k) = *c;
            *(k ? &s->r.ngate : &s->r.ndcpatch) += 1;
        }
    return pass(s, rec, out);
}

/* The powered cells of slice (cu, simd), made at its first record. */
static rft_power *slice_power(escan *s, uint16_t cu, uint16_t simd)
{
    rft_escan *r = &s->r;
    long ix = rft_slices_find(&s->slice_of, cu, simd);
    if (ix >= 0)
        return &s->sl[ix];
    if (rft_stage_reserve_slice(&s->st, sizeof(rft_power) + (uint64_t)s->geom.entries * 5, NULL, cu, simd,
                                s->geom.entries))
        return NULL;
    if (r->slices == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 16;
        rft_power *n = realloc(s->sl, cap * sizeof *n);
        if (!n)
            return NULL;
        s->sl = n;
        s->cap = cap;
    }
    if (rft_power_init(&s->sl[r->slices], s->geom.entries, 32 * s->geom.lanes, s->o.bank, r->first))
        return NULL;
    if (rft_slices_put(&s->slice_of, cu, simd, r->slices)) {
        rft_power_free(&s->sl[r->slices]);
        return NULL;
    }
    if (!rft_map_get(&s->cu_of, cu)) {
        if (rft_map_put(&s->cu_of, cu, 1))
            return NULL;
        r->cus++;
    }
    return &s->sl[r->slices++];
}

static int start(rft_stage *st, const rft_header *in, rft_header *out)
{
    escan *s = (escan *)st;
    s->geom = in->geom;
    if (!s->o.replay)
        return 0;
    int e = rft_replay_rider(&s->o.replay_opts, in, &s->rp);
    if (e == RFT_EMEM && !s->rp)
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    return e ? rft_stage_fail(st, e, "%s", rft_stage_error(s->rp)) : 0;
}

/* The replay sees every record; a stream it cannot replay (out of its
 * memory budget, a malformed unit record) is an error: it is never priced
 * another way (issue 31). */
static int replay_feed(escan *s, rft_rec *rec)
{
    int e;      /* after an adopted scan record the replay is moot: records are refused */
    if (s->rp && !s->adopted && (e = rft_replay_ride(s->rp, rec)))
        return rft_stage_fail(&s->st, e, "replay: %s", rft_stage_error(s->rp));
    return 0;
}

/* The replay's result: its slices' spans, traced and replayed. */
static int replay_finish(escan *s)
{
    rft_escan *r = &s->r;
    int e;
    if (!s->rp || s->adopted)
        return 0;
    if ((e = rft_replay_ride_end(s->rp)))
        return rft_stage_fail(&s->st, e, "replay: %s", rft_stage_error(s->rp));
    r->replay = rft_replay_timed(s->rp, NULL) ? RFT_ESCAN_REPLAYED : RFT_ESCAN_ESTIMATED;
    for (uint32_t i = 0, n = rft_replay_nrows(s->rp); i < n; i++) {
        const rft_replay_row *w = rft_replay_get(s->rp, i);
        if (w->scope == RFT_RP_SLICE) {
            r->replay_naive += w->naive;
            r->replay_cycles += w->replayed;
            r->replay_upper += w->upper;
        }
    }
    return 0;
}

static int feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    escan *s = (escan *)st;
    rft_escan *r = &s->r;
    uint16_t cu, simd;
    int e = replay_feed(s, rec);
    if (e)
        return e;
    rft_alloc_rec a;
    switch (rec->kind) {
    case RFT_WFBEGIN: cu = rec->u.begin.cu, simd = rec->u.begin.simd; break;
    case RFT_WFEND: cu = rec->u.end.cu, simd = rec->u.end.simd; break;
    case RFT_WRITE: cu = rec->w.cu, simd = rec->w.simd; r->writes++; break;
    case RFT_READ: cu = rec->u.read.cu, simd = rec->u.read.simd; r->reads++; break;
    case RFT_ALLOC:
        if (rft_alloc_parse(rec->raw, rec->len, &a))
            return rft_stage_fail(st, RFT_EFORMAT, "malformed window allocation record");
        cu = a.cu, simd = a.simd;
        r->gated |= a.flags & RFT_AF_GATED;
        break;
    case RFT_COUNTERS: return counters(s, rec, out);
    default: return pass(s, rec, out);
    }
    if (s->adopted)
        return mixed(s);
    s->counted = 1;
    /* the span: begin, end, write and read records, as rft-dcpatch */
    uint64_t t = rec->kind == RFT_ALLOC ? a.cycle : rft_rec_cycle(rec);
    if (rec->kind != RFT_ALLOC) {
        if (!r->timed)
            r->first = t;
        r->timed = 1;
        r->last = t;
    }
    rft_power *pw = slice_power(s, cu, simd);
    if (!pw)
        return st->why[0] ? RFT_EMEM : rft_stage_fail(st, RFT_EMEM, "out of memory");
    if (rec->kind == RFT_ALLOC) {
        /* the stream's banks (rft-alloc --bank), unless the scan is made
         * in banks of its own */
        if (a.bank > 1 && s->o.bank > 1 && a.bank != s->o.bank)
            return rft_stage_fail(st, RFT_EFORMAT, "the stream is gated in banks of %u entries, %s in "
                                  "banks of %u (gating.bank_entries)", a.bank,
                                  s->o.bank_from ? s->o.bank_from : "the scan", s->o.bank);
        if (!pw->gated && s->o.bank == 1)
            pw->bank = a.bank;
        rft_power_window(pw, t, a.base, a.n, a.event == RFT_ALLOC_EV_ALLOC, a.flags & RFT_AF_GATED);
    } else if (rec->kind == RFT_WRITE && rec->w.phys != RFT_NO_PHYS) {
        r->gated |= rec->w.on_bits != RFT_NO_GATE;
        rft_power_write(pw, t, rec->w.phys, rec->w.on_bits);
    } else if (rec->kind == RFT_READ && rec->u.read.phys != RFT_NO_PHYS) {
        rft_power_use(pw, t, rec->u.read.phys);
    }
    return pass(s, rec, out);
}

/* r as a scan record into c; 0, or RFT_EFORMAT and why. */
static int scan_encode(const rft_escan *r, rft_counters *c, char *why, size_t whylen)
{
    uint64_t v[NFIELD];
    fields_of(r, v);
    rft_counters_set(c, SCAN_STAGE, "scan", field, v, NFIELD);
    const uint64_t rv[] = {(uint64_t)r->replay, r->replay_naive, r->replay_cycles, r->replay_upper};
    for (int i = 0; i < NRFIELD; i++)
        if (rft_counters_add(c, rfield[i], rv[i]))
            goto full;
    for (int k = 0; k < 2; k++) {
        const rft_counters *kc = k ? &r->gate : &r->dcpatch;
        for (int i = 0; (k ? r->ngate : r->ndcpatch) && i < kc->n; i++) {
            char name[sizeof c->name[0]];
            if ((size_t)snprintf(name, sizeof name, "%s.%s", kept[k], kc->name[i]) >= sizeof name) {
                snprintf(why, whylen, "counter %s of %s: a scan record holds names of %zu bytes at most",
                         kc->name[i], kept[k], sizeof name - 1);
                return RFT_EFORMAT;
            }
            if (rft_counters_add(c, name, kc->value[i]))
                goto full;
        }
    }
    return 0;
full:
    snprintf(why, whylen, "a scan record holds %d counters at most", RFT_MAX_COUNTERS);
    return RFT_EFORMAT;
}

/* The result as a scan record to out. */
static int emit(escan *s, const rft_sink *out)
{
    char why[RFT_STAGE_WHY];
    if (scan_encode(&s->r, &s->c, why, sizeof why))
        return rft_stage_fail(&s->st, RFT_EFORMAT, "%s", why);
    return rft_sink_raw(out, RFT_COUNTERS, s->buf, rft_counters_encode(&s->c, s->buf));
}

static int finish(rft_stage *st, const rft_sink *out)
{
    escan *s = (escan *)st;
    rft_escan *r = &s->r;
    int e = replay_finish(s);
    if (e)
        return e;
    uint64_t first = 0, last = 0;
    if (!s->adopted && st->whole) {
        /* a shard: the whole input's span and compute units, its slices
         * powered from the whole input's first cycle (its scans add up) */
        r->timed = rft_whole_span(st->whole, RFT_WFBEGIN, RFT_READ, &first, &last);
        r->first = first, r->last = last;
        r->cus = st->whole->cus;
        for (uint32_t i = 0; i < r->slices; i++)
            rft_power_rebase(&s->sl[i], first);
    }
    if (!s->adopted) {
        for (uint32_t i = 0; i < r->slices; i++) {
            r->powered_cell_cycles += (double)rft_power_total(&s->sl[i], r->last);
            r->alloc_wakeups += s->sl[i].wakeups;
        }
    }
    return s->o.emit ? emit(s, out) : 0;
}

static void escan_free(rft_stage *st)
{
    escan *s = (escan *)st;
    for (uint32_t i = 0; !s->adopted && i < s->r.slices; i++)
        rft_power_free(&s->sl[i]);
    free(s->sl);
    rft_slices_free(&s->slice_of);
    rft_map_free(&s->cu_of);
    rft_stage_free(s->rp);
    free(s);
}

static const rft_stage_ops ops = {SCAN_STAGE, start, feed, finish, escan_free, 1};

rft_stage *rft_escan_new(const rft_escan_opts *o)
{
    escan *s = rft_stage_alloc(sizeof *s, &ops);
    if (!s)
        return NULL;
    s->o = *o;
    s->r.bank = o->bank ? o->bank : 1;
    s->o.bank = s->r.bank;
    if (rft_slices_init(&s->slice_of) || rft_map_init(&s->cu_of, 16)) {
        escan_free(&s->st);
        return NULL;
    }
    return &s->st;
}

const rft_escan *rft_escan_result(const rft_stage *s) { return &((const escan *)s)->r; }

/* ---- the scans of a stream's shards, added up -------------------------------------- */
/* 1 if stage is one of the comma-separated stages */
static int in_list(const char *stages, const char *stage)
{
    size_t l = strlen(stage);
    for (const char *p = stages; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, stage, l) == 0 && (p[l] == ',' || !p[l]))
            return 1;
    return 0;
}

int rft_escan_merge(rft_counters *sum, const rft_counters *add, char *why, size_t whylen)
{
    return rft_escan_merge_shard(sum, add, NULL, why, whylen);
}

int rft_escan_merge_shard(rft_counters *sum, const rft_counters *add, const char *stages,
                          char *why, size_t whylen)
{
    rft_escan *a = malloc(2 * sizeof *a), *b = a + 1;
    int e = RFT_EFORMAT;
    if (!a) {
        snprintf(why, whylen, "out of memory");
        return RFT_EMEM;
    }
    if (scan_parse(sum, a, why, whylen) || scan_parse(add, b, why, whylen))
        goto out;
    /* a shard's scan holds the whole stream's span and compute units */
    if (a->bank != b->bank) {
        snprintf(why, whylen, "scans in banks of %u and %u entries", a->bank, b->bank);
        goto out;
    }
    if (a->timed != b->timed || a->first != b->first || a->last != b->last || a->cus != b->cus ||
        a->ndcpatch != b->ndcpatch || a->ngate != b->ngate) {
        snprintf(why, whylen, "scans of different streams (cycles %llu to %llu, %u compute units; "
                 "%llu to %llu, %u): not the shards of one (rft-energy --scan --shard)",
                 (unsigned long long)a->first, (unsigned long long)a->last, a->cus,
                 (unsigned long long)b->first, (unsigned long long)b->last, b->cus);
        goto out;
    }
    a->reads += b->reads;
    a->writes += b->writes;
    a->gated |= b->gated;
    a->slices += b->slices;
    a->powered_cell_cycles += b->powered_cell_cycles;
    a->alloc_wakeups += b->alloc_wakeups;
    /* the replay is of each slice alone: its spans add up; a shard not
     * replayed leaves the whole stream not replayed, as one run would */
    if (!a->replay || !b->replay || a->replay != b->replay) {
        a->replay = a->replay && b->replay && a->replay != b->replay ? RFT_ESCAN_ESTIMATED : 0;
        if (!a->replay)
            a->replay_naive = a->replay_cycles = a->replay_upper = 0;
    }
    if (a->replay) {
        a->replay_naive += b->replay_naive;
        a->replay_cycles += b->replay_cycles;
        /* a scan made before replay_upper was recorded has none: then neither has the sum */
        int ua = a->replay_upper || !a->replay_naive, ub = b->replay_upper || !b->replay_naive;
        a->replay_upper = ua && ub ? a->replay_upper + b->replay_upper : 0;
    }
    for (int k = 0; k < 2; k++) {
        if (stages && !in_list(stages, kept[k]))
            continue;           /* a stage before the shard: every shard's, once */
        const rft_counters *kb = kept_counters(b, k);
        for (int i = 0; i < kb->n; i++)
            if (rft_counters_merge(kept_counters(a, k), kb->name[i], kb->value[i])) {
                snprintf(why, whylen, "scan record: too many counters");
                goto out;
            }
    }
    e = scan_encode(a, sum, why, whylen);
out:
    free(a);
    return e;
}
