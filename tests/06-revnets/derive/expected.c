/*
 * expected.c -- the expected values of chapter 6's public tests where deriving them
 * is the exercise (two and three stars), with their sources: the instructor's copy.
 * It prints tests/06-revnets/expected.h (`make expected CH=06`); the public tests
 * compare with the E_ names. Uses only the C library and derive.h, never the code
 * the tests check.
 */
#include "../../derive/derive.h"

/* ---- 6.6 rounds_to_avalanche: the test families' exact avalanche --------------- */

/* The window family (member r XORs x << k for k = 0..r): linear, so a flip of bit j
 * toggles the output bits j + k below 64, min(r + 1, 64 - j) of them, whatever x is.
 * Its exact avalanche is their sum over j, over 64 * 64. */
static double window_avalanche(int r)
{
    long flips = 0;
    for (int j = 0; j < 64; j++)
        flips += (r + 1 < 64 - j) ? r + 1 : 64 - j;
    return flips / 4096.0;
}

/* The fewest r >= 1 whose avalanche is within tol of 1/2 (0: none up to max). The
 * window family's avalanche only grows with r, so the first r is the answer. */
static long window_rounds(double tol, int max)
{
    for (int r = 1; r <= max; r++)
        if (fabs(window_avalanche(r) - 0.5) <= tol)
            return r;
    return 0;
}

/* The ramp family: member r is the XOR of c rotations, c = 1 + floor(31 r / span)
 * below span (32 from span on), exact avalanche c / 64. Within tol = 1/16 of 1/2
 * means c >= 28, i.e. floor(31 r / span) >= 27, i.e. r >= ceil(27 span / 31). */
static long long ramp_rounds_tol_1_16(long long span)
{
    return (27 * span + 30) / 31;
}

int main(void)
{
    derive_begin("06-revnets");
    derive_int("E_ROUNDS_WINDOW_TOL_0_3", window_rounds(0.3, 64),
               "window of shifts, tolerance 0.3: exact avalanche of a linear mixer, "
               "flips of bit j = min(r + 1, 64 - j)");
    derive_int("E_ROUNDS_WINDOW_TOL_0_1", window_rounds(0.1, 64),
               "window of shifts, tolerance 0.1 (as above)");
    derive_int("E_ROUNDS_WINDOW_TOL_0_01", window_rounds(0.01, 64),
               "window of shifts, tolerance 0.01 (as above)");
    derive_int("E_ROUNDS_RAMP_2E9_TOL_1_16", ramp_rounds_tol_1_16(2000000000LL),
               "ramp of rotations, span 2e9, tolerance 1/16: the family's definition in "
               "test_revnets.c, c / 64 exact for c rotations");
    derive_int("E_ROUNDS_COSTLY_RAMP_4E4_TOL_1_16", ramp_rounds_tol_1_16(40000),
               "ramp of rotations, span 40000, tolerance 1/16 (as above)");
    return derive_end();
}
