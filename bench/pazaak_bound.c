/* The exact best response to a Pazaak computer level over a whole match, for one deal.
 *
 * The same dynamic programme as bench/pazaak_oracle.py's class Oracle, compiled, so that the
 * full game (four hand cards each, three sets to win) is solved in seconds. The oracle sees
 * the rival's hand; draws are uniform 1..10 (the "infinite" deck); the value is the chance
 * that the oracle wins the match, the set-1 starter being random.
 *
 * The rival's moves are not re-implemented here: bench/pazaak_bound_c.py tabulates them from
 * the project's own code (Oracle.rival, i.e. bot.ai.pazaak.decide) and writes them on stdin,
 * keyed by (the rival's total before its draw, the draw, its hand mask, its T flag), for
 * levels that do not read the other seat. The input, whitespace-separated:
 *
 *   pazaak-bound 1
 *   need S  nine 0|1  target 20  ninecards 9
 *   mine K             then K cards, each: count of values, the values, 1 if a T card else 0
 *   theirs N TB        N rival hand cards; TB 1 if one of them is a T card
 *   t2lo LO            the lowest rival total the table covers (t2 = LO..target)
 *   table R            then R rows: t2 d o tb2  total left tb stand added
 *
 * "added" is how many cards the rival's turn put on its table (1, or 2 with a hand card).
 * Output: the value on stdout (%.17g); counts and seconds on stderr.
 *
 * The programme. A set's start is (a, b, s, m, o): sets won by the oracle and the rival, s = 0
 * if the oracle starts, and both hands as bit masks over the dealt cards. Inside a set the
 * state adds both totals, card counts, T flags and who stands (see the index functions). A
 * set's end leads to a start with a or b one higher (or, on a tie, the same a, b) and the other
 * starter. So the starts are solved bottom-up: (a, b) by decreasing a + b, and within one
 * (a, b) the mask pairs (m, o) in increasing order, which puts every pair of subsets first.
 * In-set values are memoised lazily (recursion from each start) in dense arrays for the
 * current (a, b) only.
 *
 * The tie loop: a tied set in which no card was played leads from (a, b, 0, m, o) to
 * (a, b, 1, m, o) and back. For the start being solved (the "top" block of masks), values are
 * kept as affine functions x + y*X of the unknown X = the other starter's value (the oracle's
 * maxima being chosen at a guess of X), which gives V0 = x0 + y0*V1 and V1 = x1 + y1*V0, a 2x2
 * affine system solved exactly. The maxima are then re-chosen at the solution, until it no
 * longer moves (1e-13): a Newton iteration on a convex piecewise-linear map, which ends after
 * two passes as a rule. The Python code iterates to 1e-10 instead; both give the fixed point.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DRAWS 10
#define MAXCARDS 8
#define MAXPLAYS 64

typedef struct {
    double x, y; /* the value x + y * X, X being the tie loop's unknown */
} Aff;

typedef struct {
    signed char total;
    unsigned char left, tb, stand, added;
} Move;

/* --- settings and the deal ----------------------------------------------------------------- */

static int need, nine, target, ninecards;
static int nmine, ntheirs, NM, NO;
static int TB1, TB2; /* 2 if that side holds a T card, else 1 (the flag is then always 0) */
static int lo1, lo2, NT1, NT2, NC;
static long NMY, NSTATE;

/* plays[m]: every way to play one card of hand m: the mask left, the value, the T flag */
static int nplays[1 << MAXCARDS];
static unsigned char play_left[1 << MAXCARDS][MAXPLAYS];
static signed char play_val[1 << MAXCARDS][MAXPLAYS];
static unsigned char play_tb[1 << MAXCARDS][MAXPLAYS];

static Move *moves; /* the rival's table, [t2 - lo2][d - 1][o][tb2] */

/* --- memo ----------------------------------------------------------------------------------- */

static double *memo; /* the current (a, b): [s][m][o][state], NaN until computed */
static double *starts; /* [a][b][s][m][o] for a, b < need */
static int ca, cb; /* the (a, b) being solved */
static int topm, topo; /* the top block: the start being solved */
static double guess[2]; /* for the top block in ctx s, the guess of X = V(1 - s) */
static Aff *scratch[2]; /* the top block's values, valid where stamp == pass */
static unsigned *stamp[2];
static unsigned pass_id;
static long *touched[2]; /* the top block's entries computed in this pass */
static long ntouched[2];
static long computed, computed_top, passes; /* for the report */

static double start_value(int a, int b, int s, int m, int o) {
    if (a >= need) return 1.0;
    if (b >= need) return 0.0;
    return starts[(((long)(a * need + b) * 2 + s) * NM + m) * NO + o];
}

static int sc(int stood, int c) { return stood ? NC : c; } /* stand and count, one index */

static long my_index(int t1, int c1, int tb1, int t2, int c2, int tb2, int stood2) {
    return ((((long)(t1 - lo1) * NC + c1) * TB1 + tb1) * NT2 + (t2 - lo2)) * (NC + 1) * TB2 +
           sc(stood2, c2) * TB2 + tb2;
}

static long their_index(int t1, int c1, int tb1, int stood1, int t2, int c2, int tb2) {
    return NMY +
           ((((long)(t1 - lo1) * (NC + 1) + sc(stood1, c1)) * TB1 + tb1) * NT2 + (t2 - lo2)) *
               NC * TB2 +
           c2 * TB2 + tb2;
}

static double value_at(Aff v, int s) { return v.x + v.y * guess[s]; }

static Aff aff(double x) { return (Aff){x, 0.0}; }

/* A memo slot: returns 1 and the value if known, else 0. */
static int lookup(int s, int m, int o, long i, Aff *out) {
    if (m == topm && o == topo) {
        if (stamp[s][i] != pass_id) return 0;
        *out = scratch[s][i];
        return 1;
    }
    double v = memo[((long)(s * NM + m) * NO + o) * NSTATE + i];
    if (isnan(v)) return 0;
    *out = aff(v);
    return 1;
}

static void store(int s, int m, int o, long i, Aff v) {
    computed++;
    if (m == topm && o == topo) {
        computed_top++;
        stamp[s][i] = pass_id;
        scratch[s][i] = v;
        touched[s][ntouched[s]++] = i;
    } else {
        memo[((long)(s * NM + m) * NO + o) * NSTATE + i] = v.x; /* v.y == 0 off the top */
    }
}

/* --- a set's end ----------------------------------------------------------------------------- */

/* After a set the oracle won (1), lost (-1) or tied (0), with hands m and o left. */
static Aff leaf(int s, int outcome, int m, int o) {
    if (outcome > 0) return aff(start_value(ca + 1, cb, 1 - s, m, o));
    if (outcome < 0) return aff(start_value(ca, cb + 1, 1 - s, m, o));
    if (m == topm && o == topo) return (Aff){0.0, 1.0}; /* the loop's unknown itself */
    return aff(start_value(ca, cb, 1 - s, m, o));
}

/* Both stand: the higher total wins; on equal totals, a T played by one of them alone. */
static Aff compare(int s, int m, int o, int t1, int tb1, int t2, int tb2) {
    if (t1 != t2) return leaf(s, t1 > t2 ? 1 : -1, m, o);
    if (tb1 != tb2) return leaf(s, tb1 ? 1 : -1, m, o);
    return leaf(s, 0, m, o);
}

/* --- the turns --------------------------------------------------------------------------------- */

static Aff my_turn(int s, int m, int o, int t1, int c1, int tb1, int t2, int c2, int tb2,
                   int stood2);
static Aff their_turn(int s, int m, int o, int t1, int c1, int tb1, int stood1, int t2, int c2,
                      int tb2);

/* The oracle's end of turn, in the rules' order: bust, nine cards, 20 stands. */
static Aff end_mine(int s, int m, int o, int t1, int c1, int tb1, int stand, int t2, int c2,
                    int tb2, int stood2) {
    if (t1 > target) return leaf(s, -1, m, o);
    if (nine && c1 >= ninecards) return leaf(s, 1, m, o);
    int standing = stand || t1 == target;
    if (!stood2) return their_turn(s, m, o, t1, standing ? 0 : c1, tb1, standing, t2, c2, tb2);
    if (standing) return compare(s, m, o, t1, tb1, t2, tb2);
    return my_turn(s, m, o, t1, c1, tb1, t2, 0, tb2, 1);
}

/* The best of End turn and Stand at total t1 (one call when they cannot differ). */
static Aff end_best(int s, int m, int o, int t1, int c1, int tb1, int t2, int c2, int tb2,
                    int stood2) {
    Aff go = end_mine(s, m, o, t1, c1, tb1, 0, t2, c2, tb2, stood2);
    if (t1 >= target) return go; /* a bust, or 20 stands anyway */
    Aff stay = end_mine(s, m, o, t1, c1, tb1, 1, t2, c2, tb2, stood2);
    return value_at(stay, s) > value_at(go, s) ? stay : go;
}

/* The oracle is about to draw; stood2: the rival stands on t2 (its count then 0). */
static Aff my_turn(int s, int m, int o, int t1, int c1, int tb1, int t2, int c2, int tb2,
                   int stood2) {
    long i = my_index(t1, c1, tb1, t2, c2, tb2, stood2);
    Aff found;
    if (lookup(s, m, o, i, &found)) return found;
    Aff sum = {0.0, 0.0};
    for (int d = 1; d <= DRAWS; d++) {
        int t = t1 + d, c = nine ? c1 + 1 : 0;
        Aff best = end_best(s, m, o, t, c, tb1, t2, c2, tb2, stood2);
        double top = value_at(best, s);
        for (int j = 0; j < nplays[m]; j++) {
            Aff v = end_best(s, play_left[m][j], o, t + play_val[m][j], nine ? c + 1 : 0,
                             tb1 | play_tb[m][j], t2, c2, tb2, stood2);
            double at = value_at(v, s);
            if (at > top) best = v, top = at;
        }
        sum.x += best.x, sum.y += best.y;
    }
    found = (Aff){sum.x / DRAWS, sum.y / DRAWS};
    store(s, m, o, i, found);
    return found;
}

/* The rival is about to draw; stood1: the oracle stands on t1 (its count then 0). */
static Aff their_turn(int s, int m, int o, int t1, int c1, int tb1, int stood1, int t2, int c2,
                      int tb2) {
    long i = their_index(t1, c1, tb1, stood1, t2, c2, tb2);
    Aff found;
    if (lookup(s, m, o, i, &found)) return found;
    Aff sum = {0.0, 0.0};
    for (int d = 1; d <= DRAWS; d++) {
        const Move *r = &moves[(((long)(t2 - lo2) * DRAWS + (d - 1)) * NO + o) * TB2 + tb2];
        int total = r->total, o2 = r->left, tb = r->tb;
        if (total == 127) {
            fprintf(stderr, "the rival's table has no row for t2=%d d=%d o=%d tb2=%d\n", t2, d,
                    o, tb2);
            exit(2);
        }
        int count = nine ? c2 + r->added : 0;
        Aff v;
        if (total > target) {
            v = leaf(s, 1, m, o2);
        } else if (nine && count >= ninecards) {
            v = leaf(s, -1, m, o2);
        } else {
            int standing = r->stand || total == target;
            if (!stood1)
                v = my_turn(s, m, o2, t1, c1, tb1, total, standing ? 0 : count, tb, standing);
            else if (standing)
                v = compare(s, m, o2, t1, tb1, total, tb);
            else
                v = their_turn(s, m, o2, t1, 0, tb1, 1, total, count, tb);
        }
        sum.x += v.x, sum.y += v.y;
    }
    found = (Aff){sum.x / DRAWS, sum.y / DRAWS};
    store(s, m, o, i, found);
    return found;
}

/* --- the starts ----------------------------------------------------------------------------- */

/* Solve (ca, cb, 0, m, o) and (ca, cb, 1, m, o) together: the tie loop's 2x2 system. */
static int solve_start(int m, int o) {
    topm = m, topo = o;
    /* the first guess: the start solved last (mask o - 1); any guess gives the same value */
    double v0 = 0.5, v1 = 0.5;
    if (o > 0) v0 = start_value(ca, cb, 0, m, o - 1), v1 = start_value(ca, cb, 1, m, o - 1);
    guess[0] = v1, guess[1] = v0;
    for (int round = 1;; round++) {
        pass_id++, passes++;
        ntouched[0] = ntouched[1] = 0;
        Aff r0 = my_turn(0, m, o, 0, 0, 0, 0, 0, 0, 0);     /* V0 = r0.x + r0.y * V1 */
        Aff r1 = their_turn(1, m, o, 0, 0, 0, 0, 0, 0, 0);  /* V1 = r1.x + r1.y * V0 */
        v0 = (r0.x + r0.y * r1.x) / (1.0 - r0.y * r1.y);
        v1 = r1.x + r1.y * v0;
        int settled = fabs(v0 - guess[1]) < 1e-13 && fabs(v1 - guess[0]) < 1e-13;
        guess[0] = v1, guess[1] = v0;
        if (settled || round >= 60) {
            if (!settled) fprintf(stderr, "warning: tie loop unsettled at m=%d o=%d\n", m, o);
            break;
        }
    }
    starts[(((long)(ca * need + cb) * 2 + 0) * NM + m) * NO + o] = v0;
    starts[(((long)(ca * need + cb) * 2 + 1) * NM + m) * NO + o] = v1;
    /* the top block's states are final now: evaluate them at the solution, for bigger blocks */
    for (int s = 0; s < 2; s++) {
        double *block = memo + ((long)(s * NM + m) * NO + o) * NSTATE;
        for (long k = 0; k < ntouched[s]; k++) {
            long i = touched[s][k];
            block[i] = scratch[s][i].x + scratch[s][i].y * guess[s];
        }
    }
    topm = topo = -1;
    return 0;
}

/* --- input ------------------------------------------------------------------------------------ */

static void expect(const char *word) {
    char got[64];
    if (scanf("%63s", got) != 1 || strcmp(got, word) != 0) {
        fprintf(stderr, "bad input: expected '%s'\n", word);
        exit(2);
    }
}

static int read_int(void) {
    int v;
    if (scanf("%d", &v) != 1) {
        fprintf(stderr, "bad input: expected a number\n");
        exit(2);
    }
    return v;
}

static void *alloc(size_t count, size_t size) {
    void *p = calloc(count, size);
    if (!p) {
        fprintf(stderr, "out of memory (%zu x %zu bytes)\n", count, size);
        exit(3);
    }
    return p;
}

int main(void) {
    clock_t begin = clock();
    expect("pazaak-bound");
    if (read_int() != 1) return fprintf(stderr, "unknown input version\n"), 2;
    expect("need"), need = read_int();
    expect("nine"), nine = read_int();
    expect("target"), target = read_int();
    expect("ninecards"), ninecards = read_int();

    /* the oracle's cards, and every play from every hand */
    expect("mine"), nmine = read_int();
    if (nmine < 0 || nmine > MAXCARDS) return fprintf(stderr, "too many cards\n"), 2;
    int nval[MAXCARDS], val[MAXCARDS][8], is_tb[MAXCARDS];
    int lowest = 0; /* the sum of the lowest values, for the lowest total */
    TB1 = 1;
    for (int k = 0; k < nmine; k++) {
        nval[k] = read_int();
        if (nval[k] < 1 || nval[k] > 8) return fprintf(stderr, "bad card\n"), 2;
        int low = 0;
        for (int j = 0; j < nval[k]; j++) {
            val[k][j] = read_int();
            if (val[k][j] < low) low = val[k][j];
        }
        lowest += low;
        is_tb[k] = read_int();
        if (is_tb[k]) TB1 = 2;
    }
    NM = 1 << nmine;
    for (int m = 0; m < NM; m++) {
        for (int k = 0; k < nmine; k++) {
            if (!(m >> k & 1)) continue;
            for (int j = 0; j < nval[k]; j++) {
                int n = nplays[m]++;
                if (n >= MAXPLAYS) return fprintf(stderr, "too many plays\n"), 2;
                play_left[m][n] = (unsigned char)(m & ~(1 << k));
                play_val[m][n] = (signed char)val[k][j];
                play_tb[m][n] = (unsigned char)is_tb[k];
            }
        }
    }
    /* any total before a draw is 0, or a draw (>= 1) plus the cards played */
    lo1 = lowest + 1 < 0 ? lowest + 1 : 0;

    /* the rival's table */
    expect("theirs"), ntheirs = read_int();
    TB2 = read_int() ? 2 : 1;
    if (ntheirs < 0 || ntheirs > MAXCARDS) return fprintf(stderr, "too many cards\n"), 2;
    NO = 1 << ntheirs;
    expect("t2lo"), lo2 = read_int();
    NT1 = target - lo1 + 1, NT2 = target - lo2 + 1;
    moves = alloc((size_t)NT2 * DRAWS * NO * TB2, sizeof(Move));
    for (long k = 0; k < (long)NT2 * DRAWS * NO * TB2; k++) moves[k].total = 127; /* unset */
    expect("table");
    int rows = read_int();
    for (int r = 0; r < rows; r++) {
        int t2 = read_int(), d = read_int(), o = read_int(), tb2 = read_int();
        int total = read_int(), left = read_int(), tb = read_int(), stand = read_int();
        int added = read_int();
        if (t2 < lo2 || t2 > target || d < 1 || d > DRAWS || o < 0 || o >= NO || tb2 < 0 ||
            tb2 >= TB2 || (total <= target && total < lo2) || total > 100 || (left & ~o) ||
            added < 1 || added > 2) {
            fprintf(stderr, "bad table row %d\n", r);
            return 2;
        }
        moves[(((long)(t2 - lo2) * DRAWS + (d - 1)) * NO + o) * TB2 + tb2] =
            (Move){(signed char)total, (unsigned char)left, (unsigned char)tb,
                   (unsigned char)stand, (unsigned char)added};
    }

    /* the dense in-set index: counts matter only with the nine-card win */
    NC = nine ? ninecards : 1;
    NMY = (long)NT1 * NC * TB1 * NT2 * (NC + 1) * TB2;
    NSTATE = NMY + (long)NT1 * (NC + 1) * TB1 * NT2 * NC * TB2;
    size_t cells = (size_t)2 * NM * NO * NSTATE;
    memo = alloc(cells, sizeof(double));
    starts = alloc((size_t)need * need * 2 * NM * NO, sizeof(double));
    for (int s = 0; s < 2; s++) {
        scratch[s] = alloc((size_t)NSTATE, sizeof(Aff));
        stamp[s] = alloc((size_t)NSTATE, sizeof(unsigned));
        touched[s] = alloc((size_t)NSTATE, sizeof(long));
    }
    topm = topo = -1;

    for (int sum = 2 * (need - 1); sum >= 0; sum--) {
        for (ca = need - 1; ca >= 0; ca--) {
            cb = sum - ca;
            if (cb < 0 || cb >= need) continue;
            memset(memo, 0xff, cells * sizeof(double)); /* all NaN: nothing computed */
            for (int m = 0; m < NM; m++)
                for (int o = 0; o < NO; o++) solve_start(m, o);
        }
    }
    double value =
        (start_value(0, 0, 0, NM - 1, NO - 1) + start_value(0, 0, 1, NM - 1, NO - 1)) / 2;
    printf("%.17g\n", value);
    fprintf(stderr, "states %ld top %ld passes %ld memo_mib %.0f seconds %.2f\n", computed, computed_top, passes,
            cells * sizeof(double) / 1048576.0, (double)(clock() - begin) / CLOCKS_PER_SEC);
    return 0;
}
