"""Coefficient fits for the f32 math library (kernel-std/src/math/f32_*.rs).

Least-squares fits on Chebyshev nodes (mpmath.chebyfit), coefficients rounded to f32 and
printed lowest degree first with the error after rounding. Run: python3 fit_coeffs.py"""

import mpmath as mp, struct, sys
mp.mp.dps = 40
def f32(x):
    return struct.unpack('f', struct.pack('f', float(x)))[0]
def fit(name, g, a, b, n):
    c, err = mp.chebyfit(g, [a, b], n+1, error=True)
    c = list(reversed(c))  # lowest first
    cs = [f32(v) for v in c]
    # measure error of rounded coefficients
    worst = 0
    for i in range(2001):
        u = a + (b-a)*i/2000
        p = sum(mp.mpf(cs[k])*mp.mpf(u)**k for k in range(len(cs)))
        e = abs(p - g(mp.mpf(u)))
        worst = max(worst, e)
    print(f"// {name}: degree {n} on [{float(a):.6g}, {float(b):.6g}], fit error {float(err):.3e}, with f32 coefficients {float(worst):.3e}")
    print("    " + ", ".join(repr(v) for v in cs))

import mpmath as mp
# expm1: q(f) = (e^f - 1 - f)/f^2 on [-ln2/2, ln2/2]
def q_expm1(f):
    if f == 0: return mp.mpf(0.5)
    return (mp.expm1(f) - f)/f**2
for n in (4,5,6): fit("expm1 q", q_expm1, -0.3466, 0.3466, n)
def q_log(f):
    if f == 0: return mp.mpf(-0.5)
    return (mp.log1p(f) - f)/f**2
for n in (7,8,9,10): fit("log q", q_log, -1/mp.mpf(3), 1/mp.mpf(3)+1e-7, n)
import mpmath as mp
def odd(g):  # (g(sqrt u) - sqrt u)/u^1.5
    def h(u):
        if u == 0: u = mp.mpf('1e-30')
        s = mp.sqrt(u); return (g(s) - s)/(u*s)
    return h
pio4 = mp.pi/4
fit("sin S", odd(mp.sin), 0, (pio4**2)*1.001, 3)
fit("sin S", odd(mp.sin), 0, (pio4**2)*1.001, 4)
def cosc(u):
    if u == 0: u = mp.mpf('1e-30')
    return (mp.cos(mp.sqrt(u)) - 1)/u
fit("cos C", cosc, 0, (pio4**2)*1.001, 4)
fit("cos C", cosc, 0, (pio4**2)*1.001, 5)
fit("tan T", odd(mp.tan), 0, (pio4**2)*1.001, 6)
fit("tan T", odd(mp.tan), 0, (pio4**2)*1.001, 7)
fit("asin A", odd(mp.asin), 0, 0.25, 4)
fit("asin A", odd(mp.asin), 0, 0.25, 5)
fit("atan A", odd(mp.atan), 0, 1, 7)
fit("atan A", odd(mp.atan), 0, 1, 8)
fit("atan A", odd(mp.atan), 0, 1, 9)
fit("sinh H", odd(mp.sinh), 0, 1, 3)
fit("sinh H", odd(mp.sinh), 0, 1, 4)
fit("tanh T", odd(mp.tanh), 0, 0.55**2, 5)
fit("tanh T", odd(mp.tanh), 0, 0.55**2, 6)
def sinpi_t(u):
    if u == 0: u = mp.mpf('1e-30')
    t = mp.sqrt(u); return (mp.sin(mp.pi*t) - mp.pi*t)/(t*u)
fit("sinpi SP", sinpi_t, 0, 1/mp.mpf(16), 3)
fit("sinpi SP", sinpi_t, 0, 1/mp.mpf(16), 4)
def cospi_t(u):
    if u == 0: u = mp.mpf('1e-30')
    t = mp.sqrt(u); return (mp.cos(mp.pi*t) - 1)/u
fit("cospi CP", cospi_t, 0, 1/mp.mpf(16), 4)
fit("cospi CP", cospi_t, 0, 1/mp.mpf(16), 5)
def erfE(u):
    if u == 0: u = mp.mpf('1e-30')
    t = mp.sqrt(u); return mp.erf(t)/t
fit("erf E", erfE, 0, 1, 6)
fit("erf E", erfE, 0, 1, 7)
fit("erf E", erfE, 0, 1, 8)
def logP(v): # log(m) = 2s + s*v*P(v), v=s^2: P = (log((1+s)/(1-s)) - 2s)/(s v)
    if v == 0: v = mp.mpf('1e-30')
    s = mp.sqrt(v); return (mp.log((1+s)/(1-s)) - 2*s)/(s*v)
fit("log atanh P", logP, 0, 0.0295, 3)
fit("log atanh P", logP, 0, 0.0295, 4)
import mpmath as mp
def R(x):
    x = mp.mpf(x)
    d = (x-1)*(x-2)
    if abs(x-1) < 1e-20 or abs(x-2) < 1e-20: x = x + mp.mpf('1e-25'); d=(x-1)*(x-2)
    return (mp.gamma(x)-1)/d
for n in (11,12,13): fit("gamma R", R, 0.5, 3.5, n)
for n in (9,10): fit("gamma R [1,3.5]", R, 1.0, 3.5, n)
def corr(x): return mp.loggamma(x) - ((x-0.5)*mp.log(x) - x + mp.log(2*mp.pi)/2)
def K(u):
    if u == 0: return mp.mpf(1)/12
    t = mp.sqrt(u); return corr(1/t)/t
for n in (3,4,5): fit("stirling K(u=t^2)", K, 0, (1/mp.mpf(3.5))**2, n)
def Et(t):
    if t == 0: return mp.mpf(1)
    return mp.exp(corr(1/t))
for n in (5,6,7): fit("stirling exp(corr) (t)", Et, 0, 1/mp.mpf(3.5), n)
import mpmath as mp
def R(x):
    x = mp.mpf(x)
    if abs(x-1) < 1e-20: x = x + mp.mpf('1e-25')
    if abs(x-2) < 1e-20: x = x - mp.mpf('1e-25')
    return (mp.gamma(x)-1)/((x-1)*(x-2))
for n in (9,10,11): fit("gamma R [1,2] in (x-1.5)", lambda t: R(t+1.5), -0.5, 0.5, n)
def corr(x): return mp.loggamma(x) - ((x-0.5)*mp.log(x) - x + mp.log(2*mp.pi)/2)
def K(u):
    if u == 0: return mp.mpf(1)/12
    t = mp.sqrt(u); return corr(1/t)/t
for n in (4,5): fit("stirling K(u=t^2) x>=3", K, 0, (1/mp.mpf(3))**2, n)
def Et(t):
    if t == 0: return mp.mpf(1)
    return mp.exp(corr(1/t))
for n in (6,7): fit("stirling exp(corr) (t) x>=3", Et, 0, 1/mp.mpf(3), n)
# erfc: R(x) = erfc(x) exp(x^2) on [0.5, 2] in t = x - 1.25 ; and x*R on [2, 10.1] in v = 1/x
def Rr(x): return mp.erfc(x)*mp.exp(x*x)
for n in (10,11,12): fit("erfc R [0.5,2] (t=x-1.25)", lambda t: Rr(t+1.25), -0.75, 0.75, n)
def xR(v):
    if v == 0: return 1/mp.sqrt(mp.pi)
    x = 1/v; return x*Rr(x)
for n in (8,9,10): fit("erfc x*R [2,10.1] (v=1/x)", xR, 1/mp.mpf(10.1), 0.5, n)

# Relative-error minimax fits (Lawson's iteratively reweighted least squares on Chebyshev
# nodes): minimise max |w(u) (P(u) - g(u))| with w turning the error in P into the error of the
# function's result.
def lawson(name, g, w, a, b, n, iters=60, m=400):
    a, b = mp.mpf(a), mp.mpf(b)
    xs = [a + (b-a)*(1 - mp.cos(mp.pi*(i + 0.5)/m))/2 for i in range(m)]
    gs = [g(x) for x in xs]; ws = [w(x) for x in xs]
    lam = [mp.mpf(1)/m]*m
    for _ in range(iters):
        A = mp.matrix(n+1, n+1); B = mp.matrix(n+1, 1)
        for x, gv, wv, l in zip(xs, gs, ws, lam):
            pw = [x**k for k in range(n+1)]; ww = l*wv*wv
            for i in range(n+1):
                B[i] += ww*pw[i]*gv
                for j in range(n+1): A[i, j] += ww*pw[i]*pw[j]
        c = mp.lu_solve(A, B)
        errs = [abs(wv*(sum(c[k]*x**k for k in range(n+1)) - gv)) for x, gv, wv in zip(xs, gs, ws)]
        s = sum(l*e for l, e in zip(lam, errs))
        lam = [l*e/s for l, e in zip(lam, errs)]
    cs = [f32(c[k]) for k in range(n+1)]
    print(f"// {name}: degree {n}, relative minimax error {float(max(errs)):.3e}")
    print("    " + ", ".join(repr(v) for v in cs))

# sin S and cos C of degree 2 and 3 (CUDA's 2-ulp bound): least squares is enough.
fit("sin S", odd(mp.sin), 0, (pio4**2)*1.001, 2)
fit("cos C", cosc, 0, (pio4**2)*1.001, 3)
# tan T of degree 5, relative error of tan r = r + r^3 T(r^2).
def tan_w(u):
    if u == 0: return mp.mpf(0)
    s = mp.sqrt(u); return u*s/mp.tan(s)
lawson("tan T", odd(mp.tan), tan_w, 0, (pio4**2)*1.001, 5)
# log1p Q of degree 8 on [-1/4, 1/2] (the reduction by the exponent of 1 + x rounded toward
# zero), relative error of log(1 + f) = f + f^2 Q(f).
def log1p_q(f):
    if f == 0: return mp.mpf(-0.5)
    return (mp.log1p(f) - f)/f**2
def log1p_w(f):
    if f == 0: return mp.mpf(0)
    return f**2/mp.log1p(f)
lawson("log1p Q", log1p_q, log1p_w, -0.25, 0.5, 8, iters=40, m=300)

# atan (f32_inv_trig.rs atan_k): degree 7 in u = t^2 for the relative error of the whole
# atan(t) = t + t^3 P(u) on [0, 1] (Lawson's iteratively reweighted least squares: plain
# least squares on P leaves 2 ulp near t = 1, the weighted fit about 0.36 ulp).
def lawson(target, basis, ts, weight, iters=40):
    n, m = len(basis), len(ts)
    rows = [[b(t) for b in basis] for t in ts]
    ys = [target(t) for t in ts]; ws = [weight(t) for t in ts]
    lw = [mp.mpf(1)/m]*m
    for _ in range(iters):
        A = mp.matrix(n, n); B = mp.matrix(n, 1)
        for i in range(m):
            w = lw[i]*ws[i]**2
            for a in range(n):
                B[a] += w*rows[i][a]*ys[i]
                for b in range(n): A[a, b] += w*rows[i][a]*rows[i][b]
        c = mp.lu_solve(A, B)
        errs = [abs(ws[i]*(ys[i] - sum(c[k]*rows[i][k] for k in range(n)))) for i in range(m)]
        s = sum(lw[i]*errs[i] for i in range(m))
        lw = [lw[i]*errs[i]/s for i in range(m)]
    return [f32(c[k]) for k in range(n)]
ts = [(1 + mp.cos(mp.pi*(i + 0.5)/300))/2 for i in range(300)]
ts = [t for t in ts if t > 1e-3]
atan_basis = [(lambda k: (lambda t: t**3*(t*t)**k))(k) for k in range(8)]
print("// atan P (relative fit):", ", ".join(repr(v) for v in lawson(
    lambda t: mp.atan(t) - t, atan_basis, ts, lambda t: 1/mp.atan(t))))
# sinpi/cospi kernels (f32_trig.rs) on [0, 1/4], relative fits: sin(pi t) = pi t + t^3 P(t^2),
# P of degree 2; cos(pi t) = 1 + u P(u), P of degree 3.
ts = [t/4 for t in ts]
print("// sinpi P (relative fit):", ", ".join(repr(v) for v in lawson(
    lambda t: mp.sin(mp.pi*t) - mp.pi*t, [(lambda k: (lambda t: t**3*(t*t)**k))(k) for k in range(3)],
    ts, lambda t: 1/mp.sin(mp.pi*t))))
print("// cospi P (relative fit):", ", ".join(repr(v) for v in lawson(
    lambda t: mp.cos(mp.pi*t) - 1, [(lambda k: (lambda t: (t*t)**(k + 1)))(k) for k in range(4)],
    ts, lambda t: 1/mp.cos(mp.pi*t))))
# expm1 q (f32_exp_log.rs expm1_q): degree 4 for the relative error of e^f - 1 = f + f^2 q(f)
# on [-ln2/2, ln2/2].
L = mp.log(2)/2
fs = [L*mp.cos(mp.pi*(i + 0.5)/300) for i in range(300)]
fs = [f for f in fs if abs(f) > 1e-4]
print("// expm1 q (relative fit):", ", ".join(repr(v) for v in lawson(
    lambda f: mp.expm1(f) - f, [(lambda k: (lambda f: f**(k + 2)))(k) for k in range(5)],
    fs, lambda f: 1/abs(mp.expm1(f)))))
