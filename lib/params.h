/* params.h - parameter files: "key = value" lines, '#' comments.
 *
 * The technology numbers of the models (energies and powers for
 * rft-energy(1), NBTI constants, ...) live in files a user can read and
 * edit, each number beside the source it comes from:
 *
 *     # seed 002 Table 2 (32 nm, 1 GHz)
 *     slice.read_pj = 295.86     # one subwavefront (64 B) read
 *
 * A line is blank, a comment (first non-blank character '#'), or
 * "key = value" with an optional trailing "# comment".  Keys are letters,
 * digits and "._-+"; a value is the rest of the line up to a '#', trimmed,
 * and may not be empty.  A key given twice in one file is an error.
 *
 * The module keeps every pair with its origin (file name and line, or the
 * name given to rft_params_set, e.g. "--set"), so that a caller can say
 * exactly which value is wrong: "seed002-32nm.conf: line 12: slice.read_pj:
 * 'abc' is not a number".  Lookups mark pairs used, so that a caller can
 * refuse keys it does not know (a misspelt key is not silently ignored).
 *
 * Reading a file is the only I/O; nothing is printed.
 */
#ifndef RFT_PARAMS_H
#define RFT_PARAMS_H

#include <limits.h>
#include <stddef.h>

/* Lengths refused with a message naming them: a key, a value (a note is a
 * sentence, not a page), a file or origin name (the system's own limit). */
#define RFT_PARAM_KEY_MAX 128
#define RFT_PARAM_VAL_MAX 1024
/* Room for any message of this module and of those built on it (energy.h,
 * nbti.h): a name below PATH_MAX, keys and values within the limits above
 * and the words around them. */
#define RFT_PARAM_WHY (PATH_MAX + 4 * RFT_PARAM_VAL_MAX)

typedef struct rft_param {
    char *key, *val;
    char *origin;           /* file name or a caller's name ("--set") */
    int line;               /* 0 when not from a file */
    int used;
} rft_param;

typedef struct rft_params {
    char *name;             /* the first file parsed: named by "missing key" messages */
    rft_param *p;
    int n, cap;
} rft_params;

void rft_params_init(rft_params *ps);
void rft_params_free(rft_params *ps);

/* Parse text (len bytes) named name.  0, or RFT_EFORMAT / RFT_EMEM with
 * "NAME: line N: ..." in why.  Keys, values and names longer than the
 * limits above are refused. */
int rft_params_parse(rft_params *ps, const char *name, const char *text, size_t len, char *why,
                     size_t whylen);
/* Read and parse a file; RFT_EIO with "PATH: strerror" if it cannot be read. */
int rft_params_read_file(rft_params *ps, const char *path, char *why, size_t whylen);
/* Set key to val (replacing a value from a file), origin e.g. "--set";
 * RFT_EFORMAT if one of them is longer than its limit. */
int rft_params_set(rft_params *ps, const char *key, const char *val, const char *origin);
/* Parse "KEY=VALUE" and set it; RFT_EFORMAT if it has no '=' or a bad key. */
int rft_params_set_arg(rft_params *ps, const char *arg, const char *origin, char *why, size_t whylen);

/* The pair of key, or NULL; marks it used. */
const rft_param *rft_params_find(rft_params *ps, const char *key);
/* The value of key, or NULL if absent; marks it used. */
const char *rft_params_str(rft_params *ps, const char *key);
/* A finite number >= lo.  0; 1 if absent and optional; RFT_EFORMAT with a
 * message naming the origin, line and key if absent and required, not a
 * number, or below lo ("is negative" when lo is 0); a missing key is
 * "NAME: missing key 'KEY'", NAME the first file parsed. */
int rft_params_num(rft_params *ps, const char *key, int required, double lo, double *v,
                   char *why, size_t whylen);
/* Where a pair comes from, as "NAME: line N" or "NAME", into buf (PATH_MAX
 * + 16 bytes hold any). */
const char *rft_param_where(const rft_param *p, char *buf, size_t n);
/* A message about pair p into why: where it comes from, then fmt.  Returns
 * RFT_EFORMAT. */
int rft_param_fail(const rft_param *p, char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The first pair no lookup has used (a key nobody knows), or NULL. */
const rft_param *rft_params_unused(const rft_params *ps);

#endif
