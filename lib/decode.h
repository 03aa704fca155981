/* decode.h - what rft-decode does, as a library object: the bytes of a
 * register-write trace in (the canonical text grammar, its CSV form, or a
 * simulator log of decoders.h, detected from its first lines unless given),
 * a stream's header and its records out (rft-decode(1)).
 *
 * No I/O: the caller reads the input into the object's buffer
 * (rft_decode_space, then rft_decode_fill) and calls rft_decode_step, which
 * decodes what it has and says what comes next:
 *
 *   RFT_DECODE_MORE     read more (at the end of the input: fill 0 bytes)
 *   RFT_DECODE_AGAIN    the window sizes came from a first reading of the
 *                       whole log (a pre-scan): fill from the input's start
 *                       again (an input that cannot be read twice, stdin,
 *                       is given to the keep callback as it is read first)
 *   RFT_DECODE_HEADER   (out NULL) the header is final, records wait
 *   RFT_DECODE_DONE     all is decoded and handed to out
 *
 * The header may change until the first record ('# key=value' lines of the
 * text grammar, what a pre-scan found): step with out NULL until HEADER or
 * DONE, write the header (rft_decode_header), then step with the sink.  An
 * error met after the header was final comes at that next step, after the
 * records before it, as if they had been written at once.
 *
 * Errors: RFT_EFORMAT or RFT_EMEM with rft_decode_why() and the line it
 * names in rft_decode_progress()->err_line (0: not a line's); a sink's own
 * code (why empty); RFT_DECODE_EOPTS: the options do not fit the input's
 * format (a usage error to a program: the message names rft-decode's
 * option).  Warnings ("warning: INPUT: ...") and, if verbose, notes on the
 * run go to the warn callback.  Memory does not grow with the input (a
 * buffer of 5 MiB: lines of up to 1 MiB).
 */
#ifndef RFT_DECODE_H
#define RFT_DECODE_H

#include "decoders.h"
#include "rft.h"

enum {
    RFT_DECODE_MORE = 0,
    RFT_DECODE_AGAIN,
    RFT_DECODE_HEADER,
    RFT_DECODE_DONE,
};
#define RFT_DECODE_EOPTS (-16)

typedef struct rft_decode_opts {
    int fmt;                /* RFT_FMT_NONE: detect (columns given: RFT_FMT_COLUMNS) */
    rft_dec_opts dec;       /* the geometry, and the options of the simulator logs */
    /* given rather than defaults: an Evergreen or NVBit log has its own */
    int lanes_set, entries_set, cus_set, simds_set, block_lanes_set;
    const char *geometry;   /* the register file named (rft_geom_named), NULL: none */
    /* cutracer: the kernel events file's bytes (events_len of them) and its
     * name for messages; NULL: none */
    const char *events, *events_name;
    size_t events_len;
    int skip_bad;           /* simulator logs: a bad line is skipped, named (first ten), counted */
    int verbose;            /* notes: the format, the pre-scan, the run's figures and speed */
    const char *input;      /* for messages and the header's source ("-": stdin) */
    void (*warn)(void *ctx, const char *msg);   /* NULL: warnings and notes dropped */
    /* the bytes read from the input file (compressed ones for a compressed
     * file), for the speed in a note; NULL: the bytes given */
    uint64_t (*file_bytes)(void *ctx);
    /* if set, every byte of a pre-scan's reading (then none) */
    void (*keep)(void *ctx, const char *bytes, size_t n);
    void *ctx;
} rft_decode_opts;

/* No format, GCN geometry and rft_dec_opts_default, input "-". */
void rft_decode_opts_default(rft_decode_opts *o);

typedef struct rft_decode_info {
    int fmt;                /* RFT_FMT_NONE until decided */
    uint64_t detected_at;   /* the line that decided it; 0: given, or nothing else fits */
    uint64_t lines;         /* lines decoded in this reading of the input */
    uint64_t err_line;      /* the line of the error returned, 0 if none */
    uint64_t records;       /* records out (or waiting) */
    uint64_t bytes;         /* bytes given in this reading */
    int prescanned;
} rft_decode_info;

typedef struct rft_decode rft_decode;

rft_decode *rft_decode_new(const rft_decode_opts *o);  /* NULL: out of memory */
/* Start again, on another input, with options o: as rft_decode_new, but
 * the buffers are kept (many small inputs do not allocate 5 MiB each).
 * 0, or RFT_EMEM: then only rft_decode_free may follow. */
int rft_decode_reset(rft_decode *d, const rft_decode_opts *o);
/* Where the next bytes of the input go, and how many fit. */
char *rft_decode_space(rft_decode *d, size_t *room);
/* n bytes were put there; 0: the input ended. */
void rft_decode_fill(rft_decode *d, size_t n);
/* Decode what is given: RFT_DECODE_* above or an error; out NULL holds
 * the records until the header is final. */
int rft_decode_step(rft_decode *d, const rft_sink *out);
const rft_header *rft_decode_header(const rft_decode *d);
const rft_decode_info *rft_decode_progress(const rft_decode *d);
const char *rft_decode_why(const rft_decode *d);
void rft_decode_free(rft_decode *d);    /* accepts NULL */

#endif
