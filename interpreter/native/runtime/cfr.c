/* CFR+ over a game's whole tree, in C (solver/equilibrium.py: CFRPlusNative; native/cfr.py
 * builds and loads it). The same iterations as CFRPlus, in the same order of additions, so the
 * two give the same numbers: each iteration one walk per seat in turn, depth first, children in
 * order; the walking seat's regrets and average summed over its walk, then its regrets floored
 * at 0 (regret matching+) and its strategy made from them for the walks after; the average
 * weighted by the iteration (linear averaging).
 *
 * A subtree that neither the walking seat nor the others reach (both reaches 0) adds nothing and
 * is not walked; below a node the others do not reach, values are not worked out (they are
 * multiplied by 0 on the way up, and the regrets there by the others' reach, 0).
 *
 * The tree is flat: per node its kind (0 chance, 1 decision, 2 end), player, information set and
 * the span first[k]..first[k + 1] of its children in child[] (a chance node's odds in odds[]);
 * an end's payoffs at payoff[k * players]. The tables (regret, total, sigma) hold `width` cells
 * per information set. Compiled on its own, once (no ruleset in it). */

#include <stddef.h>
#include <stdint.h>

typedef struct cfr_tree {
    int64_t nodes;
    int32_t players;
    int32_t infosets;
    int32_t width;              /* cells per information set in the tables */
    const int8_t *kind;
    const int32_t *player;
    const int32_t *infoset;
    const int64_t *first;       /* nodes + 1 */
    const int32_t *child;
    const double *odds;         /* per child: a chance node's odds (0 elsewhere) */
    const double *payoff;       /* nodes * players */
    const int32_t *widths;      /* per information set: its number of actions */
    const int32_t *owner;       /* per information set: its player */
} cfr_tree;

enum { CFR_CHANCE = 0, CFR_DECISION = 1, CFR_END = 2 };

typedef struct cfr_walk {
    const cfr_tree *t;
    double *regret, *total, *sigma;
    double weight;              /* the iteration's number */
    int32_t p;
} cfr_walk;

static double cfr_node(cfr_walk *w, int64_t k, double mine, double others, double *vals) {
    const cfr_tree *t = w->t;
    int8_t kind = t->kind[k];
    if (kind == CFR_END)
        return t->payoff[k * t->players + w->p];
    if (mine == 0.0 && others == 0.0)
        return 0.0;
    int64_t a = t->first[k], b = t->first[k + 1];
    double v = 0.0;
    if (kind == CFR_CHANCE) {
        for (int64_t e = a; e < b; e++) {
            double o = t->odds[e];
            v += o * cfr_node(w, t->child[e], mine, others * o, vals);
        }
        return v;
    }
    int64_t i = t->infoset[k];
    const double *sigma = w->sigma + i * t->width;
    if (t->player[k] != w->p) {
        for (int64_t e = a; e < b; e++) {
            double s = sigma[e - a];
            v += s * cfr_node(w, t->child[e], mine, others * s, vals);
        }
        return v;
    }
    int64_t n = b - a;
    for (int64_t e = a; e < b; e++)
        vals[e - a] = cfr_node(w, t->child[e], mine * sigma[e - a], others, vals + n);
    for (int64_t j = 0; j < n; j++)
        v += sigma[j] * vals[j];
    double *r = w->regret + i * t->width, *tot = w->total + i * t->width;
    double wt = w->weight * mine;
    for (int64_t j = 0; j < n; j++) {
        r[j] += others * (vals[j] - v);
        tot[j] += wt * sigma[j];
    }
    return v;
}

/* regret matching+ for player p's information sets: regrets floored at 0, the strategy from them */
static void cfr_match(const cfr_tree *t, double *regret, double *sigma, int32_t p) {
    for (int64_t i = 0; i < t->infosets; i++) {
        if (t->owner[i] != p)
            continue;
        double *r = regret + i * t->width, *s = sigma + i * t->width;
        int32_t n = t->widths[i];
        double sum = 0.0;
        for (int32_t j = 0; j < n; j++) {
            if (!(r[j] > 0.0))
                r[j] = 0.0;
            sum += r[j];
        }
        for (int32_t j = 0; j < n; j++)
            s[j] = sum > 0.0 ? r[j] / sum : 1.0 / n;
    }
}

/* `iterations` iterations, the first numbered `start` + 1; scratch: room for the children's
 * values along a path (width * (depth + 1) doubles). */
int32_t cfr_run(const cfr_tree *t, double *regret, double *total, double *sigma, int64_t start, int32_t iterations,
                double *scratch) {
    cfr_walk w = {t, regret, total, sigma, 0.0, 0};
    for (int32_t it = 0; it < iterations; it++) {
        w.weight = (double)(start + it + 1);
        for (int32_t p = 0; p < t->players; p++) {
            w.p = p;
            cfr_node(&w, 0, 1.0, 1.0, scratch);
            cfr_match(t, regret, sigma, p);
        }
    }
    return 0;
}

/* The same iterations over the tree with its equal subtrees merged (a DAG: a node for every
 * distinct subtree, the root first, each node before its children). A walk is two passes: the
 * reaches down, each node's the sum over the paths into it, then the values up, the regrets and
 * the average added once per node with the summed reaches. The same sums as cfr_run's, grouped
 * otherwise: equal to rounding. scratch: 3 * nodes doubles. */
static void cfr_dag_walk(const cfr_tree *t, double *regret, double *total, const double *sigma_all, double weight,
                         int32_t p, double *mine, double *others, double *value) {
    int64_t n = t->nodes;
    for (int64_t k = 0; k < n; k++)
        mine[k] = others[k] = 0.0;
    mine[0] = others[0] = 1.0;
    for (int64_t k = 0; k < n; k++) {
        double m = mine[k], o = others[k];
        int8_t kind = t->kind[k];
        if (kind == CFR_END || (m == 0.0 && o == 0.0))
            continue;
        int64_t a = t->first[k], b = t->first[k + 1];
        if (kind == CFR_CHANCE) {
            for (int64_t e = a; e < b; e++) {
                int32_t c = t->child[e];
                mine[c] += m;
                others[c] += o * t->odds[e];
            }
            continue;
        }
        const double *sigma = sigma_all + (int64_t)t->infoset[k] * t->width;
        if (t->player[k] == p) {
            for (int64_t e = a; e < b; e++) {
                int32_t c = t->child[e];
                mine[c] += m * sigma[e - a];
                others[c] += o;
            }
        } else {
            for (int64_t e = a; e < b; e++) {
                int32_t c = t->child[e];
                mine[c] += m;
                others[c] += o * sigma[e - a];
            }
        }
    }
    for (int64_t k = n - 1; k >= 0; k--) {
        int8_t kind = t->kind[k];
        if (kind == CFR_END) {
            value[k] = t->payoff[k * t->players + p];
            continue;
        }
        double m = mine[k], o = others[k], v = 0.0;
        int64_t a = t->first[k], b = t->first[k + 1];
        value[k] = 0.0;
        if (kind == CFR_CHANCE) {
            if (o != 0.0) {
                for (int64_t e = a; e < b; e++)
                    v += t->odds[e] * value[t->child[e]];
                value[k] = v;
            }
            continue;
        }
        int64_t i = t->infoset[k];
        const double *sigma = sigma_all + i * t->width;
        if (o != 0.0) {
            for (int64_t e = a; e < b; e++)
                v += sigma[e - a] * value[t->child[e]];
            value[k] = v;
        }
        if (t->player[k] != p)
            continue;
        double *r = regret + i * t->width, *tot = total + i * t->width;
        double wt = weight * m;
        for (int64_t e = a; e < b; e++) {
            if (o != 0.0)
                r[e - a] += o * (value[t->child[e]] - v);
            tot[e - a] += wt * sigma[e - a];
        }
    }
}

int32_t cfr_run_dag(const cfr_tree *t, double *regret, double *total, double *sigma, int64_t start, int32_t iterations,
                    double *scratch) {
    int64_t n = t->nodes;
    for (int32_t it = 0; it < iterations; it++) {
        double weight = (double)(start + it + 1);
        for (int32_t p = 0; p < t->players; p++) {
            cfr_dag_walk(t, regret, total, sigma, weight, p, scratch, scratch + n, scratch + 2 * n);
            cfr_match(t, regret, sigma, p);
        }
    }
    return 0;
}

/* the average strategy: each information set's totals over their sum (uniform when it is 0) */
void cfr_average(const cfr_tree *t, const double *total, double *out) {
    for (int64_t i = 0; i < t->infosets; i++) {
        const double *a = total + i * t->width;
        double *o = out + i * t->width;
        int32_t n = t->widths[i];
        double sum = 0.0;
        for (int32_t j = 0; j < n; j++)
            sum += a[j];
        for (int32_t j = 0; j < n; j++)
            o[j] = sum > 0.0 ? a[j] / sum : 1.0 / n;
    }
}

/* the tree's depth: the most edges from the root to an end */
int64_t cfr_depth(const cfr_tree *t, int64_t k) {
    int64_t most = 0;
    for (int64_t e = t->first[k]; e < t->first[k + 1]; e++) {
        int64_t d = 1 + cfr_depth(t, t->child[e]);
        if (d > most)
            most = d;
    }
    return most;
}

/* the nodes in the order a walk depth first meets them (children in order), from order[at]; the
 * next free place back. (The walks then read the arrays front to back.) */
int64_t cfr_preorder(const cfr_tree *t, int64_t k, int64_t *order, int64_t at) {
    order[at++] = k;
    for (int64_t e = t->first[k]; e < t->first[k + 1]; e++)
        at = cfr_preorder(t, t->child[e], order, at);
    return at;
}

/* ------------------------------------------------------------ merging equal subtrees */

static uint64_t cfr_mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t cfr_bits(double x) {
    union { double d; uint64_t u; } b;
    b.d = x == 0.0 ? 0.0 : x;  /* (-0.0 and 0.0 are equal: one hash) */
    return b.u;
}

static uint64_t cfr_hash(const cfr_tree *t, int64_t k, const int64_t *cls) {
    uint64_t h = cfr_mix((uint64_t)t->kind[k], (uint64_t)(int64_t)t->infoset[k]);
    for (int64_t e = t->first[k]; e < t->first[k + 1]; e++)
        h = cfr_mix(cfr_mix(h, (uint64_t)cls[t->child[e]]), cfr_bits(t->odds[e]));
    if (t->kind[k] == CFR_END)
        for (int32_t q = 0; q < t->players; q++)
            h = cfr_mix(h, cfr_bits(t->payoff[k * t->players + q]));
    return h;
}

static int cfr_same(const cfr_tree *t, int64_t a, int64_t b, const int64_t *cls) {
    if (t->kind[a] != t->kind[b] || t->infoset[a] != t->infoset[b])
        return 0;
    int64_t n = t->first[a + 1] - t->first[a];
    if (n != t->first[b + 1] - t->first[b])
        return 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t ea = t->first[a] + j, eb = t->first[b] + j;
        if (cls[t->child[ea]] != cls[t->child[eb]] || !(t->odds[ea] == t->odds[eb]))
            return 0;
    }
    if (t->kind[a] == CFR_END)
        for (int32_t q = 0; q < t->players; q++)
            if (!(t->payoff[a * t->players + q] == t->payoff[b * t->players + q]))
                return 0;
    return 1;
}

/* The tree's distinct subtrees (equal: the same kinds, information sets, odds and payoffs all the
 * way down), the tree's nodes numbered so that each comes before its children. cls[k]: node k's
 * subtree's number, counted from the last node back (a subtree's children's numbers are lower);
 * rep[u]: a node of subtree u (its last). table: `slots` int64 (a power of 2, at least twice the
 * nodes). The number of distinct subtrees back. */
int64_t cfr_merge(const cfr_tree *t, int64_t *cls, int64_t *rep, int64_t *table, int64_t slots) {
    int64_t count = 0;
    for (int64_t i = 0; i < slots; i++)
        table[i] = -1;
    for (int64_t k = t->nodes - 1; k >= 0; k--) {
        int64_t at = (int64_t)(cfr_hash(t, k, cls) & (uint64_t)(slots - 1));
        while (table[at] >= 0 && !cfr_same(t, rep[table[at]], k, cls))
            at = (at + 1) & (slots - 1);
        if (table[at] < 0) {
            table[at] = count;
            rep[count++] = k;
        }
        cls[k] = table[at];
    }
    return count;
}

/* ------------------------------------------------------------ judging a strategy */

/* every seat's value at node k when all play `strategy` (the tables' layout), into out[players] */
static void cfr_values_at(const cfr_tree *t, const double *strategy, int64_t k, double *out, double *below) {
    int32_t np = t->players;
    if (t->kind[k] == CFR_END) {
        for (int32_t q = 0; q < np; q++)
            out[q] = t->payoff[k * np + q];
        return;
    }
    for (int32_t q = 0; q < np; q++)
        out[q] = 0.0;
    int64_t a = t->first[k], b = t->first[k + 1];
    const double *sigma = t->kind[k] == CFR_CHANCE ? NULL : strategy + (int64_t)t->infoset[k] * t->width;
    for (int64_t e = a; e < b; e++) {
        double x = sigma ? sigma[e - a] : t->odds[e];
        if (x == 0.0)
            continue;
        cfr_values_at(t, strategy, t->child[e], below, below + np);
        for (int32_t q = 0; q < np; q++)
            out[q] += x * below[q];
    }
}

/* every seat's value when all play `strategy`; scratch: players * (depth + 1) doubles */
void cfr_values(const cfr_tree *t, const double *strategy, double *out, double *scratch) {
    cfr_values_at(t, strategy, 0, out, scratch);
}

typedef struct cfr_reply {
    const cfr_tree *t;
    const double *strategy;
    int32_t p;
    double *reach;              /* per node of p's: the others' and chance's reach */
    int64_t *members;           /* p's nodes, information set by information set (from[i]..from[i + 1]) */
    const int64_t *from;
    int64_t *cursor;            /* per information set: where its next member goes */
    int32_t *choice;            /* per information set: its best action, -1 not yet chosen */
    double *memo;               /* per node: its value, once worked out */
    uint8_t *known;
    double *totals;             /* scratch per depth of choices: width cells */
} cfr_reply;

static void cfr_gather(cfr_reply *r, int64_t k, double reach) {
    const cfr_tree *t = r->t;
    int8_t kind = t->kind[k];
    if (kind == CFR_END)
        return;
    int64_t a = t->first[k], b = t->first[k + 1];
    if (kind == CFR_CHANCE) {
        for (int64_t e = a; e < b; e++)
            cfr_gather(r, t->child[e], reach * t->odds[e]);
        return;
    }
    if (t->player[k] == r->p) {
        r->reach[k] = reach;
        r->members[r->cursor[t->infoset[k]]++] = k;
        for (int64_t e = a; e < b; e++)
            cfr_gather(r, t->child[e], reach);
        return;
    }
    const double *s = r->strategy + (int64_t)t->infoset[k] * t->width;
    for (int64_t e = a; e < b; e++)
        cfr_gather(r, t->child[e], reach * s[e - a]);
}

static double cfr_reply_value(cfr_reply *r, int64_t k, double *totals) {
    const cfr_tree *t = r->t;
    if (r->known[k])
        return r->memo[k];
    int8_t kind = t->kind[k];
    double v = 0.0;
    int64_t a = t->first[k], b = t->first[k + 1];
    if (kind == CFR_END) {
        v = t->payoff[k * t->players + r->p];
    } else if (kind == CFR_CHANCE) {
        for (int64_t e = a; e < b; e++)
            v += t->odds[e] * cfr_reply_value(r, t->child[e], totals);
    } else {
        int64_t i = t->infoset[k];
        if (t->player[k] == r->p) {
            int32_t j = r->choice[i];
            if (j < 0) {
                int64_t n = b - a;
                for (int64_t x = 0; x < n; x++)
                    totals[x] = 0.0;
                for (int64_t m = r->from[i]; m < r->from[i + 1]; m++) {
                    int64_t h = r->members[m];
                    double reach = r->reach[h];
                    for (int64_t x = 0; x < n; x++)
                        totals[x] += reach * cfr_reply_value(r, t->child[t->first[h] + x], totals + n);
                }
                j = 0;
                for (int64_t x = 1; x < n; x++)
                    if (totals[x] > totals[j])
                        j = (int32_t)x;
                r->choice[i] = j;
            }
            v = cfr_reply_value(r, t->child[a + j], totals);
        } else {
            const double *s = r->strategy + i * t->width;
            for (int64_t e = a; e < b; e++)
                if (s[e - a] != 0.0)
                    v += s[e - a] * cfr_reply_value(r, t->child[e], totals);
        }
    }
    r->memo[k] = v;
    r->known[k] = 1;
    return v;
}

/* What seat p gains at most against the others' `strategy`: its best reply's value (each of its
 * information sets played as the move whose value, summed over the set's positions weighted by
 * the others' and chance's reach, is highest: the first of equals). from[i]..from[i + 1]: where
 * information set i's positions go in `members` (as many as its positions), in the order a walk
 * depth first meets them. Scratch: cursor (infosets), members, reach and memo (nodes), known
 * (nodes bytes), choice (infosets), totals (width * (depth + 1)). */
double cfr_best_reply(const cfr_tree *t, const double *strategy, int32_t p, const int64_t *from, int64_t *cursor,
                      int64_t *members, double *reach, double *memo, uint8_t *known, int32_t *choice, double *totals) {
    cfr_reply r = {t, strategy, p, reach, members, from, cursor, choice, memo, known, totals};
    for (int64_t k = 0; k < t->nodes; k++)
        known[k] = 0;
    for (int64_t i = 0; i < t->infosets; i++) {
        choice[i] = -1;
        cursor[i] = from[i];
    }
    cfr_gather(&r, 0, 1.0);
    return cfr_reply_value(&r, 0, totals);
}
