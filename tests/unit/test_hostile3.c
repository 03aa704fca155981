/* test_hostile3.c - the library given kernel indexes up to 2^32 - 2 (issue
 * 31, item 1): rft-alloc's occupancy keeps its kernels in a map, so that
 * memory follows the kernels met, not the largest index, and a launch of
 * any index reaches its kernel's row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occupancy.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static void occ_kernel_indexes(void)
{
    const uint32_t banks[] = {1};
    rft_occ *o = rft_occ_new(256, banks, 1);
    CHECK(o);
    const uint64_t before = rft_occ_bytes(o);
    /* was: refused past 2^24, and a table of 4 bytes per index below it */
    static const uint32_t idx[] = {1u << 31, 1u << 24, UINT32_MAX - 1, 0};
    static const char *const name[] = {"a", "b", "c", "a"};
    for (int i = 0; i < 4; i++)
        CHECK(rft_occ_kernel(o, idx[i], name[i], 1) == 0);
    CHECK(rft_occ_bytes(o) - before < 1u << 20);
    /* each launch runs on its own slice, under its own kernel's row */
    for (int i = 0; i < 4; i++) {
        CHECK(rft_occ_record(o, (uint16_t)i, 0, idx[i], 10) == 0);
        CHECK(rft_occ_window(o, (uint16_t)i, 0, idx[i], 10, 0, 8, 1, 0) == 0);
        CHECK(rft_occ_record(o, (uint16_t)i, 0, idx[i], 20) == 0);
        CHECK(rft_occ_window(o, (uint16_t)i, 0, idx[i], 20, 0, 8, 0, 0) == 0);
    }
    rft_occ_finish(o);
    CHECK(rft_occ_rows(o) == 4);        /* a, b, c (launches share rows by name), all */
    rft_occ_row r;
    rft_occ_get(o, 0, &r);
    CHECK(strcmp(r.kernel, "a") == 0 && r.slices == 2);
    rft_occ_get(o, 1, &r);
    CHECK(strcmp(r.kernel, "b") == 0 && r.slices == 1 && r.vgprs_max == 8);
    rft_occ_get(o, 2, &r);
    CHECK(strcmp(r.kernel, "c") == 0 && r.slices == 1);
    rft_occ_free(o);
}

int main(void)
{
    occ_kernel_indexes();
    puts("test_hostile3: ok");
    return 0;
}
