/* Test helper: where a test makes its files. meson runs every test under
 * tests/scratch_run.py, which gives it a temporary folder of its own as $TMPDIR and
 * removes that folder when the test ends, pass or fail; so every file a test makes goes
 * through these calls, into $TMPDIR (or /tmp, for a test run by hand). */
#ifndef NQ_TEST_SCRATCH_H
#define NQ_TEST_SCRATCH_H

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room for a scratch path, and for one with a suffix or a name under it. */
#define SCRATCH_PATH 256
#define SCRATCH_PATH_LONGER (SCRATCH_PATH + 64)

static inline const char *scratch_dir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

/* "<scratch>/nq-<what>-XXXXXX" into path, the Xs left for mkstemp or mkdtemp: 0, or -1
 * when it does not fit. */
static inline int scratch_template(char *path, size_t size, const char *what)
{
    int k = snprintf(path, size, "%s/nq-%s-XXXXXX", scratch_dir(), what);
    return k > 0 && (size_t)k < size ? 0 : -1;
}

/* A new file of a unique name in the scratch folder (mkstemp): its descriptor, or -1. */
static inline int scratch_file(char *path, size_t size, const char *what)
{
    return scratch_template(path, size, what) == 0 ? mkstemp(path) : -1;
}

/* A new folder of a unique name in the scratch folder (mkdtemp): path, or NULL. */
static inline char *scratch_mkdir(char *path, size_t size, const char *what)
{
    return scratch_template(path, size, what) == 0 ? mkdtemp(path) : NULL;
}

/* A unique name with no file under it yet, for a test where the tool makes the file:
 * 0, or -1. */
static inline int scratch_name(char *path, size_t size, const char *what)
{
    int fd = scratch_file(path, size, what);
    if (fd < 0)
        return -1;
    close(fd);
    return unlink(path);
}

/* Removes the journal at path and what its writer may leave beside it: "<path>.tmp", and
 * the "<path>.tmp-*" that a kill -9 leaves while a new journal is being created. */
static inline void scratch_remove_journal(const char *path)
{
    char tmp[SCRATCH_PATH_LONGER];
    glob_t g;

    unlink(path);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    unlink(tmp);
    snprintf(tmp, sizeof(tmp), "%s.tmp-*", path);
    if (glob(tmp, 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            unlink(g.gl_pathv[i]);
    globfree(&g);
}

/* The same file spelled another way: "<folder>/./<name>". 0, or -1 when it does not fit. */
static inline int scratch_dotted(char *out, size_t size, const char *path)
{
    const char *slash = strrchr(path, '/');
    int k = slash ? snprintf(out, size, "%.*s/./%s", (int)(slash - path), path, slash + 1) : -1;
    return k > 0 && (size_t)k < size ? 0 : -1;
}

#endif
