/* dec_colmap.c - any CSV or TSV trace through a column map (libcsv).
 *
 * The columns are named by --columns NAME=INDEX,... (0-based) or by a header
 * row whose cells are the canonical field names: kind, cycle, cu, simd, wf,
 * vreg, mask, nregs, kernel, wg, phys, and either v0 .. vN-1 (a register's
 * lanes in one row) or lane and value (one row per lane; consecutive rows of
 * the same cycle, slice, wavefront and register make one write).  Without a
 * kind column every row is a write (W) and wavefronts begin at their first
 * row and end at the end of the input; with it, rows are K, B, W, R, E as in
 * the canonical grammar.  Values are 0x hex, decimal (negative: two's
 * complement) or, with letters a-f, hex; --radix hex reads every value as hex.
 */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dec_int.h"

enum { C_KIND, C_CYCLE, C_CU, C_SIMD, C_WF, C_VREG, C_MASK, C_NREGS, C_KERNEL, C_WG, C_PHYS,
       C_LANE, C_VALUE, C_V0, C_N };
static const char *const cname[C_N] = {"kind", "cycle", "cu", "simd", "wf", "vreg", "mask",
                                       "nregs", "kernel", "wg", "phys", "lane", "value", "v0"};

#define MAXF 4096

typedef struct {
    int col[C_N];               /* column of each field, -1 absent */
    int *lanecol;               /* column of each lane (v0..) */
    int have_map, lanes_cols;
    char sep;
    struct csv_parser p;
    /* the current row */
    char *buf;
    size_t blen, bcap;
    size_t off[MAXF], len[MAXF];
    int nf, toomany;
    /* a write gathered from lane rows */
    int pend;
    uint64_t pcycle;
    dec_wave *pw;
    uint32_t preg;
    uint16_t pphys;
    uint8_t pmask[RFT_MAX_LANES / 8];
    uint32_t *pval;
    uint64_t last;
    uint32_t kernel;
    int have_kernel;
} colmap;

static int isdig(int c) { return c >= '0' && c <= '9'; }

static int field_id(const char *s, size_t n, int lanes, int *lane)
{
    static const struct { const char *a; int id; } alias[] = {
        {"wavefront", C_WF}, {"reg", C_VREG}, {"register", C_VREG}, {"exec", C_MASK},
        {"exec_mask", C_MASK}, {"type", C_KIND}, {"values", C_V0}, {"nvgprs", C_NREGS},
        {"work-group", C_WG}, {"workgroup", C_WG}, {NULL, 0}};
    while (n && (*s == ' ' || *s == '"'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '"' || s[n - 1] == '\r'))
        n--;
    *lane = -1;
    if (n >= 2 && (s[0] == 'v' || s[0] == 'V') && isdig(s[1])) {
        uint64_t v;
        if (dec_u64(s + 1, n - 1, &v) == 0 && v < (uint64_t)lanes) {
            *lane = (int)v;
            return C_V0;
        }
        return -1;
    }
    for (int i = 0; i < C_N; i++)
        if (strlen(cname[i]) == n && strncasecmp(s, cname[i], n) == 0)
            return i;
    for (int i = 0; alias[i].a; i++)
        if (strlen(alias[i].a) == n && strncasecmp(s, alias[i].a, n) == 0)
            return alias[i].id;
    return -1;
}

static int check_map(rft_dec *d, colmap *m)
{
    int lanes = (int)d->o.geom.lanes;
    if (m->col[C_V0] >= 0 && !m->lanes_cols)     /* v0=K: lanes in K, K+1, ... */
        for (int i = 0; i < lanes; i++)
            m->lanecol[i] = m->col[C_V0] + i;
    m->lanes_cols = m->col[C_V0] >= 0;
    for (int i = 0; m->lanes_cols && i < lanes; i++)
        if (m->lanecol[i] < 0)
            return dec_bad(d, "the column map has v0 but no column for v%d", i);
    if (m->col[C_CYCLE] < 0)
        return dec_bad(d, "the column map names no cycle column");
    if (m->col[C_WF] < 0)
        return dec_bad(d, "the column map names no wf column");
    if (m->col[C_VREG] < 0)
        return dec_bad(d, "the column map names no vreg column");
    if (!m->lanes_cols && (m->col[C_LANE] < 0 || m->col[C_VALUE] < 0))
        return dec_bad(d, "the column map names neither v0.. nor lane and value columns");
    m->have_map = 1;
    return 0;
}

static int parse_map(rft_dec *d, colmap *m, const char *s)
{
    int lanes = (int)d->o.geom.lanes;
    for (const char *p = s; *p;) {
        const char *c = strchr(p, ','), *e = c ? c : p + strlen(p), *eq = memchr(p, '=', (size_t)(e - p));
        uint64_t v;
        int lane, id = eq ? field_id(p, (size_t)(eq - p), lanes, &lane) : -1;
        if (!eq || id < 0 || dec_u64(eq + 1, (size_t)(e - eq - 1), &v) || v >= MAXF)
            return dec_bad(d, "--columns: '%.*s' is not NAME=COLUMN (0-based) with a field name "
                           "of rft-decode(1)", DEC_TOK(p, (size_t)(e - p)));
        if (id == C_V0 && lane > 0) {
            m->lanecol[lane] = (int)v;
            m->lanes_cols = 1;
        } else {
            m->col[id] = (int)v;
            if (id == C_V0)
                m->lanecol[0] = (int)v;
        }
        p = c ? c + 1 : e;
    }
    if (m->lanes_cols && m->col[C_V0] < 0)
        return dec_bad(d, "--columns: lane columns without v0");
    return check_map(d, m);
}

static int init(rft_dec *d)
{
    colmap *m = calloc(1, sizeof *m);
    if (!m)
        return RFT_EMEM;
    d->priv = m;
    for (int i = 0; i < C_N; i++)
        m->col[i] = -1;
    m->lanecol = malloc(d->o.geom.lanes * sizeof *m->lanecol);
    m->pval = calloc(d->o.geom.lanes, sizeof *m->pval);
    if (!m->lanecol || !m->pval || csv_init(&m->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL))
        return RFT_EMEM;
    for (uint32_t i = 0; i < d->o.geom.lanes; i++)
        m->lanecol[i] = -1;
    if (d->o.columns) {
        int e = parse_map(d, m, d->o.columns);
        d->no_prescan = m->col[C_NREGS] >= 0;    /* every wavefront's window is in its row */
        return e;
    }
    return 0;
}

static void mfree(rft_dec *d)
{
    colmap *m = d->priv;
    if (!m)
        return;
    csv_free(&m->p);
    free(m->lanecol);
    free(m->pval);
    free(m->buf);
    free(m);
}

static void cb_field(void *s, size_t n, void *ctx)
{
    colmap *m = ctx;
    if (m->nf == MAXF) {
        m->toomany = 1;
        return;
    }
    if (m->blen + n + 1 > m->bcap) {
        size_t cap = m->bcap ? m->bcap : 4096;
        while (m->blen + n + 1 > cap)
            cap *= 2;
        char *b = realloc(m->buf, cap);
        if (!b) {
            m->toomany = 2;
            return;
        }
        m->buf = b;
        m->bcap = cap;
    }
    memcpy(m->buf + m->blen, s, n);
    m->off[m->nf] = m->blen;
    m->len[m->nf++] = n;
    m->blen += n;
}

static void cb_row(int c, void *ctx) { (void)c, (void)ctx; }

/* a value: 0x hex, decimal, -decimal, or hex with letters; --radix forces one */
static int value(rft_dec *d, const char *s, size_t n, uint32_t *v)
{
    colmap *m = d->priv;
    (void)m;
    if (d->o.radix == 16)
        return dec_hex32(s, n, v);
    int isf, exact;
    size_t neg = n && s[0] == '-', digits = 1;
    for (size_t i = neg; i < n; i++)
        digits &= isdig(s[i]);
    if (d->o.radix == 10 && !(digits && n > neg))
        return -1;
    if (digits || (n > 2 && s[0] == '0' && (s[1] | 32) == 'x'))
        return dec_value32(s, n, v, &isf, &exact);
    return dec_hex32(s, n, v);
}

static const char *fld(colmap *m, int id, size_t *n)
{
    int c = m->col[id];
    if (c < 0 || c >= m->nf)
        return *n = 0, NULL;
    *n = m->len[c];
    return m->buf + m->off[c];
}

static int number(rft_dec *d, colmap *m, int id, uint64_t max, uint64_t dflt, uint64_t *v)
{
    size_t n;
    const char *s = fld(m, id, &n);
    if (!s && m->col[id] >= 0 && id <= C_VREG)
        return dec_bad(d, "row has %d fields, no column %d for %s", m->nf, m->col[id], cname[id]);
    if (!s || n == 0) {     /* an optional field left out or empty */
        *v = dflt;
        return 0;
    }
    uint32_t x;
    if (n > 2 && s[0] == '0' && (s[1] | 32) == 'x' ? dec_hex32(s, n, &x) == 0 && (*v = x, 1)
                                                  : dec_u64(s, n, v) == 0) {
        if (*v <= max)
            return 0;
        return dec_bad(d, "%s %.*s out of range (at most %llu)", cname[id], DEC_TOK(s, n),
                       (unsigned long long)max);
    }
    return dec_bad(d, "bad %s '%.*s'", cname[id], DEC_TOK(s, n));
}

static int flush(rft_dec *d, colmap *m)
{
    if (!m->pend)
        return 0;
    m->pend = 0;
    return dec_write(d, m->pw, m->pcycle, m->preg, m->pphys, m->pmask, m->pval);
}

static int kernel_named(rft_dec *d, colmap *m, uint64_t cycle, const char *s, size_t n)
{
    if (!s) {
        if (m->have_kernel)
            return 0;
        s = d->o.kernel ? d->o.kernel : "columns";
        n = strlen(s);
    }
    if (m->have_kernel && strlen(d->knames[m->kernel]) == n && memcmp(d->knames[m->kernel], s, n) == 0)
        return 0;
    long found = dec_find_kernel(d, s, n);
    if (found >= 0) {
        m->kernel = (uint32_t)found;
        return 0;
    }
    int k = dec_kernel(d, cycle, s, n);
    if (k < 0)
        return k;
    m->kernel = (uint32_t)k;
    m->have_kernel = 1;
    return 0;
}

static int row(rft_dec *d, colmap *m)
{
    int e;
    size_t kn = 0;
    const char *ks = fld(m, C_KIND, &kn);
    char kind = 'W';
    if (m->col[C_KIND] >= 0) {
        if (!ks || kn == 0)
            return dec_bad(d, "row without a kind");
        kind = (char)(ks[0] & ~32);
        static const char *const words[] = {"kernel", "begin", "write", "read", "end"};
        int ok = kn == 1 && memchr("KBWRE", kind, 5);    /* a blank or NUL is no kind */
        for (int i = 0; i < 5 && !ok; i++)
            ok = strlen(words[i]) == kn && strncasecmp(ks, words[i], kn) == 0;
        if (!ok)
            return dec_bad(d, "unknown kind '%.*s'", DEC_TOK(ks, kn));
    }
    uint64_t cycle, cu, simd, wf = 0, vreg = 0;
    if ((e = number(d, m, C_CYCLE, UINT64_MAX, 0, &cycle)))
        return e;
    if (cycle < m->last)
        return dec_bad(d, "cycle %llu goes backwards (previous %llu)", (unsigned long long)cycle,
                       (unsigned long long)m->last);
    if ((e = number(d, m, C_CU, 65535, 0, &cu)) || (e = number(d, m, C_SIMD, 65535, 0, &simd)))
        return e;
    if (kind != 'K' && (e = number(d, m, C_WF, 0xfffffffeu, 0, &wf)))
        return e;
    if ((kind == 'W' || kind == 'R') && (e = number(d, m, C_VREG, 65534, 0, &vreg)))
        return e;
    /* a lane row continuing the write being gathered */
    int lane_row = kind == 'W' && !m->lanes_cols;
    uint64_t key = rft_wf_key((uint16_t)cu, (uint16_t)simd, (uint32_t)wf);
    dec_wave *w = kind == 'K' ? NULL : dec_wave_get(d, key);
    uint32_t lanes = d->o.geom.lanes;
    uint32_t vals[RFT_MAX_LANES];
    uint8_t mask[RFT_MAX_LANES / 8];
    uint64_t lane = 0, phys = RFT_NO_PHYS;
    if (m->col[C_PHYS] >= 0 && (kind == 'W' || kind == 'R') &&
        (e = number(d, m, C_PHYS, d->o.geom.entries - 1, RFT_NO_PHYS, &phys)))
        return e;
    /* validate the whole row before anything changes */
    if (kind == 'W') {
        if (lane_row) {
            size_t n;
            const char *s;
            if ((e = number(d, m, C_LANE, UINT32_MAX, 0, &lane)))
                return e;
            if (lane >= lanes)
                return dec_bad(d, "lane %llu beyond the %u lanes of the geometry",
                               (unsigned long long)lane, lanes);
            if (!(s = fld(m, C_VALUE, &n)) || value(d, s, n, &vals[0]))
                return dec_bad(d, "bad value '%.*s'", DEC_TOK(s ? s : "", n));
        } else {
            for (uint32_t i = 0; i < lanes; i++) {
                int c = m->lanecol[i];
                if (c >= m->nf)
                    return dec_bad(d, "row has %d fields, no column %d for v%u", m->nf, c, i);
                if (value(d, m->buf + m->off[c], m->len[c], &vals[i]))
                    return dec_bad(d, "bad value of lane %u '%.*s'", i,
                                   DEC_TOK(m->buf + m->off[c], m->len[c]));
            }
            memset(mask, 0xff, sizeof mask);
            size_t n;
            const char *s = fld(m, C_MASK, &n);
            if (s) {
                /* exec mask: hex, bit i = lane i */
                memset(mask, 0, sizeof mask);
                size_t a = n > 2 && s[0] == '0' && (s[1] | 32) == 'x' ? 2 : 0;
                if (a == n)
                    return dec_bad(d, "bad exec mask '%.*s'", DEC_TOK(s, n));
                for (size_t i = 0; i < n - a; i++) {
                    char c = s[n - 1 - i];
                    int h = isdig(c) ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
                    if (h < 0)
                        return dec_bad(d, "bad exec mask '%.*s'", DEC_TOK(s, n));
                    for (int b = 0; b < 4; b++)
                        if (h >> b & 1) {
                            size_t l = 4 * i + (size_t)b;
                            if (l >= lanes)
                                return dec_bad(d, "exec mask '%.*s' is wider than %u lanes",
                                               DEC_TOK(s, n), lanes);
                            mask[l / 8] |= (uint8_t)(1u << (l & 7));
                        }
                }
            }
        }
    }
    uint64_t nregs = 0, wg = RFT_NO_WG;
    size_t kln = 0;
    const char *kname = fld(m, C_KERNEL, &kln);
    if (kind == 'B' && w)
        return dec_bad(d, "wavefront %llu begins again on slice (%llu,%llu) while running",
                       (unsigned long long)wf, (unsigned long long)cu, (unsigned long long)simd);
    int explicit_begin = m->col[C_KIND] >= 0;
    int begins = !w && (explicit_begin ? kind == 'B' : kind == 'W' || kind == 'R');
    if (begins) {           /* a wavefront begins: its window and work-group */
        if (m->col[C_NREGS] >= 0 && (e = number(d, m, C_NREGS, d->o.geom.entries, 0, &nregs)))
            return e;
        if (m->col[C_NREGS] >= 0 && nregs == 0 && !d->o.nvgprs)
            return dec_bad(d, "nregs 0: a wavefront needs at least one register");
        if ((e = number(d, m, C_WG, 0xfffffffeu, RFT_NO_WG, &wg)))
            return e;
    }
    if (kind == 'K' && !kname)
        return dec_bad(d, "kernel row without a kernel name");
    if (kname && (e = dec_kernel_name(d, kname, kln)))
        return e;
    if ((kind == 'W' || kind == 'R' || kind == 'E') && !w && explicit_begin)
        return dec_bad(d, "%c for wavefront %llu on slice (%llu,%llu), which has not begun", kind,
                       (unsigned long long)wf, (unsigned long long)cu, (unsigned long long)simd);
    if (w && (kind == 'W' || kind == 'R') && !d->o.prescan && vreg >= w->nregs)
        return dec_bad(d, "register v%llu outside the window of %u registers of wavefront %llu",
                       (unsigned long long)vreg, w->nregs, (unsigned long long)wf);
    /* apply */
    if (!(lane_row && m->pend && m->pw == w && m->preg == vreg && m->pcycle == cycle) &&
        (e = flush(d, m)))
        return e;
    m->last = cycle;
    if (kind == 'K')
        return kernel_named(d, m, cycle, kname, kln);
    if (begins) {
        if ((e = kernel_named(d, m, cycle, kname, kln)))
            return e;
        d->next_wf = (uint32_t)wf;
        d->next_nregs = (uint16_t)nregs;
        w = dec_wave_begin(d, key, cycle, (uint16_t)cu, (uint16_t)simd, m->kernel,
                           (uint32_t)wg, &e);
        if (!w)
            return e;
        if (kind == 'W' || kind == 'R') {
            char tok[24];
            snprintf(tok, sizeof tok, "v%llu", (unsigned long long)vreg);
            if ((e = dec_reg(d, m->kernel, (uint32_t)vreg, w, tok, strlen(tok))))
                return e;
        }
    } else if (w && (kind == 'W' || kind == 'R')) {
        char tok[24];
        snprintf(tok, sizeof tok, "v%llu", (unsigned long long)vreg);
        if ((e = dec_reg(d, w->kernel, (uint32_t)vreg, w, tok, strlen(tok))))
            return e;
    }
    switch (kind) {
    case 'E':
        return dec_wave_end(d, w, cycle);
    case 'R':
        return dec_read(d, w, cycle, (uint32_t)vreg, (uint16_t)phys);
    case 'W':
        if (!lane_row)
            return dec_write_all(d, w, cycle, (uint32_t)vreg, (uint16_t)phys, mask, vals);
        if (!m->pend) {
            m->pend = 1;
            m->pw = w;
            m->preg = (uint32_t)vreg;
            m->pcycle = cycle;
            m->pphys = (uint16_t)phys;
            memset(m->pmask, 0, sizeof m->pmask);
        }
        m->pmask[lane / 8] |= (uint8_t)(1u << (lane & 7));
        m->pval[lane] = vals[0];
        return 0;
    }
    return 0;
}

static int line(rft_dec *d, char *s, size_t n)
{
    colmap *m = d->priv;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n || s[i] == '#')
        return 0;
    if (!m->sep) {
        m->sep = memchr(s, '\t', n) ? '\t' : ',';
        csv_set_delim(&m->p, (unsigned char)m->sep);
    }
    m->nf = 0;
    m->blen = 0;
    m->toomany = 0;
    if (csv_parse(&m->p, s, n, cb_field, cb_row, m) != n ||
        csv_fini(&m->p, cb_field, cb_row, m) != 0)
        return dec_bad(d, "bad CSV row: %s", csv_strerror(csv_error(&m->p)));
    if (m->toomany)
        return m->toomany == 2 ? RFT_EMEM : dec_bad(d, "row has more than %d fields", MAXF);
    if (!m->have_map) {
        /* the header row */
        int lanes = (int)d->o.geom.lanes;
        for (int f = 0; f < m->nf; f++) {
            int lane, id = field_id(m->buf + m->off[f], m->len[f], lanes, &lane);
            if (id < 0)
                continue;
            if (id == C_V0) {
                if (lane < 0)
                    lane = 0;
                m->lanecol[lane] = f;
                if (lane == 0)
                    m->col[C_V0] = f;
                m->lanes_cols = 1;
            } else {
                m->col[id] = f;
            }
        }
        d->c[DC_IGNORED]++;
        return check_map(d, m);
    }
    return row(d, m);
}

static int finish(rft_dec *d)
{
    colmap *m = d->priv;
    int e = flush(d, m);
    if (e)
        return e;
    d->c[DC_NO_END] += d->wmap.count;
    return dec_end_all(d, m->last);
}

static void describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    f(ctx, "columns", d->o.columns ? d->o.columns : "from the header row");
    f(ctx, "radix", d->o.radix == 16 ? "hex" : d->o.radix == 10 ? "dec" : "auto");
}

const struct dec_ops dec_colmap_ops = {init, line, finish, describe, mfree, 1, NULL, 0, NULL};
