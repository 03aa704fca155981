/* wfmap.c - open-addressing hash map from a 64-bit key (a slice and
 * wavefront, or any id) to a 64-bit value.  Sized by what is live, so a
 * stage's memory follows the wavefronts in flight, never the trace length. */
#include <stdlib.h>
#include <string.h>

#include "rft.h"

#define EMPTY UINT64_MAX

/* the library's own copies of the inline functions of rft.h */
extern size_t rft_map_home(uint64_t k, size_t mask);
extern uint64_t *rft_map_get(const rft_map *m, uint64_t key);

int rft_map_init(rft_map *m, size_t cap)
{
    size_t n = 16;
    while (n < 2 * cap)
        n *= 2;
    /* one slot more: the key EMPTY's own (rft.h) */
    if (!(m->slot = malloc((n + 1) * sizeof *m->slot)))
        return RFT_EMEM;
    memset(m->slot, 0xff, n * sizeof *m->slot);     /* every key EMPTY (all ones) */
    m->slot[n] = (struct rft_map_slot){0, 0};
    m->mask = n - 1;
    m->count = 0;
    return 0;
}

void rft_map_free(rft_map *m)
{
    free(m->slot);
    m->slot = NULL;
}

static int grow(rft_map *m)
{
    rft_map n;
    if (rft_map_init(&n, m->mask + 1))
        return RFT_EMEM;
    for (size_t i = 0; i <= m->mask; i++)
        if (m->slot[i].key != EMPTY)
            rft_map_put(&n, m->slot[i].key, m->slot[i].val);
    n.slot[n.mask + 1] = m->slot[m->mask + 1];
    n.count = m->count;
    rft_map_free(m);
    *m = n;
    return 0;
}

int rft_map_put(rft_map *m, uint64_t key, uint64_t val)
{
    uint64_t *v = rft_map_get(m, key);
    if (v) {
        *v = val;
        return 0;
    }
    if (key == EMPTY) {
        m->slot[m->mask + 1] = (struct rft_map_slot){1, val};
        m->count++;
        return 0;
    }
    if (2 * (m->count + 1) > m->mask + 1 && grow(m))
        return RFT_EMEM;
    size_t i = rft_map_home(key, m->mask);
    while (m->slot[i].key != EMPTY)
        i = (i + 1) & m->mask;
    m->slot[i].key = key;
    m->slot[i].val = val;
    m->count++;
    return 0;
}

int rft_map_del(rft_map *m, uint64_t key)
{
    if (key == EMPTY) {
        if (!m->slot[m->mask + 1].key)
            return 0;
        m->slot[m->mask + 1].key = 0;
        m->count--;
        return 1;
    }
    size_t i = rft_map_home(key, m->mask);
    while (m->slot[i].key != key) {
        if (m->slot[i].key == EMPTY)
            return 0;
        i = (i + 1) & m->mask;
    }
    /* backward-shift deletion keeps probe chains intact without tombstones */
    for (size_t j = i;;) {
        j = (j + 1) & m->mask;
        if (m->slot[j].key == EMPTY)
            break;
        size_t home = rft_map_home(m->slot[j].key, m->mask);
        if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
            m->slot[i] = m->slot[j];
            i = j;
        }
    }
    m->slot[i].key = EMPTY;
    m->count--;
    return 1;
}

int rft_slices_init(rft_slices *x)
{
    memset(x->small, 0, sizeof x->small);
    return rft_map_init(&x->more, 16);
}

void rft_slices_free(rft_slices *x) { rft_map_free(&x->more); }

int rft_slices_put(rft_slices *x, uint16_t cu, uint16_t simd, uint32_t index)
{
    if (cu < RFT_SLICES_CU && simd < RFT_SLICES_SIMD) {
        x->small[cu * RFT_SLICES_SIMD + simd] = index + 1;
        return 0;
    }
    return rft_map_put(&x->more, rft_slice_key(cu, simd), index);
}
