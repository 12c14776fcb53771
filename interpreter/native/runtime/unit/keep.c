/* The answers of definitions kept for good (cr_keep_add, cr_keep_list, cr_keep_find).
 *
 * Pasted by native/codegen/emit.py (Module.source) after helpers.c (with the program's scratch),
 * only into an engine one of whose definitions keeps its answers so (Module.keeps). Not compiled
 * on its own: it reads the sizes emit.py defines for each program (NC, MAXP, NS, ...: the names in
 * capitals) and what is pasted before it. */

/* the answers of definitions that read only their arguments' faces (the Python engine's STATIC
 * memo), kept for good in the thread's scratch: a definition given a collection (a hand judged
 * again and again) is worked out once. A key is the definition's number and its arguments (a
 * collection: its length, then its values), at most CR_KEEP_W numbers; one answer a slot,
 * the newest kept */
static inline int cr_keep_add(int64_t *key, int32_t *kn, int64_t v) {
    if (*kn >= CR_KEEP_W) return 0;
    key[(*kn)++] = v;
    return 1;
}

static inline int cr_keep_list(int64_t *key, int32_t *kn, cr_list l) {
    if (l.n < 0 || *kn + 1 + l.n > CR_KEEP_W) return 0;
    key[(*kn)++] = l.n;
    for (int64_t i = 0; i < l.n; i++) key[(*kn)++] = l.v[i];
    return 1;
}

static inline cr_keep_slot *cr_keep_find(cr_ctx *x, const int64_t *key, int32_t kn, int *hit) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int32_t i = 0; i < kn; i++) h = (h ^ (uint64_t)key[i]) * 0x100000001b3ULL;
    h ^= h >> 29;
    cr_keep_slot *s = &x->sc->keep[h & (CR_KEEP_N - 1)];
    *hit = s->len == kn && !memcmp(s->key, key, sizeof(int64_t) * (size_t)kn);
    return s;
}
