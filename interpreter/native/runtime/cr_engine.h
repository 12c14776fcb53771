/* cr_engine.h: what every generated engine shares (included once by its C file, after
 * cardrules_rt.h). Values, lists, failures and arithmetic with Python's meaning.
 *
 * A value is an int64_t: a number, a truth value (0 or 1), or the index of a card, player,
 * suit, rank, zone or option choice; CR_NONE is Python's None. A collection is a cr_list: a
 * length and the values, in the state (a slot's list) or in the context's scratch arena (a
 * value worked out within one instruction). A failure (a none where a value is needed, an
 * index out of range, a division by zero, an overflow) leaves through cr_fail to the entry
 * point, which reports the kind and the instruction; nothing aborts the process.
 */
#ifndef CR_ENGINE_H
#define CR_ENGINE_H

#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#define CR_NONE INT64_MIN

/* failure kinds: engine/play.py words each (native/engine.py:_failure) */
#define CR_E_NONE 1      /* a card or player that is none here */
#define CR_E_INDEX 2     /* a number out of range (a seat, a zone number, a card) */
#define CR_E_ZERO 3      /* a division by zero */
#define CR_E_OVERFLOW 4  /* a number beyond 64 bits: Python's ints have no limit, so this engine stops */
#define CR_E_STUCK 5     /* the rules loop for ever without a decision */
#define CR_E_DEAL 6      /* a deal of a negative number of cards */
#define CR_E_NOPLAYER 7  /* a choice whose player is none */
#define CR_E_LIST 8      /* a collection longer than this engine's room for it */
#define CR_E_DEPTH 9     /* procedures nested deeper than this engine's room for them */
#define CR_E_STATE 10    /* not a state, a move out of range, a finished game */
#define CR_E_DEAL_AT 11  /* a deal 'starting at' a player who is none */
#define CR_E_MOVE_NONE 12 /* a move of one card that is none */
#define CR_E_SEATS_AT 13 /* 'for each player ... after' a player who is none */
#define CR_E_TELL_NONE 14 /* a tell to a player who is none */
#define CR_E_LONG 15     /* a decision after all the decisions the game may take */

typedef struct cr_list {
    int64_t n;
    int64_t *v;
} cr_list;

struct cr_scratch;

typedef struct cr_ctx {
    jmp_buf jb;
    struct cr_scratch *sc;
    int64_t *arena; /* scratch for collections worked out within one instruction */
    int64_t top, cap;
} cr_ctx;

static void cr_fail(cr_ctx *x, int kind) __attribute__((noreturn, cold));
static void cr_fail(cr_ctx *x, int kind) { longjmp(x->jb, kind); }

static inline int cr_truth(int64_t v) { return v != 0 && v != CR_NONE; }

static inline int64_t cr_need(cr_ctx *x, int64_t v) {
    if (v == CR_NONE) cr_fail(x, CR_E_NONE);
    return v;
}

/* v as an index below n: a none fails as none, anything else out of range as an index */
static inline int64_t cr_idx(cr_ctx *x, int64_t v, int64_t n) {
    if (v == CR_NONE) cr_fail(x, CR_E_NONE);
    if (v < 0 || v >= n) cr_fail(x, CR_E_INDEX);
    return v;
}

static inline cr_list cr_alloc(cr_ctx *x, int64_t n) {
    cr_list l;
    if (n < 0 || n > x->cap - x->top) cr_fail(x, CR_E_LIST);
    l.n = 0;
    l.v = x->arena + x->top;
    x->top += n;
    return l;
}

static inline int64_t cr_add(cr_ctx *x, int64_t a, int64_t b) {
    int64_t r;
    if (a == CR_NONE || b == CR_NONE) cr_fail(x, CR_E_NONE);
    if (__builtin_add_overflow(a, b, &r) || r == CR_NONE) cr_fail(x, CR_E_OVERFLOW);
    return r;
}
static inline int64_t cr_sub(cr_ctx *x, int64_t a, int64_t b) {
    int64_t r;
    if (a == CR_NONE || b == CR_NONE) cr_fail(x, CR_E_NONE);
    if (__builtin_sub_overflow(a, b, &r) || r == CR_NONE) cr_fail(x, CR_E_OVERFLOW);
    return r;
}
static inline int64_t cr_mul(cr_ctx *x, int64_t a, int64_t b) {
    int64_t r;
    if (a == CR_NONE || b == CR_NONE) cr_fail(x, CR_E_NONE);
    if (__builtin_mul_overflow(a, b, &r) || r == CR_NONE) cr_fail(x, CR_E_OVERFLOW);
    return r;
}
static inline int64_t cr_neg(cr_ctx *x, int64_t a) { return cr_sub(x, 0, a); }
static inline int64_t cr_abs(cr_ctx *x, int64_t a) { return cr_need(x, a) < 0 ? cr_neg(x, a) : a; }
/* Python's // and %: the quotient rounded down, the remainder with the divisor's sign */
static inline int64_t cr_floordiv(cr_ctx *x, int64_t a, int64_t b) {
    if (a == CR_NONE || b == CR_NONE) cr_fail(x, CR_E_NONE);
    if (b == 0) cr_fail(x, CR_E_ZERO);
    if (b == -1) return cr_neg(x, a);
    int64_t q = a / b, r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t cr_mod(cr_ctx *x, int64_t a, int64_t b) {
    if (a == CR_NONE || b == CR_NONE) cr_fail(x, CR_E_NONE);
    if (b == 0) cr_fail(x, CR_E_ZERO);
    if (b == -1) return 0;
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
/* < <= > >= on numbers (a none cannot be ordered in Python) */
static inline int64_t cr_lt(cr_ctx *x, int64_t a, int64_t b) { return cr_need(x, a) < cr_need(x, b); }
static inline int64_t cr_min(cr_ctx *x, int64_t a, int64_t b) { return cr_need(x, b) < cr_need(x, a) ? b : a; }
static inline int64_t cr_max(cr_ctx *x, int64_t a, int64_t b) { return cr_need(x, b) > cr_need(x, a) ? b : a; }

static inline int cr_in(const cr_list l, int64_t v) {
    for (int64_t i = 0; i < l.n; i++)
        if (l.v[i] == v) return 1;
    return 0;
}

/* the list without repeats, each where it first comes (dict.fromkeys): a long list of small
 * numbers (cards, seats) is marked off in a bit set, anything else compared pairwise */
static inline cr_list cr_dedupe(cr_list l) {
    int64_t k = 0, hi = 0;
    if (l.n > 8) {
        for (int64_t i = 0; i < l.n && hi >= 0; i++)
            hi = l.v[i] < 0 || l.v[i] >= 4096 ? -1 : (l.v[i] > hi ? l.v[i] : hi);
        if (hi >= 0) {
            uint64_t seen[64];
            memset(seen, 0, sizeof(uint64_t) * (size_t)(hi / 64 + 1));
            for (int64_t i = 0; i < l.n; i++) {
                int64_t v = l.v[i];
                uint64_t bit = (uint64_t)1 << (v & 63);
                if (!(seen[v >> 6] & bit)) { seen[v >> 6] |= bit; l.v[k++] = v; }
            }
            l.n = k;
            return l;
        }
    }
    for (int64_t i = 0; i < l.n; i++) {
        int64_t j = 0;
        while (j < k && l.v[j] != l.v[i]) j++;
        if (j == k) l.v[k++] = l.v[i];
    }
    l.n = k;
    return l;
}

#endif /* CR_ENGINE_H */
