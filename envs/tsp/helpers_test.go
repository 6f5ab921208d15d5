package tsp

// point is a location in the plane for the envstest generators; the solvers see only the
// distances between points.
type point [2]float64
