/* grow.h - an array grown by doubling (librft internal, not installed):
 * the slices and spans a stage meets one by one cost no quadratic copying. */
#ifndef RFT_GROW_H
#define RFT_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "rft.h"

/* Room for element n of the array *p of *cap elements of sz bytes: doubled
 * (first elements at first) when full.  0 or RFT_EMEM (*p left as it was). */
static inline int rft_grow_to(void **p, uint32_t *cap, uint64_t need, size_t sz, uint32_t first);
static inline int rft_grow(void **p, uint32_t n, uint32_t *cap, size_t sz, uint32_t first)
{
    return rft_grow_to(p, cap, (uint64_t)n + 1, sz, first);
}

/* Room for need elements in the array *p of *cap elements of sz bytes:
 * doubled from first (or *cap) until it holds them, the count never past
 * UINT32_MAX and the bytes never past SIZE_MAX (a capacity that wraps to 0
 * and a loop that never ends: issue 31).  0 or RFT_EMEM (*p as it was). */
static inline int rft_grow_to(void **p, uint32_t *cap, uint64_t need, size_t sz, uint32_t first)
{
    if (need <= *cap)
        return 0;
    if (need > UINT32_MAX || need > SIZE_MAX / sz)
        return RFT_EMEM;
    uint64_t c = *cap ? *cap : first ? first : 1;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX)
        c = UINT32_MAX;
    if (c > SIZE_MAX / sz)
        c = need;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q)
        return RFT_EMEM;
    *p = q;
    *cap = (uint32_t)c;
    return 0;
}

#endif
