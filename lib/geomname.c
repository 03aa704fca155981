/* geomname.c - register files by name (rft_geom_named, rft.h): lanes,
 * entries, block lanes and slices of the GPUs the seeds and rft-decode's
 * formats know.  Each value and its source is in rft(5), "GEOMETRY BY NAME". */
#include <string.h>

#include "rft.h"

static const rft_geom_name names[] = {
    /* seeds 001 II-A, 002 2.1: a SIMD's 64 KB, 256 entries x 64 lanes, read as
     * four 16-lane blocks; 4 SIMDs a CU, 10 CUs (an HD 7770) */
    {"gcn", {64, 256, 16, 32}, 10, 4},
    /* seed 003, an HD 5870: 20 CUs of one SIMD engine, 256 KB of GPRs each
     * (1024 entries of 64 lanes) */
    {"evergreen", {64, 1024, 16, 32}, 20, 1},
    /* NVIDIA: 64K 32-bit registers an SM in four sub-partitions of 16K, a
     * warp register 32 lanes x 32 bits: 512 entries of 128 B each; four
     * 8-lane blocks (32 B) keep DC-Patch's four blocks an entry.
     * V100 80 SMs, A100 108 SMs, H100 SXM5 132 SMs, B200 148 SMs. */
    {"volta", {32, 512, 8, 32}, 80, 4},
    {"ampere", {32, 512, 8, 32}, 108, 4},
    {"hopper", {32, 512, 8, 32}, 132, 4},
    {"blackwell", {32, 512, 8, 32}, 148, 4},
};

const rft_geom_name *rft_geom_named(const char *name)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return &names[i];
    return NULL;
}
