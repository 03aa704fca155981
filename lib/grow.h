/* grow.h - an array grown by doubling (librft internal, not installed):
 * the slices and spans a stage meets one by one cost no quadratic copying. */
#ifndef RFT_GROW_H
#define RFT_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "rft.h"

/* Room for element n of the array *p of *cap elements of sz bytes: doubled
 * (first elements at first) when full.  0 or RFT_EMEM (*p left as it was). */
static inline int rft_grow(void **p, uint32_t n, uint32_t *cap, size_t sz, uint32_t first)
{
    if (n < *cap)
        return 0;
    uint32_t c = *cap ? 2 * *cap : first;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q)
        return RFT_EMEM;
    *p = q;
    *cap = c;
    return 0;
}

#endif
