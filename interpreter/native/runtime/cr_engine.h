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
#define CR_E_INTR 16     /* Ctrl-C or SIGTERM during a long call (cr_guard_enter): not a failure of the rules */
#define CR_E_RANGE 17    /* a range longer than the language allows (CR_MAX_RANGE numbers, interpreter/language/sizes.py) */
#define CR_E_SET 18      /* an action's set of cards chosen among more than MAX_SET_CARDS cards */
#define CR_E_SETS_TRIED 19 /* ... with more than MAX_TRIED sets to try */
#define CR_E_SETS 20     /* ... with more than MAX_SETS sets allowed */
#define CR_E_NEGPOW 21   /* a power with a negative exponent (limits.negative_power_message) */
#define CR_E_EMPTY 22    /* max or min over no element (compiler/runtime.py EMPTY_MESSAGE) */

typedef struct cr_list {
    int64_t n;
    int64_t *v;
} cr_list;

struct cr_scratch;

typedef struct cr_ctx {
    jmp_buf jb;
    jmp_buf *jp;    /* where a failure leaves instead of jb: a guarded aggregate's try of its mask form (expr.py: x_Guarded), else NULL */
    int fail;       /* the kind of the last failure */
    struct cr_scratch *sc;
    int64_t *arena; /* scratch for collections worked out within one instruction */
    int64_t top, cap;
} cr_ctx;

static void cr_fail(cr_ctx *x, int kind) __attribute__((noreturn, cold));
static void cr_fail(cr_ctx *x, int kind) {
    x->fail = kind;
    longjmp(x->jp ? *x->jp : x->jb, kind);
}

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
/* a ^ b as Python's _pow (compiler/runtime.py), step by step in the same order */
static inline int64_t cr_pow(cr_ctx *x, int64_t a, int64_t b) {
    if (a == CR_NONE || b == CR_NONE) cr_fail(x, CR_E_NONE);
    if (b < 0) cr_fail(x, CR_E_NEGPOW);
    if (a == 0 || a == 1 || b == 0) return b == 0 ? 1 : a;
    if (a == -1) return (b & 1) ? -1 : 1;
    int64_t r = 1;
    for (int64_t i = 0; i < b; i++)
        if (__builtin_mul_overflow(r, a, &r) || r == CR_NONE) cr_fail(x, CR_E_OVERFLOW);
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
    if (a >= 0 && a < b) return a; /* the next seat and the like: no division */
    if (b > 0 && a >= b && a - b < b) return a - b;
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

/* Ctrl-C (SIGINT) and SIGTERM during a long call: whole games (cr_play_many), a playout
 * (cr_playout), a search (cr_search_run). Python runs its handlers between two bytecodes, so not
 * while a call into C lasts: a game of a million decisions in C ran on for as long as it lasted.
 * Such a call, on the thread that asked for it (cr_want_guard: Python's main thread, where its
 * handlers run), puts a handler of ours in front of each of the two signals whose handler is a
 * function (Python's: not SIG_DFL, which ends the process wherever it is, nor SIG_IGN) and takes
 * it away again before it returns. Ours sets cr_stop and hands the signal on to the handler it
 * found, so Python notes it as it always does; the loops look at cr_stop (CR_STOPPED: a load, at
 * every jump of the rules, every decision of random players, every game, every iteration of a
 * search) and leave with CR_E_INTR, at once and cleanly: between two instructions, a game whose
 * rules were cut short goes on from there with cr_resume. Python then runs its handler (Ctrl-C:
 * KeyboardInterrupt, so the command stops as it does on the Python engine) and, should that
 * handler return, picks the work up again (native/engine.py: check_signals). Threads that did not
 * ask, and calls that are not long (a move, a legal-move list), are left as they were. */
#if (defined(__unix__) || defined(__APPLE__)) && (defined(_POSIX_C_SOURCE) || defined(__APPLE__))
#include <signal.h>
#define CR_GUARD_SIGNALS 2
static volatile sig_atomic_t cr_stop;
/* thread-local in the ordinary (dynamic) way: the static TLS block that "initial-exec" would use
 * has room for a few dozen libraries loaded at run time, and a studio or a server loads one per
 * file and edit (tests/native/test_native_runtime.py: four hundred libraries in one process) */
static __thread int cr_guard_wanted;
static __thread int cr_guarded;
static struct sigaction cr_guard_old[CR_GUARD_SIGNALS];
static int cr_guard_mine[CR_GUARD_SIGNALS];

static int cr_guard_signal(int i) { return i ? SIGTERM : SIGINT; }

static void cr_on_signal(int sig, siginfo_t *info, void *ctx) {
    cr_stop = 1;
    for (int i = 0; i < CR_GUARD_SIGNALS; i++) {
        if (cr_guard_signal(i) != sig) continue;
        if (cr_guard_old[i].sa_flags & SA_SIGINFO) cr_guard_old[i].sa_sigaction(sig, info, ctx);
        else if (cr_guard_old[i].sa_handler != SIG_DFL && cr_guard_old[i].sa_handler != SIG_IGN)
            cr_guard_old[i].sa_handler(sig);
    }
}

static void cr_guard_enter(void) {
    if (!cr_guard_wanted) return;
    cr_stop = 0;
    for (int i = 0; i < CR_GUARD_SIGNALS; i++) {
        struct sigaction now, mine;
        cr_guard_mine[i] = 0;
        if (sigaction(cr_guard_signal(i), NULL, &now)) continue;
        if (!(now.sa_flags & SA_SIGINFO) && (now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN)) continue;
        memset(&mine, 0, sizeof mine);
        mine.sa_sigaction = cr_on_signal;
        mine.sa_mask = now.sa_mask;
        mine.sa_flags = now.sa_flags | SA_SIGINFO;
        cr_guard_old[i] = now;
        if (!sigaction(cr_guard_signal(i), &mine, NULL)) cr_guard_mine[i] = 1;
    }
    cr_guarded = 1;
}

/* whether a signal came during the call */
static int cr_guard_leave(void) {
    if (!cr_guarded) return 0;
    cr_guarded = 0;
    for (int i = 0; i < CR_GUARD_SIGNALS; i++) {
        struct sigaction now;
        if (!cr_guard_mine[i]) continue;
        cr_guard_mine[i] = 0;
        /* only if ours is still there: Python may have put another in the meantime */
        if (!sigaction(cr_guard_signal(i), NULL, &now) && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == cr_on_signal)
            sigaction(cr_guard_signal(i), &cr_guard_old[i], NULL);
    }
    return cr_stop;
}

/* this thread's long calls are guarded from now on (on), or not */
void cr_want_guard(int32_t on) { cr_guard_wanted = on != 0; }

/* whether a signal came during this thread's last guarded call */
int32_t cr_interrupted(void) { return cr_stop != 0; }

#define CR_STOPPED() (cr_stop && cr_guarded) /* (the loops' load: a plain global, nearly always 0) */
#else
static void cr_guard_enter(void) {}
static int cr_guard_leave(void) { return 0; }
void cr_want_guard(int32_t on) { (void)on; }
int32_t cr_interrupted(void) { return 0; }
#define CR_STOPPED() 0
#endif

#endif /* CR_ENGINE_H */
