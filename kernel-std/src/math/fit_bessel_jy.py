"""Coefficient fits for the Bessel functions J0, J1, Y0, Y1 (f32_bessel_jy.rs, f64_bessel_jy.rs).

Least squares on Chebyshev nodes (mpmath.chebyfit) at 50 digits; for each piece the smallest
degree whose fit meets the target relative error of the function itself
(2^-28 for f32, 2^-57 for f64) on a dense grid (the error after rounding the
coefficients is printed beside it), printed as Rust Horner functions (highest
degree first). Run: python3 fit_bessel_jy.py f32|f64 > out.rs

Pieces below 8 (z a zero of the function, d = x - z):
  J: x^k p(x^2) on [0, lo) (k = 0 for J0, 1 for J1), d P(d) around each zero;
  Y: (2/pi) J(x) log1p(d/z) + d W(d) (Y0) or + d W(d) / x (Y1), W entire (the logarithm's
     singularity and Y1's pole taken out exactly).
Beyond 8: P(u), Q(u) of the Hankel form in u = 64/x^2, J = (P cos(x - phase) - Q/x sin)/sqrt(pi x/2)."""
import mpmath as mp, struct, sys

mp.mp.dps = 50
TY = sys.argv[1]
if TY == 'f32':
    rnd = lambda x: struct.unpack('f', struct.pack('f', float(x)))[0]
    TARGET = mp.mpf(2) ** -28
else:
    rnd = lambda x: float(x)
    TARGET = mp.mpf(2) ** -57
J = lambda n, x: mp.besselj(n, x)
Y = lambda n, x: mp.bessely(n, x)
twopi = 2 / mp.pi

def zero(kind, n, k):
    return mp.besseljzero(n, k) if kind == 'j' else mp.besselyzero(n, k)

def emit(name, var, coeffs, doc):
    print(f"/// {doc}")
    print("#[device]")
    print(f"fn {name}({var}: {TY}) -> {TY} {{")
    c = [rnd(v) for v in coeffs]
    print(f"    let p = {c[0]!r}{TY};")
    for v in c[1:-1]:
        print(f"    let p = p.mul_add({var}, {v!r});")
    print(f"    p.mul_add({var}, {c[-1]!r})")
    print("}")
    print()

def fitpiece(g, lo, hi, err_of, start=3, maxdeg=40):
    """Smallest degree n whose fit meets TARGET (err_of(poly) on a grid); the error with the
    coefficients rounded (which the evaluation's own roundings match) is reported."""
    for n in range(start, maxdeg):
        c, _ = mp.chebyfit(g, [lo, hi], n + 1, error=True)
        e = err_of(lambda t: mp.polyval(c, t))
        if e <= TARGET:
            cr = [mp.mpf(rnd(v)) for v in c]
            return c, n, err_of(lambda t: mp.polyval(cr, t))
    raise SystemExit(f"no fit below degree {maxdeg} on [{lo}, {hi}]")

def grid(lo, hi, m=400):
    return [lo + (hi - lo) * (i + 0.5) / m for i in range(m)]

# J pieces.
def j_small(nu, hi):
    # J_nu(x) = x^nu p(x^2): fit p on u in [0, hi^2].
    def g(u):
        if u == 0:
            return mp.mpf(1) if nu == 0 else mp.mpf(0.5)
        x = mp.sqrt(u)
        return J(nu, x) / x ** nu
    def err(p):
        return max(abs(p(u) - g(u)) / abs(g(u)) for u in grid(mp.mpf(0), hi * hi))
    return fitpiece(g, 0, hi * hi, err)

def j_zero(nu, z, lo, hi):
    def g(d):
        if abs(d) < mp.mpf(10) ** -30:
            return mp.diff(lambda x: J(nu, x), z)
        return J(nu, z + d) / d
    def err(p):
        return max(abs(p(d) - g(d)) / abs(g(d)) for d in grid(lo - z, hi - z))
    return fitpiece(g, lo - z, hi - z, err)

def y_zero(nu, z, lo, hi):
    # Y = (2/pi) J log(x/z) + d W / x^nu: W = x^nu (Y - (2/pi) J log(x/z)) / d.
    def w(d):
        x = z + d
        if abs(d) < mp.mpf(10) ** -30:
            d = mp.mpf(10) ** -30
            x = z + d
        return x ** nu * (Y(nu, x) - twopi * J(nu, x) * mp.log(x / z)) / d
    def err(p):
        worst = 0
        for d in grid(lo - z, hi - z):
            x = z + d
            yv = Y(nu, x)
            worst = max(worst, abs(d * (p(d) - w(d)) / x ** nu) / abs(yv))
        return worst
    return fitpiece(w, lo - z, hi - z, err)

def hankel(nu):
    # P(u), x Q(u) with u = 64/x^2 on (0, 1].
    def pq(u):
        x = 8 / mp.sqrt(u)
        ph = x - (2 * nu + 1) * mp.pi / 4
        s = mp.sqrt(mp.pi * x / 2)
        jv, yv = J(nu, x), Y(nu, x)
        P = s * (jv * mp.cos(ph) + yv * mp.sin(ph))
        Q = s * (yv * mp.cos(ph) - jv * mp.sin(ph))
        return P, Q * x
    def err_for(idx):
        def err(p):
            return max(abs(p(u) - pq(u)[idx]) for u in grid(mp.mpf(10) ** -6, mp.mpf(1), 120))
        return err
    P = fitpiece(lambda u: pq(u)[0] if u > 0 else mp.mpf(1), mp.mpf(0), mp.mpf(1), err_for(0), start=2)
    Q = fitpiece(lambda u: pq(u)[1] if u > 0 else (-mp.mpf(1) / 8 if nu == 0 else mp.mpf(3) / 8), mp.mpf(0), mp.mpf(1), err_for(1), start=2)
    return P, Q

def zconst(name, z):
    hi = rnd(z)
    lo = rnd(z - mp.mpf(hi))
    print(f"/// `{mp.nstr(z, 25)}` as `{name.upper()}_HI + {name.upper()}_LO`.")
    print(f"const {name.upper()}_HI: {TY} = {hi!r};")
    print(f"const {name.upper()}_LO: {TY} = {lo!r};")
    print()

def report(tag, n, e):
    print(f"// {tag}: degree {n}, relative error {float(e):.3g}")

B = {
    ('j', 0): (2.0, [(1, 2.0, 4.0), (2, 4.0, 8.0)]),
    ('j', 1): (2.4, [(1, 2.4, 5.4), (2, 5.4, 8.0)]),
}
for nu in (0, 1):
    hi, pieces = B[('j', nu)]
    c, n, e = j_small(nu, mp.mpf(hi))
    report(f"j{nu} small", n, e)
    emit(f"j{nu}_small", "u", c, f"`J{nu}(x) / x^{nu}` as a polynomial in `u = x^2`, `x` in `[0, {hi}]`.")
    for k, lo, hi2 in pieces:
        z = zero('j', nu, k)
        zconst(f"j{nu}_z{k}", z)
        c, n, e = j_zero(nu, z, mp.mpf(lo), mp.mpf(hi2))
        report(f"j{nu} zero {k}", n, e)
        emit(f"j{nu}_near_z{k}", "d", c, f"`J{nu}(z + d) / d` around the zero `z = {mp.nstr(z, 8)}`, `x` in `[{lo}, {hi2}]`.")
YP = {
    0: [(1, 0.0, 2.4, 'a'), (2, 2.4, 5.5, 'b'), (3, 5.5, 8.0, 'c')],
    1: [(1, 0.0, 1.6, 'a'), (1, 1.6, 3.8, 'b'), (2, 3.8, 7.0, 'c'), (3, 7.0, 8.0, 'd')],
}
for nu in (0, 1):
    done = set()
    for k, lo, hi2, tag in YP[nu]:
        z = zero('y', nu, k)
        if (nu, k) not in done:
            zconst(f"y{nu}_z{k}", z)
            done.add((nu, k))
        lo_ = max(mp.mpf(lo), mp.mpf(10) ** -3)
        c, n, e = y_zero(nu, z, lo_, mp.mpf(hi2))
        report(f"y{nu} piece {tag}", n, e)
        what = "x (Y1 - (2/pi) J1 log(x/z)) / d" if nu else "(Y0 - (2/pi) J0 log(x/z)) / d"
        emit(f"y{nu}_w_{tag}", "d", c, f"`{what}` around `z = {mp.nstr(z, 8)}` (`d = x - z`), `x` in `[{lo}, {hi2}]`.")
for nu in (0, 1):
    (cp, np_, ep), (cq, nq, eq) = hankel(nu)
    report(f"hankel{nu} P", np_, ep)
    emit(f"p{nu}", "u", cp, f"The Hankel amplitude `P{nu}` in `u = 64/x^2`, `x >= 8` (absolute error {float(ep):.2g}).")
    report(f"hankel{nu} Q", nq, eq)
    emit(f"q{nu}", "u", cq, f"`x Q{nu}` of the Hankel form in `u = 64/x^2`, `x >= 8` (absolute error {float(eq):.2g}).")
