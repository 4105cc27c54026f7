// Package admit admits one run's subcalls in the order the program
// issued them, with the pipeline's batch semantics.
package admit
