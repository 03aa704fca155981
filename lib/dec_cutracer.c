/* dec_cutracer.c - CUTracer's reg_trace output (facebookexperimental/CUTracer,
 * docs/Outputs-and-File-Formats.md): NDJSON, one JSON object a line.
 *
 *   {"type":"kernel_metadata","mangled_name":..,"unmangled_name":..,"nregs":N,
 *    "grid":[x,y,z],"block":[x,y,z],"instructions":{"ID":{"sass":..,"regs":[..]},..},..}
 *   {"type":"reg_trace","active_mask":"0x..","cta":[x,y,z],"grid_launch_id":L,
 *    "warp":W,"opcode_id":I,"pc":"0x..","sass":"..","regs":[[32 values],..],
 *    "regs_indices":[..],"uregs":[..],"uregs_indices":[..],"timestamp":T,..}
 *   {"type":"kernel_launch","kernel_launch_id":L,"kernel_name":..,"grid":[..],
 *    "block":[..],"nregs":N,..}        (the kernel events file, given apart)
 *
 * A reg_trace record holds, for one warp instruction, the values of its
 * register operands per thread BEFORE it runs (NVBit's IPOINT_BEFORE):
 * regs[k][t] is the k-th register operand (number regs_indices[k], else the
 * k-th general register of the SASS text) in thread t.  What an instruction
 * writes shows where the register is next seen in the same warp.  A write is
 * attributed to the instruction whose first SASS operand the register is
 * (2 registers for .64/.WIDE, 4 for .128), stamped at that instruction, with
 * the lanes of its active_mask; its value is the one seen next (lanes inactive
 * there: the next sightings that have them, while its place is in the window).  To stamp it
 * there while the stream stays in time order, the records after it wait in a
 * window of o.reorder records; a write shown only after its place left the
 * window goes out where it is shown (counted late_stamped_writes).
 *
 * The JSON reader is strict (RFC 8259 grammar, no duplicate known keys,
 * nesting at most MAX_DEPTH) and works in place on the line: nothing is
 * copied but a kernel name (checked against RFT_MAX_STR) and numbers, so no
 * token is cut; an error names its column.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"

#define MAXR DEC_SASS_MAXR      /* CUTracer's MAX_REG_OPERANDS */
#define RZ DEC_SASS_RZ
#define WARP 32
#define MAX_DEPTH 32
#define MAX_NUMBER 64           /* characters of a number token */
#define MAX_OPCODES (1u << 20)

/* w->bits */
#define KNOWN 1
#define PENDING 2               /* written, its value not seen yet */
#define LATE 4                  /* pending, its place in the window given up */
#define PARTIAL 16              /* pending, some of its lanes seen: their values wait in its
                                   place in the window, w->word holds the lanes not seen yet
                                   and the place's mask the write's lanes */
#define SHOWN 8                 /* written by an instruction whose record showed the register
                                   (its values then in the cell, its lanes in w->word): the
                                   next sighting checks the instruction point */

/* --cutracer-ipoint before: a trace is refused when this many writes were
 * checked and not one changed its register (IPOINT_CHECK_EARLY at once, at
 * least IPOINT_CHECK_MIN at its end) */
#define IPOINT_CHECK_MIN 4
#define IPOINT_CHECK_EARLY 64

enum { CC_UVALS, CC_UWRITES, CC_PWRITES, CC_UNSEEN, CC_LATE, CC_NOMASK, CC_N };
static const char *const cc_names[CC_N] = {
    "uniform_register_values", "uniform_register_writes", "predicate_writes",
    "unseen_lanes", "late_stamped_writes", "records_without_active_mask"};

/* an instruction as far as the decoder needs it */
enum { OI_KNOWN = 1, OI_EXIT = 2, OI_DST = 4, OI_PREDW = 8, OI_UREGW = 16 };
typedef struct {
    uint8_t flags, nidx, nsass, nsass_norz, dst, dcount;
    uint8_t has_idx;            /* idx given by the metadata table */
    uint8_t idx[MAXR];          /* register numbers of the values */
    uint8_t sreg[MAXR];         /* the SASS text's general registers */
} opinfo;

typedef struct {
    uint64_t id;
    uint32_t grid[3], block[3], nregs;
    char *name;
    size_t name_len;
} launch;

/* the fields of one line */
enum {
    F_TYPE = 1 << 0, F_CTA = 1 << 1, F_WARP = 1 << 2, F_LAUNCH = 1 << 3, F_MASK = 1 << 4,
    F_REGS = 1 << 5, F_IDX = 1 << 6, F_SASS = 1 << 7, F_OPC = 1 << 8, F_NAME = 1 << 9,
    F_MANGLED = 1 << 10, F_NREGS = 1 << 11, F_GRID = 1 << 12, F_BLOCK = 1 << 13,
    F_INSTR = 1 << 14, F_UREGS = 1 << 15, F_KLAUNCH = 1 << 16, F_UNMANGLED = 1 << 17,
};
typedef struct {
    unsigned have;
    const char *type, *sass, *name, *mangled, *unmangled;
    size_t type_n, sass_n, name_n, mangled_n, unmangled_n;
    size_t name_col, mangled_col, unmangled_col;
    uint64_t cta[3], grid[3], block[3], warp, launch, opcode, nregs;
    uint32_t mask;
    int nv, nidx, nureg;
    uint8_t idx[MAXR];
} fields;

typedef struct {
    const char *s;
    size_t n, i;
} js;

typedef struct {
    uint32_t *vals;             /* MAXR x WARP: the values of the record at hand */
    fields f;
    uint64_t clock;
    /* kernels */
    int have_kernel;
    uint64_t cur_launch;
    uint64_t *klaunch;          /* launch id of kernel k */
    uint32_t klcap;
    uint32_t grid[3], block[3], nregs;      /* of the kernel running (0: unknown) */
    launch *launches;
    uint32_t nl, lcap;
    rft_map lmap;               /* launch id -> index in launches */
    rft_map kmap;               /* launch id -> its kernel, of the launches whose records
                                   came (a search of every kernel made 480,000 launches
                                   take 87 s, issue 31) */
    /* a kernel_metadata line, for the launch whose records follow it */
    int meta;
    uint32_t mgrid[3], mblock[3], mnregs;
    char *mname;
    size_t mname_len;
    opinfo *ops, *nops;         /* the instruction table, and the one being read */
    uint32_t nop, opcap, nnop, nopcap;
    char name[RFT_MAX_STR + 1];
    /* the reorder window */
    rft_dec_emit emit;
    void *ctx;
    uint8_t *ring;
    struct slot { uint8_t state; uint16_t vreg; uint64_t wkey; } *slot;
    uint64_t head, tail, cap, alloc;   /* cap: --reorder; alloc: slots now */
    size_t stride, prefix;
    int fill;
    uint64_t fill_seq;
    rft_map pend;               /* wf << 16 | reg -> seq of its place */
    rft_rec *out;
    uint64_t c[CC_N];
    uint64_t ip_checked, ip_changed;    /* writes whose register was seen again, those of
                                           them that changed it (the instruction point) */
} cut;

enum { S_READY = 1, S_PENDING, S_DROPPED };

static int isdig(int c) { return c >= '0' && c <= '9'; }
/* the end of the digits from s[i] (at most n); one test a digit */
static size_t digits(const char *s, size_t i, size_t n)
{
    while (i < n && (unsigned)((unsigned char)s[i] - '0') < 10)
        i++;
    return i;
}

/* ---- JSON ---------------------------------------------------------------------- */
static int jbad(rft_dec *d, const js *j, const char *what)
{
    return dec_bad(d, "column %zu: %s", j->i + 1, what);
}

static void ws(js *j)
{
    /* a blank is a byte up to ' ': one test for any other (CUTracer writes none) */
    while (j->i < j->n && (unsigned char)j->s[j->i] <= ' ' &&
           (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\r' || j->s[j->i] == '\n'))
        j->i++;
}

static int peek(js *j)
{
    ws(j);
    return j->i < j->n ? (unsigned char)j->s[j->i] : -1;
}

static int expect(rft_dec *d, js *j, char c)
{
    if (peek(j) != c) {
        char b[32];
        snprintf(b, sizeof b, "expected '%c'", c);
        return jbad(d, j, b);
    }
    j->i++;
    return 0;
}

static int ishex(int c) { return isdig(c) || ((c | 32) >= 'a' && (c | 32) <= 'f'); }

/* the bytes a string's scan stops at: '"', '\\' and the control characters */
#define STOP4(c) [c] = 1, [c + 1] = 1, [c + 2] = 1, [c + 3] = 1
static const unsigned char jstop[256] = {
    STOP4(0), STOP4(4), STOP4(8), STOP4(12), STOP4(16), STOP4(20), STOP4(24), STOP4(28),
    ['"'] = 1, ['\\'] = 1};
#undef STOP4

/* a string: its bytes between the quotes (escapes left in), *esc if any */
static int jstring(rft_dec *d, js *j, const char **p, size_t *len, int *esc)
{
    if (peek(j) != '"')
        return jbad(d, j, "expected a string");
    size_t a = ++j->i, q = 0;   /* q: the first '"' from j->i (j->n: none), once known */
    int have_q = 0;
    *esc = 0;
    while (j->i < j->n) {
        /* to the next stop byte: one test a byte up to a '"' that memchr
         * found (a stop byte itself), searched again only once passed (an
         * escaped quote): each byte searched once */
        if (!have_q || q < j->i) {
            const char *qp = memchr(j->s + j->i, '"', j->n - j->i);
            q = qp ? (size_t)(qp - j->s) : j->n;
            have_q = 1;
        }
        if (q < j->n)
            while (!jstop[(unsigned char)j->s[j->i]])
                j->i++;
        else
            while (j->i < j->n && !jstop[(unsigned char)j->s[j->i]])
                j->i++;
        if (j->i == j->n)
            break;
        unsigned char c = (unsigned char)j->s[j->i];
        if (c == '"') {
            *p = j->s + a;
            *len = j->i - a;
            j->i++;
            return 0;
        }
        if (c < 0x20)
            return jbad(d, j, "control character in a string");
        if (c == '\\') {
            *esc = 1;
            char e = j->i + 1 < j->n ? j->s[j->i + 1] : 0;
            if (e == 'u') {
                for (int k = 2; k < 6; k++)
                    if (j->i + k >= j->n || !ishex((unsigned char)j->s[j->i + k]))
                        return jbad(d, j, "bad \\u escape in a string");
                j->i += 6;
                continue;
            }
            if (!e || !strchr("\"\\/bfnrt", e))
                return jbad(d, j, "bad escape in a string");
            j->i += 2;
            continue;
        }
    }
    j->i = a - 1;
    return jbad(d, j, "unterminated string");
}

/* a number: its extent; *integer if it is digits alone */
static int jnumber(rft_dec *d, js *j, size_t *a, size_t *len, int *integer)
{
    int c = peek(j);
    size_t i = j->i;
    const char *s = j->s;
    *a = i;
    if (c == '-')
        i++;
    if (i >= j->n || !isdig(s[i]))
        return jbad(d, j, "expected a value");
    i = s[i] == '0' ? i + 1 : digits(s, i, j->n);
    *integer = c != '-';
    if (i < j->n && s[i] == '.') {
        if (++i >= j->n || !isdig(s[i]))
            return j->i = i, jbad(d, j, "bad number");
        i = digits(s, i, j->n);
        *integer = 0;
    }
    if (i < j->n && (s[i] | 32) == 'e') {
        i++;
        if (i < j->n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= j->n || !isdig(s[i]))
            return j->i = i, jbad(d, j, "bad number");
        i = digits(s, i, j->n);
        *integer = 0;
    }
    if (i - *a > MAX_NUMBER)
        return jbad(d, j, "number longer than 64 characters");
    *len = i - *a;
    j->i = i;
    return 0;
}

static int ju64(rft_dec *d, js *j, uint64_t max, uint64_t *v, const char *what)
{
    size_t a, len;
    int integer, e = jnumber(d, j, &a, &len, &integer);
    if (e)
        return e;
    if (!integer || dec_u64(j->s + a, len, v) || *v > max) {
        j->i = a;
        return dec_bad(d, "column %zu: %s: '%.*s' is not an integer 0 to %llu", a + 1, what,
                       DEC_TOK(j->s + a, len), (unsigned long long)max);
    }
    return 0;
}

static int jskip(rft_dec *d, js *j, int depth);

/* in a container after its opening bracket: 1 when an element follows, 0
 * after the closing one */
static int jnext(rft_dec *d, js *j, int *count, char close)
{
    int c = peek(j);
    if (c == close) {
        j->i++;
        return 0;
    }
    if (*count && c != ',') {
        char b[40];
        snprintf(b, sizeof b, "expected ',' or '%c'", close);
        return jbad(d, j, b);
    }
    if (*count)
        j->i++;
    (*count)++;
    return 1;
}

/* the key of an object member and its ':' */
static int jkey(rft_dec *d, js *j, const char **k, size_t *kn)
{
    int esc, e = jstring(d, j, k, kn, &esc);
    if (!e && esc)
        *kn = 0;                /* no key we know has an escape */
    return e ? e : expect(d, j, ':');
}

static int jskip(rft_dec *d, js *j, int depth)
{
    int c = peek(j);
    if (c == '"') {
        const char *p;
        size_t n;
        int esc;
        return jstring(d, j, &p, &n, &esc);
    }
    if (c == '{' || c == '[') {
        if (depth >= MAX_DEPTH)
            return jbad(d, j, "nesting deeper than 32");
        j->i++;
        int count = 0, r, e;
        while ((r = jnext(d, j, &count, c == '{' ? '}' : ']')) > 0) {
            const char *k;
            size_t kn;
            if ((c == '{' && (e = jkey(d, j, &k, &kn))) || (e = jskip(d, j, depth + 1)))
                return e;
        }
        return r;
    }
    static const char *const lits[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(lits[i]);
        if (c == lits[i][0]) {
            if (j->n - j->i < l || memcmp(j->s + j->i, lits[i], l))
                return jbad(d, j, "expected a value");
            j->i += l;
            return 0;
        }
    }
    size_t a, len;
    int integer;
    return jnumber(d, j, &a, &len, &integer);
}

/* [x,y,z] of unsigned integers up to max */
static int jtriple(rft_dec *d, js *j, uint64_t *v, uint64_t max, const char *what)
{
    int e = expect(d, j, '['), count = 0, r;
    if (e)
        return e;
    while ((r = jnext(d, j, &count, ']')) > 0) {
        if (count > 3)
            return jbad(d, j, "more than three numbers");
        if ((e = ju64(d, j, max, &v[count - 1], what)))
            return e;
    }
    if (r < 0)
        return r;
    if (count != 3)
        return jbad(d, j, "expected three numbers");
    return 0;
}

/* [n,...] of register numbers 0 to 255, at most MAXR */
static int jbytes(rft_dec *d, js *j, uint8_t *v, int *n, const char *what)
{
    int e = expect(d, j, '['), count = 0, r;
    if (e)
        return e;
    while ((r = jnext(d, j, &count, ']')) > 0) {
        uint64_t x;
        if (count > MAXR)
            return jbad(d, j, "more than 16 register operands");
        if ((e = ju64(d, j, 255, &x, what)))
            return e;
        v[count - 1] = (uint8_t)x;
    }
    *n = count;
    return r;
}

/* "0x..." or a number */
static int jmask(rft_dec *d, js *j, uint32_t *m)
{
    if (peek(j) == '"') {
        const char *p;
        size_t n, a = j->i;
        int esc, e = jstring(d, j, &p, &n, &esc);
        if (e)
            return e;
        if (n < 3 || p[0] != '0' || p[1] != 'x' || dec_hex32(p, n, m))
            return dec_bad(d, "column %zu: active_mask '%.*s' is not a 32-bit hex number", a + 1,
                           DEC_TOK(p, n));
        return 0;
    }
    uint64_t v;
    int e = ju64(d, j, 0xffffffffu, &v, "active_mask");
    *m = (uint32_t)v;
    return e;
}

/* [32 values] written as CUTracer does (no blanks, plain decimals) into v;
 * 0 with j->i past it, else -1 with j->i where it was (for the full path).
 * The first ']' (memchr) ends every digit run: one test a digit. */
static int jvalues_fast(js *j, uint32_t *v)
{
    const char *s = j->s;
    size_t i = j->i, n = j->n;
    if (i >= n || s[i] != '[' || !memchr(s + i, ']', n - i))
        return -1;
    for (int t = 0; t < WARP; t++) {
        size_t a = ++i;     /* past '[' or ',': at most at the ']' */
        uint64_t x = 0;
        unsigned dg;
        while ((dg = (unsigned)((unsigned char)s[i] - '0')) < 10) {
            x = x * 10 + dg;        /* wraps past 20 digits: refused below */
            i++;
        }
        if (i == a || i - a > 10 || (s[a] == '0' && i - a > 1) || x > 0xffffffffu ||
            s[i] != (t == WARP - 1 ? ']' : ','))
            return -1;
        v[t] = (uint32_t)x;
    }
    j->i = i + 1;
    return 0;
}

/* regs: [[32 values],...] into m->vals */
static int jregs(rft_dec *d, cut *m, js *j)
{
    int e = expect(d, j, '['), count = 0, r;
    if (e)
        return e;
    while ((r = jnext(d, j, &count, ']')) > 0) {
        if (count > MAXR)
            return jbad(d, j, "more than 16 register operands");
        uint32_t *v = m->vals + (size_t)(count - 1) * WARP;
        if (jvalues_fast(j, v) == 0)
            continue;
        if ((e = expect(d, j, '[')))
            return e;
        int t = 0, r2;
        while ((r2 = jnext(d, j, &t, ']')) > 0) {
            uint64_t x;
            if (t > WARP)
                return jbad(d, j, "more than 32 thread values");
            if ((e = ju64(d, j, 0xffffffffu, &x, "register value")))
                return e;
            v[t - 1] = (uint32_t)x;
        }
        if (r2 < 0)
            return r2;
        if (t != WARP)
            return jbad(d, j, "a register with fewer than 32 thread values");
    }
    m->f.nv = count;
    return r;
}

/* uregs: count them */
static int jcount(rft_dec *d, js *j, int *n)
{
    int e = expect(d, j, '['), count = 0, r;
    if (e)
        return e;
    while ((r = jnext(d, j, &count, ']')) > 0)
        if ((e = jskip(d, j, 1)))
            return e;
    *n = count;
    return r;
}

/* ---- instructions --------------------------------------------------------------- */
static int base_is(const char *op, const char *name)
{
    size_t l = strlen(name);
    return strncmp(op, name, l) == 0 && (op[l] == 0 || op[l] == '.');
}

static int sass_info(rft_dec *d, const char *s, size_t n, opinfo *o)
{
    dec_sass x;
    int e = dec_sass_parse(d, s, n, &x);
    if (e)
        return e;
    memset(o, 0, sizeof *o);
    o->flags = OI_KNOWN;
    uint32_t first = 0;
    int count = 0;
    if (dec_sass_dests(&x, &first, &count)) {
        o->flags |= OI_DST;
        o->dst = (uint8_t)first;
        o->dcount = (uint8_t)count;
    } else if (x.first_is_pred && !base_is(x.op, "BRA")) {
        o->flags |= OI_PREDW;
    } else if (x.first_is_ureg) {
        o->flags |= OI_UREGW;
    }
    if (base_is(x.op, "EXIT"))
        o->flags |= OI_EXIT;
    o->nsass = (uint8_t)x.nall;     /* CUTracer lists an address register in its place */
    for (int i = 0; i < x.nall; i++) {
        o->sreg[i] = (uint8_t)x.all[i];
        o->nsass_norz += x.all[i] != RZ;
    }
    return 0;
}

/* the "instructions" table of kernel_metadata into m->nops */
static int jinstructions(rft_dec *d, cut *m, js *j)
{
    int e = expect(d, j, '{'), count = 0, r;
    if (e)
        return e;
    m->nnop = 0;
    while ((r = jnext(d, j, &count, '}')) > 0) {
        const char *k;
        size_t kn, kcol = j->i;
        uint64_t id;
        if ((e = jkey(d, j, &k, &kn)))
            return e;
        if (dec_u64(k + 0, kn, &id) || id >= MAX_OPCODES)
            return dec_bad(d, "column %zu: instruction key '%.*s' is not an opcode id 0 to %u",
                           kcol + 1, DEC_TOK(k, kn), MAX_OPCODES - 1);
        if (id >= m->nopcap) {
            uint32_t cap = m->nopcap ? m->nopcap : 64;
            while (cap <= id)
                cap *= 2;
            opinfo *n = realloc(m->nops, cap * sizeof *n);
            if (!n)
                return RFT_EMEM;
            m->nops = n;
            m->nopcap = cap;
        }
        while (m->nnop <= id)
            m->nops[m->nnop++].flags = 0;
        opinfo *o = &m->nops[id];
        if (o->flags)
            return dec_bad(d, "column %zu: opcode id %llu twice", kcol + 1, (unsigned long long)id);
        if ((e = expect(d, j, '{')))
            return e;
        int c2 = 0, have_sass = 0, have_regs = 0, nidx = 0;
        uint8_t idx[MAXR];
        while ((r = jnext(d, j, &c2, '}')) > 0) {
            const char *f, *p;
            size_t fn, pn, at;
            int esc;
            if ((e = jkey(d, j, &f, &fn)))
                return e;
            at = j->i;
            if (fn == 4 && memcmp(f, "sass", 4) == 0) {
                if (have_sass++)
                    return jbad(d, j, "duplicate key 'sass'");
                if ((e = jstring(d, j, &p, &pn, &esc)))
                    return e;
                if ((e = sass_info(d, p, pn, o))) {
                    char why[sizeof d->why];
                    memcpy(why, d->why, sizeof why);
                    return dec_bad(d, "column %zu: %s", at + 1, why);
                }
            } else if (fn == 4 && memcmp(f, "regs", 4) == 0) {
                if (have_regs++)
                    return jbad(d, j, "duplicate key 'regs'");
                if ((e = jbytes(d, j, idx, &nidx, "regs")))
                    return e;
            } else if ((e = jskip(d, j, 2))) {
                return e;
            }
        }
        if (r < 0)
            return r;
        if (!have_sass)
            return dec_bad(d, "column %zu: instruction %llu has no sass", kcol + 1,
                           (unsigned long long)id);
        if (have_regs) {
            o->has_idx = 1;
            o->nidx = (uint8_t)nidx;
            memcpy(o->idx, idx, (size_t)nidx);
        }
    }
    return r;
}

/* ---- a line -------------------------------------------------------------------- */
/* The F_ bit of key k (kn bytes), 0 for a key we do not read: the one key
 * of that length and first byte compared, not every key. */
static unsigned key_bit(const char *k, size_t kn)
{
#define IS(lit, bit) (kn == sizeof lit - 1 && memcmp(k, lit, sizeof lit - 1) == 0 ? (bit) : 0u)
    if (kn < 3)
        return 0;
    switch (kn * 256 + (unsigned char)k[0]) {
    case 3 * 256 + 'c': return IS("cta", F_CTA);
    case 4 * 256 + 't': return IS("type", F_TYPE);
    case 4 * 256 + 'w': return IS("warp", F_WARP);
    case 4 * 256 + 'r': return IS("regs", F_REGS);
    case 4 * 256 + 's': return IS("sass", F_SASS);
    case 4 * 256 + 'g': return IS("grid", F_GRID);
    case 5 * 256 + 'n': return IS("nregs", F_NREGS);
    case 5 * 256 + 'b': return IS("block", F_BLOCK);
    case 5 * 256 + 'u': return IS("uregs", F_UREGS);
    case 9 * 256 + 'o': return IS("opcode_id", F_OPC);
    case 11 * 256 + 'a': return IS("active_mask", F_MASK);
    case 11 * 256 + 'k': return IS("kernel_name", F_NAME);
    case 12 * 256 + 'r': return IS("regs_indices", F_IDX);
    case 12 * 256 + 'm': return IS("mangled_name", F_MANGLED);
    case 12 * 256 + 'i': return IS("instructions", F_INSTR);
    case 14 * 256 + 'g': return IS("grid_launch_id", F_LAUNCH);
    case 14 * 256 + 'u': return IS("unmangled_name", F_UNMANGLED);
    case 16 * 256 + 'k': return IS("kernel_launch_id", F_KLAUNCH);
    }
    return 0;
#undef IS
}

static int member(rft_dec *d, cut *m, js *j, unsigned bit)
{
    fields *f = &m->f;
    int esc;
    switch (bit) {
    case F_TYPE: return jstring(d, j, &f->type, &f->type_n, &esc);
    case F_CTA: return jtriple(d, j, f->cta, 0x7fffffff, "cta");
    case F_WARP: return ju64(d, j, 0xffffffffffull, &f->warp, "warp");
    /* UINT64_MAX is the maps' empty key (lmap, kmap) */
    case F_LAUNCH: case F_KLAUNCH: return ju64(d, j, UINT64_MAX - 1, &f->launch, "launch id");
    case F_MASK: return jmask(d, j, &f->mask);
    case F_REGS: return jregs(d, m, j);
    case F_IDX: return jbytes(d, j, f->idx, &f->nidx, "regs_indices");
    case F_SASS: return jstring(d, j, &f->sass, &f->sass_n, &esc);
    case F_OPC: return ju64(d, j, MAX_OPCODES - 1, &f->opcode, "opcode_id");
    case F_NAME:
        f->name_col = peek(j) < 0 ? j->i : j->i;
        return jstring(d, j, &f->name, &f->name_n, &esc);
    case F_MANGLED:
        f->mangled_col = peek(j) < 0 ? j->i : j->i;
        return jstring(d, j, &f->mangled, &f->mangled_n, &esc);
    case F_UNMANGLED:
        f->unmangled_col = peek(j) < 0 ? j->i : j->i;
        return jstring(d, j, &f->unmangled, &f->unmangled_n, &esc);
    case F_NREGS: return ju64(d, j, 255, &f->nregs, "nregs");
    case F_GRID: return jtriple(d, j, f->grid, 0x7fffffff, "grid");
    case F_BLOCK: return jtriple(d, j, f->block, 1024, "block");
    case F_INSTR: return jinstructions(d, m, j);
    case F_UREGS: return jcount(d, j, &f->nureg);
    }
    return 0;
}

/* the whole line into m->f */
static int parse(rft_dec *d, cut *m, const char *s, size_t n)
{
    js j = {s, n, 0};
    memset(&m->f, 0, offsetof(fields, idx));
    int e = expect(d, &j, '{'), count = 0, r;
    if (e)
        return e;
    while ((r = jnext(d, &j, &count, '}')) > 0) {
        const char *k;
        size_t kn, kcol = j.i;
        if ((e = jkey(d, &j, &k, &kn)))
            return e;
        unsigned bit = key_bit(k, kn);
        if (bit & m->f.have)
            return dec_bad(d, "column %zu: duplicate key '%.*s'", kcol + 1, DEC_TOK(k, kn));
        if (bit & (F_LAUNCH | F_KLAUNCH) && m->f.have & (F_LAUNCH | F_KLAUNCH))
            return dec_bad(d, "column %zu: two launch ids", kcol + 1);
        m->f.have |= bit;
        if ((e = bit ? member(d, m, &j, bit) : jskip(d, &j, 1)))
            return e;
    }
    if (r < 0)
        return r;
    if (peek(&j) != -1)
        return jbad(d, &j, "text after the object");
    if (!(m->f.have & F_TYPE))
        return dec_bad(d, "column 1: a record without \"type\"");
    return 0;
}

static int type_is(const fields *f, const char *t)
{
    return f->type_n == strlen(t) && memcmp(f->type, t, f->type_n) == 0;
}

/* a kernel's name: the JSON string s (n bytes) unescaped, its parameter
 * list dropped, the return type of a demangled name dropped ("void
 * scale4<float4>(float4*)" -> scale4<float4>: what comes before a blank
 * outside <> and ()), other blanks and commas made '_' (one token), into
 * m->name */
static int kname(rft_dec *d, cut *m, const char *s, size_t n, size_t col, size_t *len)
{
    size_t o = 0;
    int depth = 0, paren = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i];
        if (c == '\\') {
            char e = s[++i];
            if (e == 'u') {
                uint32_t u;
                dec_hex32(s + i + 1, 4, &u);
                i += 4;
                c = u < 0x80 ? u : '?';     /* only ASCII kept; others read '?' */
            } else {
                c = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r'
                  : e == 't' ? '\t' : (unsigned char)e;
            }
        }
        if (c == '<')
            depth++;
        else if (c == '>' && depth > 0)
            depth--;
        else if (c == '(' && depth == 0 && paren == 0 && o > 0)
            break;
        else if (c == '(')
            paren++;            /* (anonymous namespace)::k */
        else if (c == ')' && paren > 0)
            paren--;
        int blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (blank && depth == 0 && paren == 0) {
            o = 0;              /* a return type (or nothing) before it */
            continue;
        }
        if (o == RFT_MAX_STR)
            return dec_bad(d, "column %zu: kernel name longer than %d bytes", col + 1, RFT_MAX_STR);
        m->name[o++] = c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r' ? '_' : (char)c;
    }
    if (o == 0)
        m->name[o++] = '?';
    *len = o;
    return dec_kernel_name(d, m->name, o);
}

/* ---- the reorder window ----------------------------------------------------------- */
static int flush(rft_dec *d, cut *m)
{
    while (m->head < m->tail) {
        struct slot *sl = &m->slot[m->head % m->alloc];
        if (sl->state == S_PENDING)
            break;
        m->head++;
        if (sl->state == S_DROPPED)
            continue;
        const uint8_t *p = m->ring + (m->head - 1) % m->alloc * m->stride;
        memcpy(m->out, p, m->prefix);
        if (m->out->kind == RFT_WRITE)
            memcpy(m->out->w.val, p + m->prefix, WARP * sizeof(uint32_t));
        int e = m->emit(m->ctx, m->out);
        if (e)
            return e;
    }
    return 0;
}

/* twice the slots (up to cap), the waiting records at their new places */
static int grow_ring(cut *m)
{
    uint64_t na = m->alloc * 2 < m->cap ? m->alloc * 2 : m->cap;
    uint8_t *ring = malloc(na * m->stride);
    struct slot *slot = malloc(na * sizeof *slot);
    if (!ring || !slot) {
        free(ring);
        free(slot);
        return RFT_EMEM;
    }
    for (uint64_t q = m->head; q < m->tail; q++) {
        memcpy(ring + q % na * m->stride, m->ring + q % m->alloc * m->stride, m->stride);
        slot[q % na] = m->slot[q % m->alloc];
    }
    free(m->ring);
    free(m->slot);
    m->ring = ring;
    m->slot = slot;
    m->alloc = na;
    return 0;
}

static int settle(rft_dec *d, cut *m, dec_wave *w, uint32_t r);

/* room for one more: what is ready goes out, else more slots up to
 * --reorder, else the oldest waiting write gives up its place */
static int make_room(rft_dec *d, cut *m)
{
    int e = flush(d, m);
    if (!e && m->tail - m->head == m->alloc && m->alloc < m->cap)
        return grow_ring(m);
    while (!e && m->tail - m->head == m->alloc) {
        struct slot *sl = &m->slot[m->head % m->alloc];
        dec_wave *w = dec_wave_get(d, sl->wkey);
        if (w && w->bits[sl->vreg] & PARTIAL) {     /* out with the lanes seen */
            e = settle(d, m, w, sl->vreg);
            e = e ? e : flush(d, m);
            continue;
        }
        if (w) {
            w->bits[sl->vreg] |= LATE;
            rft_map_del(&m->pend, (uint64_t)w->wf << 16 | sl->vreg);
        }
        sl->state = S_DROPPED;
        e = flush(d, m);
    }
    return e;
}

/* decoders.c's records come here first */
static int ring_put(void *ctx, const rft_rec *r)
{
    rft_dec *d = ctx;
    cut *m = d->priv;
    uint64_t seq;
    if (m->fill) {
        seq = m->fill_seq;
        m->fill = 0;
    } else {
        int e = m->tail - m->head == m->alloc ? make_room(d, m) : 0;
        if (e)
            return e;
        seq = m->tail++;
    }
    uint8_t *p = m->ring + seq % m->alloc * m->stride;
    memcpy(p, r, m->prefix);
    if (r->kind == RFT_WRITE)
        memcpy(p + m->prefix, r->w.val, WARP * sizeof(uint32_t));
    m->slot[seq % m->alloc].state = S_READY;
    return 0;
}

static int reserve(rft_dec *d, cut *m, dec_wave *w, uint32_t reg, uint64_t cycle)
{
    int e = m->tail - m->head == m->alloc ? make_room(d, m) : 0;
    if (e)
        return e;
    uint64_t seq = m->tail++;
    struct slot *sl = &m->slot[seq % m->alloc];
    *sl = (struct slot){S_PENDING, (uint16_t)reg, w->key};
    rft_rec *r = (rft_rec *)(void *)(m->ring + seq % m->alloc * m->stride);
    r->kind = RFT_WRITE;
    r->w.cycle = cycle;
    return rft_map_put(&m->pend, (uint64_t)w->wf << 16 | reg, seq) ? RFT_EMEM : 0;
}

/* a write whose value is never seen: its place goes */
static void drop(rft_dec *d, cut *m, dec_wave *w, uint32_t reg)
{
    d->c[DC_UNRECOVERED]++;
    if (!(w->bits[reg] & LATE)) {
        uint64_t *seq = rft_map_get(&m->pend, (uint64_t)w->wf << 16 | reg);
        if (seq) {
            m->slot[*seq % m->alloc].state = S_DROPPED;
            rft_map_del(&m->pend, (uint64_t)w->wf << 16 | reg);
        }
    }
    w->bits[reg] &= (uint8_t)~(PENDING | LATE | SHOWN);
}

/* A partly seen write goes out at its place: the lanes seen with their values,
 * those never seen with the cell's (unseen_lanes).  d->rec is kept: this may
 * run while a record of it is being put (make_room). */
static int settle(rft_dec *d, cut *m, dec_wave *w, uint32_t r)
{
    uint64_t k = (uint64_t)w->wf << 16 | r;
    uint64_t *seq = rft_map_get(&m->pend, k), s = seq ? *seq : 0;
    if (!seq)
        return dec_bad(d, "internal: a partly seen write of R%u has no place", r);
    rft_map_del(&m->pend, k);
    const uint8_t *p = m->ring + s % m->alloc * m->stride;
    const rft_rec *pr = (const rft_rec *)(const void *)p;
    const uint32_t *pv = (const uint32_t *)(const void *)(p + m->prefix);
    const uint32_t *cell = w->vals + (size_t)r * WARP;
    uint32_t val[WARP], unseen = w->word[r];
    uint8_t mb[4];
    memcpy(mb, pr->w.mask, sizeof mb);
    uint64_t cycle = pr->w.cycle;
    for (int i = 0; i < WARP; i++)
        val[i] = unseen >> i & 1 ? cell[i] : pv[i];
    for (uint32_t u = unseen; u; u &= u - 1)
        m->c[CC_UNSEEN]++;
    w->bits[r] = KNOWN;
    rft_rec keep = d->rec;
    m->fill = 1;
    m->fill_seq = s;
    int e = dec_write(d, w, cycle, r, RFT_NO_PHYS, mb, val);
    d->rec = keep;
    return e;
}

/* a write waiting for its value when its register is written again or its
 * warp ends: what was seen of it goes out, else it is lost */
static int give_up(rft_dec *d, cut *m, dec_wave *w, uint32_t r)
{
    if (w->bits[r] & PARTIAL)
        return settle(d, m, w, r);
    drop(d, m, w, r);
    return 0;
}

/* ---- kernels and warps ----------------------------------------------------------- */
static int end_warp(rft_dec *d, cut *m, dec_wave *w, uint64_t cycle)
{
    if (w->bits)
        for (uint32_t r = 0; r < w->nregs; r++)
            if (w->bits[r] & PENDING) {
                int e = give_up(d, m, w, r);
                if (e)
                    return e;
            }
    int e = dec_wave_end(d, w, cycle);
    return e ? e : m->emit ? flush(d, m) : 0;
}

static int end_kernel(rft_dec *d, cut *m)
{
    for (uint32_t i = 0; i < d->nwaves; i++) {
        dec_wave *w = d->waves[i];
        if (!w)
            continue;
        d->c[DC_NO_END]++;
        if (w->bits)
            for (uint32_t r = 0; r < w->nregs; r++)
                if (w->bits[r] & PENDING) {
                    int e = give_up(d, m, w, r);
                    if (e)
                        return e;
                }
    }
    int e = dec_end_all(d, m->clock);
    m->have_kernel = 0;
    return e ? e : m->emit ? flush(d, m) : 0;
}

static launch *find_launch(cut *m, uint64_t id)
{
    uint64_t *i = rft_map_get(&m->lmap, id);
    return i ? &m->launches[*i] : NULL;
}

static int start_kernel(rft_dec *d, cut *m, uint64_t id)
{
    if (rft_map_get(&m->kmap, id))
        return dec_bad(d, "records of launch %llu after those of launch %llu: a launch's "
                       "records come together", (unsigned long long)id,
                       (unsigned long long)m->cur_launch);
    int e = m->have_kernel ? end_kernel(d, m) : 0;
    if (e)
        return e;
    const launch *l = find_launch(m, id);
    char own[64];
    const char *name = l ? l->name : m->meta ? m->mname : d->o.kernel;
    size_t len = l ? l->name_len : m->meta ? m->mname_len : name ? strlen(name) : 0;
    if (!name) {
        len = (size_t)snprintf(own, sizeof own, "launch%llu", (unsigned long long)id);
        name = own;
    }
    int k = dec_kernel(d, m->clock, name, len);
    if (k < 0)
        return k;
    if (d->nk > m->klcap) {
        uint32_t cap = m->klcap ? 2 * m->klcap : 8;
        uint64_t *n = realloc(m->klaunch, cap * sizeof *n);
        if (!n)
            return RFT_EMEM;
        m->klaunch = n;
        m->klcap = cap;
    }
    m->klaunch[k] = id;
    if (rft_map_put(&m->kmap, id, (uint64_t)k))
        return RFT_EMEM;
    memset(m->grid, 0, sizeof m->grid);
    memset(m->block, 0, sizeof m->block);
    m->nregs = 0;
    if (l) {
        memcpy(m->grid, l->grid, sizeof m->grid);
        memcpy(m->block, l->block, sizeof m->block);
        m->nregs = l->nregs;
    } else if (m->meta) {
        memcpy(m->grid, m->mgrid, sizeof m->grid);
        memcpy(m->block, m->mblock, sizeof m->block);
        m->nregs = m->mnregs;
    }
    if (m->nregs && !d->o.nvgprs && m->nregs > d->kmax[k])
        d->kmax[k] = (uint16_t)m->nregs;    /* what a pre-scan finds, at least */
    m->meta = 0;
    m->have_kernel = 1;
    m->cur_launch = id;
    return 0;
}

/* a kernel_launch record (the events file, or a line of the trace) */
static int add_launch(rft_dec *d, cut *m)
{
    fields *f = &m->f;
    if (!(f->have & F_KLAUNCH) || !(f->have & F_NAME))
        return dec_bad(d, "column 1: a kernel_launch record without kernel_launch_id and "
                       "kernel_name");
    if (find_launch(m, f->launch))
        return dec_bad(d, "column 1: kernel_launch_id %llu twice", (unsigned long long)f->launch);
    size_t len;
    int e = kname(d, m, f->name, f->name_n, f->name_col, &len);
    if (e)
        return e;
    if (m->nl == m->lcap) {
        uint32_t cap = m->lcap ? 2 * m->lcap : 16;
        launch *n = realloc(m->launches, cap * sizeof *n);
        if (!n)
            return RFT_EMEM;
        m->launches = n;
        m->lcap = cap;
    }
    launch *l = &m->launches[m->nl];
    *l = (launch){f->launch, {0}, {0}, (uint32_t)f->nregs, malloc(len), len};
    if (!l->name || rft_map_put(&m->lmap, f->launch, m->nl)) {
        free(l->name);
        return RFT_EMEM;
    }
    memcpy(l->name, m->name, len);
    for (int i = 0; i < 3; i++) {
        l->grid[i] = (uint32_t)f->grid[i];
        l->block[i] = (uint32_t)f->block[i];
    }
    m->nl++;
    if (l->nregs)
        d->no_prescan = 1;
    return 0;
}

static int metadata(rft_dec *d, cut *m)
{
    fields *f = &m->f;
    size_t len = 0;
    int e = 0;
    if (f->have & F_UNMANGLED)
        e = kname(d, m, f->unmangled, f->unmangled_n, f->unmangled_col, &len);
    else if (f->have & F_MANGLED)
        e = kname(d, m, f->mangled, f->mangled_n, f->mangled_col, &len);
    char *name = len ? malloc(len) : NULL;
    if (e || (len && !name)) {
        free(name);
        return e ? e : RFT_EMEM;
    }
    if (len)
        memcpy(name, m->name, len);
    if (m->have_kernel && (e = end_kernel(d, m))) {
        free(name);
        return e;
    }
    free(m->mname);
    m->mname = name;
    m->mname_len = len;
    m->meta = 1;
    m->mnregs = (uint32_t)f->nregs;
    for (int i = 0; i < 3; i++) {
        m->mgrid[i] = (uint32_t)f->grid[i];
        m->mblock[i] = (uint32_t)f->block[i];
    }
    if (f->have & F_INSTR) {    /* the table read becomes the kernel's */
        opinfo *t = m->ops;
        uint32_t cap = m->opcap;
        m->ops = m->nops, m->opcap = m->nopcap, m->nop = m->nnop;
        m->nops = t, m->nopcap = cap, m->nnop = 0;
    } else {
        m->nop = 0;
    }
    return 0;
}

/* ---- a reg_trace record ---------------------------------------------------------- */
static void mask_bytes(uint32_t v, uint8_t *mask)
{
    for (int i = 0; i < 4; i++)
        mask[i] = (uint8_t)(v >> 8 * i);
}

/* --cutracer-ipoint before, contradicted: every write seen again left its
 * register as the record of its instruction showed it */
static int ipoint_before_refused(rft_dec *d, const cut *m)
{
    return dec_bad(d, "values contradict --cutracer-ipoint before: not one of %llu writes seen "
                   "again changed its register, each record shows what its instruction wrote: "
                   "values taken after it (CUTRACER_INSTRUMENT_IPOINT=b); give --cutracer-ipoint "
                   "after",
                   (unsigned long long)m->ip_checked);
}

/* register r of w seen with the values v on the lanes of mask; wr: the
 * record's instruction writes r (its values are then no check of the
 * instruction point: after it they would be its own write's) */
static int seen(rft_dec *d, cut *m, dec_wave *w, uint32_t r, const uint32_t *v, uint32_t mask,
                int wr, uint64_t cycle)
{
    uint32_t *cell = w->vals + (size_t)r * WARP;
    if (w->bits[r] & SHOWN && wr) {
        w->bits[r] &= (uint8_t)~SHOWN;
    } else if (w->bits[r] & SHOWN) {
        /* the register's values where its writer showed it (cell) against these, on the
         * lanes of both: after the writer (--cutracer-ipoint after) they are the same
         * values, nothing wrote it since; before it, the write changed some of them */
        uint32_t both = mask & w->word[r];
        int changed = 0;
        for (uint32_t u = both; u; u &= u - 1)
            changed |= cell[__builtin_ctz(u)] != v[__builtin_ctz(u)];
        m->ip_checked += both != 0;
        m->ip_changed += changed;
        w->bits[r] &= (uint8_t)~SHOWN;
        if (changed && d->o.ipoint_after)
            return dec_bad(d, "column 1: values contradict --cutracer-ipoint after: R%u of warp "
                           "%llu changed since its writer's record showed it, with no write "
                           "between: values taken before the instruction (--cutracer-ipoint "
                           "before)",
                           r, (unsigned long long)m->f.warp);
        if (!d->o.ipoint_after && !m->ip_changed && m->ip_checked >= IPOINT_CHECK_EARLY)
            return ipoint_before_refused(d, m);
    }
    if (w->bits[r] & PENDING) {
        uint32_t wmask = w->word[r], val[WARP];
        int late = w->bits[r] & LATE, e;
        uint64_t *seq = late ? NULL : rft_map_get(&m->pend, (uint64_t)w->wf << 16 | r);
        if (seq) {
            /* in its place the lanes seen here; lanes inactive here wait for a later
             * sighting while the place is in the window (settle) */
            uint8_t *p = m->ring + *seq % m->alloc * m->stride;
            uint32_t *pv = (uint32_t *)(void *)(p + m->prefix);
            if (!(w->bits[r] & PARTIAL)) {
                mask_bytes(wmask, ((rft_rec *)(void *)p)->w.mask);
                w->bits[r] |= PARTIAL;
            }
            for (uint32_t u = wmask & mask; u; u &= u - 1)
                pv[__builtin_ctz(u)] = v[__builtin_ctz(u)];
            w->word[r] = wmask & ~mask;
            if (w->word[r])
                return 0;
            e = settle(d, m, w, r);
            return e ? e : flush(d, m);
        }
        uint8_t mb[4];
        for (int i = 0; i < WARP; i++)
            val[i] = mask >> i & 1 ? v[i] : cell[i];
        for (uint32_t u = wmask & ~mask; u; u &= u - 1)
            m->c[CC_UNSEEN]++;
        mask_bytes(wmask, mb);
        w->bits[r] = KNOWN;
        m->c[CC_LATE]++;
        return dec_write(d, w, cycle, r, RFT_NO_PHYS, mb, val);
    }
    int changed = 0;
    for (int i = 0; i < WARP; i++)
        if (mask >> i & 1) {
            changed |= cell[i] != v[i];
            cell[i] = v[i];
        }
    d->c[DC_UNTRACED] += (w->bits[r] & KNOWN) && changed;
    w->bits[r] |= KNOWN;
    return 0;
}

static int reg_trace(rft_dec *d, cut *m)
{
    fields *f = &m->f;
    if ((f->have & (F_CTA | F_WARP | F_LAUNCH | F_REGS)) != (F_CTA | F_WARP | F_LAUNCH | F_REGS))
        return dec_bad(d, "column 1: a reg_trace record needs cta, warp, grid_launch_id and regs");
    if (f->have & F_MASK && f->mask == 0)
        return dec_bad(d, "column 1: active_mask 0x0: no lane active");
    opinfo own;
    const opinfo *o = NULL;
    int e;
    if (f->have & F_SASS) {
        if ((e = sass_info(d, f->sass, f->sass_n, &own)))
            return e;
        o = &own;
    } else if (f->have & F_OPC && f->opcode < m->nop && m->ops[f->opcode].flags) {
        o = &m->ops[f->opcode];
    } else {
        return dec_bad(d, "column 1: a reg_trace record without sass whose opcode_id is in no "
                       "kernel_metadata instruction table before it");
    }
    /* the register numbers of the values */
    uint8_t regs[MAXR];
    int nr = f->nv;
    if (f->have & F_IDX || o->has_idx) {
        int ni = f->have & F_IDX ? f->nidx : o->nidx;
        if (ni != f->nv)
            return dec_bad(d, "column 1: %d register indices for %d registers of values", ni,
                           f->nv);
        memcpy(regs, f->have & F_IDX ? f->idx : o->idx, (size_t)ni);
    } else if (o->nsass == f->nv) {
        memcpy(regs, o->sreg, (size_t)nr);
    } else if (o->nsass_norz == f->nv) {
        for (int i = 0, k = 0; i < o->nsass; i++)
            if (o->sreg[i] != RZ)
                regs[k++] = o->sreg[i];
    } else {
        return dec_bad(d, "column 1: the instruction names %d registers but regs holds %d",
                       o->nsass, f->nv);
    }
    /* the kernel, the warp */
    if (!m->have_kernel || f->launch != m->cur_launch)
        if ((e = start_kernel(d, m, f->launch)))
            return e;
    for (int i = 0; i < 3; i++)
        if (m->grid[i] && f->cta[i] >= m->grid[i])
            return dec_bad(d, "column 1: CTA %llu,%llu,%llu outside the grid %u,%u,%u",
                           (unsigned long long)f->cta[0], (unsigned long long)f->cta[1],
                           (unsigned long long)f->cta[2], m->grid[0], m->grid[1], m->grid[2]);
    if (!(f->have & F_MASK) && !d->o.all_lanes)
        return dec_bad(d, "a reg_trace record without active_mask (CUTracer before June 2026): "
                       "which lanes ran is unknown; --assume-all-lanes-active takes all 32");
    uint32_t mask = f->have & F_MASK ? f->mask : 0xffffffffu;
    m->c[CC_NOMASK] += !(f->have & F_MASK);
    uint64_t cycle = m->clock;
    m->clock += d->o.issue_cycles;
    d->c[DC_INSTS]++;
    m->c[CC_UVALS] += (uint64_t)f->nureg;
    m->c[CC_UWRITES] += !!(o->flags & OI_UREGW);
    m->c[CC_PWRITES] += !!(o->flags & OI_PREDW);
    uint64_t gx = m->grid[0] ? m->grid[0] : 1, gy = m->grid[1] ? m->grid[1] : 1;
    uint64_t lin = f->cta[0] + gx * (f->cta[1] + gy * f->cta[2]);
    uint64_t wpc = ((uint64_t)m->block[0] * m->block[1] * m->block[2] + WARP - 1) / WARP;
    uint64_t key = (uint64_t)d->nk << 40 | f->warp;
    dec_wave *w = dec_wave_get(d, key);
    if (!w) {
        uint64_t inwg = wpc && f->warp >= lin * wpc && f->warp < (lin + 1) * wpc
                      ? f->warp - lin * wpc : f->warp;
        int given = d->o.prescan || d->o.nvgprs || (d->o.nregs && d->o.n_nregs);
        if (!given && m->nregs)     /* NVIDIA allocates 256 registers a warp: a thread's
                                       count rounded up to 8 (rft(5)); 255 -> 256 */
            d->next_nregs = (uint16_t)((m->nregs + 7) / 8 * 8);
        else if (!given)
            return dec_bad(d, "launch %llu: the registers a thread has are unknown: give the "
                           "kernel events file (--kernel-events) or --nvgprs",
                           (unsigned long long)f->launch);
        if (!(w = dec_wave_begin(d, key, cycle, (uint16_t)(lin % d->o.cus),
                                 (uint16_t)(inwg % d->o.simds), d->nk - 1,
                                 lin < RFT_NO_WG ? (uint32_t)lin : RFT_NO_WG, &e)))
            return e;
    }
    w->seen |= mask;
    int nd = o->flags & OI_DST ? o->dcount : 0;
    for (int i = 0; i < nr + nd; i++) {     /* the operands, then the destination */
        uint32_t r = i < nr ? regs[i] : (uint32_t)o->dst + (uint32_t)(i - nr);
        if ((r == RZ && i < nr) || (r < w->nregs && r < d->kmax[d->nk - 1]))
            continue;       /* known to fit */
        char tok[16];
        snprintf(tok, sizeof tok, "R%u", r);
        if ((e = dec_reg(d, d->nk - 1, r, w, tok, strlen(tok))))
            return e;
    }
    int lead = 0;               /* the destination's values come first */
    while (lead < nd && lead < nr && regs[lead] == o->dst + lead)
        lead++;
    int after = d->o.ipoint_after;
    /* values shown: pending writes revealed (after the instruction, the
     * destination's values are its write's, not a sighting) */
    if (w->vals)
        for (int i = 0; i < nr; i++) {
            int wr = regs[i] >= o->dst && regs[i] < (uint32_t)o->dst + (uint32_t)nd;
            if (regs[i] != RZ && !(after && wr) &&
                (e = seen(d, m, w, regs[i], m->vals + (size_t)i * WARP, mask, wr, cycle)))
                return e;
        }
    /* reads: every register but the destination's */
    for (int i = lead; i < nr; i++) {
        int dup = 0;
        for (int j = lead; j < i; j++)
            dup |= regs[j] == regs[i];
        if (regs[i] != RZ && !dup && (e = dec_read(d, w, cycle, regs[i], RFT_NO_PHYS)))
            return e;
    }
    /* the write: its value shown here (after the instruction), else to be seen */
    for (int k = 0; k < nd; k++) {
        uint32_t r = (uint32_t)o->dst + (uint32_t)k;
        if (!w->bits)
            continue;
        if (w->bits[r] & PENDING && (e = give_up(d, m, w, r)))
            return e;
        w->word[r] = mask;
        if (after && k < lead) {
            uint8_t mb[4];
            mask_bytes(mask, mb);
            w->bits[r] = KNOWN | SHOWN;
            if ((e = dec_write(d, w, cycle, r, RFT_NO_PHYS, mb, m->vals + (size_t)k * WARP)))
                return e;
            continue;
        }
        w->bits[r] |= PENDING | (k < lead ? SHOWN : 0);
        if ((e = reserve(d, m, w, r, cycle)))
            return e;
    }
    if (o->flags & OI_EXIT) {
        w->exited |= mask;
        if ((w->exited & w->seen) == w->seen)
            return end_warp(d, m, w, cycle);
    }
    return m->emit ? flush(d, m) : 0;
}

/* ---- the decoder --------------------------------------------------------------------- */
static int init(rft_dec *d)
{
    cut *m = calloc(1, sizeof *m);
    if (!m)
        return RFT_EMEM;
    d->priv = m;
    if (d->o.geom.lanes != WARP)
        return dec_bad(d, "the cutracer format needs 32 lanes (a warp)");
    if (!(m->vals = calloc((size_t)MAXR * WARP, sizeof *m->vals)) || rft_map_init(&m->lmap, 64) ||
        rft_map_init(&m->kmap, 64))
        return RFT_EMEM;
    if (d->emit) {              /* records wait in the window (a pre-scan has none) */
        m->cap = d->o.reorder ? d->o.reorder : 65536;
        m->prefix = offsetof(rft_rec, w) + offsetof(rft_write, val);
        m->stride = (m->prefix + WARP * sizeof(uint32_t) + 7) / 8 * 8;
        m->emit = d->emit;
        m->ctx = d->ctx;
        d->emit = ring_put;
        d->ctx = d;
        d->unordered = 1;
        m->alloc = m->cap < 64 ? m->cap : 64;       /* grown as records wait */
        if (!(m->ring = malloc(m->alloc * m->stride)) ||
            !(m->slot = calloc(m->alloc, sizeof *m->slot)) || !(m->out = malloc(sizeof *m->out)) ||
            rft_map_init(&m->pend, 64))   /* grown as writes wait */
            return RFT_EMEM;
    }
    return 0;
}

static void mfree(rft_dec *d)
{
    cut *m = d->priv;
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nl; i++)
        free(m->launches[i].name);
    free(m->launches);
    rft_map_free(&m->lmap);
    rft_map_free(&m->kmap);
    rft_map_free(&m->pend);
    free(m->klaunch);
    free(m->mname);
    free(m->ops);
    free(m->nops);
    free(m->vals);
    free(m->ring);
    free(m->slot);
    free(m->out);
    free(m);
}

static int line(rft_dec *d, char *s, size_t n)
{
    cut *m = d->priv;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return 0;
    int e = parse(d, m, s, n);
    if (e)
        return e;
    if (type_is(&m->f, "reg_trace"))
        return reg_trace(d, m);
    if (type_is(&m->f, "kernel_metadata"))
        return metadata(d, m);
    if (type_is(&m->f, "kernel_launch"))
        return add_launch(d, m);
    d->c[DC_IGNORED]++;         /* other modes' records, callstacks */
    return 0;
}

int rft_dec_events_line(rft_dec *d, const char *s, size_t n)
{
    cut *m = d->priv;
    d->why[0] = 0;
    if (d->fmt != RFT_FMT_CUTRACER)
        return dec_bad(d, "a kernel events file goes with the cutracer format");
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0)
        return 0;
    int e = parse(d, m, s, n);
    if (e)
        return e;
    return type_is(&m->f, "kernel_launch") ? add_launch(d, m) : 0;
}

static int finish(rft_dec *d)
{
    cut *m = d->priv;
    if (!d->o.ipoint_after && !m->ip_changed && m->ip_checked >= IPOINT_CHECK_MIN)
        return ipoint_before_refused(d, m);
    int e = end_kernel(d, m);
    return e ? e : m->emit ? flush(d, m) : 0;
}

static void describe(const rft_dec *d, void (*f)(void *, const char *, const char *), void *ctx)
{
    const cut *m = d->priv;
    char b[512];
    snprintf(b, sizeof b, "one reg_trace record every %u cycles, in file order (timestamps "
             "unused)", d->o.issue_cycles);
    f(ctx, "issue_model", b);
    snprintf(b, sizeof b, "CTA c (linear id) on SM c mod %u, warp w of its CTA on sub-partition "
             "w mod %u", d->o.cus, d->o.simds);
    f(ctx, "slice_mapping", b);
    f(ctx, "exec_masks", "active_mask of each record (none: all 32 lanes, counted)");
    snprintf(b, sizeof b, "a write is the first SASS operand (2 registers for .64/.WIDE, 4 for "
             ".128), stamped at its instruction with its active lanes; its value is %sthe one "
             "seen where the register is next an operand; records wait in a window of %llu "
             "to stamp it there, later it is stamped where seen (late_stamped_writes)",
             d->o.ipoint_after ? "the destination's in its own record (values after the "
             "instruction: --cutracer-ipoint after), else " : "",
             (unsigned long long)(m->cap ? m->cap : d->o.reorder ? d->o.reorder : 65536));
    f(ctx, "write_recovery", b);
    f(ctx, "lost", "writes never seen again (unrecovered_writes), lanes inactive wherever seen "
      "in the window (unseen_lanes), predicate and uniform-register writes (predicate_writes, "
      "uniform_register_writes): counted in the counters record");
}

static void counters(const rft_dec *d, rft_counters *c)
{
    const cut *m = d->priv;
    for (int i = 0; i < CC_N; i++)
        rft_counters_add(c, cc_names[i], m->c[i]);
}

/* A first line that is a kernel_metadata record with nregs gives the
 * window: no pre-scan (CUTracer writes one first in every trace file). */
static void peek_start(rft_dec *d, const char *buf, size_t len)
{
    cut *m = d->priv;
    const char *nl = memchr(buf, '\n', len);
    if (nl && !parse(d, m, buf, (size_t)(nl - buf)) && type_is(&m->f, "kernel_metadata") &&
        m->f.have & F_NREGS && m->f.nregs)
        d->no_prescan = 1;
    d->why[0] = 0;
    m->nnop = 0;
}

const struct dec_ops dec_cutracer_ops = {init, line, finish, describe, mfree, 1, counters, 1, peek_start};
