// Package convert holds what the SDK bridges under bridge/ share: the
// environment a bridge runs its batches in ([Env], which each bridge's
// Bridge struct converts to), one result per call, and the conversions of
// content parts every API needs (text, images an API takes, notes for
// those it does not, data URLs, empty arguments and schemas).
//
// It belongs to the library's module, and only the bridges may import
// it (by Go's internal rule: their import paths lie under
// github.com/ptchost/ptc/bridge). It converts nothing SDK-specific.
package convert
