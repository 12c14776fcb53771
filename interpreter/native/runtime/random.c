/* random.c: the C runtime's random numbers (see cardrules_rt.h).
 *
 * The generator is MT19937 as CPython's Modules/_randommodule.c writes it (genrand_uint32,
 * init_genrand, init_by_array, random_seed, getrandbits, genrand_res53), and the draws built on
 * it are Lib/random.py's (_randbelow_with_getrandbits, shuffle, choice), word for word, so the
 * same seed gives the same numbers in the same number. */
#include "cardrules_rt.h"
#include <string.h>

#define CRT_MT_M 397
#define CRT_MATRIX_A 0x9908b0dfU   /* constant vector a */
#define CRT_UPPER_MASK 0x80000000U /* most significant w-r bits */
#define CRT_LOWER_MASK 0x7fffffffU /* least significant r bits */

/* word kk of the next block, from the words before it (this block's) and after it (the last
 * block's): CPython's genrand_uint32 makes the block in this order in one loop */
static inline uint32_t crt_twist(const uint32_t *mt, size_t kk)
{
    static const uint32_t mag01[2] = {0x0U, CRT_MATRIX_A};
    size_t next = kk + 1 < CRT_MT_N ? kk + 1 : 0;
    size_t far = kk + CRT_MT_M < CRT_MT_N ? kk + CRT_MT_M : kk + CRT_MT_M - CRT_MT_N;
    uint32_t y = (mt[kk] & CRT_UPPER_MASK) | (mt[next] & CRT_LOWER_MASK);
    return mt[far] ^ (y >> 1) ^ mag01[y & 0x1U];
}

uint32_t crt_genrand32(crt_rng *rng)
{
    uint32_t *mt = rng->mt;
    uint32_t y;
    if (rng->index >= CRT_MT_N) { /* a new block, made word by word as it is handed out */
        rng->index = 0;
        rng->made = 0;
    }
    if (rng->index >= rng->made) {
        mt[rng->index] = crt_twist(mt, rng->index);
        rng->made = rng->index + 1;
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
    rng->index = rng->made = CRT_MT_N;
}

/* init_genrand(19650218), the state every seeding starts from (CPython's init_by_array): worked
 * out once here instead of at every seeding (tests/native/test_native_runtime.py checks it against
 * crt_init_genrand) */
static const uint32_t crt_mt_base[CRT_MT_N] = {
    0x012bd6aaU, 0x82d2ab13U, 0x342096b7U, 0x54846536U, 0x2ae75db7U, 0x826fe838U,
    0x2b03a8e8U, 0x6c2dcb8fU, 0xa8e24d0eU, 0xe7d7d1c5U, 0x3bd2b928U, 0x4f5174d3U,
    0xac6578e6U, 0xcff6b601U, 0xe5cae0d8U, 0xc55ce976U, 0x54cab839U, 0x9a18a629U,
    0xabd39209U, 0xa5ed816aU, 0xfaccb61cU, 0x8f137150U, 0x8b8e9770U, 0x9a6bc211U,
    0xe9e4bc97U, 0x48359a7dU, 0xb6364f06U, 0xccd250afU, 0x20d9dff8U, 0x4e9914f5U,
    0x7147d862U, 0xd2da5a2eU, 0x7da2a8e1U, 0xbbac8081U, 0x2369ced1U, 0x6c237198U,
    0x48f5b281U, 0x26f5eca5U, 0x0f2daa3fU, 0xa8d8e202U, 0xdc832a28U, 0x7c7da620U,
    0xd261342fU, 0x02792187U, 0xab6c796fU, 0xfcc23d2eU, 0x539a37efU, 0x73486f15U,
    0xb8918714U, 0xac4f11dfU, 0x04cc5163U, 0x39df1742U, 0xb3447f3eU, 0x2cc14ee1U,
    0x2fa187fbU, 0xd85cf93eU, 0xaabafa49U, 0xe7c3e2d0U, 0x7c706879U, 0xbb896f93U,
    0xc2e49d71U, 0xa2922037U, 0x94561227U, 0xb0adf5d8U, 0x7e29a942U, 0xf6d9a2b0U,
    0xd2d3fbe1U, 0xda9c526dU, 0x90cb63aaU, 0x922b398dU, 0xb3c43cb1U, 0x1dccbde6U,
    0x8cb10206U, 0xfa05efddU, 0x08c770e0U, 0xc83768abU, 0x61763294U, 0xf2c6b216U,
    0xd8447f97U, 0xe85889b3U, 0x106d82c0U, 0xa96d5611U, 0xb9b820d1U, 0xb8fade92U,
    0x1204df24U, 0x01524d89U, 0x7bb5e863U, 0xdacf2101U, 0xeb701822U, 0x750a2e5eU,
    0xf86e22d5U, 0x2ff244c9U, 0x3ee3b4a9U, 0xe823b80aU, 0x87d36cebU, 0x0211a94cU,
    0xf5a5775cU, 0xcec2efdcU, 0x885ffa5dU, 0x17739edeU, 0x20b47bfaU, 0x5963b407U,
    0x13d73cc4U, 0x5ccbddbbU, 0x3e2d04caU, 0xf8d8fe1bU, 0x603f17e2U, 0x27e1e7faU,
    0x711b500eU, 0xc2079d58U, 0x51b3c855U, 0x5c6efd93U, 0x647b2d0aU, 0x6f00a8c8U,
    0x8f1528bfU, 0x9f513804U, 0x623050d2U, 0xd215ceb4U, 0x693b7da9U, 0xaa4f7bbfU,
    0xd8bef709U, 0xaed1d16bU, 0x47b7cfe7U, 0x61111c39U, 0xd9621a94U, 0xb2104d10U,
    0xad2b0a98U, 0x9cdd9941U, 0xef4752efU, 0x66f8039dU, 0x430be90eU, 0x86d4fa6eU,
    0x94fe9920U, 0x90539cefU, 0xf672bf07U, 0x8c9a811bU, 0x3bba5065U, 0x144ac562U,
    0xc2cf5234U, 0x424bdf3eU, 0x7120cb67U, 0xc693d5cbU, 0xae336076U, 0xcc0f2253U,
    0x4b855a20U, 0x8bbf3896U, 0x73c486f6U, 0xbd846f06U, 0x5dc4f128U, 0x47e116c2U,
    0xb4515685U, 0xfd1662daU, 0x14aa2135U, 0x77577782U, 0x6d0c4249U, 0xc546af03U,
    0x718a0b9cU, 0x38f89a8eU, 0xa6acf8a4U, 0x27d8f01dU, 0x9de14111U, 0xa136d820U,
    0x353b780cU, 0x2c08c95fU, 0xa8d44a1fU, 0x7a35c316U, 0x063e47b9U, 0xcd034da4U,
    0x3a6d028bU, 0x192b6480U, 0xe667272aU, 0x78c664d8U, 0x202ceb49U, 0xf6a1e57aU,
    0x43fc4a6bU, 0x97421681U, 0xecb3fd5fU, 0x731d31fdU, 0xb828951eU, 0x4392d0bfU,
    0x17d409aaU, 0xdb79cac7U, 0xffebe40aU, 0x3d58c944U, 0xe898cc8cU, 0x75aa3c24U,
    0xc75c8853U, 0xa6a4984bU, 0xca6e2689U, 0x15db0f2fU, 0x18d62549U, 0x376fc78cU,
    0x35b7a6fcU, 0x5ab5be2dU, 0xcfad941eU, 0x1c89f534U, 0xbb129248U, 0xf6a351f7U,
    0xe2f6ea0aU, 0xe0e82754U, 0xc006151bU, 0xb7582b41U, 0xf7c4ed39U, 0x183ba2adU,
    0xe850c40dU, 0x252ad853U, 0x85f0c48dU, 0x6517143aU, 0xad8b8f17U, 0xed34b11aU,
    0x2c3f40afU, 0xe75b2cdeU, 0x8805f905U, 0x9fd0ff98U, 0xdb744298U, 0x02c03afeU,
    0xba5b350eU, 0xd8b35a95U, 0x3c570408U, 0xdbb4e003U, 0x9a3c60dcU, 0x77bb0673U,
    0x985a8dd8U, 0x6a99a1e1U, 0x335dbe40U, 0xa28c5021U, 0x2d3359b1U, 0x70191cb8U,
    0x7f5656e1U, 0x51ae2745U, 0x2f94e2baU, 0x1e28fe49U, 0x964064b5U, 0xb24eac1cU,
    0xcff7f6c0U, 0xc337b6daU, 0x61c44589U, 0xe25d3795U, 0xfea0351cU, 0xb97b8d2aU,
    0x086119b8U, 0x991a9e89U, 0xa025f0c9U, 0xb661a40aU, 0x1186001cU, 0x70b10801U,
    0x6b2028f6U, 0xcc5d596aU, 0x538c7865U, 0x9d95046dU, 0xde3327c5U, 0xa8e1a819U,
    0x60bac6a3U, 0xe46b10e7U, 0x1083aef2U, 0xdd318879U, 0xf9ea2322U, 0xc8138606U,
    0x288f8dfbU, 0x997b580aU, 0x57fe042cU, 0xc0aebbc6U, 0xc5cf82bfU, 0xfaf93133U,
    0xf7f318f8U, 0x7e242f10U, 0x96edabbfU, 0x2ad7e79cU, 0x9764dd98U, 0xbc98d8cfU,
    0x9dee3eefU, 0x8326a990U, 0xa9fe09aaU, 0x27fcb859U, 0x9bcb5d2fU, 0xd453d8d4U,
    0x46009ce7U, 0x447efdd3U, 0x84ad86f0U, 0xfe4bc091U, 0xb9ef1cb2U, 0x5a808289U,
    0x6c4648c2U, 0x9600110aU, 0x0e5c0144U, 0x9fd5e4f1U, 0x4d8e5ffdU, 0xba6dbb8bU,
    0x33664f2dU, 0x2df752e2U, 0x1a1ca64cU, 0x3e60491fU, 0x36f7715fU, 0x48e492a0U,
    0x030d03abU, 0x68c5f69eU, 0x196e64e3U, 0xa2c049b8U, 0x9967a18cU, 0x4e39bc31U,
    0x27ccf01cU, 0xc11db839U, 0x99e6ba10U, 0xe0190c49U, 0x5f7b7462U, 0xafb2e740U,
    0x3a25903cU, 0x4ca604dfU, 0xe02cbacaU, 0x491a4382U, 0x0212bee5U, 0xadd0de90U,
    0x0881f2d2U, 0x21f53013U, 0xf0fb23b9U, 0xeb49a39dU, 0x5def1c92U, 0xd1a5f23cU,
    0xb8d54b19U, 0x831515e6U, 0xc944a834U, 0xf39ccdf4U, 0xdcd772b5U, 0x585da911U,
    0x5bdd4494U, 0x6412cd0eU, 0x7a90ef31U, 0xb57f0f37U, 0x60b75e31U, 0x1d0fda39U,
    0xf6989ac7U, 0xe063f49fU, 0x859afed8U, 0x987f374fU, 0x3de407afU, 0x7cdcb05aU,
    0x93ef4837U, 0xc07edb3aU, 0xdfecffcfU, 0x3bf918cfU, 0xf93691ffU, 0xd48b75c1U,
    0x8d5848e0U, 0x5903b481U, 0x098eb7d8U, 0x4c992191U, 0xd6504f2aU, 0xfe2b2d88U,
    0x45355c33U, 0x79c22317U, 0x2bf89f0cU, 0xcf882d1bU, 0x1c83a3d8U, 0x4d863d99U,
    0x3c14a65aU, 0x45a1cce5U, 0xd9b7db58U, 0xad6a3f4cU, 0xe9edb92cU, 0x672d37f2U,
    0xf36d1f47U, 0xfaa4bb3dU, 0x51e40ee0U, 0xaf174930U, 0xa2b9a426U, 0x391107a1U,
    0xc2342cf3U, 0x05322c1fU, 0x2f4100abU, 0x96adc7e8U, 0xa1f21ac4U, 0xb8428791U,
    0x05d22973U, 0x6a3de6d4U, 0x36c7107fU, 0x2bd67a92U, 0x05347f12U, 0x3734c593U,
    0x70929f79U, 0xdd7823d3U, 0x6640728cU, 0x7295a81eU, 0xf8dcecb9U, 0x5aeef0e1U,
    0xd54ce9e0U, 0x79b7c310U, 0xde5b1037U, 0xd7053a07U, 0xe7380918U, 0xd9b80c2cU,
    0x8d6af711U, 0xcef1a706U, 0xa4db9381U, 0xd9274f38U, 0xc485d6d1U, 0xa0822465U,
    0x6ba47d2fU, 0x532502b3U, 0xc6e953c8U, 0x4672b3a6U, 0x8af64173U, 0x12444c26U,
    0xdebc6290U, 0x67189092U, 0xca14b693U, 0x8dcf1865U, 0xe594c139U, 0xefae4779U,
    0x40587ebaU, 0x19d91460U, 0x6d2c6b7aU, 0xac683c22U, 0xf22cda3cU, 0x1836d378U,
    0x4d14a7f6U, 0x42ca7512U, 0xea0c5d1fU, 0x5078b9adU, 0xfeb24e7eU, 0xc9c4ddf4U,
    0x3b35c317U, 0x2b3e48b8U, 0x01852a3eU, 0x2cd6da1dU, 0xde489419U, 0x8e9a59ebU,
    0x9e622b97U, 0x1320f074U, 0xafd8f370U, 0x3afe0fa7U, 0x1e2d8d91U, 0x53b274e4U,
    0x5439ad09U, 0x33928dd9U, 0x33aa194fU, 0x6ed044deU, 0x231f84afU, 0x2e3a01c0U,
    0x54127276U, 0x5fc9d9aaU, 0xe7cc652fU, 0x29fc7815U, 0xd1719f03U, 0xc8eabcbbU,
    0xaca2ee54U, 0x1a2e0fabU, 0x8c3bb335U, 0x60f72572U, 0x0eb1531fU, 0x0b4a63fcU,
    0x4fbf502eU, 0xddaccb4eU, 0xf9136c25U, 0xa69402c3U, 0x6d2560ebU, 0x6f027819U,
    0x86e63b40U, 0xe559b4d3U, 0x2fd7a7daU, 0xd7dee4cdU, 0x9d048512U, 0xc16e111dU,
    0x5767d0a4U, 0x5b209fe8U, 0x14d1c9bdU, 0xbbe5be62U, 0xc9257db2U, 0x87e551a8U,
    0x49d333e6U, 0x066b1af8U, 0x36785daeU, 0xdf61157dU, 0xd43fea8eU, 0xd798007aU,
    0x7687f297U, 0x6e8efd09U, 0x6f0b1e04U, 0xb09686d6U, 0x5956a782U, 0x776a338eU,
    0xaf66e04bU, 0x2f9c8faeU, 0xe76acf88U, 0xc70246baU, 0xb6cde9e1U, 0x7a9cc374U,
    0xf8a5bc0fU, 0xff599ea3U, 0x8a9f3708U, 0x9e8b12dbU, 0x09e39287U, 0xa5e4102eU,
    0x80d5ef48U, 0x147c041fU, 0xa3fb3929U, 0xd7e292e6U, 0x0d438349U, 0xbfe3debeU,
    0x0e3d7e1eU, 0xa192d1c9U, 0xb1bf6a0bU, 0x4282a882U, 0x094f98a5U, 0x0d9a8810U,
    0x89384048U, 0x379ef92bU, 0xf93d52f1U, 0x83333d75U, 0x115cf0efU, 0x0123f748U,
    0xd57e1966U, 0x041a13d8U, 0x3dd06e38U, 0x91bf7619U, 0x957b0da9U, 0x5789e97aU,
    0x9db8f28bU, 0xa1820312U, 0x215ec756U, 0x9e6bacf5U, 0x0ecc6e7bU, 0x27246b90U,
    0x9fde81daU, 0xd32dd443U, 0xa56aff4cU, 0x68f979d3U, 0xd95c73e8U, 0x8aef80c6U,
    0x31c2b364U, 0xeb8d4c85U, 0x2c5ce8f0U, 0xd7e058c3U, 0xa841c5d4U, 0x45ac9583U,
    0xc7a79060U, 0x2815f426U, 0x455bab16U, 0xcd5ad12cU, 0x2b0fb0a5U, 0xd33c0034U,
    0xa84a86cfU, 0x7325e5feU, 0x940236b9U, 0xf746ace6U, 0xb7abc579U, 0xadd0bea8U,
    0x380a3534U, 0xf6ebd3a7U, 0x98c945d8U, 0xdec03b27U, 0x8f799b5aU, 0x0e8463dfU,
    0x62c6c023U, 0xee2a0193U, 0x3c58affaU, 0x8d0039cdU, 0xa8af97d7U, 0x885ae636U,
    0xac7aa8b2U, 0x8d7abf9fU, 0xfb43a021U, 0x0b4e619bU, 0x77657759U, 0xcb4e2febU,
    0x3cd410bcU, 0x41c33861U, 0x75d0a016U, 0x359c7a4aU, 0x7433db6aU, 0xbcced670U,
    0x237b9f34U, 0x7264a5bfU, 0xae9a1432U, 0x24e7a92dU, 0x2529d5ffU, 0x7affe6daU,
    0x2d7e49a7U, 0xffce7024U, 0xeb8820a5U, 0xb2b7b9c1U, 0x2d3aa733U, 0x52034464U,
    0x95a70b1fU, 0xf9a4e9b8U, 0x07424c0fU, 0xc0450b34U, 0x50beddfdU, 0x61fd72b7U,
    0x365baa1aU, 0x1ee8088fU, 0xee08e9b9U, 0x8aaec2b1U, 0x14099defU, 0x32d9389cU,
    0xab42d3deU, 0xefc2541fU, 0xb3722d60U, 0x7c035bffU, 0x65803b8cU, 0xc850f5f8U,
    0xf971615fU, 0x9059a7a5U, 0xf7a8863dU, 0xb90626d1U, 0x5df93e9bU, 0x240c1f1fU,
    0xa348e099U, 0xf4309286U, 0x7335fdd9U, 0x6a0dc099U, 0x97a6565aU, 0x553d2b1bU,
    0x82e8eda6U, 0xfc8e8819U, 0x9bc79ea8U, 0x58509579U, 0xae1032c0U, 0x92dbdaf3U,
    0x417f5c7fU, 0xaf30ee21U, 0x94b3b13bU, 0xb94b6eeaU, 0x6174ebf6U, 0xad2949e2U,
};

/* the base table's check (tests): 0 when crt_mt_base is init_genrand(19650218) */
int crt_check_base(void)
{
    crt_rng r;
    crt_init_genrand(&r, 19650218U);
    return memcmp(r.mt, crt_mt_base, sizeof crt_mt_base) != 0;
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
    memcpy(mt, crt_mt_base, sizeof crt_mt_base);
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
    rng->index = rng->made = CRT_MT_N;
}

static void crt_seed_side_by_side(crt_rng *rngs, const uint64_t *seeds, size_t n)
{
    /* crt_seed_words for each seed (its one or two words), up to eight generators at once:
     * each generator's loop is one chain of dependent steps, so running several side by side
     * lets the processor overlap them */
    size_t a, g, k, i;
    for (a = 0; a < n; a += 8) {
        size_t m = n - a < 8 ? n - a : 8;
        uint32_t key[8][2], len[8], j[8];
        uint32_t *mt[8];
        for (g = 0; g < m; g++) {
            key[g][0] = (uint32_t)seeds[a + g];
            key[g][1] = (uint32_t)(seeds[a + g] >> 32);
            len[g] = key[g][1] ? 2 : 1;
            j[g] = 0;
            mt[g] = rngs[a + g].mt;
            memcpy(mt[g], crt_mt_base, sizeof crt_mt_base);
        }
        i = 1;
        for (k = CRT_MT_N; k; k--) {
            for (g = 0; g < m; g++) {
                uint32_t *t = mt[g];
                t[i] = (uint32_t)((t[i] ^ ((t[i - 1] ^ (t[i - 1] >> 30)) * 1664525U)) + key[g][j[g]] + j[g]);
                if (++j[g] >= len[g])
                    j[g] = 0;
            }
            if (++i >= CRT_MT_N) {
                for (g = 0; g < m; g++)
                    mt[g][0] = mt[g][CRT_MT_N - 1];
                i = 1;
            }
        }
        for (k = CRT_MT_N - 1; k; k--) {
            for (g = 0; g < m; g++) {
                uint32_t *t = mt[g];
                t[i] = (uint32_t)((t[i] ^ ((t[i - 1] ^ (t[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i);
            }
            if (++i >= CRT_MT_N) {
                for (g = 0; g < m; g++)
                    mt[g][0] = mt[g][CRT_MT_N - 1];
                i = 1;
            }
        }
        for (g = 0; g < m; g++) {
            mt[g][0] = 0x80000000U;
            rngs[a + g].index = rngs[a + g].made = CRT_MT_N;
        }
    }
}

#if defined(__GNUC__) || defined(__clang__)
#define CRT_LANES 16
#define CRT_V8 __attribute__((vector_size(32)))
typedef uint32_t crt_v8 CRT_V8;
#define CRT_INLINE __attribute__((always_inline)) inline
#define CRT_AVX2 __attribute__((target("avx2")))

/* up to CRT_LANES generators seeded as crt_seed_words seeds each (its one or two words), two
 * vectors of eight side by side: the same steps, so the same words (tests/native/test_native_runtime.py) */
static CRT_INLINE void crt_seed_lanes(crt_rng *rngs, const uint64_t *seeds, size_t m)
{
    crt_v8 w[CRT_MT_N][2], even[2], odd[2], p[2];
    size_t i, l;
    int v;
    for (l = 0; l < CRT_LANES; l++) {
        uint64_t s = l < m ? seeds[l] : 0;
        uint32_t k0 = (uint32_t)s, k1 = (uint32_t)(s >> 32);
        even[l / 8][l % 8] = k0;                /* key word 0, j = 0 */
        odd[l / 8][l % 8] = k1 ? k1 + 1U : k0;  /* key word 1, j = 1; a one-word key: word 0 */
    }
    for (i = 0; i < CRT_MT_N; i++)
        for (v = 0; v < 2; v++)
            w[i][v] = (crt_v8){0} + crt_mt_base[i];
    for (v = 0; v < 2; v++)
        p[v] = w[0][v];
    /* init_by_array's first loop: i = 1 .. 623 (steps k = 0 .. 622), then w[0] = w[623] and
     * i = 1 again (k = 623); the key word is j = k mod its length */
    for (i = 1; i < CRT_MT_N; i++)
        for (v = 0; v < 2; v++)
            p[v] = w[i][v] = (w[i][v] ^ ((p[v] ^ (p[v] >> 30)) * 1664525U)) + ((i - 1) & 1 ? odd[v] : even[v]);
    for (v = 0; v < 2; v++) {
        w[0][v] = p[v];
        p[v] = w[1][v] = (w[1][v] ^ ((p[v] ^ (p[v] >> 30)) * 1664525U)) + odd[v];
    }
    /* the second loop: i = 2 .. 623, then w[0] = w[623] and i = 1 */
    for (i = 2; i < CRT_MT_N; i++)
        for (v = 0; v < 2; v++)
            p[v] = w[i][v] = (w[i][v] ^ ((p[v] ^ (p[v] >> 30)) * 1566083941U)) - (uint32_t)i;
    for (v = 0; v < 2; v++) {
        w[0][v] = p[v];
        w[1][v] = (w[1][v] ^ ((p[v] ^ (p[v] >> 30)) * 1566083941U)) - 1U;
    }
    for (l = 0; l < m; l++) {
        uint32_t *mt = rngs[l].mt;
        for (i = 0; i < CRT_MT_N; i++)
            mt[i] = w[i][l / 8][l % 8];
        mt[0] = 0x80000000U;
        rngs[l].index = rngs[l].made = CRT_MT_N;
    }
}

static void crt_seed_lanes_plain(crt_rng *rngs, const uint64_t *seeds, size_t m)
{
    crt_seed_lanes(rngs, seeds, m);
}

#if defined(__x86_64__)
#include <cpuid.h>
static CRT_AVX2 void crt_seed_lanes_avx2(crt_rng *rngs, const uint64_t *seeds, size_t m)
{
    crt_seed_lanes(rngs, seeds, m);
}

/* AVX2 in the processor and its registers saved by the system (CPUID and XGETBV) */
static int crt_has_avx2(void)
{
    static int known = -1;
    unsigned a, b, c, d;
    uint32_t lo, hi;
    if (known >= 0)
        return known;
    known = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1U << 27)) && (c & (1U << 28))) {
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6U) == 6U && __get_cpuid_max(0, NULL) >= 7) {
            __cpuid_count(7, 0, a, b, c, d);
            known = (b >> 5) & 1U;
        }
    }
    (void)hi;
    return known;
}
#endif
#endif

void crt_seed_u64_many(crt_rng *rngs, const uint64_t *seeds, size_t n)
{
#ifdef CRT_LANES
    /* fewer than 6 left: one chain each, side by side, costs less than a vector step for 16 */
    while (n >= 6) {
        size_t m = n < CRT_LANES ? n : CRT_LANES;
#if defined(__x86_64__)
        if (crt_has_avx2())
            crt_seed_lanes_avx2(rngs, seeds, m);
        else
#endif
            crt_seed_lanes_plain(rngs, seeds, m);
        rngs += m;
        seeds += m;
        n -= m;
    }
#endif
    crt_seed_side_by_side(rngs, seeds, n);
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
    for (i = rng->made; i < CRT_MT_N; i++) /* the rest of the block, as CPython has made it */
        out[i] = crt_twist(out, i);
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
    rng->made = CRT_MT_N;
    return 0;
}
