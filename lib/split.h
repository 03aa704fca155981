/* split.h - a stream cut into the shards of its slices in one pass
 * (rft-split(1)): each record goes to the shard of its slice, as
 * rft_reader_shard_by would keep it, or to every shard (records of no
 * slice); what the whole stream held (rft_whole) is noted on the way, for
 * the whole record that ends each shard.  No I/O: the caller reads the
 * stream and writes the shards. */
#ifndef RFT_SPLIT_H
#define RFT_SPLIT_H

#include "rft.h"

typedef struct rft_split rft_split;

/* n shards (1 or more) by by (RFT_SHARD_BY_SLICE or _CU) of a stream of
 * header h (its key simds, as the reader's); NULL: out of memory. */
rft_split *rft_split_new(uint32_t n, int by, const rft_header *h);
/* The shard of a record (kind, payload p of len bytes): 0 to n-1, or -1
 * for every shard. */
int64_t rft_split_route(rft_split *s, int kind, const uint8_t *p, uint32_t len);
const rft_whole *rft_split_whole(const rft_split *s);
void rft_split_free(rft_split *s);

#endif
