/* faultmap.h - fault maps of register-file slices (seed 001 section II-B):
 * which blocks of which entries are unusable below the safe voltage.
 *
 * A map holds, for every block of every entry of a slice, the number of
 * faulty bits a post-fabrication test found in it.  ECP repairs up to ecp
 * (1) faulty bits per entry: an entry with at most ecp faulty bits is
 * reliable and all its blocks are usable; in any other entry every block
 * with a faulty bit is faulty (unusable) and the others are reliable.
 *
 * Generation follows Table 1 of seed 001 exactly (not on average); CSV
 * reading and writing, and the RFT_FAULTMAP record, are in rft-faultmap(1).
 * CSV is parsed from and formatted to memory; rft_faultmap_csv_read reads a
 * file (plain or zstd, "-" = stdin) through rft_in.  Nothing prints: errors
 * are negative RFT_E* codes with a message in a caller's buffer.
 */
#ifndef RFT_FAULTMAP_H
#define RFT_FAULTMAP_H

#include <stddef.h>
#include <stdint.h>

#include "rft.h"

#define RFT_FM_CLASSES 5        /* entries with 0, 1, 2, 3, >= 4 faulty bits */
#define RFT_FM_ECP 1            /* faulty bits per entry ECP repairs (seed 001 II-B) */
#define RFT_FM_ALL 0xFFFFu      /* cu = simd = RFT_FM_ALL: every slice without a map of its own */
#define RFT_FM_MAX_BITS 255u    /* per-block counts saturate here */
#define RFT_FM_FIXED 20u        /* record bytes before the origin string */
#define RFT_FM_ORIGIN_MAX 4095  /* origin bytes (RFT_MAX_STR: it goes into headers) */
#define RFT_FM_NAME_MAX (RFT_FM_ORIGIN_MAX - 4)   /* a CSV file's name, after "csv:" */
/* Room for any message of this module: a file name (RFT_FM_NAME_MAX at
 * most, longer ones are refused) and the rest of a line. */
#define RFT_FM_WHY (RFT_FM_ORIGIN_MAX + 512)

typedef struct rft_faultmap {
    uint16_t cu, simd;          /* slice, or RFT_FM_ALL twice */
    uint32_t entries, blocks;   /* geometry: entries per slice, blocks per entry */
    uint8_t ecp;                /* faulty bits per entry ECP repairs */
    uint64_t seed;              /* generator seed, 0 for a map read from a file */
    char origin[RFT_FM_ORIGIN_MAX + 1]; /* "common", "clustered", "dispersed", "custom", "csv:FILE" */
    uint8_t *bits;              /* entries * blocks counts, [e * blocks + b] */
} rft_faultmap;

/* Allocate an empty (fault-free) map; RFT_EMEM or RFT_EFORMAT (bad geometry). */
int rft_faultmap_init(rft_faultmap *m, uint32_t entries, uint32_t blocks);
void rft_faultmap_free(rft_faultmap *m);
int rft_faultmap_copy(rft_faultmap *dst, const rft_faultmap *src);

/* Faulty bits of entry e (saturated at 255). */
unsigned rft_faultmap_entry_bits(const rft_faultmap *m, uint32_t e);
/* 1 if entry e is faulty (more faulty bits than ECP repairs). */
int rft_faultmap_entry_faulty(const rft_faultmap *m, uint32_t e);
/* 1 if block b of entry e cannot hold data. */
int rft_faultmap_block_faulty(const rft_faultmap *m, uint32_t e, uint32_t b);
/* Entries per class (0, 1, 2, 3, >= 4 faulty bits); returns faulty blocks. */
uint32_t rft_faultmap_classes(const rft_faultmap *m, uint32_t counts[RFT_FM_CLASSES]);

/* ---- generation -------------------------------------------------------------- */
typedef struct rft_fm_scenario {
    const char *name;
    unsigned vdd_mv;                    /* Table 1 supply voltage */
    double share[RFT_FM_CLASSES];       /* percent of entries per class */
    double systematic;                  /* weight of the spatially correlated part */
} rft_fm_scenario;

/* common, clustered, dispersed; NULL if name is not one of them */
const rft_fm_scenario *rft_fm_scenario_find(const char *name);
extern const rft_fm_scenario rft_fm_scenarios[3];

typedef struct rft_fm_gen {
    char name[32];                      /* scenario name or "custom" */
    double share[RFT_FM_CLASSES];       /* percent, sum 100 */
    double systematic;                  /* 0..1: 0 independent, 1 fully correlated */
    uint32_t corr_length;               /* entries: width of the correlation window */
    uint64_t seed;
} rft_fm_gen;

#define RFT_FM_CORR_LENGTH 32u

/* Fill g for a named scenario (seed 0, default correlation length); RFT_EFORMAT
 * with a message if the name is unknown. */
int rft_fm_gen_scenario(rft_fm_gen *g, const char *name, char *why, size_t whylen);
/* The map options of rft-faultmap(1) and rft-dcpatch(1): a scenario and/or
 * shares (NULL when not given; shares alone: "custom", weight 0.5), the
 * seed, and the weight and correlation length when given (systematic < 0,
 * corr_length 0: the scenario's).  RFT_EFORMAT with a message. */
int rft_fm_gen_options(rft_fm_gen *g, const char *scenario, const char *shares, uint64_t seed,
                       double systematic, uint32_t corr_length, char *why, size_t whylen);
/* Parse "A/B/C/D/E" (percent, sum 100) into share. */
int rft_fm_parse_shares(const char *s, double share[RFT_FM_CLASSES], char *why, size_t whylen);
/* Whole entries per class from shares: floors, then the entries left over go
 * one each to the largest remainders (ties: fewer faulty bits first), so the
 * counts sum to entries (the largest-remainder method). */
void rft_fm_counts(const double share[RFT_FM_CLASSES], uint32_t entries,
                   uint32_t counts[RFT_FM_CLASSES]);
/* Generate the map of slice (cu, simd) (RFT_FM_ALL twice: the map for all
 * slices) into m, whose geometry is already set by rft_faultmap_init.
 * Deterministic in (g, cu, simd, geometry) on every host: integer PRNG and
 * only +, -, *, / and sqrt in floating point. */
void rft_faultmap_generate(rft_faultmap *m, const rft_fm_gen *g, uint16_t cu, uint16_t simd);

/* ---- RFT_FAULTMAP records (layout in rft-faultmap(1)) ------------------------ */
size_t rft_faultmap_record_len(const rft_faultmap *m);
/* Encode into buf (rft_faultmap_record_len bytes). */
void rft_faultmap_encode(const rft_faultmap *m, uint8_t *buf);
/* Decode a payload into m (allocates m->bits: free with rft_faultmap_free). */
int rft_faultmap_decode(const uint8_t *p, uint32_t len, rft_faultmap *m, char *why, size_t whylen);

/* ---- a set of maps: per slice, and at most one for all slices ----------------- */
typedef struct rft_fmset {
    rft_faultmap *maps;
    size_t n, cap;
    rft_map at;         /* slice key -> index in maps (made at the first put) */
} rft_fmset;

void rft_fmset_init(rft_fmset *s);
void rft_fmset_free(rft_fmset *s);
/* Add m (ownership moves into the set); a map for the same slice is replaced. */
int rft_fmset_put(rft_fmset *s, rft_faultmap *m);
/* The map of (cu, simd) itself, or NULL. */
const rft_faultmap *rft_fmset_get(const rft_fmset *s, uint16_t cu, uint16_t simd);
/* A map of s for one slice whose key (rft_slice_key) is not in slices, the
 * slices a trace has: RFT_EFORMAT with a message naming it and csv (the map
 * was asked for and would be ignored); else 0. */
int rft_fmset_check_slices(const rft_fmset *s, const rft_slices *slices, const char *csv, char *why,
                           size_t whylen);
/* The map of (cu, simd), else the map for all slices, else NULL. */
const rft_faultmap *rft_fmset_find(const rft_fmset *s, uint16_t cu, uint16_t simd);

/* The map of slice (cu, simd) for geometry (entries, blocks): its own in s,
 * else s's map for all slices, else, if g is given, one generated into tmp
 * (the map for all slices when same); *out is NULL when there is none.
 * When *out == tmp the caller frees tmp.  0 or RFT_EMEM. */
int rft_fm_for_slice(const rft_fmset *s, const rft_fm_gen *g, int same, uint32_t entries,
                     uint32_t blocks, uint16_t cu, uint16_t simd, rft_faultmap *tmp,
                     const rft_faultmap **out);

/* ---- where a stage's maps come from (the map options of rft-faultmap(1) and
 * rft-dcpatch(1)) ---------------------------------------------------------------- */
typedef struct rft_fm_source {
    const char *csv;        /* a CSV file of maps, read for the stream's geometry, or NULL */
    rft_fm_gen gen;         /* and/or maps generated by gen, if have_gen */
    int have_gen;
    int same;               /* one generated map for every slice */
    /* How csv is read, called with read_ctx: NULL is rft_faultmap_csv_read
     * (a program may print the message and exit instead). */
    int (*read_csv)(void *read_ctx, const char *path, uint32_t entries, uint32_t blocks,
                    rft_fmset *s, char *why, size_t whylen);
    void *read_ctx;
} rft_fm_source;

/* Read src's CSV maps, if any, for the geometry into s (empty: none). */
int rft_fm_source_load(const rft_fm_source *src, uint32_t entries, uint32_t blocks, rft_fmset *s,
                       char *why, size_t whylen);
/* The map of slice (cu, simd): rft_fm_for_slice over s (src's CSV maps) and
 * src's generator. */
int rft_fm_source_map(const rft_fm_source *src, const rft_fmset *s, uint32_t entries,
                      uint32_t blocks, uint16_t cu, uint16_t simd, rft_faultmap *tmp,
                      const rft_faultmap **out);
/* Header metadata key = "csv:PATH NAME seed=N same|per-slice" (the parts
 * that apply).  0, or an error with its message in st. */
int rft_fm_source_header(rft_stage *st, const rft_fm_source *src, rft_header *h, const char *key);

/* ---- the stage behind rft-faultmap(1) (rft.h, "stages") -------------------------
 * The maps of src attached to a stream: the CSV's maps and a generated map
 * for all slices (same) before the first record, a generated map before the
 * first record of every other slice; map records of the input are dropped
 * (a warning counts them).  The header gets faultmap=<the source>.  A CSV
 * map or a generator is needed. */
rft_stage *rft_faultmap_stage_new(const rft_fm_source *src);
/* The stage writes at most max bytes of fault map records (0: no limit;
 * RFT_FM_MAX_OUTPUT by default): the map that would pass them is refused
 * before any of it is written (rft-faultmap --max-output). */
#define RFT_FM_MAX_OUTPUT (64ull << 20)
void rft_faultmap_stage_max_output(rft_stage *st, uint64_t max);

/* Hand m to out as an RFT_FAULTMAP record of slice (cu, simd), encoded in
 * *buf (grown to *cap as needed; the caller frees it).  0, or an error with
 * its message in st (a map too large for a record, out of memory), or the
 * sink's. */
int rft_faultmap_put(rft_stage *st, const rft_faultmap *m, uint16_t cu, uint16_t simd,
                     const rft_sink *out, uint8_t **buf, size_t *cap);

/* ---- CSV ----------------------------------------------------------------------
 * Header row naming the columns (any order, other columns ignored):
 *   cu, simd    slice; both "*": the map for all slices (both columns may be
 *               left out: then every row is for all slices)
 *   entry       0 .. entries-1
 *   block       0 .. blocks-1
 *   bits        faulty bits in the block (ECP applies per entry), or
 *   faulty      0/1: the block is unusable as it is (read as ECP + 1 bits)
 * Every slice must have exactly one row per entry and block. */
/* Parse a whole CSV file held in buf for the geometry (entries, blocks) into
 * s; name is used in origin ("csv:NAME", a name longer than RFT_FM_NAME_MAX
 * is refused).  Errors name the line. */
int rft_faultmap_csv_parse(const char *buf, size_t len, const char *name, uint32_t entries,
                           uint32_t blocks, rft_fmset *s, char *why, size_t whylen);
/* Read and parse a CSV file (at most 256 MiB). */
#define RFT_FM_CSV_MAX (256u << 20)
int rft_faultmap_csv_read(const char *path, uint32_t entries, uint32_t blocks, rft_fmset *s,
                          char *why, size_t whylen);
/* The CSV header line (with its newline). */
const char *rft_faultmap_csv_header(void);
/* Append the rows of m to *buf (realloc'ed; *len and *cap track it). */
int rft_faultmap_csv_format(const rft_faultmap *m, char **buf, size_t *len, size_t *cap);

#endif
