//go:build race

package host_test

// heapShadow is how many times its size the process grows by for memory
// the Go heap allocates: the race detector keeps shadow memory beside it.
const heapShadow = 4
