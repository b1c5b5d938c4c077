package pyfmt

import (
	"math"
	"strconv"
)

// maxExactInt is 2^53, the largest magnitude up to which every integer has an
// exact float64; integral numbers within it are taken for JSON integers.
const maxExactInt = 1 << 53

// AppendNumber appends the Python form of a JSON number held as a float64:
// an integral value within ±2^53 prints as a Python int ("3", "-12"), any
// other value as Python's float repr (see [AppendFloat]).
func AppendNumber(dst []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) <= maxExactInt {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	return AppendFloat(dst, f)
}

// AppendFloat appends Python's repr() of the float f: the shortest digits
// that round-trip, in positional form with at least one fractional digit
// ("0.1", "1000000000000000.0") when the decimal exponent is in [-4, 16), in
// scientific form otherwise ("1e-05", "1e+16", "1.5e+300"); and "inf",
// "-inf" or "nan".
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	exp := decimalExponent(f)
	if exp < -4 || exp >= 16 {
		// Go's shortest 'e' form already matches Python's: no trailing
		// ".0", a signed exponent of at least two digits.
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	for _, c := range dst[start:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// decimalExponent returns the exponent of f in shortest scientific notation.
func decimalExponent(f float64) int {
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	i := len(b) - 1
	for b[i] != 'e' {
		i--
	}
	n, _ := strconv.Atoi(string(b[i+1:]))
	return n
}
