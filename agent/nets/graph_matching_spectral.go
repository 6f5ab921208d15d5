package nets

import (
	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
)

// gmSpectralWeight is spg-gm-spectral's initial weight of the spectral similarity in its scores. On
// regular graphs (d = 10, N = 50, Nowak et al.'s noise 0.05) the similarity at this weight
// followed by eight consensus rounds at step 1 keeps about 0.8 of G1's edges, the walk features
// alone 0.37 (docs/results.md).
const gmSpectralWeight = 0.5

// gmSpectralSpec is spg-gm-spectral's learned weight of the spectral similarity.
var gmSpectralSpec = ParamSpec{Name: "spec.W", Shape: []int{1, 1}, Fill: gmSpectralWeight}

// addSpectral adds w |U2| |U1|^T (pairops.SpectralSimilarity of the states x) to the scores y
// (B, N, N), w the learned spec.W. Closed walks leave the nodes of a regular graph nearly alike,
// so the consensus, which only sharpens a correspondence it is given, had nothing to sharpen
// there; the eigenvectors tell the nodes apart and give the consensus a start.
func addSpectral(x, y *G.Node, p NodeSet) (*G.Node, error) {
	sim, err := pairops.SpectralSimilarity(x)
	if err != nil {
		return nil, err
	}
	return layers.AddScaled(y, sim, p.Get(gmSpectralSpec.Name))
}

// spectralPairFLOPs is the floating-point operations of one pair's spectral similarity at size
// n: two symmetric eigendecompositions with eigenvectors, about 9n³ each by the symmetric QR
// algorithm (Golub and Van Loan, Matrix Computations, 4th ed., section 8.3.6: 4n³/3 for the
// eigenvalues alone, about 9n³ with the eigenvectors; gonum's EigenSym runs LAPACK's dsyev,
// that algorithm), and the product |U2| |U1|^T, 2n³. A step counts it once per fresh state:
// the update's minibatch takes the similarities of the states it draws from
// pairops.SpectralSimilarity's cache while the cache holds them, as it does in bench, whose
// replay buffer holds at most its own steps' states.
func spectralPairFLOPs(n float64) float64 { return 2*9*n*n*n + 2*n*n*n }
