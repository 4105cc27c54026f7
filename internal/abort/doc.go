// Package abort holds what an aborted run says and why: the cancellation
// cause of a shutdown and the messages of "Error: code run failed
// (aborted): MESSAGE" (docs/ARCHITECTURE.md, "What the model sees"). The
// host writes them and the executor reads them; neither exports them twice.
package abort
