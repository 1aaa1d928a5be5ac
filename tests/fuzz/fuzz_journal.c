/* libFuzzer target for the journal reader: any bytes at all must parse into either an
 * error or a sorted, duplicate-free table of in-range ids, without reading out of
 * bounds. Built by scripts/fuzz (clang -fsanitize=fuzzer,address,undefined). */
#include <stdint.h>
#include <stdlib.h>

#include "store/journal_codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    journal_table tab;
    nq_journal_info info = {0};
    size_t keep;
    int rc = journal_parse(data, size, NULL, &tab, &keep, &info);

    if (rc != NQ_OK) {
        if (tab.e || tab.len)
            abort(); /* an error must leave nothing to free */
        return 0;
    }
    if ((tab.header_size != JOURNAL_HEADER_SIZE && tab.header_size != JOURNAL_V2_HEADER_SIZE) ||
        keep > size || keep < tab.header_size ||
        (keep - tab.header_size) % JOURNAL_RECORD_SIZE != 0 || size - keep > JOURNAL_RECORD_SIZE)
        abort();
    if (info.found.slice_count &&
        (info.found.slice_index >= info.found.slice_count ||
         info.found.first_task > info.found.end_task || info.found.end_task > info.found.tasks))
        abort();
    if (info.torn_bytes != size - keep || info.tasks_done != tab.len || tab.len > info.records)
        abort();
    for (size_t i = 0; i < tab.len; i++)
        if (tab.e[i].id >= info.found.tasks || (i && tab.e[i - 1].id >= tab.e[i].id) ||
            (info.found.slice_count &&
             (tab.e[i].id < info.found.first_task || tab.e[i].id >= info.found.end_task)))
            abort();
    free(tab.e);
    return 0;
}
