/* text.c - the canonical text grammar: one record a line (rft-decode(1)).
 *   K <cycle> <kernel>
 *   B <cycle> <cu> <simd> <wf> <nvgprs> [<kernel> [<work-group>]]
 *   W <cycle> <cu> <simd> <wf> <vreg> <exec-mask-hex> <v0> ... <vN-1> [key=value ...]
 *   R <cycle> <cu> <simd> <wf> <vreg> [key=value ...]
 *   E <cycle> <cu> <simd> <wf>
 *   A <cycle> <cu> <simd> <wf> <slots> <exec-mask-hex> [trans] [vector]
 * The key=value tokens carry what later stages annotated, so that
 * rft-view | rft-decode reproduces an annotated stream exactly. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "rft.h"

static int bad(rft_textdec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(rft_textdec *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why, sizeof d->why, fmt, ap);
    va_end(ap);
    /* quoted input may be binary: the message stays one line of text */
    for (char *c = d->why; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    return RFT_EFORMAT;
}

int rft_textdec_init(rft_textdec *d, const rft_geom *g)
{
    memset(d, 0, sizeof *d);
    d->geom = *g;
    d->cur_kernel = RFT_NO_KERNEL;
    if (rft_map_init(&d->wfs, 64))
        return RFT_EMEM;
    if (rft_map_init(&d->kbyname, 64)) {
        rft_map_free(&d->wfs);
        return RFT_EMEM;
    }
    return 0;
}

void rft_textdec_free(rft_textdec *d)
{
    for (uint32_t i = 0; i < d->nk; i++)
        free(d->knames[i]);
    free(d->knames);
    free(d->kst);
    rft_map_free(&d->wfs);
    rft_map_free(&d->kbyname);
}

/* hex digit value, or 255 */
static const uint8_t *hexval(void)
{
    static uint8_t t[256];
    if (!t[0]) {
        memset(t, 255, sizeof t);
        for (int i = 0; i < 10; i++)
            t['0' + i] = (uint8_t)i;
        for (int i = 0; i < 6; i++)
            t['a' + i] = t['A' + i] = (uint8_t)(10 + i);
    }
    return t;
}

/* A token shown in messages: at most 24 characters of it. */
#define TOK(s, n) (int)((n) > 24 ? 24 : (n)), (s)

static int dec_u64(rft_textdec *d, const char *what, const char *s, size_t n, uint64_t max,
                   uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 20)
        return bad(d, "bad %s '%.*s'", what, TOK(s, n));
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i] - '0';
        if (c > 9 || v > (UINT64_MAX - c) / 10)
            return bad(d, "bad %s '%.*s'", what, TOK(s, n));
        v = v * 10 + c;
    }
    if (v > max)
        return bad(d, "%s %llu out of range (at most %llu)", what, (unsigned long long)v,
                   (unsigned long long)max);
    *out = v;
    return 0;
}

static int hex32(rft_textdec *d, const char *what, const char *s, size_t n, uint32_t *out)
{
    const uint8_t *hv = hexval();
    const char *s0 = s;
    size_t n0 = n;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, n -= 2;
    if (n == 0)
        return bad(d, "bad hex %s '%.*s'", what, TOK(s0, n0));
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = hv[(unsigned char)s[i]];
        if (c == 255)
            return bad(d, "bad hex %s '%.*s'", what, TOK(s0, n0));
        v = v << 4 | c;
        if (v > 0xffffffffu)
            return bad(d, "%s '%.*s' is wider than 32 bits", what, TOK(s0, n0));
    }
    *out = (uint32_t)v;
    return 0;
}

/* exec mask: a hex number whose bit i is lane i */
static int hexmask(rft_textdec *d, const char *s, size_t n, uint8_t *mask)
{
    const uint8_t *hv = hexval();
    const char *s0 = s;
    size_t n0 = n;
    uint32_t lanes = d->geom.lanes;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, n -= 2;
    memset(mask, 0, rft_mask_bytes(&d->geom));
    if (n == 0)
        return bad(d, "bad hex exec mask '%.*s'", TOK(s0, n0));
    for (size_t i = 0; i < n; i++) {
        uint8_t c = hv[(unsigned char)s[n - 1 - i]];
        if (c == 255)
            return bad(d, "bad hex exec mask '%.*s'", TOK(s0, n0));
        for (int b = 0; b < 4; b++) {
            if (!(c >> b & 1))
                continue;
            size_t lane = 4 * i + (size_t)b;
            if (lane >= lanes)
                return bad(d, "exec mask '%.*s' is wider than %u lanes", TOK(s0, n0), lanes);
            mask[lane >> 3] |= (uint8_t)(1u << (lane & 7));
        }
    }
    return 0;
}

static int eq(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static int name_index(const char *const *names, int count, const char *s, size_t n)
{
    for (int i = 0; i < count; i++)
        if (eq(s, n, names[i]))
            return i;
    return -1;
}

static const char *const cls_short[] = {"none", "const", "single", "double", "other"};
static const char *const wc_short[] = {"none", "base", "delta1", "delta2", "uncomp"};
static const char *const flag_names[] = {"fb", "div", "mov", "wake", "vmem", "lds"};

/* key=value annotations after the fixed fields of W and R lines */
static int annotations(rft_textdec *d, rft_rec *r, int nf, const char *const *f, const size_t *fl)
{
    for (int i = 0; i < nf; i++) {
        const char *eqs = memchr(f[i], '=', fl[i]);
        if (!eqs)
            return bad(d, "unexpected field '%.*s' (wrong field count?)", TOK(f[i], fl[i]));
        size_t kn = (size_t)(eqs - f[i]), vn = fl[i] - kn - 1;
        const char *k = f[i], *v = eqs + 1;
        uint64_t u;
        int x;
        rft_write *w = &r->w;
        if (eq(k, kn, "phys")) {
            if (dec_u64(d, "phys", v, vn, d->geom.entries - 1, &u))
                return RFT_EFORMAT;
            if (r->kind == RFT_READ)
                r->u.read.phys = (uint16_t)u;
            else
                w->phys = (uint16_t)u;
            continue;
        }
        if (r->kind != RFT_WRITE)
            return bad(d, "unknown annotation '%.*s'", TOK(k, kn));
        if (eq(k, kn, "cls")) {
            if ((x = name_index(cls_short, 5, v, vn)) <= 0)
                return bad(d, "unknown class '%.*s'", TOK(v, vn));
            w->cls = (uint8_t)x;
        } else if (eq(k, kn, "wc")) {
            if ((x = name_index(wc_short, 5, v, vn)) <= 0)
                return bad(d, "unknown WC class '%.*s'", TOK(v, vn));
            w->wc = (uint8_t)x;
        } else if (eq(k, kn, "bs")) {
            if (dec_u64(d, "bs", v, vn, 255, &u))
                return RFT_EFORMAT;
            w->bs = (uint8_t)u;
        } else if (eq(k, kn, "c0")) {
            if (hex32(d, "c0", v, vn, &w->c0))
                return RFT_EFORMAT;
        } else if (eq(k, kn, "de")) {
            if (hex32(d, "de", v, vn, &w->de))
                return RFT_EFORMAT;
        } else if (eq(k, kn, "db")) {
            if (hex32(d, "db", v, vn, &w->db))
                return RFT_EFORMAT;
        } else if (eq(k, kn, "on")) {
            if (dec_u64(d, "on", v, vn, 32u * d->geom.lanes, &u))
                return RFT_EFORMAT;
            w->on_bits = (uint32_t)u;
        } else if (eq(k, kn, "flags")) {
            for (size_t a = 0; a < vn;) {
                size_t b = a;
                while (b < vn && v[b] != ',' && v[b] != '+')
                    b++;
                if ((x = name_index(flag_names, 6, v + a, b - a)) < 0)
                    return bad(d, "unknown flag '%.*s'", TOK(v + a, b - a));
                w->flags |= (uint8_t)(1u << x);
                a = b + 1;
            }
        } else {
            return bad(d, "unknown annotation '%.*s'", TOK(k, kn));
        }
    }
    return 0;
}

static const char slot_letters[] = "XYZWT";    /* bit i of rft_bundle.slots */

/* <slots> <exec-mask-hex> [trans] [vector] of an A line */
static int bundle_fields(rft_textdec *d, rft_bundle *b, int nf, const char *const *f,
                         const size_t *fl)
{
    b->slots = b->flags = 0;
    if (fl[0] == 0)
        return bad(d, "empty slots field");
    if (!eq(f[0], fl[0], "-")) {
        int last = -1;
        for (size_t i = 0; i < fl[0]; i++) {
            const char *c = memchr(slot_letters, f[0][i], RFT_NSLOTS);
            if (!c || c - slot_letters <= last)
                return bad(d, "bad slots '%.*s' (letters of XYZWT in that order, or -)",
                           TOK(f[0], fl[0]));
            last = (int)(c - slot_letters);
            b->slots |= (uint8_t)(1u << last);
        }
    }
    if (hexmask(d, f[1], fl[1], b->mask))
        return RFT_EFORMAT;
    for (int i = 2; i < nf; i++) {
        uint8_t flag = eq(f[i], fl[i], "trans") ? RFT_UF_TRANS
                     : eq(f[i], fl[i], "vector") ? RFT_UF_VECTOR : 0;
        if (!flag || (b->flags & flag))
            return bad(d, "unexpected field '%.*s' (trans and vector, each at most once)",
                       TOK(f[i], fl[i]));
        b->flags |= flag;
    }
    if ((b->flags & RFT_UF_TRANS) && !(b->slots & RFT_SLOT_T))
        return bad(d, "'trans' without slot T");
    if ((b->flags & RFT_UF_VECTOR) && !(b->slots & RFT_SLOTS_XYZW))
        return bad(d, "'vector' without any of the slots X, Y, Z, W");
    return 0;
}

static int add_kernel(rft_textdec *d, const char *s, size_t n)
{
    if (n > RFT_MAX_STR)
        return bad(d, "kernel name longer than %d bytes", RFT_MAX_STR);
    if (memchr(s, 0, n))    /* names are C strings everywhere after this */
        return bad(d, "kernel name contains a NUL byte");
    if (d->nk == d->kcap) {
        uint32_t cap = d->kcap ? 2 * d->kcap : 16;
        char **k = realloc(d->knames, cap * sizeof *k);
        if (k)
            d->knames = k;
        rft_textkern *w = k ? realloc(d->kst, cap * sizeof *w) : NULL;
        if (!w)
            return bad(d, "out of memory");
        d->kst = w;
        d->kcap = cap;
    }
    d->kst[d->nk] = (rft_textkern){0, 0};
    if (!(d->knames[d->nk] = strndup(s, n)) || rft_map_put(&d->kbyname, rft_name_key(s, n), d->nk))
        return bad(d, "out of memory");
    d->cur_kernel = d->nk++;
    return 0;
}

/* The latest kernel named s (n bytes): its index + 1, or 0 if none.  O(1):
 * the names are searched in full only when two share a key. */
static uint32_t find_kernel(const rft_textdec *d, const char *s, size_t n)
{
    const uint64_t *v = rft_map_get(&d->kbyname, rft_name_key(s, n));
    if (!v)
        return 0;
    if (eq(s, n, d->knames[*v]))
        return (uint32_t)*v + 1;
    uint32_t k = d->nk;
    while (k > 0 && !eq(s, n, d->knames[k - 1]))
        k--;
    return k;
}

/* the slice and wavefront fields shared by B, W, R, E (fields 2..4) */
static int slice_wf(rft_textdec *d, const char *const *f, const size_t *fl, uint16_t *cu,
                    uint16_t *simd, uint32_t *wf)
{
    uint64_t a, b, c;
    if (dec_u64(d, "cu", f[2], fl[2], 65535, &a) || dec_u64(d, "simd", f[3], fl[3], 65535, &b) ||
        dec_u64(d, "wavefront", f[4], fl[4], 0xfffffffeu, &c))
        return RFT_EFORMAT;
    *cu = (uint16_t)a;
    *simd = (uint16_t)b;
    *wf = (uint32_t)c;
    return 0;
}

int rft_textdec_line(rft_textdec *d, int nf, const char *const *f, const size_t *fl)
{
    static const char types[7] = "KBWREAU";    /* memchr: a NUL byte is no type */
    static const char *const want[] = {"K: 3", "B: 6 to 8", "W", "R: 6", "E: 5", "A: 7 to 9",
                                       "U: 6"};
    if (nf == 0)
        return 0;
    const char *known = fl[0] == 1 ? memchr(types, f[0][0], sizeof types) : NULL;
    if (!known)
        return bad(d, "unknown record type '%.*s'", TOK(f[0], fl[0]));
    char type = *known;
    uint64_t cycle;
    int min = type == 'K' ? 3 : type == 'B' ? 6 : type == 'W' ? 7 + (int)d->geom.lanes
            : type == 'R' || type == 'U' ? 6 : type == 'A' ? 7 : 5;
    int max = type == 'B' || type == 'A' ? min + 2
            : type == 'E' || type == 'K' || type == 'U' ? min : INT32_MAX;
    if (nf < min || nf > max) {
        if (type == 'W')
            return bad(d, "W line has %d fields, expected %d (%u lanes)", nf, min, d->geom.lanes);
        return bad(d, "%c line has %d fields, expected %s", type, nf,
                   want[known - types] + 3);
    }
    if (dec_u64(d, "cycle", f[1], fl[1], UINT64_MAX, &cycle))
        return RFT_EFORMAT;
    if (cycle < d->last_cycle)
        return bad(d, "cycle %llu goes backwards (previous %llu)", (unsigned long long)cycle,
                   (unsigned long long)d->last_cycle);
    d->last_cycle = cycle;
    rft_rec *r = &d->rec[0];
    if (type == 'K') {
        if (add_kernel(d, f[2], fl[2]))
            return RFT_EFORMAT;
        r->kind = RFT_KERNEL;
        r->u.kernel = (rft_kernel){cycle, d->cur_kernel, 0, d->knames[d->cur_kernel],
                                   (uint16_t)fl[2]};
        return 1;
    }
    uint16_t cu, simd;
    uint32_t wf;
    if (slice_wf(d, f, fl, &cu, &simd, &wf))
        return RFT_EFORMAT;
    uint64_t key = rft_wf_key(cu, simd, wf);
    uint64_t *st = rft_map_get(&d->wfs, key);
    if (type == 'B') {
        uint64_t n, wg = RFT_NO_WG;
        if (st)
            return bad(d, "wavefront %u begins again on slice (%u,%u) while running", wf, cu,
                       simd);
        if (dec_u64(d, "nvgprs", f[5], fl[5], d->geom.entries, &n))
            return RFT_EFORMAT;
        if (n == 0)
            return bad(d, "nvgprs 0: a wavefront needs at least one register");
        int out = 0;
        uint8_t flags = 0;
        if (nf == 8) {
            flags |= RFT_BF_WG;
            if (dec_u64(d, "work-group", f[7], fl[7], 0xfffffffeu, &wg))
                return RFT_EFORMAT;
        }
        if (nf >= 7) {
            /* a kernel named on a B line: the latest kernel of that name,
             * or a new kernel announced by an implicit K record.  Work-group
             * ids restart at every launch and a launch waits for the one
             * before, so work-group 0 beginning when every wavefront of the
             * kernel has ended is the kernel launched again
             * (FastWalshTransform's 15 launches of one name are 15
             * ND-ranges, not one). */
            flags |= RFT_BF_KERNEL;
            uint32_t k = find_kernel(d, f[6], fl[6]);
            if (k && wg == 0 && d->kst[k - 1].begun && !d->kst[k - 1].running)
                k = 0;
            if (k == 0) {
                if (add_kernel(d, f[6], fl[6]))
                    return RFT_EFORMAT;
                d->rec[0].kind = RFT_KERNEL;
                d->rec[0].u.kernel = (rft_kernel){cycle, d->cur_kernel, RFT_KF_IMPLICIT,
                                                  d->knames[d->cur_kernel], (uint16_t)fl[6]};
                out = 1;
            } else {
                d->cur_kernel = k - 1;
            }
        }
        r = &d->rec[out];
        r->kind = RFT_WFBEGIN;
        r->u.begin = (rft_wfbegin){cycle, cu, simd, wf, (uint16_t)n, flags, (uint32_t)wg,
                                   d->cur_kernel};
        if (rft_map_put(&d->wfs, key, n | (uint64_t)d->cur_kernel << 16))
            return bad(d, "out of memory");
        if (d->cur_kernel < d->nk)
            d->kst[d->cur_kernel].begun = 1, d->kst[d->cur_kernel].running++;
        return out + 1;
    }
    if (!st)
        return bad(d, "%c for wavefront %u on slice (%u,%u), which has not begun", type, wf, cu,
                   simd);
    if (type == 'E') {
        uint64_t k = *st >> 16;
        if (k < d->nk)
            d->kst[k].running--;
        rft_map_del(&d->wfs, key);
        r->kind = RFT_WFEND;
        r->u.end = (rft_wfend){cycle, cu, simd, wf};
        return 1;
    }
    if (type == 'A') {
        r->kind = RFT_BUNDLE;
        r->u.bundle.cycle = cycle;
        r->u.bundle.cu = cu;
        r->u.bundle.simd = simd;
        r->u.bundle.wf = wf;
        return bundle_fields(d, &r->u.bundle, nf - 5, f + 5, fl + 5) ? RFT_EFORMAT : 1;
    }
    if (type == 'U') {      /* a store's unit: kind 0x07, its payload in d->ubuf */
        static const uint8_t units[] = {RFT_UNIT_VALUES};
        uint8_t unit = 0;       /* the value rft_unit_name names so */
        for (size_t k = 0; k < sizeof units && !unit; k++)
            if (eq(f[5], fl[5], rft_unit_name(units[k])))
                unit = units[k];
        if (!unit) {    /* the names of RFT_UNIT_VALUES, "a, b or c": fixed text */
            char names[16 * sizeof units] = "";  /* a name (7 at most) and its separator */
            for (size_t k = 0; k < sizeof units; k++)
                strcat(strcat(names, k == 0 ? "" : k + 1 < sizeof units ? ", " : " or "),
                       rft_unit_name(units[k]));
            return bad(d, "unknown unit '%.*s' (%s)", TOK(f[5], fl[5]), names);
        }
        rft_unit_encode(d->ubuf, &(rft_unitrec){cycle, cu, simd, wf, unit});
        r->kind = RFT_UNITREC;
        r->raw = d->ubuf;
        r->len = RFT_UNITREC_LEN;
        return 1;
    }
    uint64_t vreg, nregs = *st & 0xffff;
    if (dec_u64(d, "register", f[5], fl[5], 65535, &vreg))
        return RFT_EFORMAT;
    if (vreg >= nregs)
        return bad(d, "register v%llu outside the window of %llu registers of wavefront %u",
                   (unsigned long long)vreg, (unsigned long long)nregs, wf);
    if (type == 'R') {
        r->kind = RFT_READ;
        r->u.read = (rft_regread){cycle, cu, simd, wf, (uint16_t)vreg, RFT_NO_PHYS};
        return annotations(d, r, nf - 6, f + 6, fl + 6) ? RFT_EFORMAT : 1;
    }
    rft_write *w = &r->w;
    r->kind = RFT_WRITE;
    w->cycle = cycle;
    w->cu = cu;
    w->simd = simd;
    w->wf = wf;
    w->vreg = (uint16_t)vreg;
    w->phys = RFT_NO_PHYS;
    w->cls = w->bs = w->wc = w->flags = 0;
    w->c0 = w->de = w->db = 0;
    w->on_bits = RFT_NO_GATE;
    if (hexmask(d, f[6], fl[6], w->mask))
        return RFT_EFORMAT;
    const uint8_t *hv = hexval();
    for (uint32_t i = 0; i < d->geom.lanes; i++) {
        const char *s = f[7 + i];
        size_t n = fl[7 + i];
        /* the common case first: exactly 8 hex digits */
        if (n == 8) {
            uint32_t v = 0;
            uint8_t acc = 0;
            for (int j = 0; j < 8; j++) {
                uint8_t c = hv[(unsigned char)s[j]];
                acc |= c;
                v = v << 4 | (c & 15);
            }
            if (acc != 255) {
                w->val[i] = v;
                continue;
            }
        }
        char what[32];
        snprintf(what, sizeof what, "value of lane %u", i);
        if (hex32(d, what, s, n, &w->val[i]))
            return RFT_EFORMAT;
    }
    return annotations(d, r, nf - min, f + min, fl + min) ? RFT_EFORMAT : 1;
}

/* ---- formatting ---------------------------------------------------------------- */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_hex(char *p, uint32_t v, int digits)
{
    static const char hx[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; i--)
        *p++ = hx[(v >> (4 * i)) & 15];
    return p;
}

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static char *put_slice(char *p, char sep, uint64_t cycle, uint16_t cu, uint16_t simd, uint32_t wf)
{
    *p++ = sep;
    p = put_u64(p, cycle);
    *p++ = sep;
    p = put_u64(p, cu);
    *p++ = sep;
    p = put_u64(p, simd);
    *p++ = sep;
    return put_u64(p, wf);
}

/* exec mask: ceil(lanes/4) hex digits, lane 0 in the lowest bit */
static char *put_mask(char *p, const rft_geom *g, const uint8_t *mask)
{
    for (int i = (int)((g->lanes + 3) / 4) - 1; i >= 0; i--)
        p = put_hex(p, (uint32_t)(mask[i / 2] >> (4 * (i & 1))) & 15, 1);
    return p;
}

static char *put_kv_hex(char *p, char sep, const char *k, uint32_t v)
{
    *p++ = sep;
    p = put_str(p, k);
    return put_hex(p, v, 8);
}

size_t rft_text_format(const rft_geom *g, const rft_rec *r, const char *const *knames,
                       uint32_t nk, char sep, char *buf)
{
    char *p = buf;
    switch (r->kind) {
    case RFT_KERNEL: {
        const rft_kernel *k = &r->u.kernel;
        if (k->flags & RFT_KF_IMPLICIT)
            return 0;
        *p++ = 'K';
        *p++ = sep;
        p = put_u64(p, k->cycle);
        *p++ = sep;
        memcpy(p, k->name, k->name_len);
        p += k->name_len;
        break;
    }
    case RFT_WFBEGIN: {
        const rft_wfbegin *b = &r->u.begin;
        *p++ = 'B';
        p = put_slice(p, sep, b->cycle, b->cu, b->simd, b->wf);
        *p++ = sep;
        p = put_u64(p, b->nregs);
        if (b->flags & RFT_BF_KERNEL) {
            *p++ = sep;
            p = b->kernel < nk && knames[b->kernel] ? put_str(p, knames[b->kernel]) : put_str(p, "?");
            if (b->flags & RFT_BF_WG) {
                *p++ = sep;
                p = put_u64(p, b->wg);
            }
        }
        break;
    }
    case RFT_WFEND:
        *p++ = 'E';
        p = put_slice(p, sep, r->u.end.cycle, r->u.end.cu, r->u.end.simd, r->u.end.wf);
        break;
    case RFT_READ:
        *p++ = 'R';
        p = put_slice(p, sep, r->u.read.cycle, r->u.read.cu, r->u.read.simd, r->u.read.wf);
        *p++ = sep;
        p = put_u64(p, r->u.read.vreg);
        if (r->u.read.phys != RFT_NO_PHYS) {
            p = put_str(p, sep == ',' ? ",phys=" : "\tphys=");
            p = put_u64(p, r->u.read.phys);
        }
        break;
    case RFT_WRITE: {
        const rft_write *w = &r->w;
        *p++ = 'W';
        p = put_slice(p, sep, w->cycle, w->cu, w->simd, w->wf);
        *p++ = sep;
        p = put_u64(p, w->vreg);
        *p++ = sep;
        p = put_mask(p, g, w->mask);
        for (uint32_t i = 0; i < g->lanes; i++) {
            *p++ = sep;
            p = put_hex(p, w->val[i], 8);
        }
        if (w->phys != RFT_NO_PHYS) {
            *p++ = sep;
            p = put_str(p, "phys=");
            p = put_u64(p, w->phys);
        }
        if (w->cls) {
            *p++ = sep;
            p = put_str(p, "cls=");
            p = put_str(p, w->cls <= RFT_CLS_OTHER ? cls_short[w->cls] : "?");
            *p++ = sep;
            p = put_str(p, "bs=");
            p = put_u64(p, w->bs);
            p = put_kv_hex(p, sep, "c0=", w->c0);
            p = put_kv_hex(p, sep, "de=", w->de);
            p = put_kv_hex(p, sep, "db=", w->db);
        }
        if (w->wc) {
            *p++ = sep;
            p = put_str(p, "wc=");
            p = put_str(p, w->wc <= RFT_WC_UNCOMP ? wc_short[w->wc] : "?");
        }
        if (w->flags) {
            *p++ = sep;
            p = put_str(p, "flags=");
            const char *plus = "";
            for (int i = 0; i < 6; i++)
                if (w->flags >> i & 1) {
                    p = put_str(p, plus);
                    p = put_str(p, flag_names[i]);
                    plus = "+";
                }
        }
        if (w->on_bits != RFT_NO_GATE) {
            *p++ = sep;
            p = put_str(p, "on=");
            p = put_u64(p, w->on_bits);
        }
        break;
    }
    case RFT_BUNDLE: {
        const rft_bundle *b = &r->u.bundle;
        *p++ = 'A';
        p = put_slice(p, sep, b->cycle, b->cu, b->simd, b->wf);
        *p++ = sep;
        for (int i = 0; i < RFT_NSLOTS; i++)
            if (b->slots >> i & 1)
                *p++ = slot_letters[i];
        if (!b->slots)
            *p++ = '-';
        *p++ = sep;
        p = put_mask(p, g, b->mask);
        if (b->flags & RFT_UF_TRANS) {
            *p++ = sep;
            p = put_str(p, "trans");
        }
        if (b->flags & RFT_UF_VECTOR) {
            *p++ = sep;
            p = put_str(p, "vector");
        }
        break;
    }
    case RFT_UNITREC: {
        rft_unitrec u;
        if (!r->raw || rft_unit_parse(r->raw, r->len, &u))
            return 0;       /* malformed: no text form */
        *p++ = 'U';
        p = put_slice(p, sep, u.cycle, u.cu, u.simd, u.wf);
        *p++ = sep;
        p = put_str(p, rft_unit_name(u.flags));
        break;
    }
    default:
        return 0;
    }
    return (size_t)(p - buf);
}
