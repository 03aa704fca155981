/* fmsource.h - where a fault map comes from: the options rft-faultmap and
 * rft-dcpatch share (--scenario, --seed, --shares, --systematic,
 * --corr-length, --map, --same) and their checks, making the library's
 * rft_fm_source. */
#ifndef RFT_FMSOURCE_H
#define RFT_FMSOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "faultmap.h"

typedef struct fm_source {
    const char *scenario, *shares;  /* generate (seed 001 Table 1, or given shares) ... */
    uint64_t seed;
    int seed_set;
    double systematic;              /* -1: the scenario's */
    uint32_t corr;                  /* 0: the scenario's */
    rft_fm_source src;              /* ... and/or a CSV map (--map), --same: what the
                                       stages take, complete after fm_source_check */
    const char *prog;               /* the program, for the messages of a bad map file */
} fm_source;

#define FM_SOURCE_INIT {.seed = 1, .systematic = -1}

/* For the getopt_long table (short codes S r p y L m a). */
#define FM_SOURCE_OPTIONS                                                                   \
    {"scenario", required_argument, 0, 'S'}, {"seed", required_argument, 0, 'r'},         \
        {"shares", required_argument, 0, 'p'}, {"systematic", required_argument, 0, 'y'},  \
        {"corr-length", required_argument, 0, 'L'}, {"map", required_argument, 0, 'm'},    \
        {"same", no_argument, 0, 'a'}

/* Their lines in a program's --help (the maps a stream gets: rft-faultmap(1)). */
#define FM_SOURCE_HELP                                                                      \
    "      --scenario NAME    common, clustered or dispersed\n" \
    "      --seed N           Seed of the generator, 0 to 2^64-1 (default 1)\n" \
    "      --shares A/B/C/D/E  Percent of entries with 0, 1, 2, 3 and 4 or more faulty bits, " \
    "summing to 100\n" \
    "      --systematic W     Weight of the spatially correlated part, 0 to 1\n" \
    "      --corr-length N    Correlation length L in entries (default 32)\n" \
    "      --map FILE.csv     Maps from a CSV file; slices without rows fall back to the " \
    "scenario, if one is given\n" \
    "      --same             One generated map for every slice (a single record after the " \
    "header) instead of one per slice\n"

/* 1 if c was one of them (with optarg), else 0. */
int fm_source_option(fm_source *f, int c);
/* After the options: build the generator; usage errors for bad or orphan
 * options.  A map file that cannot be read ends the program with the
 * file's message (f must stay where it is while its src is in use). */
void fm_source_check(fm_source *f);
/* Read the CSV maps of f (if any) for the geometry into s; dies as above. */
void fm_source_load(const fm_source *f, uint32_t entries, uint32_t blocks, rft_fmset *s);

#endif
