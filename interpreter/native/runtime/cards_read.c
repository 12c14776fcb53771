/* cards_read.c: the C runtime's card state read (see cardrules_rt.h for the layout): its
 * bookkeeping checked, what each seat has seen, where a card lies, a zone's cards and the masks.
 * cards.c makes the state and carries out the effects. */
#include "cardrules_rt.h"

#include <string.h>

int crt_cards_check(const crt_cards *s)
{
    uint64_t seen[CRT_MAX_CARDS / 64], m[CRT_MAX_CARDS / 64];
    const uint16_t *zc, *zlen, *zkind, *czone, *cpos, *bit, *bcard, *kbase, *kcount;
    const int16_t *zowner, *played;
    const uint8_t *known, *vis;
    const uint64_t *zmask, *kmask, *omask, *up, *sc;
    uint32_t w, z, i, k, o, total = 0;
    crt_cards h;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    /* the header first: its sizes and offsets must be what they were made as */
    if (crt_cards_plan(&h, s->n_cards, s->n_zones, s->n_kinds, s->n_players) == 0)
        return CRT_E_CORRUPT;
    h.magic = s->magic;
    h.zver = s->zver;
    if (memcmp(&h, s, sizeof h) != 0)
        return CRT_E_CORRUPT;
    w = s->words;
    zc = CRT_CAT(s, uint16_t, off_zone_cards);
    zlen = CRT_CAT(s, uint16_t, off_zone_len);
    zkind = CRT_CAT(s, uint16_t, off_zone_kind);
    czone = CRT_CAT(s, uint16_t, off_card_zone);
    cpos = CRT_CAT(s, uint16_t, off_card_pos);
    bit = CRT_CAT(s, uint16_t, off_card_bit);
    bcard = CRT_CAT(s, uint16_t, off_bit_card);
    kbase = CRT_CAT(s, uint16_t, off_kind_base);
    kcount = CRT_CAT(s, uint16_t, off_kind_count);
    zowner = CRT_CAT(s, int16_t, off_zone_owner);
    played = CRT_CAT(s, int16_t, off_played_by);
    known = CRT_CAT(s, uint8_t, off_known);
    vis = CRT_CAT(s, uint8_t, off_kind_vis);
    zmask = CRT_CAT(s, uint64_t, off_zmask);
    kmask = CRT_CAT(s, uint64_t, off_kmask);
    omask = CRT_CAT(s, uint64_t, off_omask);
    up = CRT_CAT(s, uint64_t, off_upmask);
    /* the tables */
    for (k = 0; k < s->n_kinds; k++)
        if (vis[k] > CRT_VIS_OTHERS || (uint32_t)kbase[k] + kcount[k] > s->n_zones)
            return CRT_E_CORRUPT;
    for (z = 0; z < s->n_zones; z++) {
        if (zkind[z] >= s->n_kinds || zowner[z] < -1 || zowner[z] >= (int32_t)s->n_players)
            return CRT_E_CORRUPT;
        if (z < kbase[zkind[z]] || z >= (uint32_t)kbase[zkind[z]] + kcount[zkind[z]])
            return CRT_E_CORRUPT;
    }
    for (i = 0; i < s->n_cards; i++)
        if (bit[i] >= s->n_cards || bcard[bit[i]] != i)
            return CRT_E_CORRUPT;
    /* every card in one zone, where its indexes say */
    memset(seen, 0, sizeof seen);
    for (z = 0; z < s->n_zones; z++) {
        if (zlen[z] > s->n_cards)
            return CRT_E_CORRUPT;
        total += zlen[z];
        for (i = 0; i < zlen[z]; i++) {
            uint16_t c = zc[(size_t)z * s->n_cards + i];
            if (c >= s->n_cards || crt_mask_has(seen, c) || czone[c] != z || cpos[c] != i)
                return CRT_E_CORRUPT;
            crt_mask_set(seen, c);
        }
    }
    if (total != s->n_cards)
        return CRT_E_CORRUPT;
    for (i = 0; i < s->n_cards; i++)
        if (played[i] < -1 || played[i] >= (int32_t)s->n_players || known[i] > 1)
            return CRT_E_CORRUPT;
    /* the masks */
    for (z = 0; z < s->n_zones; z++) {
        memset(m, 0, 8U * w);
        for (i = 0; i < zlen[z]; i++)
            crt_mask_set(m, bit[zc[(size_t)z * s->n_cards + i]]);
        if (memcmp(m, zmask + (size_t)z * w, 8U * w) != 0)
            return CRT_E_CORRUPT;
    }
    for (k = 0; k < s->n_kinds; k++) {
        memset(m, 0, 8U * w);
        for (z = kbase[k]; z < (uint32_t)kbase[k] + kcount[k]; z++)
            for (i = 0; i < w; i++)
                m[i] |= zmask[(size_t)z * w + i];
        if (memcmp(m, kmask + (size_t)k * w, 8U * w) != 0)
            return CRT_E_CORRUPT;
    }
    for (o = 0; o <= s->n_players; o++) {
        memset(m, 0, 8U * w);
        for (z = 0; z < s->n_zones; z++)
            if ((uint32_t)(zowner[z] + 1) == o)
                for (i = 0; i < w; i++)
                    m[i] |= zmask[(size_t)z * w + i];
        if (memcmp(m, omask + (size_t)o * w, 8U * w) != 0)
            return CRT_E_CORRUPT;
    }
    memset(m, 0, 8U * w);
    for (i = 0; i < s->n_cards; i++)
        if (known[i])
            crt_mask_set(m, bit[i]);
    if (memcmp(m, up, 8U * w) != 0)
        return CRT_E_CORRUPT;
    /* the scratch is clear between calls */
    sc = CRT_CAT(s, uint64_t, off_seen);
    for (i = 0; i < w; i++)
        if (sc[i])
            return CRT_E_CORRUPT;
    sc = CRT_CAT(s, uint64_t, off_zseen);
    for (i = 0; i < s->zwords; i++)
        if (sc[i])
            return CRT_E_CORRUPT;
    return CRT_OK;
}

/* What each seat has seen (the fuzzer's memory, fuzz/invariants.py:_remember): every card in a
 * public zone or face up to seen_all; every card in a zone a seat may look into to that seat's
 * row of seen_own (n_players rows of n_cards): its own zone of an owner-only kind, any zone of
 * an `others` kind but its own (all of a shared one). Bytes are only ever set to 1. */
int crt_cards_remember(const crt_cards *s, uint8_t *seen_all, uint8_t *seen_own)
{
    const uint16_t *zc, *zlen, *zkind;
    const int16_t *zowner;
    const uint8_t *known, *vis;
    uint32_t z, i, p;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (seen_all == NULL || seen_own == NULL)
        return CRT_E_ARG;
    zc = CRT_CAT(s, uint16_t, off_zone_cards);
    zlen = CRT_CAT(s, uint16_t, off_zone_len);
    zkind = CRT_CAT(s, uint16_t, off_zone_kind);
    zowner = CRT_CAT(s, int16_t, off_zone_owner);
    known = CRT_CAT(s, uint8_t, off_known);
    vis = CRT_CAT(s, uint8_t, off_kind_vis);
    for (z = 0; z < s->n_zones; z++) {
        const uint16_t *d = zc + (size_t)z * s->n_cards;
        uint8_t v = vis[zkind[z]];
        int32_t owner = zowner[z];
        if (v == CRT_VIS_PUBLIC) {
            for (i = 0; i < zlen[z]; i++)
                seen_all[d[i]] = 1;
        } else if (v == CRT_VIS_OWNER && owner >= 0) {
            uint8_t *own = seen_own + (size_t)owner * s->n_cards;
            for (i = 0; i < zlen[z]; i++)
                own[d[i]] = 1;
        } else if (v == CRT_VIS_OTHERS) {
            for (p = 0; p < s->n_players; p++) {
                uint8_t *own = seen_own + (size_t)p * s->n_cards;
                if ((int32_t)p == owner)
                    continue;
                for (i = 0; i < zlen[z]; i++)
                    own[d[i]] = 1;
            }
        }
    }
    for (i = 0; i < s->n_cards; i++)
        if (known[i])
            seen_all[i] = 1;
    return CRT_OK;
}

/* ------------------------------------------------------------------ queries */

#define CRT_CARD_OK(s, c) ((c) >= 0 && (uint32_t)(c) < (s)->n_cards)
#define CRT_ZONE_OK(s, z) ((z) >= 0 && (uint32_t)(z) < (s)->n_zones)
#define CRT_KIND_OK(s, k) ((k) >= 0 && (uint32_t)(k) < (s)->n_kinds)

int32_t crt_cards_count(const crt_cards *s, int32_t zone)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (!CRT_ZONE_OK(s, zone))
        return CRT_E_ZONE;
    return CRT_CAT(s, uint16_t, off_zone_len)[zone];
}

int32_t crt_cards_card_at(const crt_cards *s, int32_t zone, int32_t pos)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (!CRT_ZONE_OK(s, zone))
        return CRT_E_ZONE;
    if (pos < 0 || pos >= (int32_t)CRT_CAT(s, uint16_t, off_zone_len)[zone])
        return CRT_E_ARG;
    return CRT_CAT(s, uint16_t, off_zone_cards)[(size_t)zone * s->n_cards + (uint32_t)pos];
}

/* What a per-card query reads, or a code. */
static int32_t crt_cards_card_query(const crt_cards *s, int32_t card, int what)
{
    uint16_t z;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (!CRT_CARD_OK(s, card))
        return CRT_E_CARD;
    z = CRT_CAT(s, uint16_t, off_card_zone)[card];
    switch (what) {
    case 0: return z;
    case 1: return CRT_CAT(s, uint16_t, off_card_pos)[card];
    case 2: return CRT_CAT(s, uint16_t, off_zone_kind)[z];
    case 3: return CRT_CAT(s, int16_t, off_zone_owner)[z];
    case 4: return CRT_CAT(s, int16_t, off_played_by)[card];
    default: return CRT_CAT(s, uint8_t, off_known)[card];
    }
}

int32_t crt_cards_zone_of(const crt_cards *s, int32_t card) { return crt_cards_card_query(s, card, 0); }
int32_t crt_cards_pos_of(const crt_cards *s, int32_t card) { return crt_cards_card_query(s, card, 1); }
int32_t crt_cards_kind_of(const crt_cards *s, int32_t card) { return crt_cards_card_query(s, card, 2); }
int32_t crt_cards_owner_of(const crt_cards *s, int32_t card) { return crt_cards_card_query(s, card, 3); }
int32_t crt_cards_played_by(const crt_cards *s, int32_t card) { return crt_cards_card_query(s, card, 4); }
int32_t crt_cards_face_up(const crt_cards *s, int32_t card) { return crt_cards_card_query(s, card, 5); }

int32_t crt_cards_zone_kind(const crt_cards *s, int32_t zone)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    return CRT_ZONE_OK(s, zone) ? (int32_t)CRT_CAT(s, uint16_t, off_zone_kind)[zone] : CRT_E_ZONE;
}

int32_t crt_cards_zone_owner(const crt_cards *s, int32_t zone)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    return CRT_ZONE_OK(s, zone) ? (int32_t)CRT_CAT(s, int16_t, off_zone_owner)[zone] : CRT_E_ZONE;
}

int32_t crt_cards_kind_base(const crt_cards *s, int32_t kind)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    return CRT_KIND_OK(s, kind) ? (int32_t)CRT_CAT(s, uint16_t, off_kind_base)[kind] : CRT_E_KIND;
}

int32_t crt_cards_kind_count(const crt_cards *s, int32_t kind)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    return CRT_KIND_OK(s, kind) ? (int32_t)CRT_CAT(s, uint16_t, off_kind_count)[kind] : CRT_E_KIND;
}

int32_t crt_cards_card_of_bit(const crt_cards *s, int32_t bit)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    return CRT_CARD_OK(s, bit) ? (int32_t)CRT_CAT(s, uint16_t, off_bit_card)[bit] : CRT_E_ARG;
}

/* The cards from position `from` (count of them) of a zone into out. */
static int32_t crt_cards_span(const crt_cards *s, int32_t zone, int64_t k, int top, int32_t *out, int32_t cap)
{
    uint32_t len, n, from, i;
    const uint16_t *pile;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (!CRT_ZONE_OK(s, zone))
        return CRT_E_ZONE;
    len = CRT_CAT(s, uint16_t, off_zone_len)[zone];
    n = k <= 0 ? 0U : (k < (int64_t)len ? (uint32_t)k : len);
    if (n > 0 && (out == NULL || cap < (int32_t)n))
        return CRT_E_SPACE;
    from = top ? len - n : 0U;
    pile = CRT_CAT(s, uint16_t, off_zone_cards) + (size_t)zone * s->n_cards;
    for (i = 0; i < n; i++)
        out[i] = pile[from + i];
    return (int32_t)n;
}

int32_t crt_cards_top(const crt_cards *s, int32_t zone, int64_t k, int32_t *out, int32_t cap)
{
    return crt_cards_span(s, zone, k, 1, out, cap);
}

int32_t crt_cards_bottom(const crt_cards *s, int32_t zone, int64_t k, int32_t *out, int32_t cap)
{
    return crt_cards_span(s, zone, k, 0, out, cap);
}

uint64_t crt_cards_zver(const crt_cards *s)
{
    return crt_cards_ok(s) ? s->zver : 0;
}

uint16_t *crt_cards_zone_data(crt_cards *s, int32_t zone)
{
    if (!crt_cards_ok(s) || !CRT_ZONE_OK(s, zone))
        return NULL;
    return CRT_AT(s, uint16_t, off_zone_cards) + (size_t)zone * s->n_cards;
}

uint32_t crt_cards_words(const crt_cards *s)
{
    return crt_cards_ok(s) ? s->words : 0;
}

const uint64_t *crt_cards_zone_mask(const crt_cards *s, int32_t zone)
{
    if (!crt_cards_ok(s) || !CRT_ZONE_OK(s, zone))
        return NULL;
    return CRT_CAT(s, uint64_t, off_zmask) + (size_t)zone * s->words;
}

const uint64_t *crt_cards_kind_mask(const crt_cards *s, int32_t kind)
{
    if (!crt_cards_ok(s) || !CRT_KIND_OK(s, kind))
        return NULL;
    return CRT_CAT(s, uint64_t, off_kmask) + (size_t)kind * s->words;
}

const uint64_t *crt_cards_owner_mask(const crt_cards *s, int32_t owner)
{
    if (!crt_cards_ok(s) || owner < -1 || owner >= (int32_t)s->n_players)
        return NULL;
    return CRT_CAT(s, uint64_t, off_omask) + (size_t)(owner + 1) * s->words;
}

const uint64_t *crt_cards_up_mask(const crt_cards *s)
{
    return crt_cards_ok(s) ? CRT_CAT(s, uint64_t, off_upmask) : NULL;
}

uint32_t crt_mask_popcount(const uint64_t *m, uint32_t words)
{
    uint32_t i, n = 0;
    if (m == NULL)
        return 0;
    for (i = 0; i < words; i++) {
#if defined(__GNUC__) || defined(__clang__)
        n += (uint32_t)__builtin_popcountll((unsigned long long)m[i]);
#else
        uint64_t x;
        for (x = m[i]; x; x &= x - 1)
            n++;
#endif
    }
    return n;
}

int32_t crt_mask_lowest(const uint64_t *m, uint32_t words)
{
    uint32_t i;
    if (m == NULL)
        return -1;
    for (i = 0; i < words; i++)
        if (m[i])
            return (int32_t)(i * 64U + crt_bit_length64(m[i] & (~m[i] + 1U)) - 1U);
    return -1;
}

int32_t crt_mask_highest(const uint64_t *m, uint32_t words)
{
    uint32_t i;
    if (m == NULL)
        return -1;
    for (i = words; i-- > 0;)
        if (m[i])
            return (int32_t)(i * 64U + crt_bit_length64(m[i]) - 1U);
    return -1;
}
