/*
 * expected.c -- the derivations of chapter 4's public expected values (exercises of two
 * and three stars: frontier, iso_loss, heuristic, inference_optimal, budget_optimal).
 *
 * Prints tests/04-overtraining/expected.h, the numbers the public tests (test_*.c)
 * compare with (`make expected CH=04`; make test checks the header is this program's
 * output). Each value is a closed form with the published inputs, or, for the two
 * searches, the optimality condition of the book's section solved here by bisection in
 * long double (more digits than the contract's 1e-10 needs); it uses only the C library
 * and derive.h, never lib/ nor the code it checks.
 *
 * The fits, as published:
 *   Hoffmann et al. 2022 (arXiv:2203.15556), Approach 3 as printed: E 1.69, A 406.4,
 *       B 410.7, alpha 0.34, beta 0.28.
 *   The same, unrounded: the TeX source's parameters as quoted in Besiroglu et al. 2024's
 *       code, true_params = [6.0073404, 6.0179186, 0.5267228, 0.33917084, 0.2849083]
 *       (log A, log B, log E, alpha, beta).
 *   Besiroglu et al. 2024 (arXiv:2404.10102) Table 1: E 1.8172, A 482.01, B 2085.43,
 *       alpha 0.3478, beta 0.3658.
 *
 * Build and run (from the repository's root):
 *   cc -std=c11 -Wall -Wextra -Werror -ffp-contract=off tests/04-overtraining/derive/expected.c \
 *      -o "$TMPDIR/derive" -lm && "$TMPDIR/derive" > tests/04-overtraining/expected.h
 */
#include "../../derive/derive.h"

typedef struct law {
    double e, a, alpha, b, beta; /* L = E + A / N^alpha + B / D^beta */
} law;

static law hoffmann(void)
{
    law l = {1.69, 406.4, 0.34, 410.7, 0.28};
    return l;
}

static law hoffmann_unrounded(void)
{
    law l = {exp(0.5267228), exp(6.0073404), 0.33917084, exp(6.0179186), 0.2849083};
    return l;
}

static law besiroglu(void)
{
    law l = {1.8172, 482.01, 0.3478, 2085.43, 0.3658};
    return l;
}

static double loss_of(law f, double n, double d)
{
    return f.e + f.a / pow(n, f.alpha) + f.b / pow(d, f.beta);
}

/* §4.3 (The compute-optimal frontier): Hoffmann et al. eq. (4), N_opt = G (C/6)^a with
 * G = (alpha A / (beta B))^(1/(alpha+beta)), a = beta / (alpha + beta). */
static double n_opt(law f, double flops)
{
    double g = pow(f.alpha * f.a / (f.beta * f.b), 1.0 / (f.alpha + f.beta));
    return g * pow(flops / 6.0, f.beta / (f.alpha + f.beta));
}

/* §4.3: the tokens the optimality condition alpha A N^-alpha = beta B D^-beta asks of N. */
static double d_opt_for_n(law f, double n)
{
    return pow(f.beta * f.b * pow(n, f.alpha) / (f.alpha * f.a), 1.0 / f.beta);
}

/* §4.4 (Holding quality fixed): the law solved for D at a given N and loss. */
static double d_for_loss(law f, double n, double loss)
{
    return pow(f.b / (loss - f.e - f.a / pow(n, f.alpha)), 1.0 / f.beta);
}

/* The two searches, done here in long double (64-bit mantissa on x86-64, 80-bit format),
 * so that the expected minimisers carry more digits than the double code they check.
 * The fit in long double: E, A, alpha, B, beta. */
typedef struct law_ld {
    long double e, a, alpha, b, beta;
} law_ld;

static law_ld widen(law f)
{
    law_ld l = {f.e, f.a, f.alpha, f.b, f.beta};
    return l;
}

/* The unrounded Hoffmann fit, its constants exponentiated in long double. */
static law_ld hoffmann_unrounded_ld(void)
{
    law_ld l = {expl(0.5267228L), expl(6.0073404L), 0.33917084L, expl(6.0179186L),
                0.2849083L};
    return l;
}

/* §4.4 (Holding quality fixed): the law solved for D, in long double. */
static long double d_for_loss_ld(law_ld f, long double n, long double loss)
{
    return powl(f.b / (loss - f.e - f.a / powl(n, f.alpha)), 1.0L / f.beta);
}

/* psi = alpha A N^-alpha / (beta B D^-beta), §4.9 and §4.10. */
static long double psi_ld(law_ld f, long double n, long double d)
{
    return f.alpha * f.a / powl(n, f.alpha) / (f.beta * f.b / powl(d, f.beta));
}

/* §4.9 (Beyond the lecture: the inference-optimal model): d(6 N D + 2 N D_inf)/dN = 0
 * along the iso-loss curve is psi = 1 + D_inf / (3 D) (Sardana et al. 2024, whose
 * optimality condition this is, written in the book's psi). The left side minus the
 * right is positive below the optimum and negative above it. Bisection in ln N, in long
 * double, between the smallest model that reaches the loss (psi -> infinity) and 1e40
 * parameters (psi -> 0); 400 halvings leave the bracket at adjacent long doubles, about
 * 1e-19 relative in N, far inside the contract's 1e-10. */
static double inference_optimal_params(law_ld f, long double loss, long double d_inf)
{
    long double lo = logl(powl(f.a / (loss - f.e), 1.0L / f.alpha)) + 1e-15L,
                hi = logl(1e40L);
    for (int i = 0; i < 400; i++) {
        long double mid = 0.5L * (lo + hi), n = expl(mid), d = d_for_loss_ld(f, n, loss);
        if (psi_ld(f, n, d) - 1.0L - d_inf / (3.0L * d) > 0.0L)
            lo = mid;
        else
            hi = mid;
    }
    return (double)expl(0.5L * (lo + hi));
}

/* §4.10 (The best model a lifetime budget buys): what 6 N D + 2 N D_inf = C leaves D. */
static long double budget_tokens(long double flops, long double d_inf, long double n)
{
    return (flops - 2.0L * n * d_inf) / (6.0L * n);
}

/* §4.10: dL/dN = 0 along the budget is again psi = 1 + D_inf / (3 D). Bisection in ln N,
 * in long double, between 1 parameter and the model whose serving alone spends the
 * budget; 400 halvings, as above. */
static double budget_optimal_params(law_ld f, long double flops, long double d_inf)
{
    long double lo = 0.0L, hi = logl(d_inf > 0.0L ? flops / (2.0L * d_inf) : flops / 6.0L);
    for (int i = 0; i < 400; i++) {
        long double mid = 0.5L * (lo + hi), n = expl(mid), d = budget_tokens(flops, d_inf, n);
        if (d > 0.0L && psi_ld(f, n, d) - 1.0L - d_inf / (3.0L * d) > 0.0L)
            lo = mid;
        else
            hi = mid;
    }
    return (double)expl(0.5L * (lo + hi));
}

/* The minimum of u^-mu + u^nu (both coefficients 1), §4.6 (The equal-cost heuristic). */
static double least_cost(double mu, double nu)
{
    double u = pow(mu / nu, 1.0 / (mu + nu));
    return pow(u, -mu) + pow(u, nu);
}

int main(void)
{
    derive_begin("04-overtraining");
    law h = hoffmann(), hu = hoffmann_unrounded(), b = besiroglu();
    const law unit = {1.0, 1.0, 1.0, 1.0, 1.0}; /* every constant 1: exact arithmetic */
    const double gopher_flops = 5.76e23; /* Gopher's budget, Hoffmann et al. Figure 4 */

    /* ---- frontier ---- */
    derive_real("E_FRONTIER_GOPHER_PARAMS_HOFFMANN", n_opt(h, gopher_flops),
                "compute-optimal N at Gopher's 5.76e23 FLOPs, printed fit (Hoffmann et al. "
                "2022, eq. 4; §4.3 (The compute-optimal frontier))");
    derive_real("E_FRONTIER_GOPHER_TOKENS_HOFFMANN", gopher_flops / 6.0 / n_opt(h, gopher_flops),
                "its tokens, on the same budget (Hoffmann et al. 2022, eq. 4)");
    derive_real("E_FRONTIER_PARAMS_EXPONENT_UNROUNDED", hu.beta / (hu.alpha + hu.beta),
                "the model's exponent in C, unrounded Hoffmann fit (Hoffmann et al. 2022, "
                "eq. 4; Table 2 prints 0.46)");
    derive_real("E_FRONTIER_TOKENS_EXPONENT_UNROUNDED", hu.alpha / (hu.alpha + hu.beta),
                "the data's exponent in C, unrounded Hoffmann fit (Hoffmann et al. 2022, "
                "eq. 4; Table 2 prints 0.54)");
    derive_real("E_FRONTIER_TERM_RATIO_UNROUNDED", hu.beta / hu.alpha,
                "parameter term over data term on the frontier, unrounded Hoffmann fit "
                "(optimality condition of §4.3 (The compute-optimal frontier))");
    derive_real("E_FRONTIER_PARAMS_EXPONENT_BESIROGLU", b.beta / (b.alpha + b.beta),
                "the model's exponent in C, Besiroglu et al. 2024 Table 1's fit (its a, "
                "0.5126)");
    derive_real("E_FRONTIER_TOKENS_EXPONENT_BESIROGLU", b.alpha / (b.alpha + b.beta),
                "the data's exponent in C, Besiroglu et al. 2024 Table 1's fit");
    derive_real("E_FRONTIER_TOKENS_FOR_1E300_PARAMS_BESIROGLU", d_opt_for_n(b, 1e300),
                "compute-optimal tokens of a 1e300-parameter model, Besiroglu's fit "
                "(optimality condition of §4.3 (The compute-optimal frontier))");

    /* ---- iso_loss ---- */
    derive_real("E_ISO_TOKENS_8B_2_1_NATS_BESIROGLU", d_for_loss(b, 8e9, 2.1),
                "tokens an 8B model needs for 2.1 nats, Besiroglu's fit (the law solved for D, "
                "§4.4 (Holding quality fixed))");
    derive_real("E_ISO_FLOOR_1B_HOFFMANN", h.e + h.a / pow(1e9, h.alpha),
                "the least loss of a 1B model on unlimited data, printed fit (§4.4 (Holding "
                "quality fixed))");
    derive_real("E_ISO_TOKENS_UNIT_FIT_N1_2_5_NATS", d_for_loss(unit, 1.0, 2.5),
                "tokens a 1-parameter model of the all-ones fit needs for 2.5 nats (the law "
                "solved for D, §4.4 (Holding quality fixed))");
    {
        double n = n_opt(hu, 1e24), d = 1e24 / 6.0 / n;
        derive_real("E_ISO_FRONTIER_LOSS_1E24_FLOPS_UNROUNDED", loss_of(hu, n, d),
                    "the loss of the compute-optimal model of 1e24 FLOPs, unrounded Hoffmann "
                    "fit (Hoffmann et al. 2022, eq. 4 then eq. 2)");
        derive_real("E_ISO_FRONTIER_PARAMS_1E24_FLOPS_UNROUNDED", n,
                    "that model's parameters (Hoffmann et al. 2022, eq. 4)");
        derive_real("E_ISO_FRONTIER_TOKENS_1E24_FLOPS_UNROUNDED", d,
                    "its tokens, 1e24 / (6 N) (Hoffmann et al. 2022, eq. 4)");
    }
    derive_real("E_ISO_MIN_PARAMS_2_NATS_HOFFMANN", pow(h.a / (2.0 - h.e), 1.0 / h.alpha),
                "the smallest model that can reach 2 nats, printed fit (§4.4 (Holding quality "
                "fixed))");
    {
        double reducible = 2.0 - b.e;
        derive_real("E_ISO_PARAMS_TERM_2_NATS_BESIROGLU",
                    reducible * b.beta / (b.alpha + b.beta),
                    "parameter term of the compute-optimal model for 2 nats, Besiroglu's fit "
                    "(closed form of §4.4 (Holding quality fixed))");
        derive_real("E_ISO_TOKENS_TERM_2_NATS_BESIROGLU",
                    reducible * b.alpha / (b.alpha + b.beta),
                    "its data term (closed form of §4.4 (Holding quality fixed))");
    }

    /* ---- heuristic ---- */
    {
        /* 3 u^-0.35 + 5 u^1.15: the derivative -1.05 u^-1.35 + 5.75 u^0.15 is zero where
         * u^1.5 = 1.05 / 5.75 */
        double u = pow(1.05 / 5.75, 1.0 / 1.5);
        derive_real("E_HEURISTIC_TERM_RATIO_0_35_1_15",
                    (3.0 * pow(u, -0.35)) / (5.0 * pow(u, 1.15)),
                    "falling over rising term at the minimum of 3 u^-0.35 + 5 u^1.15 (§4.6 "
                    "(The equal-cost heuristic), by calculus on the example)");
    }
    {
        /* 2 u^-1.45 + 7 u^0.55: the derivative -2.9 u^-2.45 + 3.85 u^-0.45 is zero where
         * u^2 = 2.9 / 3.85 */
        double u = sqrt(2.9 / 3.85);
        derive_real("E_HEURISTIC_TERM_RATIO_1_45_0_55",
                    (2.0 * pow(u, -1.45)) / (7.0 * pow(u, 0.55)),
                    "the same for 2 u^-1.45 + 7 u^0.55, the falling term the steeper (§4.6 "
                    "(The equal-cost heuristic), by calculus on the example)");
    }
    derive_real("E_HEURISTIC_PENALTY_1_2", 2.0 / least_cost(1.0, 2.0),
                "cost at equal terms over least cost, 1/u + u^2 (§4.6 (The equal-cost "
                "heuristic))");
    derive_real("E_HEURISTIC_PENALTY_0_5_3", 2.0 / least_cost(0.5, 3.0),
                "the same for u^-0.5 + u^3 (§4.6 (The equal-cost heuristic))");

    /* ---- inference_optimal ---- */
    derive_real("E_LIFETIME_TOKENS_20B_1_95_NATS_HOFFMANN", d_for_loss(h, 20e9, 1.95),
                "tokens a 20B model needs for 1.95 nats, printed fit (§4.4 (Holding quality "
                "fixed))");
    derive_real("E_INFERENCE_OPTIMAL_PARAMS_1_86_NATS_2_6E14_UNROUNDED",
                inference_optimal_params(hoffmann_unrounded_ld(), 1.86L, 2.6e14L),
                "least-lifetime-FLOPs N for 1.86 nats and the lecture's 2.6e14 served tokens, "
                "unrounded Hoffmann fit (the minimiser of the lifetime cost of §4.9 (Beyond "
                "the lecture: the inference-optimal model), to about 1e-15)");
    derive_real("E_INFERENCE_OPTIMAL_PARAMS_1_95_NATS_1E30_BESIROGLU",
                inference_optimal_params(widen(b), 1.95L, 1e30L),
                "the same for 1.95 nats and 1e30 served tokens, Besiroglu's fit (the same "
                "minimiser, to about 1e-15)");

    /* ---- budget_optimal ---- */
    {
        double n = n_opt(hu, gopher_flops), d = gopher_flops / 6.0 / n;
        derive_real("E_BUDGET_GOPHER_NO_DEMAND_PARAMS_UNROUNDED", n,
                    "the compute-optimal N at Gopher's 5.76e23 FLOPs, unrounded Hoffmann fit "
                    "(Hoffmann et al. 2022, eq. 4)");
        derive_real("E_BUDGET_GOPHER_NO_DEMAND_TOKENS_UNROUNDED", d,
                    "its tokens (Hoffmann et al. 2022, eq. 4)");
        derive_real("E_BUDGET_GOPHER_NO_DEMAND_LOSS_UNROUNDED", loss_of(hu, n, d),
                    "its loss (Hoffmann et al. 2022, eq. 2)");
    }
    {
        double n = budget_optimal_params(widen(h), 1e25L, 1e13L);
        derive_real("E_BUDGET_PARAMS_1E25_FLOPS_1E13_HOFFMANN", n,
                    "least-loss N for a lifetime of 1e25 FLOPs serving 1e13 tokens, printed fit "
                    "(the minimiser of the loss of §4.10 (The best model a lifetime budget buys), "
                    "to about 1e-15)");
        derive_real("E_BUDGET_LOSS_1E25_FLOPS_1E13_HOFFMANN",
                    loss_of(h, n, (double)budget_tokens(1e25L, 1e13L, n)),
                    "its loss (§4.10 (The best model a lifetime budget buys))");
    }
    return derive_end();
}
