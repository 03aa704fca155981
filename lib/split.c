/* split.c - a stream cut into the shards of its slices (split.h). */
#include <stdlib.h>
#include <string.h>

#include "split.h"

struct rft_split {
    uint32_t n, simds;      /* simds 0: the CU alone is a slice's index */
    rft_whole whole;
    uint8_t cu_seen[65536 / 8];
};

rft_split *rft_split_new(uint32_t n, int by, const rft_header *h)
{
    if (n == 0)
        return NULL;
    rft_split *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n;
    const char *v = rft_header_get(h, "simds");
    char *end = NULL;
    unsigned long x = v && *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
    s->simds = by == RFT_SHARD_BY_CU ? 0 : x >= 1 && x <= 65535 && !*end ? (uint32_t)x
                                                                        : RFT_SHARD_SIMDS;
    return s;
}

static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int64_t rft_split_route(rft_split *s, int kind, const uint8_t *p, uint32_t len)
{
    uint16_t cu = 0, simd = 0;
    int tied = rft_rec_slice(kind, p, len, &cu, &simd);
    if (kind >= RFT_KERNEL && kind <= RFT_BUNDLE && len >= 8) {
        /* as the reader of a shard notes them (lib/record.c, shard_skip) */
        rft_whole *w = &s->whole;
        uint64_t c = ld64(p);
        if (!w->seen[kind])
            w->first[kind] = c;
        w->seen[kind] = 1;
        w->last[kind] = c;
        if (kind >= RFT_WFBEGIN && kind <= RFT_READ && !(s->cu_seen[cu >> 3] & 1 << (cu & 7))) {
            s->cu_seen[cu >> 3] |= (uint8_t)(1 << (cu & 7));
            w->cus++;
        }
    }
    if (!tied)
        return -1;
    return (s->simds ? (uint32_t)cu * s->simds + simd : cu) % s->n;
}

const rft_whole *rft_split_whole(const rft_split *s) { return &s->whole; }

void rft_split_free(rft_split *s) { free(s); }
