/* test_counters.c - counters records: add, merge (sums and maxima), round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rft.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

int main(void)
{
    static rft_counters a;
    CHECK(rft_counters_add(&a, "writes", 5) == 0);
    CHECK(rft_counters_add(&a, "writes", 7) == 0);
    CHECK(rft_counters_get(&a, "writes") == 12);
    CHECK(rft_counters_merge(&a, "writes", 3) == 0);
    CHECK(rft_counters_get(&a, "writes") == 15);
    /* maxima keep the larger value, whichever order they come in */
    CHECK(rft_counters_merge(&a, "lds_peak_bytes", 512) == 0);
    CHECK(rft_counters_merge(&a, "lds_peak_bytes", 256) == 0);
    CHECK(rft_counters_get(&a, "lds_peak_bytes") == 512);
    CHECK(rft_counters_merge(&a, "lds_peak_bytes", 1024) == 0);
    CHECK(rft_counters_get(&a, "lds_peak_bytes") == 1024);
    CHECK(rft_counters_get(&a, "absent") == 0);
    CHECK(rft_counters_add(&a, "a_name_that_is_far_too_long_for_the_sixty_four_bytes_of_a_counter_name", 1) == RFT_EFORMAT);
    puts("test_counters: ok");
    return 0;
}
