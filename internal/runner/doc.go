// Package runner runs one run_code program: it routes the program's
// subcalls through the pipeline in issue order (Dispatcher), keeps what
// the run leaves beside its outcome (Report), and, when a Plan asks, makes
// the run reproducible, records it, replays it from a recording, suspends
// it for an approval or resumes it (the session). The root package's
// executor calls Run for each run_code call and builds its Result from
// the Report: record, replay and resume plug into a run here, through the
// Plan, and nowhere else.
package runner
