/* fmprint.h - rft-faultmap --csv, --show, --stats: fault maps printed, those
 * the map options give or those of a stream. */
#ifndef RFT_FMPRINT_H
#define RFT_FMPRINT_H

#include "fmsource.h"
#include "pipeline.h"

enum { FM_PRINT_CSV = 1, FM_PRINT_SHOW, FM_PRINT_STATS };

typedef struct fm_print {
    int mode;                   /* FM_PRINT_* */
    enum cli_fmt fmt;           /* of --stats */
    int counts;                 /* --counts: counts in place of the percentages of --stats */
    const char *slices;         /* --slice LIST, or NULL */
    uint32_t entries, blocks;   /* the geometry of maps given by options */
    fm_source fm;               /* the map options; none given: the maps of the input */
    /* state: zero */
    cli_table *stats;
    const char **count_names;   /* its column names with --counts */
    char *csv;
    size_t csv_len, csv_cap;
    int any;                    /* a map of the input was printed */
    uint16_t want_cu, want_simd;
} fm_print;

/* Make j print as p says: p (allocated) becomes the job's ctx. */
void fm_print_job(fm_print *p, cli_job *j);

#endif
