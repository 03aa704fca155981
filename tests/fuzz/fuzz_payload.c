/* fuzz_payload.c - the payload parsers of analysis records alone (the
 * table in fuzz_util.c), quicker to explore than through a whole stream.
 * Input: one byte, the record kind, then the payload. */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size - 1 > RFT_MAX_RECORD)
        return 0;
    const fuzz_payload *f = fuzz_payload_find(data[0]);
    if (!f)
        return 0;
    char *payload = fuzz_copy(data + 1, size - 1);
    f->check((const uint8_t *)payload, (uint32_t)(size - 1));
    free(payload);
    return 0;
}
