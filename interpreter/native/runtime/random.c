/* random.c: the C runtime's random numbers (see cardrules_rt.h).
 *
 * The generator is MT19937 as CPython's Modules/_randommodule.c writes it (genrand_uint32,
 * init_genrand, init_by_array, random_seed, getrandbits, genrand_res53), and the draws built on
 * it are Lib/random.py's (_randbelow_with_getrandbits, shuffle, choice), word for word, so the
 * same seed gives the same numbers in the same number. */
#include "cardrules_rt.h"

#define CRT_MT_M 397
#define CRT_MATRIX_A 0x9908b0dfU   /* constant vector a */
#define CRT_UPPER_MASK 0x80000000U /* most significant w-r bits */
#define CRT_LOWER_MASK 0x7fffffffU /* least significant r bits */

uint32_t crt_genrand32(crt_rng *rng)
{
    static const uint32_t mag01[2] = {0x0U, CRT_MATRIX_A};
    uint32_t *mt = rng->mt;
    uint32_t y;
    if (rng->index >= CRT_MT_N) { /* generate CRT_MT_N words at one time */
        size_t kk;
        for (kk = 0; kk < CRT_MT_N - CRT_MT_M; kk++) {
            y = (mt[kk] & CRT_UPPER_MASK) | (mt[kk + 1] & CRT_LOWER_MASK);
            mt[kk] = mt[kk + CRT_MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < CRT_MT_N - 1; kk++) {
            y = (mt[kk] & CRT_UPPER_MASK) | (mt[kk + 1] & CRT_LOWER_MASK);
            mt[kk] = mt[kk + CRT_MT_M - CRT_MT_N] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[CRT_MT_N - 1] & CRT_UPPER_MASK) | (mt[0] & CRT_LOWER_MASK);
        mt[CRT_MT_N - 1] = mt[CRT_MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        rng->index = 0;
    }
    y = mt[rng->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static void crt_init_genrand(crt_rng *rng, uint32_t s)
{
    uint32_t *mt = rng->mt;
    uint32_t i;
    mt[0] = s;
    for (i = 1; i < CRT_MT_N; i++)
        mt[i] = (uint32_t)(1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i);
    rng->index = CRT_MT_N;
}

void crt_seed_words(crt_rng *rng, const uint32_t *key, size_t n_words)
{
    static const uint32_t zero = 0;
    uint32_t *mt = rng->mt;
    size_t i = 1, j = 0, k;
    if (n_words == 0) { /* CPython seeds 0 with the key [0] */
        key = &zero;
        n_words = 1;
    }
    crt_init_genrand(rng, 19650218U);
    for (k = (CRT_MT_N > n_words ? CRT_MT_N : n_words); k; k--) {
        mt[i] = (uint32_t)((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j);
        i++;
        j++;
        if (i >= CRT_MT_N) {
            mt[0] = mt[CRT_MT_N - 1];
            i = 1;
        }
        if (j >= n_words)
            j = 0;
    }
    for (k = CRT_MT_N - 1; k; k--) {
        mt[i] = (uint32_t)((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i);
        i++;
        if (i >= CRT_MT_N) {
            mt[0] = mt[CRT_MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U; /* MSB is 1, assuring a non-zero initial array */
    rng->index = CRT_MT_N;
}

void crt_seed_u64(crt_rng *rng, uint64_t n)
{
    uint32_t key[2];
    key[0] = (uint32_t)(n & 0xffffffffU);
    key[1] = (uint32_t)(n >> 32);
    crt_seed_words(rng, key, key[1] ? 2 : 1); /* no leading zero word: it would change the key */
}

void crt_seed_i64(crt_rng *rng, int64_t n)
{
    /* |n| computed in unsigned arithmetic, so INT64_MIN is 2**63 and never overflows */
    crt_seed_u64(rng, n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n);
}

unsigned crt_bit_length64(uint64_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return n ? 64U - (unsigned)__builtin_clzll((unsigned long long)n) : 0U;
#else
    unsigned k = 0;
    while (n) {
        n >>= 1;
        k++;
    }
    return k;
#endif
}

uint64_t crt_getrandbits(crt_rng *rng, unsigned k)
{
    uint64_t lo, hi;
    if (k == 0 || k > 64)
        return 0;
    if (k <= 32)
        return (uint64_t)(crt_genrand32(rng) >> (32U - k));
    /* CPython fills 32-bit words from the least significant; the last, partial word keeps the
     * high bits of its draw */
    lo = crt_genrand32(rng);
    hi = crt_genrand32(rng) >> (64U - k);
    return (hi << 32) | lo;
}

uint64_t crt_randbelow(crt_rng *rng, uint64_t n)
{
    unsigned k;
    uint64_t r;
    if (n == 0)
        return 0;
    k = crt_bit_length64(n); /* not of n - 1: a power of two draws one bit more than it needs */
    r = crt_getrandbits(rng, k);
    while (r >= n)
        r = crt_getrandbits(rng, k);
    return r;
}

size_t crt_choice_index(crt_rng *rng, size_t n)
{
    return (size_t)crt_randbelow(rng, (uint64_t)n);
}

void crt_shuffle_u32(crt_rng *rng, uint32_t *x, size_t n)
{
    size_t i, j;
    uint32_t t;
    for (i = n; i-- > 1;) {
        j = (size_t)crt_randbelow(rng, (uint64_t)i + 1);
        t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

double crt_random_double(crt_rng *rng)
{
    uint32_t a = crt_genrand32(rng) >> 5, b = crt_genrand32(rng) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

void crt_get_state(const crt_rng *rng, uint32_t out[CRT_STATE_WORDS])
{
    size_t i;
    for (i = 0; i < CRT_MT_N; i++)
        out[i] = rng->mt[i];
    out[CRT_MT_N] = rng->index;
}

int crt_set_state(crt_rng *rng, const uint32_t in[CRT_STATE_WORDS])
{
    size_t i;
    if (in[CRT_MT_N] > CRT_MT_N)
        return -1;
    for (i = 0; i < CRT_MT_N; i++)
        rng->mt[i] = in[i];
    rng->index = in[CRT_MT_N];
    return 0;
}
