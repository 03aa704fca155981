/* wfmap.c - open-addressing hash map from a 64-bit key (a slice and
 * wavefront, or any id) to a 64-bit value.  Sized by what is live, so a
 * stage's memory follows the wavefronts in flight, never the trace length. */
#include <stdlib.h>

#include "rft.h"

#define EMPTY UINT64_MAX

static size_t slot_of(uint64_t k, size_t mask)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & mask;
}

int rft_map_init(rft_map *m, size_t cap)
{
    size_t n = 16;
    while (n < 2 * cap)
        n *= 2;
    m->keys = malloc(n * sizeof *m->keys);
    m->vals = malloc(n * sizeof *m->vals);
    if (!m->keys || !m->vals) {
        free(m->keys);
        free(m->vals);
        return RFT_EMEM;
    }
    for (size_t i = 0; i < n; i++)
        m->keys[i] = EMPTY;
    m->mask = n - 1;
    m->count = 0;
    return 0;
}

void rft_map_free(rft_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
}

uint64_t *rft_map_get(const rft_map *m, uint64_t key)
{
    for (size_t i = slot_of(key, m->mask);; i = (i + 1) & m->mask) {
        if (m->keys[i] == key)
            return &m->vals[i];
        if (m->keys[i] == EMPTY)
            return NULL;
    }
}

static int grow(rft_map *m)
{
    rft_map n;
    if (rft_map_init(&n, m->mask + 1))
        return RFT_EMEM;
    for (size_t i = 0; i <= m->mask; i++)
        if (m->keys[i] != EMPTY)
            rft_map_put(&n, m->keys[i], m->vals[i]);
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
    if (2 * (m->count + 1) > m->mask + 1 && grow(m))
        return RFT_EMEM;
    size_t i = slot_of(key, m->mask);
    while (m->keys[i] != EMPTY)
        i = (i + 1) & m->mask;
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
    return 0;
}

int rft_map_del(rft_map *m, uint64_t key)
{
    size_t i = slot_of(key, m->mask);
    while (m->keys[i] != key) {
        if (m->keys[i] == EMPTY)
            return 0;
        i = (i + 1) & m->mask;
    }
    /* backward-shift deletion keeps probe chains intact without tombstones */
    for (size_t j = i;;) {
        j = (j + 1) & m->mask;
        if (m->keys[j] == EMPTY)
            break;
        size_t home = slot_of(m->keys[j], m->mask);
        if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->keys[i] = EMPTY;
    m->count--;
    return 1;
}
