/* The files a run writes, compared by device and inode (see output_files.h). */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "output_files.h"
#include "subtotals.h"

void output_file_fd(output_file *f, const char *option, const char *path, int fd)
{
    struct stat st;

    f->option = option;
    f->path = path;
    /* Only regular files: /dev/null or a terminal may well take two outputs. */
    f->known = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    f->dev = f->known ? (uint64_t)st.st_dev : 0;
    f->ino = f->known ? (uint64_t)st.st_ino : 0;
}

void output_file_journal(output_file *f, const char *path, const nq_journal *j)
{
    struct stat st;

    f->option = "--checkpoint";
    f->path = path;
    if (j) {
        f->known = nq_journal_file_id(j, &f->dev, &f->ino) == NQ_OK;
        return;
    }
    /* Not open yet: the file at path now, if any (checked again once it is open). */
    f->known = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    f->dev = f->known ? (uint64_t)st.st_dev : 0;
    f->ino = f->known ? (uint64_t)st.st_ino : 0;
}

static const char *describe(const output_file *f, char *buf, size_t size)
{
    if (!f->option)
        return "standard output";
    snprintf(buf, size, "%s %s", f->option, f->path);
    return buf;
}

int output_files_distinct(const char *cmd, const output_file *f, int n)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (f[a].known && f[b].known && f[a].dev == f[b].dev && f[a].ino == f[b].ino) {
                char x[4200], y[4200];
                return args_usage_error(cmd,
                                        "%s and %s are the same file: give each output a "
                                        "file of its own",
                                        describe(&f[a], x, sizeof(x)),
                                        describe(&f[b], y, sizeof(y)));
            }
    return 0;
}

int output_files_check_count(const char *cmd, const char *checkpoint, const nq_journal *j,
                             const char *subtotals, int subtotals_fd)
{
    output_file f[3];
    int n = 0;

    if (checkpoint)
        output_file_journal(&f[n++], checkpoint, j);
    if (subtotals)
        output_file_fd(&f[n++], "--subtotals", subtotals, subtotals_fd);
    if (!subtotals_to_stdout(subtotals)) /* else the CSV stands for standard output */
        output_file_fd(&f[n++], NULL, NULL, STDOUT_FILENO);
    return output_files_distinct(cmd, f, n);
}
