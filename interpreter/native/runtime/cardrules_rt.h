/* cardrules_rt.h: the hand-written C runtime that generated engines include.
 *
 * This first part is the random numbers: a Mersenne Twister (MT19937) that draws exactly what
 * CPython's random.Random draws, so that a game played in C deals the same cards, in the same
 * order, from the same seed as the Python engine (interpreter/engine/state.py).
 *
 * Plain C99, no Python headers; every name starts with crt_ (CRT_ for macros). Compiles with
 * -Wall -Wextra -Werror. Tested draw for draw against Python in tests/native/test_native_runtime.py.
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
    uint32_t made;         /* the words of this block generated so far: each word is generated as it
                              is handed out, so a generator that draws a few numbers never pays for
                              the 624 (mt[made..] still hold the last block; crt_get_state finishes it) */
} crt_rng;

/* Seeding, as random.Random(n) does for an int n: init_by_array over the words of |n|, least
 * significant first. n_words == 0 is taken as the key [0] (CPython's key for 0). */
void crt_seed_words(crt_rng *rng, const uint32_t *key, size_t n_words);
/* random.Random(n) for 0 <= n < 2**64. */
void crt_seed_u64(crt_rng *rng, uint64_t n);
/* random.Random(n) for each of n seeds below 2**64 at once, into rngs[0..n-1] (faster than one
 * at a time: sixteen generators are seeded side by side in vector registers, with AVX2 where the
 * processor has it; give it 16 or more to gain most). */
void crt_seed_u64_many(crt_rng *rngs, const uint64_t *seeds, size_t n);
/* random.Random(n) for a signed n: CPython seeds with abs(n), so -7 draws as 7. */
void crt_seed_i64(crt_rng *rng, int64_t n);

/* The next 32-bit output of the generator (CPython's genrand_uint32). */
uint32_t crt_genrand32(crt_rng *rng);
/* 0 when the table every seeding starts from is CPython's init_genrand(19650218) (a test asks). */
int crt_check_base(void);

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

/* ======================================================================== the cards' state
 *
 * Where every card lies, in order, and the bit masks the engine keeps beside the zones: the C
 * side of the Python State's zone fields and effects (interpreter/engine/state.py). Every effect
 * leaves the same order of cards in every zone, the same masks, the same face-up flags, the
 * same zver and draws the same random numbers as the Python effect of the same name; tests/
 * test_native_zones.py checks that effect by effect against the Python State.
 *
 *   Python (st a State)                 C (s a crt_cards *)
 *   st.zones[z]  (bottom first)         crt_cards_count, crt_cards_card_at, crt_cards_top/_bottom
 *   st.card_zone[c], pile.index(c)      crt_cards_zone_of, crt_cards_pos_of
 *   st.card_kind[c], st.card_owner[c]   crt_cards_kind_of, crt_cards_owner_of (-1: none)
 *   st.played_by[c], st.known[c]        crt_cards_played_by (-1: none), crt_cards_face_up
 *   st.zmask[z], st.kmask[k]            crt_cards_zone_mask, crt_cards_kind_mask
 *   st.omask[o] (o None or a seat)      crt_cards_owner_mask(s, o) with o == -1 for None
 *   st.upmask                           crt_cards_up_mask
 *   st.zver                             crt_cards_zver
 *   st.shuffle(z)                       crt_cards_shuffle(s, rng, z)
 *   st.move_card(c, to, face_up)        crt_cards_move_card
 *   st.move(cards, to, face_up, under)  crt_cards_move
 *   st.deal(n, src, zi, face_up, first) crt_cards_deal (zi a zone kind, as in Python)
 *   st.reveal(cards) (None skipped)     crt_cards_reveal (-1 skipped)
 *   st.conceal(cards) (None skipped)    crt_cards_conceal (-1 skipped)
 *   st.recount()                        crt_cards_recount
 *   st.verify()                         crt_cards_check
 *   st.clone()                          crt_cards_copy (or memcpy of crt_cards_size bytes)
 *
 * Zone instances are numbered as engine/play.py:_layout numbers them (shared zones first, a
 * family pile[3] as three instances in a row, then each per-player kind's instances, seat 0
 * first); the instances of one kind must be consecutive. A card's kind and owner are its zone's.
 * Masks are in bit space, as Program.card_bit: card c is bit card_bit[c] (a permutation of
 * 0..n_cards-1, the order `highest`/`lowest` use), word bit / 64, bit bit % 64 of the mask.
 *
 * Layout: one block of memory, a crt_cards header then the arrays, found by byte offsets from
 * the header's start (no pointers inside, so memcpy of crt_cards_size bytes is a clone; the
 * block must be 8-byte aligned). W = ceil(n_cards / 64) words a mask, P = n_players + 1 owner
 * slots (slot 0 for no owner, slot o + 1 for seat o):
 *   uint64_t zmask[n_zones][W], kmask[n_kinds][W], omask[P][W], upmask[W]
 *   uint64_t seen[W], zseen[ceil(n_zones / 64)]   scratch, all zero between calls
 *   uint16_t zone_cards[n_zones][n_cards]  each zone's cards bottom first (a zone may hold all)
 *   uint16_t zone_len[n_zones], zone_kind[n_zones], kind_base[n_kinds], kind_count[n_kinds]
 *   uint16_t card_zone[n_cards], card_pos[n_cards] (0 the bottom), card_bit[n_cards],
 *            bit_card[n_cards] (the card at each bit), scratch[n_cards]
 *   int16_t  zone_owner[n_zones] (-1 shared), played_by[n_cards] (-1 none)
 *   uint8_t  known[n_cards] (face up), kind_vis[n_kinds] (CRT_VIS_*)
 * The memory is n_zones * n_cards * 2 bytes and a little more (Ganjifa's 120 cards in 11 zones:
 * about 4 KB; the largest, 4096 cards in 1024 zones and 1024 kinds, about 10 MB).
 *
 * Every function checks its state (CRT_E_STATE unless made by crt_cards_init), every zone, kind,
 * card and count, and returns a negative CRT_E_* code before changing anything when one is out
 * of range: no input reads or writes outside the block. Functions returning an index return -1
 * (CRT_NONE) for "none" and a code <= -2 for an error. Nothing allocates after creation.
 */
#define CRT_MAX_CARDS 4096
#define CRT_MAX_ZONES 1024
#define CRT_MAX_KINDS 1024
#define CRT_MAX_PLAYERS 1023

#define CRT_VIS_PUBLIC 0 /* every card moved there is face up */
#define CRT_VIS_OWNER 1  /* a card keeps its face (up only when moved face up) */
#define CRT_VIS_HIDDEN 2 /* a card moved there is face down unless moved face up */
#define CRT_VIS_OTHERS 3 /* seen by all but its owner; a card keeps its face, as with OWNER */

#define CRT_NONE (-1)       /* no card, no owner, no player */
#define CRT_OK 0
#define CRT_E_ARG (-2)      /* a size, a count or a pointer out of range */
#define CRT_E_CARD (-3)     /* a card index out of range */
#define CRT_E_ZONE (-4)     /* a zone instance out of range */
#define CRT_E_KIND (-5)     /* a zone kind out of range */
#define CRT_E_SPACE (-6)    /* the output buffer or the memory given is too small */
#define CRT_E_STATE (-7)    /* not a state crt_cards_init made */
#define CRT_E_CORRUPT (-8)  /* crt_cards_check, crt_cards_load, crt_cards_recount: the bookkeeping
                               disagrees (a card in no zone or two, an index off its zone) */

typedef struct crt_cards {
    uint32_t magic;     /* CRT_CARDS_MAGIC once initialised */
    uint32_t bytes;     /* the size of the whole block */
    uint32_t n_cards, n_zones, n_kinds, n_players, words, zwords;
    uint64_t zver;      /* State.zver: counts the effects as Python counts them */
    uint32_t off_zmask, off_kmask, off_omask, off_upmask, off_seen, off_zseen;
    uint32_t off_zone_cards, off_zone_len, off_zone_kind, off_kind_base, off_kind_count;
    uint32_t off_card_zone, off_card_pos, off_card_bit, off_bit_card, off_scratch;
    uint32_t off_zone_owner, off_played_by, off_known, off_kind_vis;
    uint32_t off_flash; /* a byte a card: it lay face up, or in view of all, during the move made last (cr_apply clears them) */
} crt_cards;

#define CRT_CARDS_MAGIC 0x43524443U

/* one of the block's arrays (the off_ fields above), to write and to read: the generated engines
 * read the cards' arrays in place through CRT_CAT too */
#define CRT_AT(s, type, off) ((type *)((unsigned char *)(s) + (s)->off))
#define CRT_CAT(s, type, off) ((const type *)((const unsigned char *)(s) + (s)->off))

/* what cards.c and cards_read.c share: a state's mark, a mask's bits, the layout of these sizes */
static inline int crt_cards_ok(const crt_cards *s) { return s != NULL && s->magic == CRT_CARDS_MAGIC; }
static inline void crt_mask_set(uint64_t *m, uint32_t bit) { m[bit >> 6] |= (uint64_t)1 << (bit & 63U); }
static inline void crt_mask_clear(uint64_t *m, uint32_t bit) { m[bit >> 6] &= ~((uint64_t)1 << (bit & 63U)); }
static inline int crt_mask_has(const uint64_t *m, uint32_t bit) { return (int)((m[bit >> 6] >> (bit & 63U)) & 1U); }
/* the offsets of a state of these sizes (filled into *h); the total, or 0 out of range */
size_t crt_cards_plan(crt_cards *h, uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds, uint32_t n_players);

/* The bytes a state of these sizes needs, or 0 when a size is out of range (n_cards <=
 * CRT_MAX_CARDS, 1 <= n_zones <= CRT_MAX_ZONES, 1 <= n_kinds <= CRT_MAX_KINDS, n_players <=
 * CRT_MAX_PLAYERS). */
size_t crt_cards_bytes(uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds, uint32_t n_players);

/* Make a state in mem (8-byte aligned, mem_bytes >= crt_cards_bytes(...)): zone z is of kind
 * zone_kind[z] and belongs to seat zone_owner[z] (-1: shared); kind k's visibility is
 * kind_vis[k]; card c is bit card_bit[c] of a mask (NULL: bit c). Every card starts in zone
 * `start`, card 0 at the bottom, all face down, played by no one, zver 0 (engine/play.py:_fresh
 * puts them in the first kind's first zone). 0, or a CRT_E_* code (the instances of a kind not
 * consecutive, card_bit not a permutation: CRT_E_ARG). */
int crt_cards_init(void *mem, size_t mem_bytes, uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds,
                   uint32_t n_players, const int32_t *zone_kind, const int32_t *zone_owner,
                   const uint8_t *kind_vis, const uint16_t *card_bit, int32_t start);

/* The size of the block (the bytes to copy for a clone); 0 for something not a state. */
size_t crt_cards_size(const crt_cards *s);
/* Copy src into dst (dst_bytes at least crt_cards_size(src)): the copy is a clone. */
int crt_cards_copy(void *dst, size_t dst_bytes, const crt_cards *src);

/* Put every zone's cards at once, as Python's lists: zone z holds zone_len[z] cards, taken in
 * turn from `cards` (bottom first); known[c] (NULL: all face down), played_by[c] (NULL: none;
 * else -1 or a seat), zver. Every card must lie in exactly one zone. The indexes and masks are
 * rebuilt from the zones. 0, or a code and nothing changed. */
int crt_cards_load(crt_cards *s, const int32_t *zone_len, const int32_t *cards, const uint8_t *known,
                   const int32_t *played_by, uint64_t zver);

/* The effects. Each is 0, or a code with nothing changed (no draw either). */
int crt_cards_shuffle(crt_cards *s, crt_rng *rng, int32_t zone);
int crt_cards_move_card(crt_cards *s, int32_t card, int32_t to, int face_up);
/* cards[0..n-1] to zone `to`, one after another (on top, or with under each to the bottom, so
 * they end reversed below the others). A card may be named twice (it moves twice, as in Python). */
int crt_cards_move(crt_cards *s, const int32_t *cards, int32_t n, int32_t to, int face_up, int under);
/* crt_cards_move of every card of zone `from`, bottom first (`move trick to won(p)`) */
int crt_cards_move_zone(crt_cards *s, int32_t from, int32_t to, int face_up, int under);
/* State.deal: to each zone of kind `kind` in turn, from instance (first mod count) on, the top
 * n cards of zone src at once (fewer when it runs short), the top card first; 0 deals nothing
 * (each zone still counts a move, as in Python); n < 0 is CRT_E_ARG and changes nothing (the
 * engine's located error "a deal of -1 cards"). */
int crt_cards_deal(crt_cards *s, int64_t n, int32_t src, int32_t kind, int face_up, int64_t first);
int crt_cards_deal_some(crt_cards *s, int64_t n, int32_t src, int32_t kind, int face_up, int64_t first, uint64_t skip);
/* Face up cards[0..n-1]; -1 (None) is skipped. */
int crt_cards_reveal(crt_cards *s, const int32_t *cards, int32_t n);
/* Face down cards[0..n-1] (State.conceal, `turn CARDS face down`); -1 (None) is skipped. */
int crt_cards_conceal(crt_cards *s, const int32_t *cards, int32_t n);
/* State.recount: rebuild the indexes and masks from the zone arrays (which a caller may have
 * rearranged by hand through crt_cards_zone_data); zver + 1. CRT_E_CORRUPT and nothing changed
 * unless every card lies in exactly one zone. */
int crt_cards_recount(crt_cards *s);
/* State.verify: 0 when every index and mask agrees with the zones, else CRT_E_CORRUPT (or
 * CRT_E_STATE). Reads nothing outside the block whatever its arrays hold (the header's offsets
 * are checked against its sizes first). */
int crt_cards_check(const crt_cards *s);
/* What each seat has seen so far, added to seen_all[n_cards] (public zones, face-up cards) and
 * seen_own[n_players * n_cards] (the zones each seat may look into): the fuzzer's memory of
 * the game (fuzz/invariants.py:_remember). 0, or a code. */
int crt_cards_remember(const crt_cards *s, uint8_t *seen_all, uint8_t *seen_own);

/* Queries: the value, or a code <= -2. */
int32_t crt_cards_count(const crt_cards *s, int32_t zone);
int32_t crt_cards_card_at(const crt_cards *s, int32_t zone, int32_t pos); /* pos 0: the bottom */
int32_t crt_cards_zone_of(const crt_cards *s, int32_t card);
int32_t crt_cards_pos_of(const crt_cards *s, int32_t card);
int32_t crt_cards_kind_of(const crt_cards *s, int32_t card);
int32_t crt_cards_owner_of(const crt_cards *s, int32_t card);     /* -1: a shared zone */
int32_t crt_cards_played_by(const crt_cards *s, int32_t card);    /* -1: none */
int32_t crt_cards_face_up(const crt_cards *s, int32_t card);      /* 0 or 1 */
int32_t crt_cards_zone_kind(const crt_cards *s, int32_t zone);
int32_t crt_cards_zone_owner(const crt_cards *s, int32_t zone);   /* -1: shared */
int32_t crt_cards_kind_base(const crt_cards *s, int32_t kind);    /* State.zbase[kind] */
int32_t crt_cards_kind_count(const crt_cards *s, int32_t kind);   /* State.zcount[kind] */
int32_t crt_cards_card_of_bit(const crt_cards *s, int32_t bit);   /* Program.card_at */
/* top(z, k) and bottom(z, k) as compiler/runtime.py's _top_n and _bottom_n: the last (first)
 * min(k, count) cards, bottom first; k <= 0 gives none. The number written to out, or a code
 * (CRT_E_SPACE when cap is too small). */
int32_t crt_cards_top(const crt_cards *s, int32_t zone, int64_t k, int32_t *out, int32_t cap);
int32_t crt_cards_bottom(const crt_cards *s, int32_t zone, int64_t k, int32_t *out, int32_t cap);
uint64_t crt_cards_zver(const crt_cards *s);
/* The words of a zone's card array (count it with crt_cards_count), to read or to rearrange
 * before crt_cards_recount; NULL when out of range. */
uint16_t *crt_cards_zone_data(crt_cards *s, int32_t zone);

/* Masks: crt_cards_words(s) words each, NULL when out of range. */
uint32_t crt_cards_words(const crt_cards *s);
const uint64_t *crt_cards_zone_mask(const crt_cards *s, int32_t zone);
const uint64_t *crt_cards_kind_mask(const crt_cards *s, int32_t kind);
const uint64_t *crt_cards_owner_mask(const crt_cards *s, int32_t owner); /* -1: shared zones */
const uint64_t *crt_cards_up_mask(const crt_cards *s);
/* Over any mask of `words` words: the number of bits set, the lowest and the highest set bit
 * (-1 when none). */
uint32_t crt_mask_popcount(const uint64_t *m, uint32_t words);
int32_t crt_mask_lowest(const uint64_t *m, uint32_t words);
int32_t crt_mask_highest(const uint64_t *m, uint32_t words);

#endif /* CARDRULES_RT_H */
