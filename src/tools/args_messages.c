/* The tools' one message format: "nqueens[ cmd]: <message>", one line on stderr, with the
 * bytes of file names and arguments made safe for a terminal and long strings shortened
 * around "...", and the shell word that pastes a file name back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "args_messages.h"

const char *args_program = "nqueens";

/* Length of the UTF-8 sequence at p that a terminal shows as text (not a C1 control),
 * or 0. */
static size_t utf8_text_len(const unsigned char *p)
{
    size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;
    uint32_t cp = p[0] & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);

    if (p[0] < 0xc2 || p[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < 0xa0 || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* s with control bytes and bytes outside UTF-8 text written as \xHH. */
static void put_safe(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_text_len(p) : 0;
        if (k == 0) {
            fprintf(f, "\\x%02x", *p++);
            continue;
        }
        fwrite(p, 1, k, f);
        p += k;
    }
}

/* The messages' own printf: every conversion as printf writes it, except that a string
 * longer than ARG_SHOWN bytes (a 5,000-character path, an argument pasted by mistake)
 * loses its middle to "...", so that a line stays readable and never loses its reason.
 * whole: no string is shortened (a command line to paste). The line is malloc'd. */
enum { ARG_SHOWN = 240, ARG_HEAD = 120 };

typedef struct msg_line {
    char *s;
    size_t len, cap;
    int failed;
} msg_line;

static void msg_put(msg_line *m, const char *p, size_t k)
{
    if (m->failed)
        return;
    if (m->len + k + 1 > m->cap) {
        size_t cap = (m->len + k + 1) * 2;
        char *s = realloc(m->s, cap);
        if (!s) {
            m->failed = 1;
            return;
        }
        m->s = s;
        m->cap = cap;
    }
    memcpy(m->s + m->len, p, k);
    m->len += k;
    m->s[m->len] = '\0';
}

/* s, or its first ARG_HEAD and its last bytes around "...", cut between characters. */
static void msg_put_string(msg_line *m, const char *s, int whole)
{
    size_t len = strlen(s), head = ARG_HEAD, tail = ARG_SHOWN - ARG_HEAD - 3;

    if (whole || len <= ARG_SHOWN) {
        msg_put(m, s, len);
        return;
    }
    while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
        head--; /* not inside a UTF-8 sequence */
    while (tail > 0 && ((unsigned char)s[len - tail] & 0xc0) == 0x80)
        tail--;
    msg_put(m, s, head);
    msg_put(m, "...", 3);
    msg_put(m, s + len - tail, tail);
}

/* A conversion's text, as printf's own format: the flags, width, precision and length of
 * the '%' at hand, and what they ask of the argument list. */
typedef struct msg_spec {
    char text[32];   /* "%" and the conversion, for snprintf */
    int star[2];     /* the '*' width and precision, taken from the arguments */
    int n_star, lng; /* how many '*'; how many 'l' */
    int size;        /* the other length letter (z, j, t, L), or 0 */
    char conv;       /* the conversion letter */
} msg_spec;

/* Read the conversion at fmt (after the '%') into *c, taking any '*' arguments from ap;
 * returns its last character. */
static const char *msg_spec_read(msg_spec *c, const char *fmt, va_list *ap)
{
    const char *p = fmt;
    size_t n;

    memset(c, 0, sizeof(*c));
    while (*p && strchr("-+ #0", *p))
        p++;
    for (int part = 0; part < 2; part++) { /* width, then precision */
        if (part == 1 && *p != '.')
            break;
        if (part == 1)
            p++;
        if (*p == '*') {
            c->star[c->n_star++] = va_arg(*ap, int);
            p++;
        }
        while (*p >= '0' && *p <= '9')
            p++;
    }
    for (; *p && strchr("hlzjtL", *p); p++) {
        c->lng += *p == 'l';
        if (*p != 'h' && *p != 'l')
            c->size = *p;
    }
    n = (size_t)(p - fmt) + 1;
    if (!*p || n + 2 > sizeof(c->text))
        abort(); /* a format the compiler checked cannot end here */
    c->text[0] = '%';
    memcpy(c->text + 1, fmt, n);
    c->text[n + 1] = '\0';
    c->conv = *p;
    return p;
}

/* The conversion c of the next argument in ap, into piece as snprintf writes it; returns
 * snprintf's length. The argument's type follows from the conversion and its length. */
static int msg_piece(const msg_spec *c, va_list *ap, char *piece, size_t size)
{
    int k = -1;
#define PIECE(type)                                                                                \
    do {                                                                                           \
        type v_ = va_arg(*ap, type);                                                               \
        k = c->n_star == 2   ? snprintf(piece, size, c->text, c->star[0], c->star[1], v_)          \
            : c->n_star == 1 ? snprintf(piece, size, c->text, c->star[0], v_)                      \
                             : snprintf(piece, size, c->text, v_);                                 \
    } while (0)
    switch (c->conv) {
    case 'd':
    case 'i':
        if (c->size == 'z')
            PIECE(ssize_t);
        else if (c->size == 'j')
            PIECE(intmax_t);
        else if (c->size == 't')
            PIECE(ptrdiff_t);
        else if (c->lng == 1)
            PIECE(long);
        else if (c->lng)
            PIECE(long long);
        else
            PIECE(int);
        break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
        if (c->size == 'z' || c->size == 't')
            PIECE(size_t);
        else if (c->size == 'j')
            PIECE(uintmax_t);
        else if (c->lng == 1)
            PIECE(unsigned long);
        else if (c->lng)
            PIECE(unsigned long long);
        else
            PIECE(unsigned);
        break;
    case 'c':
        PIECE(int);
        break;
    case 'e':
    case 'f':
    case 'g':
        if (c->size == 'L')
            PIECE(long double);
        else
            PIECE(double);
        break;
    case 's':
        PIECE(const char *); /* with a width or precision: as printf has it */
        break;
    case 'p':
        PIECE(void *);
        break;
    default:
        abort(); /* a conversion the messages do not use (%n, %ls) */
    }
#undef PIECE
    return k;
}

/* One conversion at fmt (after the '%'), its argument taken from ap; returns the end. */
static const char *msg_convert(msg_line *m, const char *fmt, va_list *ap, int whole)
{
    char piece[512];
    msg_spec c;
    const char *p = msg_spec_read(&c, fmt, ap);
    int k;

    if (c.conv == 's' && p == fmt) { /* a plain %s: shortened when long */
        const char *s = va_arg(*ap, const char *);
        msg_put_string(m, s ? s : "(null)", whole);
        return p + 1;
    }
    if (c.conv == '%') {
        msg_put(m, "%", 1);
        return p + 1;
    }
    k = msg_piece(&c, ap, piece, sizeof(piece));
    if (k > 0)
        msg_put(m, piece, (size_t)k < sizeof(piece) ? (size_t)k : sizeof(piece) - 1);
    return p + 1;
}

static char *msg_format(const char *fmt, va_list ap, int whole)
{
    msg_line m = {NULL, 0, 0, 0};
    va_list aq;

    va_copy(aq, ap);
    msg_put(&m, "", 0);
    while (*fmt) {
        size_t k = strcspn(fmt, "%");
        msg_put(&m, fmt, k);
        fmt += k;
        if (*fmt == '%')
            fmt = msg_convert(&m, fmt + 1, &aq, whole);
    }
    va_end(aq);
    if (m.failed) {
        free(m.s);
        return NULL;
    }
    return m.s;
}

static void vreport(const char *cmd, int whole, const char *fmt, va_list ap)
{
    char *line = msg_format(fmt, ap, whole);

    fprintf(stderr, "%s%s%s: ", args_program, cmd ? " " : "", cmd ? cmd : "");
    put_safe(stderr, line ? line : fmt); /* no memory: at least what went wrong */
    fputc('\n', stderr);
    fflush(stderr);
    free(line);
}

int args_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 0, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int args_run_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 0, fmt, ap);
    va_end(ap);
    return EXIT_RUN_FAILED;
}

void args_note(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 0, fmt, ap);
    va_end(ap);
}

void args_hint(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 1, fmt, ap);
    va_end(ap);
}

char *args_shell_word(const char *s)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789._/-+=:,@%";
    size_t len = strlen(s);
    int quote = !*s || strspn(s, plain) != len, dollar = 0;
    /* each byte at most 4 ("\\xHH", "'\\''"), and the quotes */
    char *buf = malloc(4 * len + 4), *w = buf;

    if (!buf)
        return NULL;
    /* A byte the messages would write as \xHH (a newline, a byte that is not UTF-8 text)
     * means another name inside '...': such a word is $'...', with escapes. */
    for (const unsigned char *p = (const unsigned char *)s; *p && !dollar;) {
        size_t k = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_text_len(p) : 0;
        dollar = k == 0;
        p += k;
    }
    if (dollar)
        *w++ = '$';
    if (quote)
        *w++ = '\'';
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_text_len(p) : 0;
        if (*p == '\'') {
            w += sprintf(w, dollar ? "\\'" : "'\\''");
        } else if (dollar && *p == '\\') {
            w += sprintf(w, "\\\\");
        } else if (k == 0) {
            w += *p == '\n'   ? sprintf(w, "\\n")
                 : *p == '\t' ? sprintf(w, "\\t")
                              : sprintf(w, "\\x%02x", *p);
            p++;
            continue;
        } else {
            memcpy(w, p, k);
            w += k;
            p += k;
            continue;
        }
        p++;
    }
    if (quote)
        *w++ = '\'';
    *w = '\0';
    return buf;
}
