// Package cold holds one tiny program per in-process engine for the
// cold-start workload: each process starts, builds its engine, runs
// `return 1` and prints the result, so that the time to its first line is
// the engine's cold start. Each engine has its own binary so that none
// pays for the others' code and initialisation.
package cold
