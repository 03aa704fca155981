/* dec_nvbit.c - NVIDIA NVBit `record_reg_vals` tool output.
 *
 * The tool (tools/record_reg_vals of NVBit) prints, per kernel launch,
 *
 *   Kernel NAME - grid size X,Y,Z - block size X,Y,Z - nregs N - shmem S - cuda stream id I
 *
 * and per instruction a warp runs (with at least one lane active)
 *
 *   CTA X,Y,Z - warp W - <SASS>:
 *   * Reg0_T0: 0x%08x Reg0_T1: 0x%08x ... Reg0_T31: 0x%08x
 *   * Reg1_T0: ...                       (one line per register operand)
 *   <blank>
 *
 * RegK is the K-th general-register operand of the SASS text and the values
 * are its content BEFORE the instruction runs.  So what an instruction writes
 * is only seen at the next instruction of the same warp that names the
 * register: this decoder keeps a "pending" mark on every destination and
 * emits the write when the register shows up again (stamped then).  A
 * destination no later instruction names is lost (counted).  The exec mask
 * is not printed: writes are taken as full-warp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"

#define MAXR DEC_SASS_MAXR
#define RZ DEC_SASS_RZ
#define PENDING 1
#define KNOWN 2

typedef struct {
    uint32_t kernel;
    int have_kernel;
    uint64_t grid[3];
    uint64_t clock;
    /* the instruction being read */
    int have_inst;
    uint64_t inst_line;
    char sass[512];
    uint64_t cta[3];
    uint32_t warp;
    uint32_t *vals;             /* MAXR x lanes */
    int nv;
} nvbit;

static int isdig(int c) { return c >= '0' && c <= '9'; }

static int init(rft_dec *d)
{
    nvbit *m = calloc(1, sizeof *m);
    if (!m)
        return RFT_EMEM;
    d->priv = m;
    m->vals = calloc((size_t)MAXR * d->o.geom.lanes, sizeof *m->vals);
    return m->vals ? 0 : RFT_EMEM;
}

static void mfree(rft_dec *d)
{
    nvbit *m = d->priv;
    if (m)
        free(m->vals);
    free(m);
}

static int lit(const char *s, size_t n, size_t *i, const char *l)
{
    size_t k = strlen(l);
    if (*i + k > n || memcmp(s + *i, l, k) != 0)
        return -1;
    *i += k;
    return 0;
}

static int num(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t a = *i;
    while (*i < n && isdig(s[*i]))
        (*i)++;
    return dec_u64(s + a, *i - a, v);
}

/* "X,Y,Z" */
static int triple(const char *s, size_t n, size_t *i, uint64_t *v)
{
    return num(s, n, i, &v[0]) || lit(s, n, i, ",") || num(s, n, i, &v[1]) || lit(s, n, i, ",") ||
           num(s, n, i, &v[2]) || v[0] > 0xffffffffu || v[1] > 0xffffffffu || v[2] > 0xffffffffu;
}

/* ---- warps ------------------------------------------------------------------------- */
static uint64_t key_of(const nvbit *m)
{
    uint64_t lin = m->cta[0] + m->grid[0] * (m->cta[1] + m->grid[1] * m->cta[2]);
    return (uint64_t)(m->kernel & 0xff) << 56 | (lin & 0xffffffffffull) << 16 | (m->warp & 0xffff);
}

static int end_warp(rft_dec *d, dec_wave *w, uint64_t cycle)
{
    if (w->bits)
        for (uint32_t r = 0; r < w->nregs; r++)
            d->c[DC_UNRECOVERED] += w->bits[r] & PENDING;
    return dec_wave_end(d, w, cycle);
}

static int end_kernel(rft_dec *d, nvbit *m)
{
    for (uint32_t i = 0; i < d->nwaves; i++)
        if (d->waves[i]) {
            d->c[DC_NO_END]++;
            if (d->waves[i]->bits)
                for (uint32_t r = 0; r < d->waves[i]->nregs; r++)
                    d->c[DC_UNRECOVERED] += d->waves[i]->bits[r] & PENDING;
        }
    return dec_end_all(d, m->clock);
}

static int flush_inst(rft_dec *d, nvbit *m)
{
    if (!m->have_inst)
        return 0;
    m->have_inst = 0;
    dec_sass x;
    int e = dec_sass_parse(d, m->sass, strlen(m->sass), &x);
    if (e)
        return e;
    uint32_t first = 0;
    int count = 0, has_dst = dec_sass_dests(&x, &first, &count);
    /* NVBit passes RZ as a register operand; take it out if the value lines say so */
    int with_rz = x.nreg == m->nv;
    if (!with_rz && x.nreg_norz != m->nv)
        return dec_bad(d, "the instruction of line %llu ('%.*s') names %d registers but %d value "
                       "lines follow", (unsigned long long)m->inst_line, DEC_TOK(m->sass, strlen(m->sass)),
                       x.nreg, m->nv);
    if (!with_rz) {
        int k = 0;
        for (int i = 0; i < x.nreg; i++)
            if (x.reg[i] != RZ)
                x.reg[k++] = x.reg[i];
        x.nreg = k;
    }
    uint64_t cycle = m->clock;
    m->clock += d->o.issue_cycles;
    d->c[DC_INSTS]++;
    uint64_t lin = m->cta[0] + m->grid[0] * (m->cta[1] + m->grid[1] * m->cta[2]);
    dec_wave *w = dec_wave_get(d, key_of(m));
    if (!w) {
        uint16_t cu = (uint16_t)(lin % d->o.cus), simd = (uint16_t)(m->warp % d->o.simds);
        if (!(w = dec_wave_begin(d, key_of(m), cycle, cu, simd, m->kernel,
                                 lin < RFT_NO_WG ? (uint32_t)lin : RFT_NO_WG, &e)))
            return e;
        w->id = m->warp;
    }
    uint32_t lanes = d->o.geom.lanes;
    /* every register shown: a pending write is revealed, else the content is learnt */
    for (int i = 0; i < x.nreg; i++) {
        uint32_t r = x.reg[i];
        if (r == RZ)
            continue;
        char tok[16];
        snprintf(tok, sizeof tok, "R%u", r);
        if ((e = dec_reg(d, m->kernel, r, w, tok, strlen(tok))))
            return e;
        if (!w->vals)
            continue;
        const uint32_t *v = m->vals + (size_t)i * lanes;
        uint32_t *cell = w->vals + (size_t)r * lanes;
        if (w->bits[r] & PENDING) {
            uint8_t mask[RFT_MAX_LANES / 8];
            memset(mask, 0xff, rft_mask_bytes(&d->o.geom));
            if (lanes % 8)
                mask[lanes / 8] = (uint8_t)((1u << (lanes % 8)) - 1);
            if ((e = dec_write(d, w, cycle, r, RFT_NO_PHYS, mask, v)))
                return e;
        } else if ((w->bits[r] & KNOWN) && memcmp(cell, v, lanes * sizeof *v) != 0) {
            d->c[DC_UNTRACED]++;
            memcpy(cell, v, lanes * sizeof *v);
        } else {
            memcpy(cell, v, lanes * sizeof *v);
        }
        w->bits[r] = KNOWN;
    }
    /* reads: every register operand but the destination */
    for (int i = 0; i < x.nreg; i++) {
        if (x.reg[i] == RZ || (has_dst && i == 0))
            continue;
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= x.reg[j] == x.reg[i] && !(has_dst && j == 0);
        if (!dup && (e = dec_read(d, w, cycle, x.reg[i], RFT_NO_PHYS)))
            return e;
    }
    if (has_dst)
        for (int k = 0; k < count; k++) {
            uint32_t r = first + (uint32_t)k;
            char tok[16];
            snprintf(tok, sizeof tok, "R%u", r);
            if ((e = dec_reg(d, m->kernel, r, w, tok, strlen(tok))))
                return e;
            if (w->bits) {
                d->c[DC_UNRECOVERED] += w->bits[r] & PENDING;
                w->bits[r] |= PENDING;
            }
        }
    if (strcmp(x.op, "EXIT") == 0 && !x.pred)
        return end_warp(d, w, cycle);
    return 0;
}

/* ---- lines ------------------------------------------------------------------------- */
static int kernel_line(rft_dec *d, nvbit *m, const char *s, size_t n)
{
    size_t i = 7, a = i;
    const char *gs = NULL;
    for (size_t k = i; k + 13 <= n; k++)
        if (memcmp(s + k, " - grid size ", 13) == 0) {
            gs = s + k;
            break;
        }
    if (!gs)
        return dec_bad(d, "bad kernel line '%.*s'", DEC_TOK(s, n));
    size_t nameend = (size_t)(gs - s);
    i = nameend + 13;
    uint64_t grid[3], block[3], nregs;
    if (triple(s, n, &i, grid) || lit(s, n, &i, " - block size ") || triple(s, n, &i, block) ||
        lit(s, n, &i, " - nregs ") || num(s, n, &i, &nregs))
        return dec_bad(d, "bad kernel line '%.*s'", DEC_TOK(s, n));
    if (nregs == 0 || nregs > d->o.geom.entries)
        return dec_bad(d, "kernel with nregs %llu: a window must hold 1 to %u registers",
                       (unsigned long long)nregs, d->o.geom.entries);
    /* the name without its parameter list, blanks made '_' (one token) */
    size_t ne = nameend;
    for (size_t k = a; k < nameend; k++) {
        if (s[k] == '(') {
            ne = k;
            break;
        }
    }
    size_t len = ne - a;
    int e = dec_kernel_name(d, s + a, len);     /* checked before the state changes */
    if (e || (e = flush_inst(d, m)) || (e = end_kernel(d, m)))
        return e;
    char name[RFT_MAX_STR + 1];
    for (size_t k = 0; k < len; k++)
        name[k] = s[a + k] == ' ' || s[a + k] == '\t' ? '_' : s[a + k];
    if (len == 0)
        name[len++] = '?';
    int k = dec_kernel(d, m->clock, name, len);
    if (k < 0)
        return k;
    m->kernel = (uint32_t)k;
    m->have_kernel = 1;
    memcpy(m->grid, grid, sizeof grid);
    if (!d->o.nvgprs)
        d->kmax[k] = (uint16_t)nregs;   /* the window: registers per thread */
    return 0;
}

static int cta_line(rft_dec *d, nvbit *m, const char *s, size_t n)
{
    size_t i = 4;
    uint64_t cta[3], warp;
    if (triple(s, n, &i, cta) || lit(s, n, &i, " - warp ") || num(s, n, &i, &warp) ||
        lit(s, n, &i, " - ") || n == 0 || s[n - 1] != ':' || warp > 0xffff)
        return dec_bad(d, "bad instruction line '%.*s'", DEC_TOK(s, n));
    if (!m->have_kernel)
        return dec_bad(d, "instruction before any 'Kernel ...' line");
    for (int k = 0; k < 3; k++)
        if (cta[k] >= (m->grid[k] ? m->grid[k] : 1))
            return dec_bad(d, "CTA %llu,%llu,%llu outside the grid", (unsigned long long)cta[0],
                           (unsigned long long)cta[1], (unsigned long long)cta[2]);
    int e = flush_inst(d, m);
    if (e)
        return e;
    size_t sl = n - 1 - i;
    if (sl >= sizeof m->sass)
        return dec_bad(d, "instruction text longer than %zu bytes", sizeof m->sass - 1);
    memcpy(m->sass, s + i, sl);
    m->sass[sl] = 0;
    memcpy(m->cta, cta, sizeof cta);
    m->warp = (uint32_t)warp;
    m->have_inst = 1;
    m->inst_line = d->line;
    m->nv = 0;
    return 0;
}

static int values_line(rft_dec *d, nvbit *m, const char *s, size_t n)
{
    if (!m->have_inst)
        return dec_bad(d, "register values without an instruction line before them");
    if (m->nv == MAXR)
        return dec_bad(d, "more than %d register value lines", MAXR);
    uint32_t lanes = d->o.geom.lanes, *v = m->vals + (size_t)m->nv * lanes;
    size_t i = 1;
    uint32_t t = 0;
    for (;;) {
        while (i < n && s[i] == ' ')
            i++;
        if (i == n)
            break;
        size_t a = i;
        uint64_t reg, lane;
        if (lit(s, n, &i, "Reg") || num(s, n, &i, &reg) || lit(s, n, &i, "_T") ||
            num(s, n, &i, &lane) || lit(s, n, &i, ": "))
            return dec_bad(d, "bad register value '%.*s'", DEC_TOK(s + a, n - a));
        if (reg != (uint64_t)m->nv)
            return dec_bad(d, "'%.*s' on the line of Reg%d", DEC_TOK(s + a, i - a), m->nv);
        if (lane >= lanes)
            return dec_bad(d, "lane '%.*s' beyond the %u lanes of the geometry", DEC_TOK(s + a, i - 2 - a),
                           lanes);
        if (lane != t)
            return dec_bad(d, "'%.*s' out of order (expected T%u)", DEC_TOK(s + a, i - 2 - a), t);
        size_t b = i;
        while (i < n && s[i] != ' ')
            i++;
        if (dec_hex32(s + b, i - b, &v[t]))
            return dec_bad(d, "bad value '%.*s' of '%.*s'", DEC_TOK(s + b, i - b),
                           DEC_TOK(s + a, b - 2 - a));
        t++;
    }
    if (t != lanes)
        return dec_bad(d, "Reg%d has %u lanes, expected %u", m->nv, t, lanes);
    m->nv++;
    return 0;
}

static int line(rft_dec *d, char *s, size_t n)
{
    nvbit *m = d->priv;
    size_t blank = 0;
    while (blank < n && (s[blank] == ' ' || s[blank] == '\t'))
        blank++;
    if (blank == n)
        return flush_inst(d, m);
    if (n > 7 && memcmp(s, "Kernel ", 7) == 0)
        return kernel_line(d, m, s, n);
    if (n > 4 && memcmp(s, "CTA ", 4) == 0)
        return cta_line(d, m, s, n);
    if (n > 2 && s[0] == '*' && s[1] == ' ')
        return values_line(d, m, s, n);
    /* the tool's and NVBit's own banners and settings */
    size_t k = 0;
    while (k < n && ((s[k] >= 'A' && s[k] <= 'Z') || s[k] == '_' || isdig(s[k])))
        k++;
    if (s[0] == '-' || (k > 0 && k + 3 <= n && memcmp(s + k, " = ", 3) == 0) ||
        (n > 19 && memcmp(s, "Inspecting function", 19) == 0)) {
        d->c[DC_IGNORED]++;
        return 0;
    }
    for (size_t j = 0; j + 5 <= n; j++)
        if (memcmp(s + j, "NVBit", 5) == 0) {
            d->c[DC_IGNORED]++;
            return 0;
        }
    return dec_bad(d, "line fits no grammar of an NVBit record_reg_vals log: '%.*s'", DEC_TOK(s, n));
}

static int finish(rft_dec *d)
{
    nvbit *m = d->priv;
    int e = flush_inst(d, m);
    return e ? e : end_kernel(d, m);
}

static void describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    char b[256];
    snprintf(b, sizeof b, "one instruction every %u cycles, in log order; a write is stamped "
             "when a later instruction shows it", d->o.issue_cycles);
    f(ctx, "issue_model", b);
    snprintf(b, sizeof b, "CTA c (linear id) on CU c mod %u, warp w on SIMD w mod %u", d->o.cus,
             d->o.simds);
    f(ctx, "slice_mapping", b);
    f(ctx, "exec_masks", "not in the log: every write is taken as full-warp");
}

const struct dec_ops dec_nvbit_ops = {init, line, finish, describe, mfree, 0, NULL, 0, NULL};
