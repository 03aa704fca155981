/* decoders.c - what the simulator-log decoders share: names, detection,
 * the per-wavefront register state and the records they emit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dec_int.h"
#include "names.h"

static const char *const fmt_names[] = {"text", "csv",     "m2s", "gem5",
                                        "nvbit", "columns", "evg", "cutracer"};

const char *rft_fmt_name(int fmt)
{
    return fmt >= 0 && fmt <= RFT_FMT_CUTRACER ? fmt_names[fmt] : NULL;
}

int rft_fmt_parse(const char *s)
{
    for (int i = 0; i <= RFT_FMT_CUTRACER; i++)
        if (strcmp(s, fmt_names[i]) == 0)
            return i;
    return RFT_FMT_NONE;
}

void rft_dec_opts_default(rft_dec_opts *o)
{
    memset(o, 0, sizeof *o);
    rft_geom_default(&o->geom);
    o->cus = 10;
    o->simds = 4;
    o->issue_cycles = 4;
    o->clause_temps = 123;
    o->ticks_per_cycle = 1000;
    o->m2s_exec = 1;            /* --cycles-at execute */
}

/* ---- detection ----------------------------------------------------------------- */
static int starts(const char *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n >= l && memcmp(s, lit, l) == 0;
}

/* lit (not empty) in s: compared where its first byte is (memchr), not at
 * every byte */
static const char *find(const char *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    for (const char *p = s, *end = s + n; (size_t)(end - p) >= l; p++) {
        if (!(p = memchr(p, lit[0], (size_t)(end - p) - l + 1)))
            return NULL;
        if (memcmp(p, lit, l) == 0)
            return p;
    }
    return NULL;
}

static int isdig(int c) { return c >= '0' && c <= '9'; }
static int ishex(int c) { return isdig(c) || ((c | 32) >= 'a' && (c | 32) <= 'f'); }

/* "// 0000001C: 7E040201": Multi2Sim's instruction dump */
static int m2s_inst(const char *s, size_t n)
{
    const char *p = find(s, n, "// ");
    if (!p)
        return 0;
    size_t i = (size_t)(p - s) + 3;
    for (int k = 0; k < 8; k++, i++)
        if (i >= n || !ishex(s[i]))
            return 0;
    return i < n && s[i] == ':';
}

/* Multi2Sim's Evergreen log: its ND-Range header, an ALU slot
 * ("      3  x: MOV ...") or a wavefront's mask ("  wavefront[i0-i63]:pred=") */
static int evg_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    size_t j = i;
    while (j < n && isdig(s[j]))
        j++;
    size_t k = j;
    while (k < n && s[k] == ' ')
        k++;
    if (j > i && k > j + 1 && k + 3 < n && strchr("xyzwt", s[k]) && s[k + 1] == ':' &&
        s[k + 2] == ' ' && s[k + 3] >= 'A' && s[k + 3] <= 'Z')
        return 1;
    return starts(s, n, "wavefronts_per_work_group = ") ||
           (i > 0 && starts(s + i, n - i, "wavefront[i") && (find(s, n, "]:pred=") || find(s, n, "]:act=")));
}

/* "<tick>: <name>: ": a gem5 debug line */
static int gem5_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    size_t d = i;
    while (i < n && isdig(s[i]))
        i++;
    if (i == d || i + 2 >= n || s[i] != ':' || s[i + 1] != ' ')
        return 0;
    i += 2;
    size_t nm = i;
    while (i < n && s[i] != ' ' && s[i] != ':')
        i++;
    return i > nm && i + 1 < n && s[i] == ':' && s[i + 1] == ' ';
}

static int field_is(const char *s, size_t n, const char *const *names)
{
    for (; *names; names++)
        if (strlen(*names) == n && strncasecmp(s, *names, n) == 0)
            return 1;
    return 0;
}

/* Which of the columns a header row of the column-map format needs, "cycle"
 * and a wavefront, the row s names: bit 1 cycle, bit 2 the wavefront. */
static int columns_named(const char *s, size_t n)
{
    static const char *const cyc[] = {"cycle", "\"cycle\"", NULL};
    static const char *const wf[] = {"wf", "wavefront", "\"wf\"", "\"wavefront\"", NULL};
    int has_cycle = 0, has_wf = 0;
    char sep = memchr(s, '\t', n) ? '\t' : ',';
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && s[j] != sep)
            j++;
        size_t a = i, b = j;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\r'))
            b--;
        has_cycle |= field_is(s + a, b - a, cyc);
        has_wf |= field_is(s + a, b - a, wf);
        i = j + 1;
    }
    return has_cycle | has_wf << 1;
}

static int columns_header(const char *s, size_t n) { return columns_named(s, n) == 3; }

const char *rft_fmt_header_missing(const char *buf, size_t len, uint64_t *line)
{
    uint64_t ln = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
        const char *s = buf + pos;
        pos += n + 1;
        ln++;
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i == n || s[i] == '#')
            continue;
        *line = ln;
        switch (columns_named(s, n)) {
        case 1: return "a header row with a 'cycle' column but no 'wf' (or 'wavefront') column: "
                       "name the wavefront column wf, or map the columns with --columns";
        case 2: return "a header row with a 'wf' column but no 'cycle' column: name the cycle "
                       "column cycle, or map the columns with --columns";
        default: return NULL;
        }
    }
    return NULL;
}

int rft_fmt_detect(const char *buf, size_t len, uint64_t *line)
{
    uint64_t ln = 0;
    int first = 1;
    for (size_t pos = 0; pos < len && ln < 200;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
        const char *s = buf + pos;
        pos += n + 1;
        ln++;
        if (n && s[n - 1] == '\r')
            n--;
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == n || s[i] == '#')
            continue;
        int fmt = RFT_FMT_NONE;
        if (s[i] == '{' && (find(s, n, "\"type\":\"reg_trace\"") ||
                            find(s, n, "\"type\":\"kernel_metadata\"") ||
                            find(s, n, "\"type\":\"kernel_launch\"")))
            fmt = RFT_FMT_CUTRACER;
        else if (evg_line(s, n))
            fmt = RFT_FMT_EVG;
        else if (find(s, n, "Initialization Summary") || m2s_inst(s, n) ||
            (starts(s + i, n - i, "t0: V") && isdig(s[i + 5 < n ? i + 5 : i])))
            fmt = RFT_FMT_M2S;
        else if (gem5_line(s, n))
            fmt = RFT_FMT_GEM5;
        else if ((starts(s, n, "Kernel ") && find(s, n, " - grid size ")) ||
                 (starts(s, n, "CTA ") && find(s, n, " - warp ")) || find(s, n, "NVBit"))
            fmt = RFT_FMT_NVBIT;
        else if (first && columns_header(s, n))
            fmt = RFT_FMT_COLUMNS;
        else if (first && n - i >= 2 && memchr("KBWRE", s[i], 5) && s[i + 1] == ',')
            fmt = RFT_FMT_CSV;
        else if (first && n - i >= 2 && memchr("KBWRE", s[i], 5) && (s[i + 1] == '\t' || s[i + 1] == ' '))
            fmt = RFT_FMT_TEXT;     /* a record of the canonical grammar */
        if (fmt != RFT_FMT_NONE) {
            if (line)
                *line = ln;
            return fmt;
        }
        first = 0;
    }
    if (line)
        *line = 0;
    return RFT_FMT_TEXT;
}

/* ---- the decoder object ---------------------------------------------------------- */
int dec_bad(rft_dec *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why, sizeof d->why, fmt, ap);
    va_end(ap);
    return RFT_EFORMAT;
}

rft_dec *rft_dec_new(int fmt, const rft_dec_opts *o, rft_dec_emit emit, void *ctx, char *err,
                     size_t errlen)
{
    const struct dec_ops *ops = fmt == RFT_FMT_M2S ? &dec_m2s_ops
                              : fmt == RFT_FMT_GEM5 ? &dec_gem5_ops
                              : fmt == RFT_FMT_NVBIT ? &dec_nvbit_ops
                              : fmt == RFT_FMT_COLUMNS ? &dec_colmap_ops
                              : fmt == RFT_FMT_EVG ? &dec_evg_ops
                              : fmt == RFT_FMT_CUTRACER ? &dec_cutracer_ops : NULL;
    const char *why;
    if (!ops) {
        snprintf(err, errlen, "format %s has no line decoder", rft_fmt_name(fmt) ? rft_fmt_name(fmt) : "?");
        return NULL;
    }
    if (rft_geom_check(&o->geom, &why)) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    if (o->cus == 0 || o->simds == 0 || o->cus > 65535 || o->simds > 65535 || o->ticks_per_cycle == 0) {
        snprintf(err, errlen, "the CU, SIMD and tick counts must be at least 1");
        return NULL;
    }
    rft_dec *d = calloc(1, sizeof *d);
    if (!d || rft_map_init(&d->wmap, 64)) {
        free(d);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (rft_map_init(&d->kbyname, 64)) {
        rft_map_free(&d->wmap);
        free(d);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->fmt = fmt;
    d->o = *o;
    d->ops = ops;
    d->emit = emit;
    d->ctx = ctx;
    if (ops->init(d)) {
        snprintf(err, errlen, "%s", d->why[0] ? d->why : "out of memory");
        rft_dec_free(d);
        return NULL;
    }
    return d;
}

int rft_dec_line(rft_dec *d, char *s, size_t n)
{
    d->line++;
    d->c[DC_LINES]++;
    d->why[0] = 0;
    if (n && s[n - 1] == '\r')
        n--;
    return d->ops->line(d, s, n);
}

int rft_dec_finish(rft_dec *d) { return d->ops->finish(d); }
void rft_dec_peek(rft_dec *d, const char *buf, size_t len)
{
    if (d->ops->peek)
        d->ops->peek(d, buf, len);
}
const char *rft_dec_why(const rft_dec *d) { return d->why; }
int rft_dec_needs_prescan(const rft_dec *d)
{
    return d->ops->needs_regs && !d->o.nvgprs && !d->o.nregs && !d->no_prescan;
}

uint32_t rft_dec_kernel_regs(const rft_dec *d, uint16_t *nregs, uint32_t max)
{
    for (uint32_t i = 0; i < d->nk && i < max; i++)
        nregs[i] = d->kmax[i] ? d->kmax[i] : 1;
    return d->nk;
}

void rft_dec_counters(const rft_dec *d, rft_counters *c)
{
    static const char *const names[DC_N] = {
        "lines", "instructions", "wavefronts", "writes", "reads", "float_lanes",
        "inexact_float_lanes", "double_lanes", "ignored_lines", "unattributed_instructions",
        "preset_writes", "unrecovered_writes", "untraced_changes", "ended_without_end_instruction", "unplaced_reads"};
    rft_counters_set(c, "rft-decode", "total", names, d->c, DC_N);
    if (d->ops->counters)
        d->ops->counters(d, c);
}

void rft_dec_describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    if (d->ops->describe)
        d->ops->describe(d, f, ctx);
}

void rft_dec_free(rft_dec *d)
{
    if (!d)
        return;
    if (d->ops && d->ops->free)
        d->ops->free(d);
    for (uint32_t i = 0; i < d->nwaves; i++)
        if (d->waves[i]) {
            free(d->waves[i]->vals);
            free(d->waves[i]->bits);
            free(d->waves[i]->word);
            free(d->waves[i]);
        }
    free(d->waves);
    for (uint32_t i = 0; i < d->nk; i++)
        free(d->knames[i]);
    free(d->knames);
    free(d->kmax);
    rft_map_free(&d->kbyname);
    rft_map_free(&d->wmap);
    free(d);
}

/* ---- kernels and registers ---------------------------------------------------------- */
static int put(rft_dec *d, const rft_rec *r, uint64_t cycle)
{
    /* decoders keep time in order (evg sorts each round's records itself) */
    if (cycle < d->last_cycle && !d->unordered)
        return dec_bad(d, "internal: cycle %llu before %llu", (unsigned long long)cycle,
                       (unsigned long long)d->last_cycle);
    d->last_cycle = cycle;
    return d->emit ? d->emit(d->ctx, r) : 0;
}

int dec_kernel_name(rft_dec *d, const char *name, size_t len)
{
    if (len > RFT_MAX_STR)
        return dec_bad(d, "kernel name longer than %d bytes", RFT_MAX_STR);
    if (memchr(name, 0, len))   /* names are C strings everywhere after this */
        return dec_bad(d, "kernel name contains a NUL byte");
    return 0;
}

static int same_name(const char *a, const char *s, size_t n)
{
    return strlen(a) == n && memcmp(a, s, n) == 0;
}

long dec_find_kernel(const rft_dec *d, const char *name, size_t len)
{
    const uint64_t *v = rft_map_get(&d->kbyname, rft_name_key(name, len));
    if (!v)
        return -1;
    if (same_name(d->knames[*v], name, len))
        return (long)*v;
    for (uint32_t k = d->nk; k-- > 0;)     /* two names share a key */
        if (same_name(d->knames[k], name, len))
            return k;
    return -1;
}

int dec_kernel(rft_dec *d, uint64_t cycle, const char *name, size_t len)
{
    int e = dec_kernel_name(d, name, len);
    if (e)
        return e;
    if (d->nk == d->kcap) {
        uint32_t cap = d->kcap ? 2 * d->kcap : 8;
        char **k = realloc(d->knames, cap * sizeof *k);
        if (!k)
            return RFT_EMEM;
        d->knames = k;
        uint16_t *m = realloc(d->kmax, cap * sizeof *m);
        if (!m)
            return RFT_EMEM;
        d->kmax = m;
        d->kcap = cap;
    }
    if (!(d->knames[d->nk] = strndup(name, len)) ||
        rft_map_put(&d->kbyname, rft_name_key(name, len), d->nk))
        return RFT_EMEM;
    d->kmax[d->nk] = 0;
    uint32_t k = d->nk++;
    rft_rec *r = &d->rec;
    r->kind = RFT_KERNEL;
    r->u.kernel = (rft_kernel){cycle, k, 0, d->knames[k], (uint16_t)len};
    e = put(d, r, cycle);
    return e ? e : (int)k;
}

int dec_ndrange_kernel(rft_dec *d, uint64_t cycle)
{
    char name[64];
    const char *kn = d->o.kernel;
    if (!kn) {
        snprintf(name, sizeof name, "ndrange%u", d->nk);
        kn = name;
    }
    return dec_kernel(d, cycle, kn, strlen(kn));
}

uint16_t dec_nregs(const rft_dec *d, uint32_t k)
{
    if (d->o.prescan)
        return 0;
    if (d->o.nvgprs)
        return (uint16_t)d->o.nvgprs;
    if (d->o.nregs && d->o.n_nregs)
        return d->o.nregs[k < d->o.n_nregs ? k : d->o.n_nregs - 1];
    if (!d->ops->needs_regs && k < d->nk)
        return d->kmax[k];      /* the format's own window sizes */
    return 0;
}

int dec_reg(rft_dec *d, uint32_t kernel, uint32_t reg, const dec_wave *w, const char *tok,
            size_t toklen)
{
    if (reg >= 65535)
        return dec_bad(d, "register '%.*s' out of range", DEC_TOK(tok, toklen));
    if (kernel < d->nk && reg + 1 > d->kmax[kernel])
        d->kmax[kernel] = (uint16_t)(reg + 1);
    if (!d->o.prescan && w && reg >= w->nregs)
        return dec_bad(d, "register '%.*s' outside the window of %u registers of wavefront %u",
                       DEC_TOK(tok, toklen), w->nregs, w->wf);
    return 0;
}

/* ---- wavefronts ------------------------------------------------------------------ */
dec_wave *dec_wave_get(rft_dec *d, uint64_t key)
{
    uint64_t *i = rft_map_get(&d->wmap, key);
    return i ? d->waves[*i] : NULL;
}

dec_wave *dec_wave_begin(rft_dec *d, uint64_t key, uint64_t cycle, uint16_t cu, uint16_t simd,
                         uint32_t kernel, uint32_t wg, int *err)
{
    uint16_t nregs = d->next_nregs ? d->next_nregs : dec_nregs(d, kernel);
    d->next_nregs = 0;
    *err = 0;
    if (d->o.prescan)
        nregs = 0;
    else if (nregs == 0 || nregs > d->o.geom.entries) {
        *err = dec_bad(d, "kernel %s: a window of %u registers does not fit a slice of %u entries",
                       kernel < d->nk ? d->knames[kernel] : "?", nregs, d->o.geom.entries);
        return NULL;
    }
    if (d->next_wf > 0xfffffffeu) {
        *err = dec_bad(d, "more than 4294967294 wavefronts");
        return NULL;
    }
    dec_wave *w = calloc(1, sizeof *w);
    uint32_t slot = d->nwaves;
    for (uint32_t i = 0; i < d->nwaves; i++)    /* reuse a free slot */
        if (!d->waves[i]) {
            slot = i;
            break;
        }
    if (w && slot == d->wcap) {
        uint32_t cap = d->wcap ? 2 * d->wcap : 64;
        dec_wave **n = realloc(d->waves, cap * sizeof *n);
        if (!n) {
            free(w);
            w = NULL;
        } else {
            d->waves = n;
            d->wcap = cap;
        }
    }
    if (w && !d->o.prescan) {
        w->vals = calloc((size_t)nregs * d->o.geom.lanes, sizeof *w->vals);
        w->bits = calloc(nregs, 1);
        w->word = d->ops->reg_words ? calloc(nregs, sizeof *w->word) : NULL;
        if (!w->vals || !w->bits || (d->ops->reg_words && !w->word)) {
            free(w->vals);
            free(w->bits);
            free(w->word);
            free(w);
            w = NULL;
        }
    }
    if (!w || rft_map_put(&d->wmap, key, slot)) {
        if (w) {
            free(w->vals);
            free(w->bits);
            free(w->word);
            free(w);
        }
        *err = RFT_EMEM;
        return NULL;
    }
    if (slot == d->nwaves)
        d->nwaves++;
    d->waves[slot] = w;
    w->key = key;
    w->wf = d->next_wf++;
    w->cu = cu;
    w->simd = simd;
    w->nregs = nregs;
    w->kernel = kernel;
    w->wg = wg;
    w->base = -1;
    d->c[DC_WAVES]++;
    rft_rec *r = &d->rec;
    r->kind = RFT_WFBEGIN;
    r->u.begin = (rft_wfbegin){cycle, cu, simd, w->wf, nregs,
                               (uint8_t)(RFT_BF_KERNEL | (wg != RFT_NO_WG ? RFT_BF_WG : 0)), wg,
                               kernel};
    if ((*err = put(d, r, cycle)))
        return NULL;
    return w;
}

int dec_wave_end(rft_dec *d, dec_wave *w, uint64_t cycle)
{
    rft_rec *r = &d->rec;
    r->kind = RFT_WFEND;
    r->u.end = (rft_wfend){cycle, w->cu, w->simd, w->wf};
    uint64_t *i = rft_map_get(&d->wmap, w->key);
    if (i) {
        d->waves[*i] = NULL;
        rft_map_del(&d->wmap, w->key);
    }
    free(w->vals);
    free(w->bits);
    free(w->word);
    free(w);
    return put(d, r, cycle);
}

static int by_wf(const void *a, const void *b)
{
    const dec_wave *x = *(dec_wave *const *)a, *y = *(dec_wave *const *)b;
    return x->wf < y->wf ? -1 : x->wf > y->wf;
}

int dec_end_all(rft_dec *d, uint64_t cycle)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nwaves; i++)
        if (d->waves[i])
            d->waves[n++] = d->waves[i];
    for (uint32_t i = n; i < d->nwaves; i++)
        d->waves[i] = NULL;
    d->nwaves = n;
    if (n > 1)
        qsort(d->waves, n, sizeof *d->waves, by_wf);
    /* the map's slot numbers changed: end them in order, the map going with them */
    for (uint32_t i = 0; i < n; i++)
        rft_map_put(&d->wmap, d->waves[i]->key, i);
    for (uint32_t i = 0; i < n; i++) {
        int e = dec_wave_end(d, d->waves[i], cycle);
        if (e)
            return e;
    }
    d->nwaves = 0;
    return 0;
}

/* ---- records --------------------------------------------------------------------- */
static int write_rec(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
                     const uint8_t *mask, const uint32_t *val, int all, uint8_t flags)
{
    uint32_t lanes = d->o.geom.lanes;
    d->c[DC_WRITES]++;
    if (!w->vals)
        return 0;
    rft_rec *r = &d->rec;
    rft_write *x = &r->w;
    r->kind = RFT_WRITE;
    x->cycle = cycle;
    x->cu = w->cu;
    x->simd = w->simd;
    x->wf = w->wf;
    x->vreg = (uint16_t)vreg;
    x->phys = phys;
    x->cls = x->bs = x->wc = 0;
    x->flags = flags;
    x->c0 = x->de = x->db = 0;
    x->on_bits = RFT_NO_GATE;
    memcpy(x->mask, mask, rft_mask_bytes(&d->o.geom));
    uint32_t *cell = w->vals + (size_t)vreg * lanes;
    for (uint32_t i = 0; i < lanes; i++) {
        if (all || ((mask[i >> 3] >> (i & 7)) & 1))
            cell[i] = val[i];
        x->val[i] = cell[i];
    }
    return put(d, r, cycle);
}

int dec_write(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
              const uint8_t *mask, const uint32_t *val)
{
    return write_rec(d, w, cycle, vreg, phys, mask, val, 0, 0);
}

int dec_write_unit(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
                   const uint8_t *mask, const uint32_t *val, uint8_t unit)
{
    return write_rec(d, w, cycle, vreg, phys, mask, val, 0, unit & RFT_WF_UNIT);
}

int dec_write_all(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys,
                  const uint8_t *mask, const uint32_t *val)
{
    return write_rec(d, w, cycle, vreg, phys, mask, val, 1, 0);
}

int dec_read(rft_dec *d, dec_wave *w, uint64_t cycle, uint32_t vreg, uint16_t phys)
{
    d->c[DC_READS]++;
    if (d->o.prescan)
        return 0;
    rft_rec *r = &d->rec;
    r->kind = RFT_READ;
    r->u.read = (rft_regread){cycle, w->cu, w->simd, w->wf, (uint16_t)vreg, phys};
    return put(d, r, cycle);
}

int dec_unit(rft_dec *d, dec_wave *w, uint64_t cycle, uint8_t unit)
{
    if (d->o.prescan)
        return 0;
    rft_rec *r = &d->rec;
    rft_unit_encode(d->ubuf, &(rft_unitrec){cycle, w->cu, w->simd, w->wf, unit});
    r->kind = RFT_UNITREC;
    r->raw = d->ubuf;
    r->len = RFT_UNITREC_LEN;
    int e = put(d, r, cycle);
    r->raw = NULL;      /* d->rec serves the known kinds next */
    r->len = 0;
    return e;
}

int dec_bundle(rft_dec *d, dec_wave *w, uint64_t cycle, uint8_t slots, uint8_t flags,
               const uint8_t *mask)
{
    if (d->o.prescan)
        return 0;
    rft_rec *r = &d->rec;
    r->kind = RFT_BUNDLE;
    r->u.bundle.cycle = cycle;
    r->u.bundle.cu = w->cu;
    r->u.bundle.simd = w->simd;
    r->u.bundle.wf = w->wf;
    r->u.bundle.slots = slots;
    r->u.bundle.flags = flags;
    memcpy(r->u.bundle.mask, mask, rft_mask_bytes(&d->o.geom));
    return put(d, r, cycle);
}

int dec_operand(const char *s, size_t *at, size_t end, size_t *o, size_t *len)
{
    if (*at > end)
        return 0;
    int depth = 0;
    size_t j = *at;
    for (; j < end; j++) {
        if (s[j] == '[' || s[j] == '(')
            depth++;
        else if (s[j] == ']' || s[j] == ')')
            depth -= depth > 0;
        else if (s[j] == ',' && depth == 0)
            break;
    }
    *o = *at;
    *len = j - *at;
    *at = j + 1;
    return 1;
}

/* ---- numbers ------------------------------------------------------------------------ */
int dec_u64(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0 || n > 20)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i] - '0';
        if (c > 9 || x > (UINT64_MAX - c) / 10)
            return -1;
        x = x * 10 + c;
    }
    *v = x;
    return 0;
}

int dec_hex32(const char *s, size_t n, uint32_t *v)
{
    if (n > 2 && s[0] == '0' && (s[1] | 32) == 'x')
        s += 2, n -= 2;
    while (n > 8 && *s == '0')
        s++, n--;
    if (n == 0 || n > 8)
        return -1;
    uint32_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (!ishex(c))
            return -1;
        x = x << 4 | (uint32_t)(isdig(c) ? c - '0' : (c | 32) - 'a' + 10);
    }
    *v = x;
    return 0;
}

/* the float is the only one that prints as s with %g.  A normal float never
 * is: 6 significant digits are coarser than its 24-bit mantissa (at least 8
 * floats print alike), so only zeros and subnormals are worth the test. */
static int float_unique(float f, const char *s)
{
    char b[64];
    if (isnormal(f))
        return 0;
    float up = nextafterf(f, INFINITY), dn = nextafterf(f, -INFINITY);
    snprintf(b, sizeof b, "%g", (double)f);
    if (strcmp(b, s) != 0)
        return 0;
    snprintf(b, sizeof b, "%g", (double)up);
    if (strcmp(b, s) == 0)
        return 0;
    snprintf(b, sizeof b, "%g", (double)dn);
    return strcmp(b, s) != 0;
}

static int double_unique(double f, const char *s)
{
    char b[64];
    if (isnormal(f))
        return 0;
    snprintf(b, sizeof b, "%g", f);
    if (strcmp(b, s) != 0)
        return 0;
    snprintf(b, sizeof b, "%g", nextafter(f, INFINITY));
    if (strcmp(b, s) == 0)
        return 0;
    snprintf(b, sizeof b, "%g", nextafter(f, -INFINITY));
    return strcmp(b, s) != 0;
}

/* copy a %g token (no trailing 'f') into b; -1 if it is not one */
static int gtoken(const char *s, size_t n, char *b, size_t bn)
{
    if (n && (s[n - 1] == 'f' || s[n - 1] == 'F'))
        n--;
    if (n == 0 || n >= bn)
        return -1;
    memcpy(b, s, n);
    b[n] = 0;
    const char *p = b + (*b == '-' || *b == '+');
    if (strcmp(p, "nan") == 0 || strcmp(p, "inf") == 0)
        return 1;
    int digits = 0;
    for (size_t i = 0; b[i]; i++) {
        char c = b[i];
        if (isdig(c))
            digits++;
        else if (!strchr("+-.eE", c))
            return -1;
    }
    return digits ? 0 : -1;
}

int dec_value32(const char *s, size_t n, uint32_t *v, int *isfloat, int *exact)
{
    *isfloat = 0;
    *exact = 1;
    if (n > 2 && s[0] == '0' && (s[1] | 32) == 'x')
        return dec_hex32(s, n, v);
    int neg = n && s[0] == '-';
    int plain = n > (size_t)neg;
    for (size_t i = (size_t)neg; i < n; i++)
        plain &= isdig(s[i]);
    if (plain) {
        uint64_t x;
        if (dec_u64(s + neg, n - (size_t)neg, &x))
            return -1;
        if (neg) {
            if (x > 2147483648u)
                return -1;
            *v = (uint32_t)(0 - x);
        } else {
            if (x > 0xffffffffu)
                return -1;
            *v = (uint32_t)x;
        }
        return 0;
    }
    char b[64];
    int special = gtoken(s, n, b, sizeof b);
    if (special < 0)
        return -1;
    *isfloat = 1;
    union { float f; uint32_t u; } u;
    if (special) {
        int minus = b[0] == '-';
        if (b[minus] == 'n') {          /* nan: the payload is lost */
            u.u = minus ? 0xffc00000u : 0x7fc00000u;
            *exact = 0;
        } else {
            u.f = minus ? -INFINITY : INFINITY;
        }
        *v = u.u;
        return 0;
    }
    char *end;
    u.f = strtof(b, &end);
    if (*end)
        return -1;
    *v = u.u;
    *exact = float_unique(u.f, b);
    return 0;
}

int dec_value64(const char *s, size_t n, uint64_t *v, int *exact)
{
    char b[64];
    int special = gtoken(s, n, b, sizeof b);
    union { double f; uint64_t u; } u;
    *exact = 1;
    if (special < 0)
        return -1;
    if (special) {
        int minus = b[0] == '-';
        if (b[minus] == 'n') {
            u.u = minus ? 0xfff8000000000000ull : 0x7ff8000000000000ull;
            *exact = 0;
        } else {
            u.f = minus ? -INFINITY : INFINITY;
        }
        *v = u.u;
        return 0;
    }
    char *end;
    u.f = strtod(b, &end);
    if (*end)
        return -1;
    *v = u.u;
    *exact = double_unique(u.f, b);
    return 0;
}
