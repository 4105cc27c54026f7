// Package toolsdk holds the SDK a program sees: for one selection of
// tools, the JavaScript prelude installed in the guest, the TypeScript
// declarations of run_code's description (fitted to a byte budget), and
// the texts of the ToolErrors its failed subcalls reject with, written for
// the model to fix its program. Cache keeps one SDK per tool set and agent.
package toolsdk
