/* view.c - rft-view's selection of records, their statistics and their
 * JSON and analysis-record lines (view.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dcpatch.h"
#include "view.h"

struct rft_view {
    rft_view_opts o;
    char **knames;          /* kernel index -> name */
    uint32_t nk, kcap;
    rft_map wfk;            /* wavefront -> its kernel */
    rft_map slices;         /* slices seen (statistics) */
    rft_view_stats st;
    rft_counters c;         /* a counters record being shown */
};

void rft_view_opts_default(rft_view_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kinds = RFT_VIEW_ALL;
    o->c_to = UINT64_MAX;
}

unsigned rft_view_kind(char letter)
{
    const char *q = letter ? strchr(RFT_VIEW_KINDS, letter) : NULL;
    return q ? 1u << (q - RFT_VIEW_KINDS) : 0;
}

rft_view *rft_view_new(const rft_view_opts *o)
{
    rft_view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->o = *o;
    if (rft_map_init(&v->wfk, 64) || rft_map_init(&v->slices, 64)) {
        rft_view_free(v);
        return NULL;
    }
    return v;
}

void rft_view_free(rft_view *v)
{
    if (!v)
        return;
    for (uint32_t i = 0; i < v->kcap; i++)
        free(v->knames[i]);
    free(v->knames);
    rft_map_free(&v->wfk);
    rft_map_free(&v->slices);
    free(v);
}

const char *const *rft_view_knames(const rft_view *v, uint32_t *nk)
{
    *nk = v->nk;
    return (const char *const *)v->knames;
}

const rft_view_stats *rft_view_counted(const rft_view *v) { return &v->st; }

static int note_kernel(rft_view *v, const rft_kernel *k)
{
    if (k->index >= RFT_VIEW_MAX_KERNELS)
        return RFT_EFORMAT;
    if (k->index >= v->kcap) {
        /* doubled in 64 bits: no wrap to 0 whatever the index */
        uint64_t cap = v->kcap ? v->kcap : 16;
        while (cap <= k->index)
            cap *= 2;
        char **n = realloc(v->knames, cap * sizeof *n);
        if (!n)
            return RFT_EMEM;
        memset(n + v->kcap, 0, (cap - v->kcap) * sizeof *n);
        v->knames = n;
        v->kcap = (uint32_t)cap;
    }
    free(v->knames[k->index]);
    if (!(v->knames[k->index] = strndup(k->name, k->name_len)))
        return RFT_EMEM;
    if (k->index >= v->nk)
        v->nk = k->index + 1;
    return 0;
}

static unsigned kind_bit(int kind)
{
    return kind >= RFT_KERNEL && kind <= RFT_UNITREC ? rft_view_kind("?KBEWRAU"[kind]) : 0;
}

static int kernel_matches(const rft_view *v, uint32_t k)
{
    if (v->o.kernel_name)
        return k < v->nk && v->knames[k] && strcmp(v->knames[k], v->o.kernel_name) == 0;
    return k == v->o.kernel_idx;
}

static int count(rft_view *v, const rft_rec *r, int has_wf, uint16_t cu, uint16_t simd)
{
    rft_view_stats *s = &v->st;
    s->kind[r->kind <= RFT_BUNDLE ? r->kind : RFT_BUNDLE + 1]++;
    uint32_t slice = rft_slice_key(cu, simd);
    if (has_wf && !rft_map_get(&v->slices, slice)) {
        if (rft_map_put(&v->slices, slice, 1))
            return RFT_EMEM;
        s->slices++;
    }
    if (r->kind == RFT_WRITE && (r->w.cls || r->w.phys != RFT_NO_PHYS))
        s->annotated++;
    if (r->kind <= RFT_BUNDLE) {
        if (!s->any)
            s->first = rft_rec_cycle(r);
        s->last = rft_rec_cycle(r);
        s->any = 1;
    }
    return 1;
}

int rft_view_select(rft_view *v, const rft_rec *r)
{
    const rft_view_opts *o = &v->o;
    uint16_t cu = 0, simd = 0;
    uint32_t wf = 0, kernel = RFT_NO_KERNEL;
    int has_wf = rft_rec_wf(r, &cu, &simd, &wf), e;
    uint64_t cyc = rft_rec_cycle(r);
    if (r->kind == RFT_KERNEL && (e = note_kernel(v, &r->u.kernel)))
        return e;
    if (r->kind == RFT_WFBEGIN) {
        kernel = r->u.begin.kernel;
        if (rft_map_put(&v->wfk, rft_wf_key(cu, simd, wf), kernel))
            return RFT_EMEM;
    } else if (has_wf) {
        uint64_t *k = rft_map_get(&v->wfk, rft_wf_key(cu, simd, wf));
        kernel = k ? (uint32_t)*k : RFT_NO_KERNEL;
        if (r->kind == RFT_WFEND)
            rft_map_del(&v->wfk, rft_wf_key(cu, simd, wf));
    } else if (r->kind == RFT_KERNEL) {
        kernel = r->u.kernel.index;
    }
    if (rft_trace_kind(r->kind) ? !(kind_bit(r->kind) & o->kinds) : o->kinds != RFT_VIEW_ALL)
        return 0;
    if (rft_trace_kind(r->kind) && (cyc < o->c_from || cyc > o->c_to))
        return 0;
    if ((o->slice_set || o->wf_set) && !has_wf)
        return 0;
    if (o->slice_set && (cu != o->cu || simd != o->simd))
        return 0;
    if (o->wf_set && wf != o->wf)
        return 0;
    if (o->kernel_set && !kernel_matches(v, kernel))
        return 0;
    return o->stats ? count(v, r, has_wf, cu, simd) : 1;
}

/* ---- lines ------------------------------------------------------------------------ */
char *rft_json_str(char *dst, const char *s, size_t n)
{
    *dst++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            *dst++ = '\\';
        if (c < 0x20)
            dst += sprintf(dst, "\\u%04x", c);
        else
            *dst++ = (char)c;
    }
    *dst++ = '"';
    return dst;
}

/* , "mask": "HEX" as the canonical text spells it */
static char *json_mask(const rft_geom *g, const uint8_t *mask, char *p)
{
    p += sprintf(p, ", \"mask\": \"");
    for (int i = (int)((g->lanes + 3) / 4) - 1; i >= 0; i--)
        p += sprintf(p, "%x", (mask[i / 2] >> (4 * (i & 1))) & 15);
    return p + sprintf(p, "\"");
}

static char *json_write(const rft_geom *g, const rft_write *w, char *p)
{
    p += sprintf(p, ", \"vreg\": %u", w->vreg);
    p = json_mask(g, w->mask, p);
    p += sprintf(p, ", \"values\": [");
    for (uint32_t i = 0; i < g->lanes; i++)
        p += sprintf(p, "%s%u", i ? ", " : "", w->val[i]);
    p += sprintf(p, "]");
    if (w->phys != RFT_NO_PHYS)
        p += sprintf(p, ", \"phys\": %u", w->phys);
    if (w->cls)
        p += sprintf(p, ", \"class\": \"%s\", \"bs\": %u, \"c0\": %u, \"de\": %u, \"db\": %u",
                     rft_class_name(w->cls), w->bs, w->c0, w->de, w->db);
    if (w->wc)
        p += sprintf(p, ", \"wc\": \"%s\"", rft_wc_name(w->wc));
    if (w->flags & RFT_WF_UNIT)
        p += sprintf(p, ", \"unit\": \"%s\"", w->flags & RFT_WF_VMEM ? "vmem" : "lds");
    if (w->flags & ~RFT_WF_UNIT)
        p += sprintf(p, ", \"firstblock\": %d, \"divergent\": %d, \"mov\": %d, \"wakeup\": %d",
                     !!(w->flags & RFT_WF_FIRSTBLOCK), !!(w->flags & RFT_WF_DIVERGENT),
                     !!(w->flags & RFT_WF_MOV), !!(w->flags & RFT_WF_WAKEUP));
    if (w->on_bits != RFT_NO_GATE)
        p += sprintf(p, ", \"on_bits\": %u", w->on_bits);
    return p;
}

size_t rft_view_json(const rft_geom *g, const rft_rec *r, char *buf)
{
    uint16_t cu, simd;
    uint32_t wf;
    char *p = buf;
    rft_unitrec u = {0};
    int unit = r->kind == RFT_UNITREC && r->raw && rft_unit_parse(r->raw, r->len, &u) == 0;
    if (r->kind > RFT_BUNDLE && !unit)      /* a malformed unit record too */
        return (size_t)sprintf(buf, "{\"kind\": \"0x%02x\", \"bytes\": %u}", r->kind, r->len);
    p += sprintf(p, "{\"kind\": \"%c\"", "EKBEWRAU"[r->kind]);
    if (r->kind == RFT_KERNEL) {
        p += sprintf(p, ", \"cycle\": %llu, \"index\": %u, \"name\": ",
                     (unsigned long long)r->u.kernel.cycle, r->u.kernel.index);
        p = rft_json_str(p, r->u.kernel.name, r->u.kernel.name_len);
    } else if (rft_rec_wf(r, &cu, &simd, &wf)) {
        p += sprintf(p, ", \"cycle\": %llu, \"cu\": %u, \"simd\": %u, \"wf\": %u",
                     (unsigned long long)rft_rec_cycle(r), cu, simd, wf);
    }
    if (r->kind == RFT_WFBEGIN) {
        const rft_wfbegin *b = &r->u.begin;
        p += sprintf(p, ", \"nvgprs\": %u", b->nregs);
        if (b->kernel != RFT_NO_KERNEL)
            p += sprintf(p, ", \"kernel\": %u", b->kernel);
        if (b->wg != RFT_NO_WG)
            p += sprintf(p, ", \"wg\": %u", b->wg);
    } else if (r->kind == RFT_READ) {
        p += sprintf(p, ", \"vreg\": %u", r->u.read.vreg);
        if (r->u.read.phys != RFT_NO_PHYS)
            p += sprintf(p, ", \"phys\": %u", r->u.read.phys);
    } else if (r->kind == RFT_WRITE) {
        p = json_write(g, &r->w, p);
    } else if (r->kind == RFT_BUNDLE) {
        const rft_bundle *b = &r->u.bundle;
        p += sprintf(p, ", \"slots\": \"");
        for (int i = 0; i < RFT_NSLOTS; i++)
            if (b->slots >> i & 1)
                *p++ = "XYZWT"[i];
        p += sprintf(p, "\", \"trans\": %d, \"vector\": %d", !!(b->flags & RFT_UF_TRANS),
                     !!(b->flags & RFT_UF_VECTOR));
        p = json_mask(g, b->mask, p);
    } else if (unit) {
        p += sprintf(p, ", \"unit\": \"%s\"", rft_unit_name(u.flags));
    }
    return (size_t)(p + sprintf(p, "}") - buf);
}

static size_t alloc_line(const rft_alloc_rec *a, int json, char sep, char *buf)
{
    if (!json)
        return rft_alloc_format(a, sep, buf);
    return (size_t)sprintf(buf, "{\"kind\": \"alloc\", \"cycle\": %llu, \"cu\": %u, \"simd\": %u, "
                           "\"wf\": %u, \"event\": \"%s\", \"base\": %u, \"n\": %u, \"rot\": %u, "
                           "\"free\": %u, \"gated\": %d, \"bank\": %u}",
                           (unsigned long long)a->cycle, a->cu, a->simd, a->wf,
                           a->event == RFT_ALLOC_EV_FREE ? "free" : "alloc", a->base, a->n,
                           a->rot, a->nfree, a->flags & RFT_AF_GATED, a->bank);
}

static size_t patch_line(const rft_patch_rec *x, int json, char sep, char *buf)
{
    static const char *const place[] = {"?", "entry", "block", "lds"};
    if (!json)
        return rft_patch_format(x, sep, buf);
    char *p = buf + sprintf(buf, "{\"kind\": \"patch\", \"cycle\": %llu, \"cu\": %u, \"simd\": %u, "
                            "\"wf\": %u, \"vreg\": %u, \"place\": \"%s\"",
                            (unsigned long long)x->cycle, x->cu, x->simd, x->wf, x->vreg,
                            place[x->place]);
    if (x->entry != RFT_PATCH_NONE)
        p += sprintf(p, ", \"entry\": %u", x->entry);
    if (x->block != RFT_PATCH_NONE)
        p += sprintf(p, ", \"block\": %u, \"c0\": %u, \"code\": %u", x->block, x->c0, x->code);
    return (size_t)(p + sprintf(p, "}") - buf);
}

static size_t counters_line(const rft_counters *c, int json, char sep, char *buf)
{
    char *p = buf;
    if (json) {     /* the strings come from the stream: any bytes but NUL */
        p += sprintf(p, "{\"kind\": \"counters\", \"stage\": ");
        p = rft_json_str(p, c->stage, strlen(c->stage));
        p += sprintf(p, ", \"scope\": ");
        p = rft_json_str(p, c->scope, strlen(c->scope));
        p += sprintf(p, ", \"counters\": {");
        for (int i = 0; i < c->n; i++) {
            p += sprintf(p, "%s", i ? ", " : "");
            p = rft_json_str(p, c->name[i], strlen(c->name[i]));
            p += sprintf(p, ": %llu", (unsigned long long)c->value[i]);
        }
        return (size_t)(p + sprintf(p, "}}") - buf);
    }
    p += sprintf(p, "# counters%cstage=%s%cscope=%s", sep, c->stage, sep, c->scope);
    for (int i = 0; i < c->n; i++)
        p += sprintf(p, "%c%s=%llu", sep, c->name[i], (unsigned long long)c->value[i]);
    return (size_t)(p - buf);
}

size_t rft_view_other(rft_view *v, const rft_rec *r, int json, char sep, char *buf)
{
    rft_alloc_rec a;
    rft_patch_rec x;
    if (r->kind == RFT_ALLOC && rft_alloc_parse(r->raw, r->len, &a) == 0)
        return alloc_line(&a, json, sep, buf);
    if (r->kind == RFT_PATCH && rft_patch_parse(r->raw, r->len, &x) == 0)
        return patch_line(&x, json, sep, buf);
    if (r->kind == RFT_COUNTERS && rft_counters_parse(r->raw, r->len, &v->c) == 0)
        return counters_line(&v->c, json, sep, buf);
    if (json)
        return (size_t)sprintf(buf, "{\"kind\": \"0x%02x\", \"bytes\": %u}", r->kind, r->len);
    return (size_t)sprintf(buf, "# record kind 0x%02x%c%u bytes", r->kind, sep, r->len);
}
