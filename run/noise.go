package run

// The units of a sampled decode's Gumbel noise scale (eval's and experiment's --gumbel-noise).
// Relative noise is in units of each instance's spread of the actor's scores X, so the sampled
// decode does not depend on the scale of X an actor happened to learn, as the rounding by log M
// does not: best's TSP-20 actors differ in spread by 20x between actor rates 1e-5 and 1e-4.
const (
	NoiseRelative = "relative"
	NoiseAbsolute = "absolute"
)
