/* fuzz_faultmap.c - the fault-map CSV loader (rft_faultmap_csv_parse) on an
 * exact-length buffer, for the 8-entry x 4-block slices of the fixtures;
 * what it accepts must come back the same through rft_faultmap_csv_format. */
#include <stdlib.h>
#include <string.h>

#include "faultmap.h"
#include "fuzz.h"

enum { ENTRIES = 8, BLOCKS = 4 };

static void compare(const rft_fmset *a, const rft_fmset *b)
{
    FUZZ_ASSERT(a->n == b->n);
    for (size_t i = 0; i < a->n; i++) {
        const rft_faultmap *m = &a->maps[i];
        const rft_faultmap *o = rft_fmset_get(b, m->cu, m->simd);
        FUZZ_ASSERT(o != NULL);
        for (uint32_t e = 0; e < ENTRIES; e++)
            FUZZ_ASSERT(rft_faultmap_entry_bits(o, e) == rft_faultmap_entry_bits(m, e) &&
                        rft_faultmap_entry_faulty(o, e) == rft_faultmap_entry_faulty(m, e));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[512] = "";
    rft_fmset s, again;
    rft_fmset_init(&s);
    rft_fmset_init(&again);
    char *csv = fuzz_copy(data, size);
    if (rft_faultmap_csv_parse(csv, size, "fuzz.csv", ENTRIES, BLOCKS, &s, why, sizeof why) == 0) {
        char *out = NULL;
        size_t len = 0, cap = 0;
        const char *head = rft_faultmap_csv_header();
        FUZZ_ASSERT((out = malloc(cap = strlen(head) + 1)) != NULL);
        memcpy(out, head, len = strlen(head));
        for (size_t i = 0; i < s.n; i++)
            FUZZ_ASSERT(rft_faultmap_csv_format(&s.maps[i], &out, &len, &cap) == 0);
        FUZZ_ASSERT(rft_faultmap_csv_parse(out, len, "again.csv", ENTRIES, BLOCKS, &again, why,
                                           sizeof why) == 0);
        compare(&s, &again);
        free(out);
    }
    FUZZ_ASSERT(memchr(why, 0, sizeof why) != NULL);
    free(csv);
    rft_fmset_free(&s);
    rft_fmset_free(&again);
    return 0;
}
