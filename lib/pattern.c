/* pattern.c - RC/DC-Patch and WC register value patterns (see pattern.h). */
#include "pattern.h"
#include "rft.h"

void rft_pattern_opts_default(rft_pattern_opts *o)
{
    o->bs = 8;
    o->any = 0;
    o->max_delta = RFT_PATTERN_HW_MAX_DELTA;
}

static inline int delta_ok(uint32_t d, const rft_pattern_opts *o)
{
    return o->any || (d <= o->max_delta && (d & (d - 1)) == 0);  /* 0 passes too */
}

/* Do lanes 0..8*nblocks-1 all fit the pattern with bs = 8?  Branch-free
 * over constant counts, so that it vectorises (even at -O2): a register
 * that fits is checked whole, and most do. */
static int fits_bs8(const uint32_t *v, unsigned nblocks, uint32_t c0, uint32_t de, uint32_t db)
{
    uint32_t off[8], acc = 0;
    for (unsigned j = 0; j < 8; j++)
        off[j] = j * de;
    for (unsigned b = 0; b < nblocks; b++) {
        uint32_t row = c0 + b * db;
        for (unsigned j = 0; j < 8; j++)
            acc |= v[8 * b + j] ^ (row + off[j]);
    }
    return acc == 0;
}

/* Index of the first lane below n that differs from the pattern, or n. */
static unsigned first_miss(const uint32_t *v, unsigned n, unsigned bs,
                           uint32_t c0, uint32_t de, uint32_t db)
{
    if (bs == 8 && n % 8 == 0 && fits_bs8(v, n / 8, c0, de, db))
        return n;
    uint32_t row = c0;
    for (unsigned i = 0; i < n; row += db) {
        unsigned end = n - i > bs ? i + bs : n;
        for (uint32_t x = row; i < end; i++, x += de)
            if (v[i] != x)
                return i;
    }
    return n;
}

/* Do the deltas that lanes 0..n-1 use pass the rule? */
static int rule_ok(unsigned n, unsigned bs, int ok_e, int ok_b)
{
    return (ok_e || bs == 1 || n < 2) && (ok_b || n <= bs);
}

void rft_pattern_classify(const uint32_t *v, unsigned lanes, unsigned block_lanes,
                          const rft_pattern_opts *o, rft_pattern *p)
{
    unsigned bs = o->bs;
    unsigned fb = block_lanes < lanes ? block_lanes : lanes;
    uint32_t c0 = v[0], de = 0, db = 0;

    if (lanes > 1) {
        if (lanes > bs)
            db = v[bs] - c0;
        if (bs == 1)
            de = db;
        else {
            de = v[1] - c0;
            if (lanes <= bs)
                db = de * bs;
        }
    }
    int ok_e = delta_ok(de, o), ok_b = delta_ok(db, o);
    int whole_ok = rule_ok(lanes, bs, ok_e, ok_b);
    int fb_ok = rule_ok(fb, bs, ok_e, ok_b);
    /* One pass, stopping at the first mismatch; when the whole register
     * cannot fit by rule, scan only as far as speculation needs. */
    unsigned n = whole_ok ? lanes : fb_ok ? fb : 0;
    unsigned miss = first_miss(v, n, bs, c0, de, db);

    p->c0 = c0;
    p->de = de;
    p->db = db;
    p->firstblock = fb_ok && miss >= fb;
    if (!whole_ok || miss < lanes)
        p->cls = RFT_CLS_OTHER;
    else if (de == 0 && db == 0)
        p->cls = RFT_CLS_CONST;
    else if (de != 0 && db == de * bs)
        p->cls = RFT_CLS_SINGLE;
    else
        p->cls = RFT_CLS_DOUBLE;
}

void rft_pattern_decompress(uint32_t c0, uint32_t de, uint32_t db, unsigned bs,
                            unsigned lanes, uint32_t *out)
{
    for (unsigned i = 0; i < lanes; i++)
        out[i] = c0 + (uint32_t)(i / bs) * db + (uint32_t)(i % bs) * de;
}

int rft_pattern_log2(uint32_t delta)
{
    if (delta == 0)
        return RFT_PATTERN_LOG2_ZERO;
    if (delta > RFT_PATTERN_HW_MAX_DELTA || (delta & (delta - 1)))
        return -1;
    int l = 0;
    while (delta >>= 1)
        l++;
    return l;
}

uint32_t rft_pattern_delta(int code)
{
    return code == RFT_PATTERN_LOG2_ZERO ? 0 : 1u << code;
}

/* OR into w[0] every delta, into w[1] those outside one signed byte, into
 * w[2] those outside two: a signed d fits n bits when d + 2^(n-1), as
 * unsigned, is below 2^n.  Branch-free so that it vectorises. */
static inline void wc_scan(const uint32_t *v, unsigned n, uint32_t c0, uint32_t w[3])
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t d = v[i] - c0;
        w[0] |= d;
        w[1] |= (d + 0x80u) & ~0xffu;
        w[2] |= (d + 0x8000u) & ~0xffffu;
    }
}

int rft_wc_classify(const uint32_t *v, unsigned lanes, uint32_t *on_bits)
{
    static const uint32_t per_lane[] = {
        [RFT_WC_BASE] = 0, [RFT_WC_DELTA1] = 8, [RFT_WC_DELTA2] = 16, [RFT_WC_UNCOMP] = 32};
    uint32_t w[3] = {0, 0, 0};
    unsigned i = 0;

    /* 16 lanes at a time (a constant count vectorises even at -O2), and
     * stop as soon as the register cannot be compressed */
    for (; i + 16 <= lanes && !w[2]; i += 16)
        wc_scan(v + i, 16, v[0], w);
    if (!w[2])
        wc_scan(v + i, lanes - i, v[0], w);
    int wc = w[2] ? RFT_WC_UNCOMP : w[1] ? RFT_WC_DELTA2 : w[0] ? RFT_WC_DELTA1 : RFT_WC_BASE;
    if (on_bits)
        *on_bits = 32 + per_lane[wc] * (lanes - 1);
    return wc;
}
