/* test_wfmap.c - lib/wfmap.c's map: every 64-bit key, the all-ones one
 * (the empty slot's mark) included, through growth and deletion. */
#include <stdio.h>
#include <stdlib.h>

#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

int main(void)
{
    rft_map m;
    CHECK(rft_map_init(&m, 4) == 0);
    /* absent, then present: the wavefront 4294967295 of slice 65535:65535 */
    uint64_t all = rft_wf_key(0xffff, 0xffff, 0xffffffffu);
    CHECK(all == UINT64_MAX && rft_map_get(&m, all) == NULL);
    CHECK(rft_map_put(&m, all, 7) == 0 && m.count == 1);
    CHECK(rft_map_get(&m, all) && *rft_map_get(&m, all) == 7);
    CHECK(rft_map_put(&m, all, 8) == 0 && m.count == 1 && *rft_map_get(&m, all) == 8);
    /* other keys around it, past several growths: each its own value */
    for (uint64_t k = 0; k < 1000; k++)
        CHECK(rft_map_put(&m, UINT64_MAX - 1 - k, k) == 0);
    CHECK(m.count == 1001 && *rft_map_get(&m, all) == 8);
    for (uint64_t k = 0; k < 1000; k++)
        CHECK(rft_map_get(&m, UINT64_MAX - 1 - k) && *rft_map_get(&m, UINT64_MAX - 1 - k) == k);
    /* deleted: absent, and the others kept */
    CHECK(rft_map_del(&m, all) == 1 && rft_map_del(&m, all) == 0 && m.count == 1000);
    CHECK(rft_map_get(&m, all) == NULL && *rft_map_get(&m, UINT64_MAX - 1) == 0);
    CHECK(rft_map_del(&m, UINT64_MAX - 500) == 1 && rft_map_get(&m, UINT64_MAX - 500) == NULL);
    CHECK(rft_map_get(&m, UINT64_MAX - 501) && *rft_map_get(&m, UINT64_MAX - 501) == 500);
    rft_map_free(&m);
    printf("test_wfmap: ok\n");
    return 0;
}
