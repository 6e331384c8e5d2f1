package streamgen

// rng is splitmix64 (Steele, Lea and Flood 2014). It is written out here
// rather than taken from math/rand so that the stream for a seed can never
// change under a Go upgrade.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n). The modulo bias is irrelevant here.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance reports true pct times in a hundred.
func (r *rng) chance(pct int) bool { return r.intn(100) < pct }

// pick returns one element of list.
func pick[T any](r *rng, list []T) T { return list[r.intn(len(list))] }
