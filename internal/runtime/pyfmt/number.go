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
	// Format once in Go's shortest scientific form, which already matches
	// Python's (no trailing ".0", a signed exponent of at least two digits),
	// and rebuild the positional form from its digits when Python uses that.
	var buf [32]byte
	sci := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	e := len(sci) - 1
	for sci[e] != 'e' {
		e--
	}
	exp := 0
	for _, c := range sci[e+2:] {
		exp = exp*10 + int(c-'0')
	}
	if sci[e+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 16 {
		return append(dst, sci...)
	}
	mantissa := sci[:e]
	if mantissa[0] == '-' {
		dst = append(dst, '-')
		mantissa = mantissa[1:]
	}
	var digitBuf [20]byte
	digits := append(digitBuf[:0], mantissa[0])
	if len(mantissa) > 2 {
		digits = append(digits, mantissa[2:]...)
	}
	if exp < 0 {
		dst = append(dst, "0."...)
		for i := -1; i > exp; i-- {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	for i := 0; i <= exp; i++ {
		if i < len(digits) {
			dst = append(dst, digits[i])
		} else {
			dst = append(dst, '0')
		}
	}
	dst = append(dst, '.')
	if len(digits) > exp+1 {
		return append(dst, digits[exp+1:]...)
	}
	return append(dst, '0')
}
