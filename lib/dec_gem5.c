/* dec_gem5.c - gem5 AMD GPU model logs, --debug-flags=GPUVRF,GPUExec.
 *
 * Every line is "<tick>: <object>: <message>".  The messages used
 * (src/gpu-compute/wavefront.cc, vector_register_file.hh and the GCN3/Vega
 * operand.hh of gem5):
 *
 *   CU0: WF[1][0]: wave[3] Executing inst: v_add_u32 v2, vcc, v0, v1 (pc: 0x...; seqNum: 9)
 *   Write v[34]                       (or Write v[34:35]; Read v[34] for sources)
 *   WF[1][0]: WV[3] v[34][0] = 0x10   (one line per lane of the exec mask, %#x)
 *
 * v[N] is gem5's physical VGPR of the SIMD; the object of the lane lines
 * (system.cpuN.CUsK.vector_register_file...) names the CU.  The virtual
 * register of a wavefront is found from the first instruction that writes
 * (or reads a single) vector register right after its Executing line:
 * physical = (base + virtual) mod entries, as gem5's register manager maps
 * them.  Other messages are counted and ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"

typedef struct {
    /* the instruction of the last Executing line */
    int have_ctx;
    uint16_t ctx_cu;
    uint32_t ctx_dyn;
    int64_t ctx_dst;            /* first virtual register it writes, -1 none */
    int64_t ctx_src;            /* its only vector source register, -1 none or several */
    /* the Read/Write group being read */
    int gkind;                  /* 0, 'R', 'W' */
    uint32_t greg[2];
    int ng;
    uint64_t gcycle;
    dec_wave *gw;               /* its wavefront, from the lane lines */
    uint8_t gmask[2][RFT_MAX_LANES / 8];
    uint32_t *gval;             /* 2 x lanes */
    uint64_t last_tick;
    int have_kernel;
    uint64_t unplaced;
} gem5;

static int isdig(int c) { return c >= '0' && c <= '9'; }

static int init(rft_dec *d)
{
    gem5 *m = calloc(1, sizeof *m);
    if (!m)
        return RFT_EMEM;
    d->priv = m;
    m->gval = calloc(2 * (size_t)d->o.geom.lanes, sizeof *m->gval);
    return m->gval ? 0 : RFT_EMEM;
}

static void mfree(rft_dec *d)
{
    gem5 *m = d->priv;
    if (m)
        free(m->gval);
    free(m);
}

/* parse an unsigned decimal at s[*i] */
static int num(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t a = *i;
    while (*i < n && isdig(s[*i]))
        (*i)++;
    return dec_u64(s + a, *i - a, v);
}

static int lit(const char *s, size_t n, size_t *i, const char *l)
{
    size_t k = strlen(l);
    if (*i + k > n || memcmp(s + *i, l, k) != 0)
        return -1;
    *i += k;
    return 0;
}

static uint64_t key_of(uint32_t cu, uint32_t dyn) { return (uint64_t)cu << 32 | dyn; }

/* "v[A]" or "v[A:B]" at s[*i] */
static int vrange(const char *s, size_t n, size_t *i, uint64_t *a, uint64_t *b)
{
    if (lit(s, n, i, "v[") || num(s, n, i, a))
        return -1;
    *b = *a;
    if (*i < n && s[*i] == ':') {
        (*i)++;
        if (num(s, n, i, b) || *b < *a || *b - *a > 1)
            return -1;
    }
    return lit(s, n, i, "]");
}

static int close_group(rft_dec *d, gem5 *m)
{
    int kind = m->gkind;
    m->gkind = 0;
    dec_wave *w = m->gw;
    m->gw = NULL;
    if (!kind || !w)
        return 0;              /* an empty exec mask: nothing written or read */
    uint32_t entries = d->o.geom.entries;
    for (int k = 0; k < m->ng; k++) {
        uint32_t p = m->greg[k];
        int any = 0;
        for (size_t b = 0; b < RFT_MAX_LANES / 8; b++)
            any |= m->gmask[k][b];
        if (!any)
            continue;
        if (w->base < 0) {
            m->unplaced++;     /* a read before anything told where the window is */
            continue;
        }
        uint32_t vreg = (uint32_t)((p + entries - (uint64_t)w->base % entries) % entries);
        int e = kind == 'W'
                    ? dec_write(d, w, m->gcycle, vreg, (uint16_t)p, m->gmask[k],
                                m->gval + (size_t)k * d->o.geom.lanes)
                    : dec_read(d, w, m->gcycle, vreg, (uint16_t)p);
        if (e)
            return e;
    }
    return 0;
}

static int kernel0(rft_dec *d, gem5 *m, uint64_t cycle)
{
    if (m->have_kernel)
        return 0;
    const char *k = d->o.kernel ? d->o.kernel : "gem5";
    int e = dec_kernel(d, cycle, k, strlen(k));
    if (e < 0)
        return e;
    m->have_kernel = 1;
    return 0;
}

/* the first operand of a disassembly when it is a vector register written,
 * and the only vector source when there is exactly one */
static void operands(const char *s, size_t n, int64_t *dst, int64_t *src)
{
    *dst = *src = -1;
    size_t i = 0;
    while (i < n && s[i] != ' ')
        i++;
    int store = 0;
    for (size_t k = 0; k + 5 <= i; k++)
        if (memcmp(s + k, "store", 5) == 0 || memcmp(s + k, "write", 5) == 0 ||
            memcmp(s + k, "v_cmp", 5) == 0 || memcmp(s + k, "_read", 5) == 0)
            store = 1;
    if (i >= 3 && memcmp(s, "exp", 3) == 0)
        store = 1;
    int op = 0, nsrc = 0, depth = 0;
    int64_t one = -1;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '[' || c == '(')
            depth++;
        else if (c == ']' || c == ')')
            depth -= depth > 0;
        else if (c == ',' && depth == 0)
            op++;
        if (c != 'v' || (i > 0 && s[i - 1] != ' ' && s[i - 1] != ',' && s[i - 1] != '-' &&
                         s[i - 1] != '|' && s[i - 1] != '('))
            continue;
        size_t j = i + 1;
        uint64_t a;
        if (j < n && s[j] == '[')
            j++;
        size_t b = j;
        while (j < n && isdig(s[j]))
            j++;
        if (j == b || dec_u64(s + b, j - b, &a) || a > 65534)
            continue;
        if (op == 0 && !store && *dst < 0)
            *dst = (int64_t)a;
        else if (one != (int64_t)a) {
            nsrc++;
            one = (int64_t)a;
        }
        i = j - 1;
    }
    if (nsrc == 1)
        *src = one;
}

static int executing(rft_dec *d, gem5 *m, const char *s, size_t n, uint64_t cycle)
{
    size_t i = 0;
    uint64_t cu, simd, slot, dyn;
    if (lit(s, n, &i, "CU") || num(s, n, &i, &cu) || lit(s, n, &i, ": WF[") || num(s, n, &i, &simd) ||
        lit(s, n, &i, "][") || num(s, n, &i, &slot) || lit(s, n, &i, "]: wave[") ||
        num(s, n, &i, &dyn) || lit(s, n, &i, "] Executing inst: ") || cu > 65535 || simd > 65535 ||
        dyn > 0xffffffffu)
        return dec_bad(d, "bad Executing line '%.*s'", DEC_TOK(s, n));
    size_t a = i, b = n;
    for (size_t k = n; k > a + 6; k--)
        if (memcmp(s + k - 6, " (pc: ", 6) == 0) {
            b = k - 6;
            break;
        }
    int e = kernel0(d, m, cycle);
    if (e)
        return e;
    dec_wave *w = dec_wave_get(d, key_of((uint32_t)cu, (uint32_t)dyn));
    if (!w) {
        if (!(w = dec_wave_begin(d, key_of((uint32_t)cu, (uint32_t)dyn), cycle, (uint16_t)cu,
                                 (uint16_t)simd, 0, RFT_NO_WG, &e)))
            return e;
        w->id = (uint32_t)slot;
    }
    d->c[DC_INSTS]++;
    m->have_ctx = 1;
    m->ctx_cu = (uint16_t)cu;
    m->ctx_dyn = (uint32_t)dyn;
    operands(s + a, b - a, &m->ctx_dst, &m->ctx_src);
    if (m->ctx_dst >= 0 && (e = dec_reg(d, 0, (uint32_t)m->ctx_dst, w, s + a, b - a)))
        return e;
    if (b - a >= 8 && memcmp(s + a, "s_endpgm", 8) == 0) {
        m->have_ctx = 0;
        return dec_wave_end(d, w, cycle);
    }
    return 0;
}

static int group_line(rft_dec *d, gem5 *m, const char *s, size_t n, uint64_t cycle, int kind)
{
    size_t i = kind == 'W' ? 6 : 5;
    uint64_t a, b;
    if (vrange(s, n, &i, &a, &b) || i != n)
        return dec_bad(d, "bad register '%.*s'", DEC_TOK(s, n));
    if (b >= d->o.geom.entries)
        return dec_bad(d, "physical register v[%llu] beyond the %u entries of the geometry "
                       "(give --entries as gem5's vector register file size)",
                       (unsigned long long)b, d->o.geom.entries);
    m->gkind = kind;
    m->greg[0] = (uint32_t)a;
    m->greg[1] = (uint32_t)b;
    m->ng = b > a ? 2 : 1;
    m->gcycle = cycle;
    m->gw = NULL;
    memset(m->gmask, 0, sizeof m->gmask);
    return 0;
}

/* the CU named by the object: "...CUs3..." */
static int64_t cu_of(const char *s, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (memcmp(s + i, "CUs", 3) == 0 && isdig(s[i + 3])) {
            size_t j = i + 3;
            uint64_t v;
            if (num(s, n, &j, &v) == 0 && v <= 65535)
                return (int64_t)v;
        }
    return -1;
}

static int lane_line(rft_dec *d, gem5 *m, const char *obj, size_t on, const char *s, size_t n)
{
    size_t i = 0;
    uint64_t simd, slot, dyn, reg, lane;
    if (lit(s, n, &i, "WF[") || num(s, n, &i, &simd) || lit(s, n, &i, "][") ||
        num(s, n, &i, &slot) || lit(s, n, &i, "]: WV[") || num(s, n, &i, &dyn) ||
        lit(s, n, &i, "] v[") || num(s, n, &i, &reg) || lit(s, n, &i, "][") ||
        num(s, n, &i, &lane) || lit(s, n, &i, "] = ") || dyn > 0xffffffffu)
        return dec_bad(d, "bad register lane line '%.*s'", DEC_TOK(s, n));
    uint32_t v;
    if (dec_hex32(s + i, n - i, &v))
        return dec_bad(d, "bad value '%.*s'", DEC_TOK(s + i, n - i));
    if (!m->gkind)
        return dec_bad(d, "lane of v[%llu] without a Read or Write line before it",
                       (unsigned long long)reg);
    int k = reg == m->greg[0] ? 0 : m->ng == 2 && reg == m->greg[1] ? 1 : -1;
    if (k < 0)
        return dec_bad(d, "lane of v[%llu] in the group of v[%u]", (unsigned long long)reg,
                       m->greg[0]);
    if (lane >= d->o.geom.lanes)
        return dec_bad(d, "lane %llu of v[%llu] beyond the %u lanes of the geometry",
                       (unsigned long long)lane, (unsigned long long)reg, d->o.geom.lanes);
    int64_t cu = cu_of(obj, on);
    if (cu < 0)
        cu = m->have_ctx ? m->ctx_cu : 0;
    dec_wave *w = dec_wave_get(d, key_of((uint32_t)cu, (uint32_t)dyn));
    if (!w)
        return dec_bad(d, "register %s for wavefront WV[%llu] on CU %lld, which was never seen "
                       "executing (GPUExec lines missing?)", m->gkind == 'W' ? "write" : "read",
                       (unsigned long long)dyn, (long long)cu);
    if (m->gw && m->gw != w)
        return dec_bad(d, "lane of WV[%llu] in a group of wavefront %u", (unsigned long long)dyn,
                       m->gw->wf);
    if (!m->gw && w->base < 0 && m->have_ctx && m->ctx_cu == cu && m->ctx_dyn == dyn) {
        /* where the window is: this instruction's register, virtual and physical */
        int64_t virt = m->gkind == 'W' ? m->ctx_dst : m->ctx_src;
        if (virt >= 0)
            w->base = ((int64_t)m->greg[0] - virt + d->o.geom.entries) % d->o.geom.entries;
    }
    if (!m->gw && w->base < 0 && m->gkind == 'W')
        return dec_bad(d, "cannot tell which register of wavefront WV[%llu] v[%u] is: no "
                       "instruction of it named a vector register it writes before (GPUExec "
                       "lines missing?)", (unsigned long long)dyn, m->greg[0]);
    if (!m->gw && w->base >= 0) {
        uint32_t e = d->o.geom.entries;
        for (int j = 0; j < m->ng; j++) {
            uint32_t vreg = (uint32_t)((m->greg[j] + e - (uint64_t)w->base) % e);
            char tok[32];
            snprintf(tok, sizeof tok, "v[%u]", m->greg[j]);
            int r = dec_reg(d, 0, vreg, w, tok, strlen(tok));
            if (r)
                return r;
        }
    }
    m->gw = w;
    m->gmask[k][lane / 8] |= (uint8_t)(1u << (lane & 7));
    m->gval[(size_t)k * d->o.geom.lanes + lane] = v;
    return 0;
}

static int line(rft_dec *d, char *s, size_t n)
{
    gem5 *m = d->priv;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return 0;
    uint64_t tick;
    size_t a = i;
    while (i < n && isdig(s[i]))
        i++;
    if (i == a || dec_u64(s + a, i - a, &tick) || lit(s, n, &i, ": "))
        return dec_bad(d, "line fits no grammar of a gem5 log: '%.*s'", DEC_TOK(s + a, n - a));
    size_t o = i;
    while (i < n && s[i] != ' ')
        i++;
    if (i == o || s[i - 1] != ':' || i >= n)
        return dec_bad(d, "line fits no grammar of a gem5 log: '%.*s'", DEC_TOK(s + a, n - a));
    size_t on = i - 1 - o;
    i++;
    const char *msg = s + i;
    size_t mn = n - i;
    if (tick < m->last_tick)
        return dec_bad(d, "tick %llu goes backwards (previous %llu)", (unsigned long long)tick,
                       (unsigned long long)m->last_tick);
    uint64_t cycle = tick / d->o.ticks_per_cycle;
    if (mn >= 3 && memcmp(msg, "WF[", 3) == 0 && memchr(msg, '=', mn))
        return lane_line(d, m, s + o, on, msg, mn);
    /* any other line ends the lanes of a group */
    int e = close_group(d, m);
    if (e)
        return e;
    m->last_tick = tick;
    if (mn >= 8 && memcmp(msg, "Write v[", 8) == 0)
        return group_line(d, m, msg, mn, cycle, 'W');
    if (mn >= 7 && memcmp(msg, "Read v[", 7) == 0)
        return group_line(d, m, msg, mn, cycle, 'R');
    if (mn >= 2 && memcmp(msg, "CU", 2) == 0) {
        const char *x = msg;
        for (size_t k = 0; k + 17 <= mn; k++)
            if (memcmp(x + k, " Executing inst: ", 17) == 0)
                return executing(d, m, msg, mn, cycle);
    }
    d->c[DC_IGNORED]++;
    return 0;
}

static int finish(rft_dec *d)
{
    gem5 *m = d->priv;
    int e = close_group(d, m);
    if (e)
        return e;
    d->c[DC_UNPLACED] += m->unplaced;
    d->c[DC_NO_END] += d->wmap.count;
    return dec_end_all(d, d->last_cycle);
}

static void describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    char b[128];
    snprintf(b, sizeof b, "gem5 tick / %llu", (unsigned long long)d->o.ticks_per_cycle);
    f(ctx, "cycles", b);
    f(ctx, "slice_mapping", "gem5's own: CU of the object, SIMD of WF[simd][slot]");
    f(ctx, "placement", "gem5's own: phys of every write and read is gem5's physical VGPR");
}

const struct dec_ops dec_gem5_ops = {init, line, finish, describe, mfree, 1, NULL, 0, NULL};
