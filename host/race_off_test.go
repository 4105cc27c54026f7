//go:build !race

package host_test

const heapShadow = 1
