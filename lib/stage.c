/* stage.c - the common part of every stage (rft.h, "stages"). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endian.h"
#include "rft.h"

void *rft_stage_alloc(size_t size, const rft_stage_ops *ops)
{
    rft_stage *s = calloc(1, size);
    if (s) {
        s->ops = ops;
        s->input = "-";
    }
    return s;
}

int rft_stage_start(rft_stage *s, const rft_header *in, rft_header *out)
{
    rft_header_init(out, s->ops->name);
    if (!out->producer || rft_header_copy(out, in))
        return rft_stage_fail(s, RFT_EMEM, "out of memory");
    s->why[0] = 0;
    return s->ops->start ? s->ops->start(s, in, out) : 0;
}

int rft_stage_feed(rft_stage *s, rft_rec *rec, const rft_sink *out)
{
    return s->ops->feed(s, rec, out);
}

int rft_stage_finish(rft_stage *s, const rft_sink *out)
{
    return s->ops->finish ? s->ops->finish(s, out) : 0;
}

const char *rft_stage_error(const rft_stage *s) { return s->why; }
const char *rft_stage_name(const rft_stage *s) { return s->ops->name; }

void rft_stage_free(rft_stage *s)
{
    if (s) {
        rft_mem_give(s->mem);
        s->ops->free(s);
    }
}

int rft_stage_fail(rft_stage *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
    return code;
}

static double mib(uint64_t b) { return b / 1048576.0; }

int rft_mem_over(const char *stage, const char *what, uint64_t held, uint64_t more, uint64_t max,
                 char *why, size_t whylen)
{
    if (!max || (more <= max && held <= max - more))
        return 0;
    snprintf(why, whylen, "%s would bring the state of %s to %.1f MiB, over its limit of %.0f MiB "
             "(--max-memory MIB raises it)", what, stage, mib(held) + mib(more), mib(max));
    return 1;
}

/* The process's budget (rft.h): one counter for every stage and thread. */
static _Atomic uint64_t mem_held;
static _Atomic uint64_t mem_max = RFT_STAGE_MEM_DEFAULT;
static const char *mem_owner;

void rft_mem_limit(uint64_t max, const char *owner)
{
    atomic_store(&mem_max, max);
    mem_owner = owner;
}

uint64_t rft_mem_limit_get(void) { return atomic_load(&mem_max); }
uint64_t rft_mem_held(void) { return atomic_load(&mem_held); }

int rft_mem_take(const char *stage, const char *what, uint64_t bytes, char *why, size_t whylen)
{
    uint64_t max = atomic_load(&mem_max), held = atomic_load(&mem_held);
    do {
        if (rft_mem_over(mem_owner ? mem_owner : stage, what, held, bytes, max, why, whylen))
            return 1;
    } while (!atomic_compare_exchange_weak(&mem_held, &held, held + bytes));
    return 0;
}

void rft_mem_give(uint64_t bytes)
{
    atomic_fetch_sub(&mem_held, bytes);
}

int rft_stage_reserve(rft_stage *s, uint64_t bytes, const char *what)
{
    if (rft_mem_over(s->ops->name, what, s->mem, bytes, s->mem_max, s->why, sizeof s->why) ||
        rft_mem_take(s->ops->name, what, bytes, s->why, sizeof s->why))
        return RFT_EMEM;
    s->mem += bytes;
    return 0;
}

int rft_stage_fits(rft_stage *s, uint64_t bytes, const char *what)
{
    if (rft_mem_over(s->ops->name, what, s->mem, bytes, s->mem_max, s->why, sizeof s->why) ||
        rft_mem_over(mem_owner ? mem_owner : s->ops->name, what, atomic_load(&mem_held), bytes,
                     atomic_load(&mem_max), s->why, sizeof s->why))
        return RFT_EMEM;
    return 0;
}

void rft_stage_release(rft_stage *s, uint64_t bytes)
{
    if (bytes > s->mem)
        bytes = s->mem;
    s->mem -= bytes;
    rft_mem_give(bytes);
}

int rft_stage_reserve_slice(rft_stage *s, uint64_t bytes, const char *of, uint16_t cu,
                            uint16_t simd, uint32_t entries)
{
    char what[80];      /* of (32 bytes at most), a space, "slice 65535:65535 (4294967295 entries)" */
    snprintf(what, sizeof what, "%.32s%sslice %u:%u (%u entries)", of ? of : "", of ? " " : "", cu,
             simd, entries);
    return rft_stage_reserve(s, bytes, what);
}

int rft_stage_reserve_wf(rft_stage *s, uint64_t bytes, uint32_t wf, uint16_t cu, uint16_t simd,
                         uint16_t nregs)
{
    char what[64];      /* "wavefront 4294967295 on slice 65535:65535 (65535 registers)" */
    snprintf(what, sizeof what, "wavefront %u on slice %u:%u (%u registers)", wf, cu, simd, nregs);
    return rft_stage_reserve(s, bytes, what);
}

void rft_stage_warn(rft_stage *s, const char *fmt, ...)
{
    if (!s->warn)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (!msg)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    va_end(ap);
    s->warn(s->warn_ctx, msg);
    free(msg);
}

static int put_writer(void *ctx, rft_rec *rec) { return rft_write_rec(ctx, rec); }

rft_sink rft_sink_writer(rft_writer *w) { return (rft_sink){put_writer, w}; }

int rft_sink_raw(const rft_sink *out, int kind, const uint8_t *payload, uint32_t len)
{
    rft_rec r;
    r.kind = kind;
    r.raw = payload;
    r.len = len;
    return out->put(out->ctx, &r);
}

static uint8_t *put_s(uint8_t *p, const char *s)
{
    size_t n = strlen(s);
    st16(p, (uint16_t)n);
    memcpy(p + 2, s, n);
    return p + 2 + n;
}

uint32_t rft_counters_encode(const rft_counters *c, uint8_t *buf)
{
    uint8_t *p = put_s(buf, c->stage);
    p = put_s(p, c->scope);
    st16(p, (uint16_t)c->n);
    p += 2;
    for (int i = 0; i < c->n; i++) {
        p = put_s(p, c->name[i]);
        st64(p, c->value[i]);
        p += 8;
    }
    return (uint32_t)(p - buf);
}
