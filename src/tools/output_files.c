/* The files a run writes: compared by device and inode, and written under a temporary
 * name renamed into place (see output_files.h). */
#define _GNU_SOURCE /* strndup, faccessat's AT_EACCESS */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/temp_name.h"

#include "args_messages.h"
#include "output_files.h"

void output_file_fd(output_file *f, const char *option, const char *path, int fd)
{
    struct stat st;

    f->option = option;
    f->path = path;
    f->base = NULL;
    /* Only regular files: /dev/null or a terminal may well take two outputs. */
    f->known = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    f->dev = f->known ? (uint64_t)st.st_dev : 0;
    f->ino = f->known ? (uint64_t)st.st_ino : 0;
}

void output_file_path(output_file *f, const char *option, const char *path)
{
    const char *slash = strrchr(path, '/');
    struct stat st;
    char *dir;

    f->option = option;
    f->path = path;
    f->known = OUTPUT_NOT_COMPARED;
    f->base = slash ? slash + 1 : path;
    if (lstat(path, &st) == 0) {
        f->known = S_ISREG(st.st_mode) ? OUTPUT_EXISTING : OUTPUT_NOT_COMPARED;
    } else if (errno == ENOENT && *f->base) {
        /* a new file: its folder and its name, which rename makes it */
        dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
        f->known = dir && stat(dir, &st) == 0 ? OUTPUT_NEW_NAME : OUTPUT_NOT_COMPARED;
        free(dir);
    }
    f->dev = f->known ? (uint64_t)st.st_dev : 0;
    f->ino = f->known ? (uint64_t)st.st_ino : 0;
}

void output_file_journal(output_file *f, const char *path, const nq_journal *j)
{
    if (!j) { /* not open yet: the file at path now (checked again once it is open) */
        output_file_path(f, "--checkpoint", path);
        return;
    }
    f->option = "--checkpoint";
    f->path = path;
    f->base = NULL;
    f->known =
        nq_journal_file_id(j, &f->dev, &f->ino) == NQ_OK ? OUTPUT_EXISTING : OUTPUT_NOT_COMPARED;
}

static int same_file(const output_file *a, const output_file *b)
{
    return a->known != OUTPUT_NOT_COMPARED && a->known == b->known && a->dev == b->dev &&
           a->ino == b->ino && (a->known == OUTPUT_EXISTING || strcmp(a->base, b->base) == 0);
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
            if (same_file(&f[a], &f[b])) {
                char x[4200], y[4200];
                return args_usage_error(cmd,
                                        "%s and %s are the same file: give each output a "
                                        "file of its own",
                                        describe(&f[a], x, sizeof(x)),
                                        describe(&f[b], y, sizeof(y)));
            }
    return 0;
}

/* ---- writing ---------------------------------------------------------------------- */

static int writer_error(output_writer *w, const char *cmd, const char *why)
{
    output_writer_abandon(w);
    return args_run_error(cmd, "cannot write %s %s: %s", w->option, w->path, why);
}

int output_writer_adopt(output_writer *w, const char *cmd, const char *option, const char *path,
                        int fd)
{
    int e = errno; /* why fd is -1, when it is */

    *w = (output_writer){option, path, NULL, NULL};
    if (fd < 0)
        return writer_error(w, cmd, strerror(e));
    if (fcntl(fd, F_SETFL, 0) != 0 || !(w->f = fdopen(fd, "w"))) { /* blocking again */
        e = errno;
        close(fd);
        return writer_error(w, cmd, strerror(e));
    }
    return 0;
}

/* Not a regular file: a FIFO that a process reads or a character device is written in
 * place (O_NONBLOCK: a FIFO nobody reads is refused at once, not waited on); a symbolic
 * link would have its target written, so it is refused with the rest. */
static int open_in_place(output_writer *w, const char *cmd, const struct stat *st)
{
    struct stat now;
    int fd;

    if (S_ISLNK(st->st_mode))
        return writer_error(w, cmd, "a symbolic link (name the file itself)");
    if (!S_ISFIFO(st->st_mode) && !S_ISCHR(st->st_mode))
        return writer_error(w, cmd, "not a regular file, a FIFO or a character device");
    fd = open(w->path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return writer_error(w, cmd,
                            errno == ENXIO   ? "a FIFO that no process reads"
                            : errno == ELOOP ? "a symbolic link (name the file itself)"
                                             : strerror(errno));
    if (fstat(fd, &now) != 0 || (now.st_mode & S_IFMT) != (st->st_mode & S_IFMT)) {
        close(fd); /* replaced since it was looked at */
        return writer_error(w, cmd, "changed while it was being opened");
    }
    return output_writer_adopt(w, cmd, w->option, w->path, fd);
}

int output_writer_open(output_writer *w, const char *cmd, const char *option, const char *path)
{
    struct stat st;
    int fd, exists;

    *w = (output_writer){option, path, NULL, NULL};
    exists = lstat(path, &st) == 0;
    if (!exists && errno != ENOENT)
        return writer_error(w, cmd, strerror(errno));
    if (exists && !S_ISREG(st.st_mode))
        return open_in_place(w, cmd, &st);
    /* renaming over a file would replace one this user may not write */
    if (exists && faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0)
        return writer_error(w, cmd, strerror(errno));
    fd = temp_name_create(path, O_WRONLY, &w->tmp);
    if (fd < 0)
        return writer_error(w, cmd, strerror(errno));
    if (exists && fchmod(fd, st.st_mode & 07777) != 0) {
        /* best effort: the new file has the default mode */
    }
    if (!(w->f = fdopen(fd, "w"))) {
        close(fd);
        return writer_error(w, cmd, strerror(errno));
    }
    return 0;
}

/* Everything written reached the file: 0 or an errno. */
static int writer_flush(output_writer *w)
{
    int e = 0;

    if (fflush(w->f) != 0 || ferror(w->f))
        e = errno ? errno : EIO;
    /* on the disk before its name is: a crash never leaves an empty file under it */
    if (!e && w->tmp && fsync(fileno(w->f)) != 0)
        e = errno;
    if (fclose(w->f) != 0 && !e)
        e = errno ? errno : EIO;
    w->f = NULL;
    return e;
}

int output_writer_commit(output_writer *w, const char *cmd)
{
    char why[160];
    int e = writer_flush(w);

    if (!e && w->tmp && rename(w->tmp, w->path) != 0)
        e = errno;
    if (!e) {
        free(w->tmp);
        w->tmp = NULL;
        return 0;
    }
    snprintf(why, sizeof(why), "%s%s", strerror(e), w->tmp ? " (nothing was replaced)" : "");
    return writer_error(w, cmd, why);
}

void output_writer_abandon(output_writer *w)
{
    if (w->f)
        fclose(w->f);
    w->f = NULL;
    if (w->tmp)
        unlink(w->tmp); /* ours alone: it was created exclusively */
    free(w->tmp);
    w->tmp = NULL;
}
