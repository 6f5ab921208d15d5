package devtest

// Transitions is what Fill stores into: replay.Buffer's AddBatch (taken as an interface so that
// replay's own tests can use Fill).
type Transitions interface {
	AddBatch(index []int, m []float32, rowToCol []int, reward []float64)
}

// Fill stores count transitions of size n with recognisable contents: index i, reward i, P a
// rotation by i, M entries i/count.
func Fill(r Transitions, n, count int) {
	m := make([]float32, n*n)
	p := make([]int, n)
	for i := range count {
		for j := range m {
			m[j] = float32((i+j)%(count+1)) / float32(count)
		}
		for j := range p {
			p[j] = (j + i) % n
		}
		r.AddBatch([]int{i}, m, p, []float64{float64(i)})
	}
}
