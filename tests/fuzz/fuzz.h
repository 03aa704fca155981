/* fuzz.h - what the libFuzzer harnesses (tests/fuzz/fuzz_*.c) share.
 *
 * Each harness defines LLVMFuzzerTestOneInput; it is linked either with
 * libFuzzer (clang -fsanitize=fuzzer) or with replay.c (any compiler), so
 * nothing here may depend on libFuzzer.  The harnesses hand the library what
 * a hostile file would: buffers of exact length, never followed by a NUL.
 * An input costs what the library's parsing of it costs: big objects (the
 * decoder's buffer, writers) are made once and reset, not made per input. */
#ifndef RFT_FUZZ_H
#define RFT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "rft.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A harness that runs each input one way of several, chosen by the input
 * (dec-*: an option set; reader: read-ahead or not), runs it every way when
 * this is set: replay.c sets it, so that a reproducer replays as it was
 * found whichever way that was. */
extern int fuzz_every_way;

/* Write r as rft-decode or a stage would (rft_write_rec), to /dev/null
 * through a writer of geometry g kept open across inputs: what
 * rft_write_rec returns (a refused record: the next call opens another). */
int fuzz_write(const rft_geom *g, const rft_rec *r);

/* A malloc'd copy of data[0..n) with nothing after it, so that reading one
 * byte past it is caught by AddressSanitizer (free it). */
char *fuzz_copy(const void *data, size_t n);

/* Call fn with each line of data (without its newline; the last may have
 * none), each an exact-length copy.  Stops when fn returns non-zero and
 * returns that value. */
int fuzz_lines(const uint8_t *data, size_t n, int (*fn)(void *ctx, char *line, size_t len),
               void *ctx);

/* Read every byte a record points to and format it as text, as rft-view
 * would: out-of-bounds lengths show up here. */
void fuzz_use_record(const rft_geom *g, const rft_rec *r);

/* The payload parsers of the analysis record kinds, by kind: a new kind is
 * one line in the table of fuzz_util.c.  Each parses, re-encodes where the
 * library can, and aborts if parsing its own encoding fails or differs. */
typedef struct fuzz_payload {
    int kind;
    void (*check)(const uint8_t *p, uint32_t len);
} fuzz_payload;
extern const fuzz_payload fuzz_payloads[];
const fuzz_payload *fuzz_payload_find(int kind);   /* NULL if none */

/* abort() with a message: a property the library promises does not hold */
#define FUZZ_ASSERT(c) ((c) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #c))
_Noreturn void fuzz_fail(const char *file, int line, const char *what);

#endif
