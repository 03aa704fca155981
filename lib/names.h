/* names.h - finding a name among many in O(1) (librft internal, not
 * installed): an rft_map from a name's 64-bit key to the latest index given
 * to that name.  Two names may share a key: a caller compares the name it
 * finds with the one it looks for and, on a mismatch, searches its names in
 * full (never met in practice: the key is a 64-bit hash). */
#ifndef RFT_NAMES_H
#define RFT_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, then mixed; never UINT64_MAX (rft_map's empty slot). */
static inline uint64_t rft_name_key(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h == UINT64_MAX ? 0 : h;
}

#endif
