/* merge.c - duty maps and counters added up across streams (merge.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duty.h"
#include "escan.h"
#include "merge.h"

typedef struct {            /* the sum so far for one (slice, entry) */
    uint64_t key;
    uint8_t *p;             /* canonical payload */
    uint32_t len;
} cellrec;

struct rft_merge {
    cellrec *c;
    size_t n, cap;
    rft_map idx;            /* key -> index in c */
    rft_geom geom;          /* of the first input */
    const char *first_in;   /* its name */
    int span, semantics;    /* of the first map */
    const char *first_map;  /* its input */
    const char *input;      /* the input being read */
    uint64_t fed, trace;    /* its records so far; its first trace record (0: none) */
    rft_counter_set cs;
    rft_counters cnt;
    rft_counters *scan;     /* the energy scans added so far (escan.h), or NULL */
    const char *scan_in;    /* the input of the first, and whether it is a shard */
    int scan_shard;
    /* The shards read so far (RFT_META_SHARD of their headers): "K/N by"
     * and the input, to refuse one twice; the current input's stages (of
     * its shard) and whether an earlier input was a shard (whose counters
     * of the stages before the shard were taken: later shards' are not) */
    char **shard;
    const char **shard_in;
    size_t nshard;
    char cur_stages[RFT_MAX_STR + 1];
    int cur_shard, upstream_taken;
    rft_duty_rec a, b;
    uint8_t *buf;           /* an encoded map or counters record */
    char why[RFT_MAX_STR + 256];    /* a file's name (at most PATH_MAX) and the rest */
};

static int bad(rft_merge *m, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(rft_merge *m, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
    return code;
}

rft_merge *rft_merge_new(void)
{
    rft_merge *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    size_t cells = RFT_MAX_LANES * 32, len = rft_duty_max_len(RFT_MAX_LANES * 32);
    m->a.t1 = malloc(cells * sizeof *m->a.t1);
    m->a.toff = malloc(cells * sizeof *m->a.toff);
    m->b.t1 = malloc(cells * sizeof *m->b.t1);
    m->b.toff = malloc(cells * sizeof *m->b.toff);
    m->buf = malloc(len > RFT_COUNTERS_MAX ? len : RFT_COUNTERS_MAX);
    if (!m->a.t1 || !m->a.toff || !m->b.t1 || !m->b.toff || !m->buf || rft_map_init(&m->idx, 1024)) {
        rft_merge_free(m);
        return NULL;
    }
    return m;
}

void rft_merge_free(rft_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->c[i].p);
    free(m->c);
    rft_map_free(&m->idx);
    rft_counter_set_free(&m->cs);
    free(m->scan);
    for (size_t i = 0; i < m->nshard; i++)
        free(m->shard[i]);
    free(m->shard);
    free(m->shard_in);
    free(m->a.t1);
    free(m->a.toff);
    free(m->b.t1);
    free(m->b.toff);
    free(m->buf);
    free(m);
}

const char *rft_merge_why(const rft_merge *m) { return m->why; }

/* The shard an input is (its header's keys), refused if one read before is
 * the same or of another run's division. */
static int shard_input(rft_merge *m, const char *name, const rft_header *h)
{
    const char *k = rft_header_get(h, RFT_META_SHARD), *by = rft_header_get(h, RFT_META_SHARD_BY);
    const char *stages = rft_header_get(h, RFT_META_SHARD_STAGES);
    if (m->cur_shard)
        m->upstream_taken = 1;
    m->cur_shard = k != NULL;
    m->cur_stages[0] = 0;
    if (!k)
        return 0;
    snprintf(m->cur_stages, sizeof m->cur_stages, "%s", stages ? stages : "");
    char *id = malloc(strlen(k) + strlen(by ? by : "slice") + 5);
    if (!id)
        return bad(m, RFT_EMEM, "out of memory");
    sprintf(id, "%s by %s", k, by ? by : "slice");  /* "K/N by BY" */
    const char *n = strchr(id, '/');
    for (size_t i = 0; i < m->nshard; i++) {
        const char *o = m->shard[i], *on = strchr(o, '/');
        if (strcmp(o, id) == 0) {
            int e = bad(m, RFT_EFORMAT, "shard %s twice: %s and %s (rft-merge adds each shard once)",
                        k, m->shard_in[i], name);
            free(id);
            return e;
        }
        if (!n || !on || strcmp(n, on) != 0) {
            int e = bad(m, RFT_EFORMAT, "%s is shard %s, %s shard %s: not shards of one run "
                        "(--shard K/N of one N and one --shard-by)", m->shard_in[i], m->shard[i],
                        name, id);
            free(id);
            return e;
        }
    }
    char **s = realloc(m->shard, (m->nshard + 1) * sizeof *s);
    if (s)
        m->shard = s;
    const char **si = s ? realloc(m->shard_in, (m->nshard + 1) * sizeof *si) : NULL;
    if (!si) {
        free(id);
        return bad(m, RFT_EMEM, "out of memory");
    }
    m->shard_in = si;
    m->shard[m->nshard] = id;
    m->shard_in[m->nshard++] = name;
    return 0;
}

/* 1 if stage ran on the current input's shard (or the input is no shard) */
static int of_shard(const rft_merge *m, const char *stage)
{
    if (!m->cur_shard)
        return 1;
    size_t l = strlen(stage);
    for (const char *p = m->cur_stages; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, stage, l) == 0 && (p[l] == ',' || !p[l]))
            return 1;
    return 0;
}

int rft_merge_input(rft_merge *m, const char *name, const rft_header *h)
{
    m->input = name;
    m->fed = m->trace = 0;
    int e = shard_input(m, name, h);
    if (e)
        return e;
    if (!m->first_in) {
        m->first_in = name;
        m->geom = h->geom;
    } else if (h->geom.lanes != m->geom.lanes || h->geom.entries != m->geom.entries) {
        return bad(m, RFT_EFORMAT, "different geometry (%u lanes x %u entries) from %s (%u x %u)",
                   h->geom.lanes, h->geom.entries, m->first_in, m->geom.lanes, m->geom.entries);
    }
    return 0;
}

/* A map: added to the cell of its slice and entry, or the cell's first. */
static int add_map(rft_merge *m, const rft_rec *rec)
{
    const char *why;
    rft_duty_rec *b = &m->b;
    if (rft_duty_parse(rec->raw, rec->len, b, &why))
        return bad(m, RFT_EFORMAT, "%s", why);
    if (b->lanes != m->geom.lanes || b->entries != m->geom.entries)
        return bad(m, RFT_EFORMAT, "duty map of another geometry than its header");
    int sem = b->flags & RFT_DUTY_SEMANTICS;
    if (!m->first_map) {
        m->first_map = m->input;
        m->span = b->span;
        m->semantics = sem;
    } else if (b->span != m->span || sem != m->semantics) {
        return bad(m, RFT_EFORMAT, "different window semantics (span %s, unused entries %s) "
                   "from %s (span %s, unused entries %s)", rft_span_name(b->span),
                   sem & RFT_DUTY_UNUSED_ON ? "on" : "off", m->first_map, rft_span_name(m->span),
                   m->semantics & RFT_DUTY_UNUSED_ON ? "on" : "off");
    }
    uint64_t key = (uint64_t)rft_slice_key(b->cu, b->simd) << 16 | b->entry;
    uint64_t *v = rft_map_get(&m->idx, key);
    cellrec *x;
    if (v) {
        x = &m->c[*v];
        if (rft_duty_parse(x->p, x->len, &m->a, &why) || rft_duty_add(&m->a, b, &why))
            return bad(m, RFT_EFORMAT, "%s", why);
        b = &m->a;
        free(x->p);
    } else {
        if (m->n == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 1024;
            cellrec *c = realloc(m->c, cap * sizeof *c);
            if (!c)
                return bad(m, RFT_EMEM, "out of memory");
            m->c = c;
            m->cap = cap;
        }
        if (rft_map_put(&m->idx, key, m->n))
            return bad(m, RFT_EMEM, "out of memory");
        x = &m->c[m->n++];
        *x = (cellrec){key, NULL, 0};
    }
    x->len = rft_duty_encode(b, m->buf);    /* canonical form */
    if (!(x->p = malloc(x->len)))
        return bad(m, RFT_EMEM, "out of memory");
    memcpy(x->p, m->buf, x->len);
    return 0;
}

/* An energy scan (rft-energy --scan of a shard): added to the others by
 * its own rules, not counter by counter. */
static int add_scan(rft_merge *m)
{
    if (!m->scan) {
        if (!(m->scan = malloc(sizeof *m->scan)))
            return bad(m, RFT_EMEM, "out of memory");
        *m->scan = m->cnt;
        m->scan_in = m->input;
        m->scan_shard = m->cur_shard;
        return 0;
    }
    char why[RFT_STAGE_WHY];
    rft_counters *sum = malloc(sizeof *sum);
    if (!sum)
        return bad(m, RFT_EMEM, "out of memory");
    *sum = *m->scan;
    int e = rft_escan_merge_shard(sum, &m->cnt, m->cur_shard ? m->cur_stages : NULL, why, sizeof why);
    if (!e && (!m->cur_shard || !m->scan_shard))    /* the same stream's, not two shards */
        e = bad(m, RFT_EFORMAT, "two energy scans of one stream, %s and %s, %s: rft-merge adds "
                "the scans of its shards, each once (rft-energy --scan --shard K/N)", m->scan_in,
                m->input, !m->cur_shard && !m->scan_shard ? "neither a shard"
                : !m->cur_shard ? "the second no shard" : "the first no shard");
    else if (e)
        e = bad(m, e, "%s", why);
    else
        *m->scan = *sum;
    free(sum);
    return e;
}

int rft_merge_feed(rft_merge *m, rft_rec *rec, const rft_sink *out)
{
    m->fed++;
    if (rft_trace_kind(rec->kind)) {
        if (!m->trace)
            m->trace = m->fed;
        return 0;
    }
    if (rec->kind == RFT_COUNTERS) {
        if (rft_counters_parse(rec->raw, rec->len, &m->cnt))
            return bad(m, RFT_EFORMAT, "malformed counters record");
        if (strcmp(m->cnt.stage, "rft-energy") == 0 && strcmp(m->cnt.scope, "scan") == 0)
            return add_scan(m);
        /* a stage before the shard wrote the same counters in every shard:
         * taken from the first shard only */
        if (!of_shard(m, m->cnt.stage) && m->upstream_taken)
            return 0;
        int e = rft_counter_set_add(&m->cs, &m->cnt);
        return e ? bad(m, e, "%s", e == RFT_EMEM ? "out of memory" : "too many counters") : 0;
    }
    if (rec->kind != RFT_DUTY)      /* kinds we do not know: passed on */
        return out->put(out->ctx, rec);
    return add_map(m, rec);
}

int rft_merge_input_end(rft_merge *m)
{
    if (m->trace)
        return bad(m, RFT_EFORMAT, "record %llu: a trace, not a duty map: run rft-duty(1) first",
                   (unsigned long long)m->trace);
    return 0;
}

static int cmp_cell(const void *a, const void *b)
{
    const cellrec *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

int rft_merge_finish(rft_merge *m, const rft_sink *out)
{
    int e = 0;
    if (m->n > 1)
        qsort(m->c, m->n, sizeof *m->c, cmp_cell);
    for (size_t i = 0; i < m->n && !e; i++)
        e = rft_sink_raw(out, RFT_DUTY, m->c[i].p, m->c[i].len);
    if (m->scan && rft_counter_set_add(&m->cs, m->scan))
        return bad(m, RFT_EFORMAT, "too many counters");
    rft_counter_set_sort(&m->cs);
    for (size_t i = 0; i < m->cs.n && !e; i++)
        e = rft_sink_raw(out, RFT_COUNTERS, m->buf, rft_counters_encode(m->cs.c[i], m->buf));
    return e;
}
