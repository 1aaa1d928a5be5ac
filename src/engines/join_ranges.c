/* Value pieces: see join_ranges.h. Every pass makes the side in steps of the maker's
 * order into a buffer of its own (each_step) and looks at each mask once. */
#include <assert.h>
#include <string.h>

#include "engines/join_ranges.h"

/* Make mk's side a step at a time, calling each(user, masks, k) on every step's masks
 * while it returns 0: 0, -1 without memory, or what each returned. */
static int each_step(const join_maker *mk, int (*each)(void *, const uint64_t *, size_t),
                     void *user)
{
    join_piece pc = join_piece_first(mk->jt, mk->side, mk->far);
    int rc = 0;

    while (!pc.done && rc == 0) {
        size_t k =
            join_halves_piece(mk->jt, mk->side, mk->cols, mk->forbid, mk->step, &pc, mk->buf);
        rc = k == SIZE_MAX ? -1 : each(user, mk->buf->v, k);
    }
    return rc;
}

static int count_values(void *user, const uint64_t *m, size_t k)
{
    join_values *val = user;
    for (size_t i = 0; i < k; i++) {
        uint32_t v = (uint32_t)(m[i] >> JOIN_RANGE_SHIFT);
        val->fine[v]++;
        val->coarse[v >> 8]++;
        val->all[v >> 8] &= (uint16_t)v;
    }
    return 0;
}

/* A range being cut: its masks so far and the bits their values share. */
typedef struct range_cut {
    join_ranges *r;
    uint64_t in;
    uint32_t common;
} range_cut;

/* End the range being cut before value v. */
static void range_end(range_cut *c, uint32_t v)
{
    c->r->masks[c->r->n] = (uint32_t)c->in;
    c->r->common[c->r->n++] = (uint16_t)(c->in ? c->common : 0);
    c->r->start[c->r->n] = v;
    c->in = 0;
    c->common = 0xffff;
}

/* The masks of the aligned block of size values from lo, and the bits all their values
 * have (0xffff when there are none). */
static uint64_t block_masks(const join_values *val, uint32_t lo, uint32_t size, uint32_t *all)
{
    uint64_t in = 0;
    *all = 0xffff;
    if (size >= 256) {
        for (uint32_t b = lo >> 8; b < (lo + size) >> 8; b++)
            if (val->coarse[b]) {
                in += val->coarse[b];
                *all &= val->all[b];
            }
        return in;
    }
    for (uint32_t v = lo; v < lo + size; v++)
        if (val->fine[v]) {
            in += val->fine[v];
            *all &= v;
        }
    return in;
}

/* Cut the aligned block of size values from lo into ranges of at most most masks: the
 * block whole when it holds that few (or is one value), else its halves. Aligned blocks
 * keep the bits of their prefix in common, which the pairs of a range prune on. */
static void cut_block(range_cut *c, const join_values *val, uint32_t lo, uint32_t size, size_t most)
{
    uint32_t all;
    uint64_t in = block_masks(val, lo, size, &all);

    if (!in)
        return; /* nothing to cut: it joins the range before it */
    if (in > most && size > 1) {
        cut_block(c, val, lo, size / 2, most);
        cut_block(c, val, lo + size / 2, size / 2, most);
        return;
    }
    if (c->in)
        range_end(c, lo);
    c->in = in;
    c->common = all;
}

size_t join_ranges_find(const join_maker *mk, size_t most, join_values *val, join_ranges *r)
{
    range_cut c = {r, 0, 0xffff};
    size_t total = 0;
    int failed;

    for (uint32_t b = 0; b < 256; b++) {
        val->coarse[b] = 0;
        val->all[b] = 0xffff;
    }
    failed = each_step(mk, count_values, val);
    r->n = 0;
    r->start[0] = 0;
    if (!failed)
        cut_block(&c, val, 0, JOIN_RANGE_VALUES, most);
    range_end(&c, JOIN_RANGE_VALUES);
    for (uint32_t b = 0; b < 256; b++) {
        total += val->coarse[b];
        if (val->coarse[b])
            memset(&val->fine[b << 8], 0, 256 * sizeof(val->fine[0]));
    }
    return failed ? SIZE_MAX : total;
}

/* The masks of one range kept from each step. */
typedef struct range_keep {
    uint64_t *out;
    size_t k;
    uint32_t lo, width;
} range_keep;

static int keep_range(void *user, const uint64_t *m, size_t k)
{
    range_keep *rk = user;
    for (size_t i = 0; i < k; i++) { /* branch-free: a range takes a scattered few */
        rk->out[rk->k] = m[i];
        rk->k += (uint32_t)(m[i] >> JOIN_RANGE_SHIFT) - rk->lo < rk->width;
    }
    return 0;
}

/* The value bits that no mask of values lo..hi-1 has: the zeros of the prefix that lo
 * and hi - 1 share. */
static uint64_t prefix_zeros(uint32_t lo, uint32_t hi)
{
    uint32_t differ = lo ^ (hi - 1), prefix = differ ? ~0u << (32 - __builtin_clz(differ)) : ~0u;
    return (uint64_t)(~lo & prefix & (JOIN_RANGE_VALUES - 1)) << JOIN_RANGE_SHIFT;
}

size_t join_range_make(const join_maker *mk, const join_ranges *r, uint32_t i, join_buf *out)
{
    range_keep rk;
    join_maker in = *mk;

    assert(i < r->n);
    /* a mask with a bit that the range's prefix lacks is none of its: the maker drops
     * it unmade, and with it every half-board of a block entry that has the bit */
    in.forbid |= prefix_zeros(r->start[i], r->start[i + 1]);
    mk = &in;
    /* its count is known: room for it, and one more for the last store past the end */
    if (join_buf_need(out, (size_t)r->masks[i] + 1) != 0)
        return SIZE_MAX;
    rk = (range_keep){out->v, 0, r->start[i], r->start[i + 1] - r->start[i]};
    if (each_step(mk, keep_range, &rk) != 0)
        return SIZE_MAX;
    assert(rk.k == r->masks[i]);
    return rk.k;
}

/* The masks kept so far for join_pieces_kept, and what it does with each piece. */
typedef struct pieces_kept {
    join_buf *out;
    size_t k, most, step;
    uint32_t avoid;
    join_piece_fn fn;
    void *user;
} pieces_kept;

static int keep_pieces(void *user, const uint64_t *m, size_t n)
{
    pieces_kept *pk = user;
    size_t k = pk->k;
    int rc = 0;

    if (join_buf_need(pk->out, k + n + 1) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) /* the maker made none with the bits avoid */
        assert(((uint32_t)(m[i] >> JOIN_RANGE_SHIFT) & pk->avoid) == 0);
    memcpy(pk->out->v + k, m, n * sizeof(*m));
    k += n;
    if (k + pk->step > pk->most) { /* another step might pass most: a piece */
        rc = pk->fn(pk->user, pk->out->v, k);
        k = 0;
    }
    pk->k = k;
    return rc;
}

int join_pieces_kept(const join_maker *mk, uint32_t avoid, size_t most, join_buf *out,
                     join_piece_fn fn, void *user)
{
    pieces_kept pk = {out, 0, most, mk->step, avoid, fn, user};
    join_maker in = *mk;
    int rc;

    assert(mk->step <= most);
    in.forbid |= (uint64_t)avoid << JOIN_RANGE_SHIFT; /* dropped by the maker, unmade */
    mk = &in;
    rc = each_step(mk, keep_pieces, &pk);
    return rc == 0 && pk.k ? fn(user, out->v, pk.k) : rc; /* the last piece */
}
