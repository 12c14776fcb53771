/* cards.c: the C runtime's card state (see cardrules_rt.h for the layout). */
#include "cardrules_rt.h"

/* ======================================================================== the cards' state
 *
 * See cardrules_rt.h for the layout. Each effect follows its Python namesake in
 * engine/state.py: a move is, whatever path Python takes (move_card, _move_top, the pile at
 * once, one by one), what moving the cards one after another gives, and that is what is done
 * here: one by one when a card is named twice, else all the sources compacted once. */
#include <string.h>

static uint32_t crt_cards_align8(uint32_t n)
{
    return (n + 7U) & ~7U;
}

/* The offsets of a state of these sizes (filled into *h); the total, or 0 out of range. */
size_t crt_cards_plan(crt_cards *h, uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds, uint32_t n_players)
{
    uint32_t at, w, zw;
    if (n_cards > CRT_MAX_CARDS || n_zones < 1 || n_zones > CRT_MAX_ZONES || n_kinds < 1 || n_kinds > CRT_MAX_KINDS ||
        n_players > CRT_MAX_PLAYERS)
        return 0;
    memset(h, 0, sizeof *h);
    w = (n_cards + 63U) / 64U;
    zw = (n_zones + 63U) / 64U;
    h->n_cards = n_cards;
    h->n_zones = n_zones;
    h->n_kinds = n_kinds;
    h->n_players = n_players;
    h->words = w;
    h->zwords = zw;
    at = crt_cards_align8((uint32_t)sizeof(crt_cards));
    h->off_zmask = at; at += 8U * w * n_zones;
    h->off_kmask = at; at += 8U * w * n_kinds;
    h->off_omask = at; at += 8U * w * (n_players + 1U);
    h->off_upmask = at; at += 8U * w;
    h->off_seen = at; at += 8U * w;
    h->off_zseen = at; at += 8U * zw;
    h->off_zone_cards = at; at += 2U * n_cards * n_zones;
    h->off_zone_len = at; at += 2U * n_zones;
    h->off_zone_kind = at; at += 2U * n_zones;
    h->off_kind_base = at; at += 2U * n_kinds;
    h->off_kind_count = at; at += 2U * n_kinds;
    h->off_card_zone = at; at += 2U * n_cards;
    h->off_card_pos = at; at += 2U * n_cards;
    h->off_card_bit = at; at += 2U * n_cards;
    h->off_bit_card = at; at += 2U * n_cards;
    h->off_scratch = at; at += 2U * n_cards;
    h->off_zone_owner = at; at += 2U * n_zones;
    h->off_played_by = at; at += 2U * n_cards;
    h->off_known = at; at += n_cards;
    h->off_flash = at; at += n_cards;
    h->off_kind_vis = at; at += n_kinds;
    at = crt_cards_align8(at);
    h->bytes = at;
    return at;
}

size_t crt_cards_bytes(uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds, uint32_t n_players)
{
    crt_cards h;
    return crt_cards_plan(&h, n_cards, n_zones, n_kinds, n_players);
}

/* Every index and mask from the zone arrays and `known` (which must be a valid placement). */
static void crt_cards_rebuild(crt_cards *s)
{
    uint32_t w = s->words, z, i;
    uint16_t *zc = CRT_AT(s, uint16_t, off_zone_cards);
    const uint16_t *zlen = CRT_AT(s, uint16_t, off_zone_len), *zkind = CRT_AT(s, uint16_t, off_zone_kind);
    const uint16_t *bit = CRT_AT(s, uint16_t, off_card_bit);
    const int16_t *zowner = CRT_AT(s, int16_t, off_zone_owner);
    const uint8_t *known = CRT_AT(s, uint8_t, off_known);
    uint16_t *czone = CRT_AT(s, uint16_t, off_card_zone), *cpos = CRT_AT(s, uint16_t, off_card_pos);
    uint64_t *zmask = CRT_AT(s, uint64_t, off_zmask), *kmask = CRT_AT(s, uint64_t, off_kmask);
    uint64_t *omask = CRT_AT(s, uint64_t, off_omask), *up = CRT_AT(s, uint64_t, off_upmask);
    memset(zmask, 0, 8U * w * s->n_zones);
    memset(kmask, 0, 8U * w * s->n_kinds);
    memset(omask, 0, 8U * w * (s->n_players + 1U));
    memset(up, 0, 8U * w);
    for (z = 0; z < s->n_zones; z++) {
        const uint16_t *pile = zc + (size_t)z * s->n_cards;
        for (i = 0; i < zlen[z]; i++) {
            uint16_t c = pile[i];
            czone[c] = (uint16_t)z;
            cpos[c] = (uint16_t)i;
            crt_mask_set(zmask + (size_t)z * w, bit[c]);
            crt_mask_set(kmask + (size_t)zkind[z] * w, bit[c]);
            crt_mask_set(omask + (size_t)(zowner[z] + 1) * w, bit[c]);
        }
    }
    for (i = 0; i < s->n_cards; i++)
        if (known[i])
            crt_mask_set(up, bit[i]);
}

int crt_cards_init(void *mem, size_t mem_bytes, uint32_t n_cards, uint32_t n_zones, uint32_t n_kinds,
                   uint32_t n_players, const int32_t *zone_kind, const int32_t *zone_owner,
                   const uint8_t *kind_vis, const uint16_t *card_bit, int32_t start)
{
    crt_cards h, *s;
    size_t need = crt_cards_plan(&h, n_cards, n_zones, n_kinds, n_players);
    uint32_t z, k, c;
    uint64_t taken[CRT_MAX_CARDS / 64];
    if (need == 0 || mem == NULL || zone_kind == NULL || zone_owner == NULL || kind_vis == NULL)
        return CRT_E_ARG;
    if (mem_bytes < need)
        return CRT_E_SPACE;
    if (((uintptr_t)mem & 7U) != 0)
        return CRT_E_ARG;
    if (start < 0 || (uint32_t)start >= n_zones)
        return CRT_E_ZONE;
    for (z = 0; z < n_zones; z++) {
        if (zone_kind[z] < 0 || (uint32_t)zone_kind[z] >= n_kinds)
            return CRT_E_KIND;
        if (zone_owner[z] < -1 || zone_owner[z] >= (int32_t)n_players)
            return CRT_E_ARG;
        /* a kind's instances lie in one run */
        if (z > 0 && zone_kind[z] != zone_kind[z - 1])
            for (k = 0; k < z; k++)
                if (zone_kind[k] == zone_kind[z])
                    return CRT_E_ARG;
    }
    for (k = 0; k < n_kinds; k++)
        if (kind_vis[k] > CRT_VIS_OTHERS)
            return CRT_E_ARG;
    memset(taken, 0, sizeof taken);
    if (card_bit != NULL)
        for (c = 0; c < n_cards; c++) {
            if (card_bit[c] >= n_cards || crt_mask_has(taken, card_bit[c]))
                return CRT_E_ARG;
            crt_mask_set(taken, card_bit[c]);
        }
    memset(mem, 0, need);
    s = (crt_cards *)mem;
    *s = h;
    {
        uint16_t *zkind = CRT_AT(s, uint16_t, off_zone_kind), *kbase = CRT_AT(s, uint16_t, off_kind_base);
        uint16_t *kcount = CRT_AT(s, uint16_t, off_kind_count), *bit = CRT_AT(s, uint16_t, off_card_bit);
        uint16_t *bcard = CRT_AT(s, uint16_t, off_bit_card), *zc = CRT_AT(s, uint16_t, off_zone_cards);
        int16_t *zowner = CRT_AT(s, int16_t, off_zone_owner), *played = CRT_AT(s, int16_t, off_played_by);
        uint8_t *vis = CRT_AT(s, uint8_t, off_kind_vis);
        for (z = 0; z < n_zones; z++) {
            k = (uint32_t)zone_kind[z];
            zkind[z] = (uint16_t)k;
            zowner[z] = (int16_t)zone_owner[z];
            if (kcount[k] == 0)
                kbase[k] = (uint16_t)z;
            kcount[k]++;
        }
        for (k = 0; k < n_kinds; k++)
            vis[k] = kind_vis[k];
        for (c = 0; c < n_cards; c++) {
            bit[c] = card_bit != NULL ? card_bit[c] : (uint16_t)c;
            bcard[bit[c]] = (uint16_t)c;
            played[c] = -1;
            zc[(size_t)start * n_cards + c] = (uint16_t)c;
        }
        CRT_AT(s, uint16_t, off_zone_len)[start] = (uint16_t)n_cards;
    }
    crt_cards_rebuild(s);
    s->magic = CRT_CARDS_MAGIC;
    return CRT_OK;
}

size_t crt_cards_size(const crt_cards *s)
{
    return crt_cards_ok(s) ? (size_t)s->bytes : 0;
}

int crt_cards_copy(void *dst, size_t dst_bytes, const crt_cards *src)
{
    if (!crt_cards_ok(src) || dst == NULL || ((uintptr_t)dst & 7U) != 0)
        return crt_cards_ok(src) ? CRT_E_ARG : CRT_E_STATE;
    if (dst_bytes < src->bytes)
        return CRT_E_SPACE;
    if (dst != (const void *)src)
        memmove(dst, src, src->bytes);
    return CRT_OK;
}

/* Whether the zone arrays place every card exactly once (zone lengths in range too). */
static int crt_cards_placed_once(crt_cards *s)
{
    uint64_t *seen = CRT_AT(s, uint64_t, off_seen);
    const uint16_t *zc = CRT_AT(s, uint16_t, off_zone_cards), *zlen = CRT_AT(s, uint16_t, off_zone_len);
    uint32_t z, i, total = 0;
    int ok = 1;
    for (z = 0; z < s->n_zones && ok; z++) {
        if (zlen[z] > s->n_cards) {
            ok = 0;
            break;
        }
        total += zlen[z];
        for (i = 0; i < zlen[z]; i++) {
            uint16_t c = zc[(size_t)z * s->n_cards + i];
            if (c >= s->n_cards || crt_mask_has(seen, c)) {
                ok = 0;
                break;
            }
            crt_mask_set(seen, c);
        }
    }
    memset(seen, 0, 8U * s->words);
    return ok && total == s->n_cards;
}

int crt_cards_load(crt_cards *s, const int32_t *zone_len, const int32_t *cards, const uint8_t *known,
                   const int32_t *played_by, uint64_t zver)
{
    uint64_t *seen;
    uint32_t z, i, c, at = 0;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (zone_len == NULL || (cards == NULL && s->n_cards > 0))
        return CRT_E_ARG;
    seen = CRT_AT(s, uint64_t, off_seen);
    for (z = 0; z < s->n_zones; z++) {
        if (zone_len[z] < 0 || (uint32_t)zone_len[z] > s->n_cards - at) {
            memset(seen, 0, 8U * s->words);
            return CRT_E_CORRUPT;
        }
        for (i = 0; i < (uint32_t)zone_len[z]; i++, at++) {
            if (cards[at] < 0 || (uint32_t)cards[at] >= s->n_cards || crt_mask_has(seen, (uint32_t)cards[at])) {
                memset(seen, 0, 8U * s->words);
                return cards[at] < 0 || (uint32_t)cards[at] >= s->n_cards ? CRT_E_CARD : CRT_E_CORRUPT;
            }
            crt_mask_set(seen, (uint32_t)cards[at]);
        }
    }
    memset(seen, 0, 8U * s->words);
    if (at != s->n_cards)
        return CRT_E_CORRUPT;
    if (played_by != NULL)
        for (c = 0; c < s->n_cards; c++)
            if (played_by[c] < -1 || played_by[c] >= (int32_t)s->n_players)
                return CRT_E_ARG;
    {
        uint16_t *zc = CRT_AT(s, uint16_t, off_zone_cards), *zlen = CRT_AT(s, uint16_t, off_zone_len);
        uint8_t *kn = CRT_AT(s, uint8_t, off_known);
        int16_t *played = CRT_AT(s, int16_t, off_played_by);
        at = 0;
        for (z = 0; z < s->n_zones; z++) {
            zlen[z] = (uint16_t)zone_len[z];
            for (i = 0; i < (uint32_t)zone_len[z]; i++, at++)
                zc[(size_t)z * s->n_cards + i] = (uint16_t)cards[at];
        }
        for (c = 0; c < s->n_cards; c++) {
            kn[c] = (uint8_t)(known != NULL && known[c] ? 1 : 0);
            played[c] = (int16_t)(played_by != NULL ? played_by[c] : -1);
        }
    }
    crt_cards_rebuild(s);
    s->zver = zver;
    return CRT_OK;
}

int crt_cards_recount(crt_cards *s)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (!crt_cards_placed_once(s))
        return CRT_E_CORRUPT;
    crt_cards_rebuild(s);
    s->zver++;
    return CRT_OK;
}

/* The face a card gets moved to zone `to`: face up (or a public zone) shows it, a hidden zone
 * hides it, an owner's zone leaves it as it was. */
static void crt_cards_face(crt_cards *s, uint16_t c, uint32_t to, int face_up)
{
    uint8_t vis = CRT_AT(s, uint8_t, off_kind_vis)[CRT_AT(s, uint16_t, off_zone_kind)[to]];
    uint8_t *known = CRT_AT(s, uint8_t, off_known);
    uint64_t *up = CRT_AT(s, uint64_t, off_upmask);
    uint16_t b = CRT_AT(s, uint16_t, off_card_bit)[c];
    if (face_up || vis == CRT_VIS_PUBLIC) {
        known[c] = 1;
        CRT_AT(s, uint8_t, off_flash)[c] = 1;
        crt_mask_set(up, b);
    } else if (vis == CRT_VIS_HIDDEN) {
        known[c] = 0;
        crt_mask_clear(up, b);
    }
}

/* Card c's masks, played_by and face as it leaves its zone for `to` (the lists not touched). */
static void crt_cards_retag(crt_cards *s, uint16_t c, uint32_t to, int face_up)
{
    uint32_t w = s->words, src = CRT_AT(s, uint16_t, off_card_zone)[c];
    const uint16_t *zkind = CRT_AT(s, uint16_t, off_zone_kind);
    const int16_t *zowner = CRT_AT(s, int16_t, off_zone_owner);
    uint64_t *zmask = CRT_AT(s, uint64_t, off_zmask), *kmask = CRT_AT(s, uint64_t, off_kmask);
    uint64_t *omask = CRT_AT(s, uint64_t, off_omask);
    uint16_t b = CRT_AT(s, uint16_t, off_card_bit)[c];
    crt_mask_clear(zmask + (size_t)src * w, b);
    crt_mask_clear(kmask + (size_t)zkind[src] * w, b);
    crt_mask_clear(omask + (size_t)(zowner[src] + 1) * w, b);
    crt_mask_set(zmask + (size_t)to * w, b);
    crt_mask_set(kmask + (size_t)zkind[to] * w, b);
    crt_mask_set(omask + (size_t)(zowner[to] + 1) * w, b);
    if (zowner[src] >= 0)
        CRT_AT(s, int16_t, off_played_by)[c] = zowner[src];
    crt_cards_face(s, c, to, face_up);
}

/* One card to the top of `to` (or its bottom): what every move is, card after card. */
static void crt_cards_move1(crt_cards *s, uint16_t c, uint32_t to, int face_up, int under)
{
    uint16_t *czone = CRT_AT(s, uint16_t, off_card_zone), *cpos = CRT_AT(s, uint16_t, off_card_pos);
    uint16_t *zlen = CRT_AT(s, uint16_t, off_zone_len);
    uint16_t *zc = CRT_AT(s, uint16_t, off_zone_cards);
    uint32_t src = czone[c], p = cpos[c], i, n;
    uint16_t *pile = zc + (size_t)src * s->n_cards, *dest = zc + (size_t)to * s->n_cards;
    crt_cards_retag(s, c, to, face_up);
    n = zlen[src];
    for (i = p + 1; i < n; i++) {
        pile[i - 1] = pile[i];
        cpos[pile[i - 1]] = (uint16_t)(i - 1);
    }
    zlen[src] = (uint16_t)(n - 1);
    n = zlen[to];
    if (under) {
        for (i = n; i > 0; i--) {
            dest[i] = dest[i - 1];
            cpos[dest[i]] = (uint16_t)i;
        }
        dest[0] = c;
        cpos[c] = 0;
    } else {
        dest[n] = c;
        cpos[c] = (uint16_t)n;
    }
    zlen[to] = (uint16_t)(n + 1);
    czone[c] = (uint16_t)to;
}

/* Distinct cards list[0..n-1] to `to`: what moving them one by one gives, but each source zone
 * is compacted once (list may be the scratch: it is only read). */
static void crt_cards_move_distinct(crt_cards *s, const uint16_t *list, uint32_t n, uint32_t to, int face_up, int under)
{
    uint64_t *seen = CRT_AT(s, uint64_t, off_seen), *zseen = CRT_AT(s, uint64_t, off_zseen);
    uint16_t *czone = CRT_AT(s, uint16_t, off_card_zone), *cpos = CRT_AT(s, uint16_t, off_card_pos);
    uint16_t *zlen = CRT_AT(s, uint16_t, off_zone_len), *zc = CRT_AT(s, uint16_t, off_zone_cards);
    uint16_t *dest = zc + (size_t)to * s->n_cards;
    uint32_t i, zw, z, r, wr, len;
    if (n == 1) {
        crt_cards_move1(s, list[0], to, face_up, under);
        return;
    }
    for (i = 0; i < n; i++) {
        uint16_t c = list[i];
        crt_mask_set(seen, c);
        crt_mask_set(zseen, czone[c]);
        crt_cards_retag(s, c, to, face_up);
    }
    for (zw = 0; zw < s->zwords; zw++) {
        while (zseen[zw]) {
            uint64_t low = zseen[zw] & (~zseen[zw] + 1U);
            uint16_t *pile;
            z = zw * 64U + (uint32_t)crt_bit_length64(low) - 1U;
            zseen[zw] ^= low;
            pile = zc + (size_t)z * s->n_cards;
            len = zlen[z];
            /* the pile below the lowest card leaving it stays as it is (a deal takes the top) */
            for (r = len, i = 0; i < n; i++)
                if (czone[list[i]] == z && cpos[list[i]] < r)
                    r = cpos[list[i]];
            for (wr = r; r < len; r++)
                if (!crt_mask_has(seen, pile[r])) {
                    pile[wr] = pile[r];
                    cpos[pile[wr]] = (uint16_t)wr;
                    wr++;
                }
            zlen[z] = (uint16_t)wr;
        }
    }
    len = zlen[to];
    if (under) {
        memmove(dest + n, dest, (size_t)len * sizeof *dest);
        for (i = 0; i < n; i++)
            dest[n - 1 - i] = list[i];
        for (i = 0; i < len + n; i++)
            cpos[dest[i]] = (uint16_t)i;
    } else {
        for (i = 0; i < n; i++) {
            dest[len + i] = list[i];
            cpos[list[i]] = (uint16_t)(len + i);
        }
    }
    zlen[to] = (uint16_t)(len + n);
    for (i = 0; i < n; i++) {
        czone[list[i]] = (uint16_t)to;
        crt_mask_clear(seen, list[i]);
    }
}

int crt_cards_move_card(crt_cards *s, int32_t card, int32_t to, int face_up)
{
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (card < 0 || (uint32_t)card >= s->n_cards)
        return CRT_E_CARD;
    if (to < 0 || (uint32_t)to >= s->n_zones)
        return CRT_E_ZONE;
    s->zver++;
    crt_cards_move1(s, (uint16_t)card, (uint32_t)to, face_up, 0);
    return CRT_OK;
}

int crt_cards_move(crt_cards *s, const int32_t *cards, int32_t n, int32_t to, int face_up, int under)
{
    uint64_t *seen;
    uint16_t *scratch;
    int32_t i;
    int twice = 0;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (n < 0 || (n > 0 && cards == NULL))
        return CRT_E_ARG;
    for (i = 0; i < n; i++)
        if (cards[i] < 0 || (uint32_t)cards[i] >= s->n_cards)
            return CRT_E_CARD;
    if (to < 0 || (uint32_t)to >= s->n_zones)
        return CRT_E_ZONE;
    s->zver++;
    if (n == 1 && !under) /* Python's move hands one card to move_card, which counts it again */
        s->zver++;
    if (n == 0)
        return CRT_OK;
    seen = CRT_AT(s, uint64_t, off_seen);
    for (i = 0; i < n && !twice; i++) {
        if (crt_mask_has(seen, (uint32_t)cards[i]))
            twice = 1;
        crt_mask_set(seen, (uint32_t)cards[i]);
    }
    memset(seen, 0, 8U * s->words);
    if (twice) { /* a card named twice moves twice: one by one */
        for (i = 0; i < n; i++)
            crt_cards_move1(s, (uint16_t)cards[i], (uint32_t)to, face_up, under);
        return CRT_OK;
    }
    scratch = CRT_AT(s, uint16_t, off_scratch); /* distinct, so n <= n_cards */
    for (i = 0; i < n; i++)
        scratch[i] = (uint16_t)cards[i];
    crt_cards_move_distinct(s, scratch, (uint32_t)n, (uint32_t)to, face_up, under);
    return CRT_OK;
}

int crt_cards_move_zone(crt_cards *s, int32_t from, int32_t to, int face_up, int under)
{
    uint16_t *scratch;
    uint32_t n;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (from < 0 || (uint32_t)from >= s->n_zones || to < 0 || (uint32_t)to >= s->n_zones)
        return CRT_E_ZONE;
    n = CRT_AT(s, uint16_t, off_zone_len)[from];
    s->zver++;
    if (n == 1 && !under) /* as crt_cards_move counts it */
        s->zver++;
    if (n == 0)
        return CRT_OK;
    /* a zone's cards are distinct: no card moves twice */
    scratch = CRT_AT(s, uint16_t, off_scratch);
    memcpy(scratch, CRT_AT(s, uint16_t, off_zone_cards) + (size_t)from * s->n_cards, n * sizeof *scratch);
    crt_cards_move_distinct(s, scratch, n, (uint32_t)to, face_up, under);
    return CRT_OK;
}

int crt_cards_deal(crt_cards *s, int64_t n, int32_t src, int32_t kind, int face_up, int64_t first)
{
    return crt_cards_deal_some(s, n, src, kind, face_up, first, 0);
}

/* As crt_cards_deal, passing over the zones whose place in the kind is set in skip (the seats out
 * of play: a per-player kind has at most 64 zones) */
int crt_cards_deal_some(crt_cards *s, int64_t n, int32_t src, int32_t kind, int face_up, int64_t first, uint64_t skip)
{
    uint32_t count, base, i, j, len, take;
    uint16_t *scratch, *pile, *zlen;
    int64_t f;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (src < 0 || (uint32_t)src >= s->n_zones)
        return CRT_E_ZONE;
    if (kind < 0 || (uint32_t)kind >= s->n_kinds)
        return CRT_E_KIND;
    if (n < 0) /* a deal of fewer than no cards: the engine's located error, nothing changes */
        return CRT_E_ARG;
    count = CRT_AT(s, uint16_t, off_kind_count)[kind];
    base = CRT_AT(s, uint16_t, off_kind_base)[kind];
    if (count == 0)
        return CRT_OK;
    f = first % (int64_t)count; /* Python's (first + i) % count, never negative */
    if (f < 0)
        f += (int64_t)count;
    scratch = CRT_AT(s, uint16_t, off_scratch);
    pile = CRT_AT(s, uint16_t, off_zone_cards) + (size_t)src * s->n_cards;
    zlen = CRT_AT(s, uint16_t, off_zone_len);
    for (i = 0; i < count; i++) {
        uint32_t at = (uint32_t)(((uint64_t)f + i) % count);
        uint32_t to = base + at;
        if (at < 64 && (skip >> at) & 1)
            continue;
        len = zlen[src];
        if (n >= 1) { /* the top n at once: pile[-n:] reversed */
            s->zver++;
            take = n < (int64_t)len ? (uint32_t)n : len;
        } else { /* n == 0: move([]) */
            s->zver++;
            continue;
        }
        for (j = 0; j < take; j++)
            scratch[j] = pile[len - 1 - j];
        if (take)
            crt_cards_move_distinct(s, scratch, take, to, face_up, 0);
    }
    return CRT_OK;
}

/* `reveal` (face up, known to all) and `turn ... face down` (no longer): one walk, two answers. */
static int crt_cards_set_face(crt_cards *s, const int32_t *cards, int32_t n, int face_up)
{
    int32_t i;
    uint8_t *known;
    uint64_t *up;
    const uint16_t *bit;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (n < 0 || (n > 0 && cards == NULL))
        return CRT_E_ARG;
    for (i = 0; i < n; i++)
        if (cards[i] < -1 || cards[i] >= (int32_t)s->n_cards)
            return CRT_E_CARD;
    known = CRT_AT(s, uint8_t, off_known);
    up = CRT_AT(s, uint64_t, off_upmask);
    bit = CRT_AT(s, uint16_t, off_card_bit);
    s->zver++;
    for (i = 0; i < n; i++)
        if (cards[i] >= 0) {
            known[cards[i]] = (uint8_t)(face_up != 0);
            if (face_up) {
                crt_mask_set(up, bit[cards[i]]);
                CRT_AT(s, uint8_t, off_flash)[cards[i]] = 1;
            }
            else
                crt_mask_clear(up, bit[cards[i]]);
        }
    return CRT_OK;
}

int crt_cards_reveal(crt_cards *s, const int32_t *cards, int32_t n)
{
    return crt_cards_set_face(s, cards, n, 1);
}

int crt_cards_conceal(crt_cards *s, const int32_t *cards, int32_t n)
{
    return crt_cards_set_face(s, cards, n, 0);
}

int crt_cards_shuffle(crt_cards *s, crt_rng *rng, int32_t zone)
{
    uint16_t *pile, *cpos, t;
    uint8_t *known;
    uint64_t *up;
    const uint64_t *zm;
    uint32_t n, i, w;
    size_t j;
    if (!crt_cards_ok(s))
        return CRT_E_STATE;
    if (rng == NULL)
        return CRT_E_ARG;
    if (zone < 0 || (uint32_t)zone >= s->n_zones)
        return CRT_E_ZONE;
    s->zver++;
    pile = CRT_AT(s, uint16_t, off_zone_cards) + (size_t)zone * s->n_cards;
    cpos = CRT_AT(s, uint16_t, off_card_pos);
    known = CRT_AT(s, uint8_t, off_known);
    n = CRT_AT(s, uint16_t, off_zone_len)[zone];
    for (i = n; i-- > 1;) { /* crt_shuffle_u32's draws, over 16-bit cards */
        j = (size_t)crt_randbelow(rng, (uint64_t)i + 1);
        t = pile[i];
        pile[i] = pile[j];
        pile[j] = t;
    }
    for (i = 0; i < n; i++) {
        cpos[pile[i]] = (uint16_t)i;
        known[pile[i]] = 0;
    }
    up = CRT_AT(s, uint64_t, off_upmask);
    zm = CRT_AT(s, uint64_t, off_zmask) + (size_t)zone * s->words;
    for (w = 0; w < s->words; w++)
        up[w] &= ~zm[w];
    return CRT_OK;
}
