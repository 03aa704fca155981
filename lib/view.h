/* view.h - what rft-view shows of a stream (rft-view(1)): the records its
 * filters select (kind, slice, wavefront, kernel, cycles), the statistics of
 * those (--stats), and the forms of a record besides the canonical text
 * (rft_text_format): a JSON line, and the line of a record of an analysis
 * stage (counters in full, allocation and patch records, others by kind and
 * size).  No I/O: rft-view prints the lines. */
#ifndef RFT_VIEW_H
#define RFT_VIEW_H

#include "rft.h"

#define RFT_VIEW_KINDS "KBWREAU"    /* --kind letters: bit i is letter i */
#define RFT_VIEW_ALL 0x7f           /* every letter: records of other kinds too */

typedef struct rft_view_opts {
    unsigned kinds;                 /* RFT_VIEW_KINDS bits */
    int slice_set, wf_set, kernel_set;
    uint16_t cu, simd;
    uint32_t wf;
    const char *kernel_name;        /* the kernel by name, else by kernel_idx */
    uint32_t kernel_idx;
    uint64_t c_from, c_to;          /* cycles of the trace's records */
    int stats;                      /* count the records selected (rft_view_counted) */
} rft_view_opts;

/* Every record. */
void rft_view_opts_default(rft_view_opts *o);
/* The bit of a --kind letter, 0 if none. */
unsigned rft_view_kind(char letter);

typedef struct rft_view_stats {
    uint64_t kind[RFT_BUNDLE + 2];  /* records by kind; [RFT_BUNDLE + 1]: other kinds */
    uint64_t slices;                /* slices of the wavefront records */
    uint64_t annotated;             /* writes classified or placed */
    uint64_t first, last;           /* cycles of the first and last trace records */
    int any;                        /* a trace record was counted */
} rft_view_stats;

typedef struct rft_view rft_view;

rft_view *rft_view_new(const rft_view_opts *o);     /* NULL: out of memory */
/* Kernel records are kept by index in a table: an index of this many or
 * more (2^24; a stream numbers its kernels 0, 1, ...) is refused. */
#define RFT_VIEW_MAX_KERNELS (1u << 24)
/* Every record in order: 1 if the filters select it (then counted), 0 if
 * not; RFT_EMEM, or RFT_EFORMAT for a kernel index of RFT_VIEW_MAX_KERNELS
 * or more. */
int rft_view_select(rft_view *v, const rft_rec *r);
/* The kernels' names by index (NULL where unknown), for rft_text_format. */
const char *const *rft_view_knames(const rft_view *v, uint32_t *nk);
const rft_view_stats *rft_view_counted(const rft_view *v);
void rft_view_free(rft_view *v);    /* accepts NULL */

/* s (n bytes) as a JSON string, quoted, at dst: '"', '\\' and control
 * characters escaped (6 bytes at most each, RFT_JSON_STR_MAX(n) in all);
 * returns the end.  Every JSON string rftrace writes goes through this. */
#define RFT_JSON_STR_MAX(n) (6 * (size_t)(n) + 2)
char *rft_json_str(char *dst, const char *s, size_t n);

/* A line (no newline) is shorter than this: the longest are a counters
 * record in JSON with every string of control characters (~130 KB), a
 * canonical text line (RFT_TEXT_MAX) and a write in JSON. */
#define RFT_VIEW_COUNTERS_MAX                                                                     \
    (RFT_JSON_STR_MAX(63) + RFT_JSON_STR_MAX(RFT_MAX_SCOPE) +                                   \
     RFT_MAX_COUNTERS * (RFT_JSON_STR_MAX(63) + 24) + 128)
#define RFT_VIEW_LINE_MAX                                                                         \
    (RFT_VIEW_COUNTERS_MAX > RFT_TEXT_MAX + 64 * RFT_MAX_LANES ? RFT_VIEW_COUNTERS_MAX           \
                                                               : RFT_TEXT_MAX + 64 * RFT_MAX_LANES)
/* The JSON object of a trace record (kinds K to A); its length. */
size_t rft_view_json(const rft_geom *g, const rft_rec *r, char *buf);
/* The line of a record of any other kind, as JSON or as text fields
 * separated by sep; its length. */
size_t rft_view_other(rft_view *v, const rft_rec *r, int json, char sep, char *buf);

#endif
