/* cardrules_rt.h: the hand-written C runtime that generated engines include.
 *
 * This first part is the random numbers: a Mersenne Twister (MT19937) that draws exactly what
 * CPython's random.Random draws, so that a game played in C deals the same cards, in the same
 * order, from the same seed as the Python engine (interpreter/engine/state.py).
 *
 * Plain C99, no Python headers; every name starts with crt_ (CRT_ for macros). Compiles with
 * -Wall -Wextra -Werror. Tested draw for draw against Python in tests/test_native_runtime.py.
 *
 * What corresponds to what (r = random.Random(seed)):
 *   random.Random(n), n an int    crt_seed_words over |n| in 32-bit words, least significant
 *                                 first ([0] for 0): crt_seed_u64, crt_seed_i64 for the small ones,
 *                                 interpreter.native.rng.seed_words(n) for any int
 *   r.getrandbits(k), 0 <= k <= 64   crt_getrandbits
 *   r._randbelow(n)               crt_randbelow
 *   r.choice(xs) (its index)      crt_choice_index(rng, len(xs))
 *   r.shuffle(xs)                 crt_shuffle_u32 (and the engine's own _shuffle: the same draws)
 *   r.random()                    crt_random_double
 *   r.getstate()[1], setstate     crt_get_state, crt_set_state (the same 625 numbers)
 *
 * A state is a plain struct with no pointers: copying it (b = a; or memcpy) clones the generator,
 * and both copies then draw the same numbers, as copy.copy(random.Random) does.
 */
#ifndef CARDRULES_RT_H
#define CARDRULES_RT_H

#include <stddef.h>
#include <stdint.h>

#define CRT_MT_N 624
#define CRT_STATE_WORDS (CRT_MT_N + 1) /* what crt_get_state writes: the words, then the index */

typedef struct crt_rng {
    uint32_t mt[CRT_MT_N]; /* the generator's words */
    uint32_t index;        /* the next word to hand out; CRT_MT_N: generate a new block first */
} crt_rng;

/* Seeding, as random.Random(n) does for an int n: init_by_array over the words of |n|, least
 * significant first. n_words == 0 is taken as the key [0] (CPython's key for 0). */
void crt_seed_words(crt_rng *rng, const uint32_t *key, size_t n_words);
/* random.Random(n) for 0 <= n < 2**64. */
void crt_seed_u64(crt_rng *rng, uint64_t n);
/* random.Random(n) for a signed n: CPython seeds with abs(n), so -7 draws as 7. */
void crt_seed_i64(crt_rng *rng, int64_t n);

/* The next 32-bit output of the generator (CPython's genrand_uint32). */
uint32_t crt_genrand32(crt_rng *rng);

/* r.getrandbits(k) for 0 <= k <= 64. k <= 32: one output shifted right by 32 - k. k > 32: two
 * outputs, the first the low 32 bits, the second shifted right by 64 - k for the high bits.
 * k == 0 draws nothing and gives 0 (as Python does); k > 64 draws nothing and gives 0 (Python
 * would return a longer int: not representable here). */
uint64_t crt_getrandbits(crt_rng *rng, unsigned k);

/* r._randbelow(n): getrandbits(bit_length(n)) drawn until it is below n. n == 0 draws nothing
 * and gives 0 (Python's would never end; nothing calls it with 0). */
uint64_t crt_randbelow(crt_rng *rng, uint64_t n);

/* The index r.choice(xs) picks among n elements: r._randbelow(n). n == 0 draws nothing and
 * gives 0 (Python raises IndexError before drawing: the caller decides about empty sets). */
size_t crt_choice_index(crt_rng *rng, size_t n);

/* r.shuffle(x) for x[0..n-1]: i from n-1 down to 1, j = randbelow(i + 1), swap x[i], x[j]. */
void crt_shuffle_u32(crt_rng *rng, uint32_t *x, size_t n);

/* r.random(): 53 bits from two outputs, (a >> 5) * 2**26 + (b >> 6), over 2**53. */
double crt_random_double(crt_rng *rng);

/* The state as r.getstate()[1] holds it: out[0..623] the words, out[624] the index. */
void crt_get_state(const crt_rng *rng, uint32_t out[CRT_STATE_WORDS]);
/* r.setstate((3, tuple(words), None)): 0, or -1 (and rng unchanged) when the index is above 624,
 * which Python refuses too. */
int crt_set_state(crt_rng *rng, const uint32_t in[CRT_STATE_WORDS]);

/* The number of bits of n (0 for 0), Python's int.bit_length. */
unsigned crt_bit_length64(uint64_t n);

#endif /* CARDRULES_RT_H */
