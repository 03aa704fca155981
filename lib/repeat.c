/* repeat.c - copies of a trace back to back (repeat.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "dcpatch.h"
#include "repeat.h"

struct rft_repeat {
    uint64_t copies, gap;
    uint64_t k;             /* the copy being read */
    uint64_t period;        /* cycles from one copy to the next */
    int any;
    uint64_t first, last;   /* cycles of the stream */
    uint32_t kernels;       /* kernel indexes seen: highest + 1 */
    char why[128];
};

rft_repeat *rft_repeat_new(uint64_t copies, uint64_t gap)
{
    rft_repeat *r = calloc(1, sizeof *r);
    if (r) {
        r->copies = copies;
        r->gap = gap;
    }
    return r;
}

void rft_repeat_free(rft_repeat *r) { free(r); }
const char *rft_repeat_why(const rft_repeat *r) { return r->why; }

static int bad(rft_repeat *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(rft_repeat *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    return RFT_EFORMAT;
}

/* The first copy measures the stream's cycles; the others must stay in them. */
static int note_cycle(rft_repeat *r, uint64_t c)
{
    if (r->k == 0) {
        if (!r->any || c < r->first)
            r->first = c;
        if (!r->any || c > r->last)
            r->last = c;
        r->any = 1;
    } else if (!r->any || c < r->first || c > r->last) {
        return bad(r, "cycle %llu: the input changed between two readings", (unsigned long long)c);
    }
    return 0;
}

int rft_repeat_feed(rft_repeat *r, rft_rec *rec, const rft_sink *out)
{
    uint64_t shift = r->k * r->period;
    uint32_t koff = (uint32_t)(r->k * r->kernels);
    uint8_t buf[RFT_ALLOC_LEN > RFT_PATCH_LEN ? RFT_ALLOC_LEN : RFT_PATCH_LEN];
    rft_alloc_rec a;
    rft_patch_rec p;
    rft_unitrec u;
    _Static_assert(RFT_UNITREC_LEN <= sizeof buf, "a unit record fits buf");
    int e = 0;
    switch (rec->kind) {
    case RFT_DUTY: return bad(r, "a duty map: repeat the trace, then compute its map");
    case RFT_FAULTMAP:
        if (r->k > 0)
            return 0;       /* the hardware, not an event: once */
        break;
    case RFT_ALLOC:
        if (rft_alloc_parse(rec->raw, rec->len, &a))
            return bad(r, "malformed allocation record");
        if ((e = note_cycle(r, a.cycle)))
            return e;
        a.cycle += shift;
        rft_alloc_encode(buf, &a);
        return rft_sink_raw(out, RFT_ALLOC, buf, RFT_ALLOC_LEN);
    case RFT_PATCH:
        if (rft_patch_parse(rec->raw, rec->len, &p))
            return bad(r, "malformed patch record");
        if ((e = note_cycle(r, p.cycle)))
            return e;
        p.cycle += shift;
        rft_patch_encode(buf, &p);
        return rft_sink_raw(out, RFT_PATCH, buf, RFT_PATCH_LEN);
    case RFT_UNITREC:       /* a store of a wavefront: its copy's cycle, as a bundle's */
        if (rft_unit_parse(rec->raw, rec->len, &u))
            return bad(r, "malformed unit record");
        if ((e = note_cycle(r, u.cycle)))
            return e;
        u.cycle += shift;
        rft_unit_encode(buf, &u);
        return rft_sink_raw(out, RFT_UNITREC, buf, RFT_UNITREC_LEN);
    case RFT_KERNEL: case RFT_WFBEGIN: case RFT_WFEND: case RFT_WRITE: case RFT_READ:
    case RFT_BUNDLE:
        e = note_cycle(r, rft_rec_cycle(rec));
        break;
    }
    if (e)
        return e;
    switch (rec->kind) {
    case RFT_KERNEL:
        if (r->k == 0 && rec->u.kernel.index >= r->kernels)
            r->kernels = rec->u.kernel.index + 1;
        if (rec->u.kernel.index >= r->kernels)
            return bad(r, "kernel %u: the input changed between two readings",
                       rec->u.kernel.index);
        rec->u.kernel.index += koff;
        rec->u.kernel.cycle += shift;
        break;
    case RFT_WFBEGIN:
        if (rec->u.begin.kernel != RFT_NO_KERNEL)
            rec->u.begin.kernel += koff;
        rec->u.begin.cycle += shift;
        break;
    case RFT_WFEND: rec->u.end.cycle += shift; break;
    case RFT_WRITE: rec->w.cycle += shift; break;
    case RFT_READ: rec->u.read.cycle += shift; break;
    case RFT_BUNDLE: rec->u.bundle.cycle += shift; break;
    }
    return out->put(out->ctx, rec);
}

int rft_repeat_next(rft_repeat *r)
{
    if (r->k++ > 0)
        return 0;
    /* copy k + 1 starts the cycle after copy k ends, plus the gap */
    uint64_t span = r->any ? r->last - r->first : 0;
    r->period = span + 1 + r->gap;
    if (r->any && (span == UINT64_MAX || r->period < span ||
                   (r->copies - 1) > (UINT64_MAX - r->last) / r->period))
        return bad(r, "%llu copies of cycles %llu to %llu with a gap of %llu end past cycle "
                   "18446744073709551615",
                   (unsigned long long)r->copies, (unsigned long long)r->first,
                   (unsigned long long)r->last, (unsigned long long)r->gap);
    if ((uint64_t)r->kernels * r->copies > RFT_NO_KERNEL)
        return bad(r, "%llu copies of %u kernels are too many kernel indexes",
                   (unsigned long long)r->copies, r->kernels);
    return 0;
}
