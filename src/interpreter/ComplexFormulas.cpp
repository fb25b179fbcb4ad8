//===- ComplexFormulas.cpp - Complex functions as XLA's GPU computes them -===//
//
// Each function below is written step by step in the element type T, in
// the order the GPU kernel computes it (see the header), so that NaNs,
// infinities and overflows land where the kernel's do. Comparisons are
// ordered (false on NaN) unless a comment says otherwise; max/min
// propagate NaN, as the kernel's maximumf/minimumf.
//
//===----------------------------------------------------------------------===//
#include "ComplexFormulas.h"

#include <cmath>
#include <limits>

namespace hlo::interp {
namespace {

template <typename T> using Cx = std::complex<T>;

template <typename T> T infinity() { return std::numeric_limits<T>::infinity(); }
template <typename T> T quietNaN() { return std::numeric_limits<T>::quiet_NaN(); }

template <typename T> T maxPropagatingNaN(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return quietNaN<T>();
  return x > y ? x : y;
}
template <typename T> T minPropagatingNaN(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return quietNaN<T>();
  return x < y ? x : y;
}

enum class Magnitude { abs, sqrtOfAbs, rsqrtOfAbs };

/// |z|, sqrt|z| or 1/sqrt|z| from the larger part times a function of the
/// ratio of the smaller to the larger (no overflow of re^2 + im^2); where
/// that is NaN (0/0, inf/inf, a NaN part), the smaller part's value.
template <typename T> T magnitude(T re, T im, Magnitude what) {
  T large = maxPropagatingNaN(std::fabs(re), std::fabs(im));
  T small = minPropagatingNaN(std::fabs(re), std::fabs(im));
  T ratio = small / large;
  T onePlusRatioSquared = ratio * ratio + T(1);
  T result;
  if (what == Magnitude::sqrtOfAbs) {
    result = std::sqrt(large) * std::pow(onePlusRatioSquared, T(0.25));
  } else {
    if (what == Magnitude::rsqrtOfAbs) {
      onePlusRatioSquared = T(1) / std::sqrt(onePlusRatioSquared);
      small = T(1) / std::sqrt(small);
      large = T(1) / std::sqrt(large);
    }
    result = large * std::sqrt(onePlusRatioSquared);
  }
  return std::isnan(result) ? small : result;
}

template <typename T> Cx<T> multiply(Cx<T> x, Cx<T> y) {
  return {x.real() * y.real() - x.imag() * y.imag(), x.imag() * y.real() + x.real() * y.imag()};
}

/// Smith's division: the ratio of the divisor's smaller part to its larger
/// one, with the special cases (zero divisor, infinite dividend, infinite
/// divisor) taken only where both parts of Smith's result are NaN.
template <typename T> Cx<T> divide(Cx<T> x, Cx<T> y) {
  T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  T cOverD = c / d, dDenominator = d + cOverD * c;
  T re1 = (a * cOverD + b) / dDenominator, im1 = (b * cOverD - a) / dDenominator;
  T dOverC = d / c, cDenominator = c + dOverC * d;
  T re2 = (a + b * dOverC) / cDenominator, im2 = (b - a * dOverC) / cDenominator;
  T absC = std::fabs(c), absD = std::fabs(d), absA = std::fabs(a), absB = std::fabs(b);
  bool useFirst = absC < absD;
  T re = useFirst ? re1 : re2, im = useFirst ? im1 : im2;
  if (!(std::isnan(re) && std::isnan(im)))
    return {re, im};
  const T inf = infinity<T>();
  // A zero divisor and a dividend with a part that is not NaN.
  if (absC == 0 && absD == 0 && (!std::isnan(a) || !std::isnan(b))) {
    T signedInf = std::copysign(inf, c);
    return {signedInf * a, signedInf * b};
  }
  bool divisorFinite = absC != inf && !std::isnan(c) && absD != inf && !std::isnan(d);
  bool dividendInfinite = absA == inf || absB == inf;
  if (dividendInfinite && divisorFinite) {
    T aUnit = std::copysign(absA == inf ? T(1) : T(0), a);
    T bUnit = std::copysign(absB == inf ? T(1) : T(0), b);
    return {inf * (aUnit * c + bUnit * d), inf * (bUnit * c - aUnit * d)};
  }
  bool dividendFinite = absA != inf && !std::isnan(a) && absB != inf && !std::isnan(b);
  bool divisorInfinite = absC == inf || absD == inf;
  if (dividendFinite && divisorInfinite) {
    T cUnit = std::copysign(absC == inf ? T(1) : T(0), c);
    T dUnit = std::copysign(absD == inf ? T(1) : T(0), d);
    return {T(0) * (a * cUnit + b * dUnit), T(0) * (b * cUnit - a * dUnit)};
  }
  return {re, im};
}

/// e^z = e^re (cos im + i sin im); where e^re overflows, as
/// e^(re/2) (e^(re/2) cos im) (exp(100 + 1e-30i) of a c64 is finite in its
/// imaginary part); the imaginary part 0 for a zero im (exp(inf + 0i) =
/// inf + 0i, not inf + nan i).
template <typename T> Cx<T> exponential(Cx<T> x) {
  T e = std::exp(x.real());
  T cosIm = std::cos(x.imag()), sinIm = std::sin(x.imag());
  if (e == infinity<T>()) {
    T half = std::exp(x.real() * T(0.5));
    return {half * (half * cosIm), x.imag() == 0 ? T(0) : half * (half * sinIm)};
  }
  return {e * cosIm, x.imag() == 0 ? T(0) : e * sinIm};
}

/// cos(x) - 1: Cephes' polynomial in x^2 below (pi/4)^2, else cos(x) - 1.
template <typename T> T cosineMinusOne(T x) {
  static constexpr double kCoefficients[] = {
      4.7377507964246204691685E-14, -1.1470284843425359765671E-11,
      2.0876754287081521758361E-9,  -2.7557319214999787979814E-7,
      2.4801587301570552304991E-5,  -1.3888888888888872993737E-3,
      4.1666666666666666609054E-2};
  T squared = x * x, fourth = squared * squared;
  T polynomial = T(kCoefficients[0]);
  for (size_t i = 1; i < std::size(kCoefficients); ++i)
    polynomial = std::fma(polynomial, squared, T(kCoefficients[i]));
  T small = fourth * polynomial + T(-0.5) * squared;
  T large = std::cos(x) + T(-1);
  return squared >= T(0.61685) ? large : small;
}

/// e^z - 1 = (expm1(re) cos(im) + cosm1(im)) + i e^re sin(im).
template <typename T> Cx<T> exponentialMinusOne(Cx<T> x) {
  T expm1Re = std::expm1(x.real());
  T cosm1Im = cosineMinusOne(x.imag());
  T re = expm1Re * (cosm1Im + T(1)) + cosm1Im;
  T im = x.imag() == 0 ? T(0) : (expm1Re + T(1)) * std::sin(x.imag());
  return {re, im};
}

template <typename T> Cx<T> logarithm(Cx<T> x) {
  return {std::log(magnitude(x.real(), x.imag(), Magnitude::abs)),
          std::atan2(x.imag(), x.real())};
}

/// log(1 + z): the real part from log1p of the larger of |1 + re| and |im|
/// (less one) plus half log1p of the squared ratio of the smaller.
template <typename T> Cx<T> logarithmPlusOne(Cx<T> x) {
  T re = x.real(), im = x.imag();
  T rePlusOne = re + T(1);
  T absRePlusOne = std::fabs(rePlusOne), absIm = std::fabs(im);
  T large = maxPropagatingNaN(absRePlusOne, absIm);
  T small = minPropagatingNaN(absRePlusOne, absIm);
  T largeMinusOne = rePlusOne > absIm ? re : large - T(1);
  T ratio = small / large;
  T r = T(0.5) * std::log1p(ratio * ratio) + std::log1p(largeMinusOne);
  return {std::isnan(r) ? small : r, std::atan2(im, rePlusOne)};
}

/// sin and cos from t = e^im: with h = t / 2 and g = 1 / (2t),
/// sin z = (h + g) sin re + i (h - g) cos re,
/// cos z = (g + h) cos re + i (g - h) sin re.
template <typename T> Cx<T> sine(Cx<T> x) {
  T e = std::exp(x.imag());
  T half = T(0.5) * e, reciprocal = T(0.5) / e;
  return {(half + reciprocal) * std::sin(x.real()), (half - reciprocal) * std::cos(x.real())};
}
template <typename T> Cx<T> cosine(Cx<T> x) {
  T e = std::exp(x.imag());
  T half = T(0.5) * e, reciprocal = T(0.5) / e;
  return {(reciprocal + half) * std::cos(x.real()), (reciprocal - half) * std::sin(x.real())};
}

/// tanh(a + bi) = (e^2a - e^-2a + 4i cos b sin b) / (e^2a + e^-2a - 2 +
/// 4 cos^2 b) with both exponentials as expm1; the real part is +-1 where
/// that denominator overflows.
template <typename T> Cx<T> hyperbolicTangent(Cx<T> x) {
  T re = x.real(), im = x.imag();
  T twoRe = re + re, minusTwoRe = T(-1) * twoRe;
  T expm1Plus = std::expm1(twoRe), expm1Minus = std::expm1(minusTwoRe);
  T realNumerator = expm1Plus - expm1Minus;
  T cosIm = std::cos(im), sinIm = std::sin(im);
  T fourCosSquared = cosIm * cosIm * T(4);
  T imagNumerator = T(4) * (cosIm * sinIm);
  T expSumMinusTwo = expm1Plus + expm1Minus;
  T denominator = expSumMinusTwo + fourCosSquared;
  T resultRe = expSumMinusTwo == infinity<T>() ? std::copysign(T(1), re)
                                               : realNumerator / denominator;
  T resultIm = imagNumerator / denominator;
  bool absReInfinite = std::fabs(re) == infinity<T>();
  bool imagNumeratorNaN = std::isnan(imagNumerator);
  if (imagNumeratorNaN && !absReInfinite)
    resultRe = quietNaN<T>();
  if (im == 0 || (absReInfinite && imagNumeratorNaN))
    resultIm = T(0);
  return {resultRe, resultIm};
}

/// tan z = -i tanh(-im + i re).
template <typename T> Cx<T> tangent(Cx<T> x) {
  Cx<T> t = hyperbolicTangent(Cx<T>(x.imag() * T(-1), x.real()));
  return {t.imag(), t.real() * T(-1)};
}

/// sqrt z = sqrt|z| (cos(arg/2) + i sin(arg/2)), with the infinities of
/// either part and the zero result set explicitly.
template <typename T> Cx<T> squareRoot(Cx<T> x) {
  T re = x.real(), im = x.imag();
  const T inf = infinity<T>();
  T root = magnitude(re, im, Magnitude::sqrtOfAbs);
  T halfArg = std::atan2(im, re) * T(0.5);
  T cosHalf = std::cos(halfArg), sinHalf = std::sin(halfArg);
  T resultRe = root * cosHalf;
  T resultIm = sinHalf == 0 ? T(0) : root * sinHalf;
  T absIm = std::fabs(im);
  bool absImInfinite = absIm == inf;
  bool absImFinite = absIm != inf && !std::isnan(absIm);
  bool reIsInf = re == inf, reIsNegInf = re == -inf;
  if (reIsNegInf && absImFinite)
    resultRe = T(0);
  if (absImInfinite || reIsInf)
    resultRe = inf;
  if (std::isnan(root))
    resultIm = quietNaN<T>();
  if (absImInfinite || reIsNegInf)
    resultIm = std::copysign(inf, im);
  if (root == 0)
    resultRe = resultIm = T(0);
  return {resultRe, resultIm};
}

/// 1 / sqrt z = |z|^-1/2 (cos(-arg/2) + i sin(-arg/2)); zero (signed as the
/// parts) for an infinite real part or (nan, +-inf); (inf, nan) at zero.
template <typename T> Cx<T> reciprocalSquareRoot(Cx<T> x) {
  T re = x.real(), im = x.imag();
  const T inf = infinity<T>();
  T scale = magnitude(re, im, Magnitude::rsqrtOfAbs);
  T halfArg = std::atan2(im, re) * T(-0.5);
  T resultRe = scale * std::cos(halfArg), resultIm = scale * std::sin(halfArg);
  bool toZero = (std::fabs(im) == inf && std::isnan(re)) || std::fabs(re) == inf;
  if (toZero) {
    resultRe = std::copysign(T(0), re);
    resultIm = T(-1) * std::copysign(T(0), im);
  }
  if (re == 0 && im == 0) {
    resultRe = inf;
    resultIm = quietNaN<T>();
  }
  return {resultRe, resultIm};
}

template <typename T> Cx<T> sign(Cx<T> x) {
  if (x.real() == 0 && x.imag() == 0)
    return x;
  T abs = magnitude(x.real(), x.imag(), Magnitude::abs);
  return {x.real() / abs, x.imag() / abs};
}

/// 1 / (1 + e^-z), each step a complex op.
template <typename T> Cx<T> logistic(Cx<T> x) {
  Cx<T> e = exponential(Cx<T>(-x.real(), -x.imag()));
  return divide(Cx<T>(1, 0), Cx<T>(T(1) + e.real(), T(0) + e.imag()));
}

/// (a + bi)^(c + di) = |z|^c e^(-d arg z) (cos q + i sin q), q = c arg z +
/// d ln|z|; then, later cases first: inf^c (d = 0) is 0 for c < 0 and inf
/// for c > 0, 1^w = 1, z^0 = 1, and 0^c (d = 0, c >= 0) is 1 for c = 0
/// and 0 otherwise.
template <typename T> Cx<T> power(Cx<T> x, Cx<T> y) {
  T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const T inf = infinity<T>();
  T abs = magnitude(a, b, Magnitude::abs);
  T arg = std::atan2(b, a);
  T coefficient = std::pow(abs, c) * std::exp((-d) * arg);
  T q = c * arg + d * std::log(abs);
  bool dIsZero = d == 0, cIsZero = c == 0, bIsZero = b == 0;
  if (a == inf && bIsZero && dIsZero && c < 0)
    return {0, 0};
  if (a == inf && bIsZero && dIsZero && c > 0)
    return {inf, 0};
  if (a == 1 && bIsZero)
    return {1, 0};
  if (cIsZero && dIsZero)
    return {1, 0};
  if (abs == 0 && dIsZero && T(0) <= c)
    return cIsZero ? Cx<T>(1, 0) : Cx<T>(0, 0);
  return {coefficient * std::cos(q), coefficient * std::sin(q)};
}

} // namespace

template <typename T>
std::optional<std::complex<T>> evaluateComplexUnary(HloOpcode opcode, std::complex<T> x) {
  switch (opcode) {
  case HloOpcode::Abs: return Cx<T>(magnitude(x.real(), x.imag(), Magnitude::abs), 0);
  case HloOpcode::Sign: return sign(x);
  case HloOpcode::Sqrt: return squareRoot(x);
  case HloOpcode::Rsqrt: return reciprocalSquareRoot(x);
  case HloOpcode::Exp: return exponential(x);
  case HloOpcode::Expm1: return exponentialMinusOne(x);
  case HloOpcode::Log: return logarithm(x);
  case HloOpcode::Log1p: return logarithmPlusOne(x);
  case HloOpcode::Logistic: return logistic(x);
  case HloOpcode::Sin: return sine(x);
  case HloOpcode::Cos: return cosine(x);
  case HloOpcode::Tan: return tangent(x);
  case HloOpcode::Tanh: return hyperbolicTangent(x);
  default: return std::nullopt;
  }
}

template <typename T>
std::optional<std::complex<T>> evaluateComplexBinary(HloOpcode opcode, std::complex<T> x,
                                                     std::complex<T> y) {
  switch (opcode) {
  case HloOpcode::Add: return Cx<T>(x.real() + y.real(), x.imag() + y.imag());
  case HloOpcode::Subtract: return Cx<T>(x.real() - y.real(), x.imag() - y.imag());
  case HloOpcode::Multiply: return multiply(x, y);
  case HloOpcode::Divide: return divide(x, y);
  case HloOpcode::Power: return power(x, y);
  default: return std::nullopt;
  }
}

template std::optional<std::complex<float>> evaluateComplexUnary(HloOpcode, std::complex<float>);
template std::optional<std::complex<double>> evaluateComplexUnary(HloOpcode, std::complex<double>);
template std::optional<std::complex<float>> evaluateComplexBinary(HloOpcode, std::complex<float>,
                                                                  std::complex<float>);
template std::optional<std::complex<double>> evaluateComplexBinary(HloOpcode, std::complex<double>,
                                                                   std::complex<double>);

} // namespace hlo::interp
