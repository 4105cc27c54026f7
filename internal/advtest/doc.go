// Package advtest is the harness the adversarial suites share (the root
// package's TestAdversarial and host's TestAdversarialHost): a case run
// alone in a child process with a heartbeat, whose verdict is a pass, its
// failures, a crash or a freeze; the compilation cache shared with the
// children; and readings of the runtime's stop-the-world pauses and of the
// process's resident memory.
package advtest
