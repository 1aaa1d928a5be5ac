/* The --subtotals CSV (see subtotals.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "subtotals.h"

int subtotals_write(const char *cmd, const char *path, const uint64_t *subs, uint64_t tasks)
{
    FILE *f = fopen(path, "w");
    int ok;
    if (!f)
        return args_run_error(cmd, "cannot write --subtotals %s: %s", path, strerror(errno));
    fputs("task,subtotal\n", f);
    for (uint64_t i = 0; i < tasks; i++)
        fprintf(f, "%llu,%llu\n", (unsigned long long)i, (unsigned long long)subs[i]);
    ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        return args_run_error(cmd, "cannot write --subtotals %s: %s", path, strerror(errno));
    return 0;
}
