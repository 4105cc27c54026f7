// Package bridgetest holds what the SDK bridges' tests share (the bridges
// are modules of their own under bridge/, whose import paths lie under
// this module's, so they may import it): the sales tools their scripted
// conversations call, and golden-file comparison of the requests.
package bridgetest
