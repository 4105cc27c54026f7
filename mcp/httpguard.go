package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxBodyBytes bounds a request body read over HTTP: run_code's source is
// at most 256 KiB, and JSON escaping can at most multiply it by six.
const maxBodyBytes = 4 << 20

// clientMethods are the requests a client may send an MCP server (the
// protocol's client-to-server methods, the ones the SDK's server answers).
// Any other method is -32601 over HTTP, as over stdio.
var clientMethods = map[string]bool{
	"initialize": true, "ping": true,
	"tools/list": true, "tools/call": true,
	"prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"logging/setLevel": true, "completion/complete": true,
	"server/discover": true, "subscriptions/listen": true,
}

// paramsRequired are the client methods whose params may not be absent.
var paramsRequired = map[string]bool{
	"initialize": true, "tools/call": true, "prompts/get": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"logging/setLevel": true, "completion/complete": true, "subscriptions/listen": true,
}

// peek is what the guard learnt of a POSTed JSON-RPC message.
type peek struct {
	req *jsonrpc.Request // a single request (call or notification), or nil
}

// originAllowed reports whether a request may be served given its Origin
// header: an absent Origin (a non-browser client) is allowed; a present
// one must be listed exactly (scheme, host and port, as browsers send it).
func originAllowed(r *http.Request, allow []string) bool {
	o := r.Header.Values("Origin")
	if len(o) == 0 {
		return true
	}
	return len(o) == 1 && slices.Contains(allow, o[0])
}

// errOriginRejected is the 403's text.
const errOriginRejected = "Forbidden: Origin not allowed"

// readMessage reads and restores a POST's body and checks that it is a
// JSON-RPC message whose method the server knows, the way the stdio
// transport would: the SDK's HTTP handler answers these cases with plain
// text, which a JSON-RPC client cannot read. It writes the JSON-RPC error
// itself and reports false when the request is answered.
func readMessage(w http.ResponseWriter, r *http.Request) (peek, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			return peek{}, false
		}
		http.Error(w, "failed to read body", http.StatusBadRequest)
		return peek{}, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		// The SDK's own answer ("POST requires a non-empty body").
		return peek{}, true
	}
	if !json.Valid(trimmed) {
		writeRPCError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeParseError, "Parse error: the body is not JSON")
		return peek{}, false
	}
	if trimmed[0] == '[' {
		// A batch (protocol versions before 2025-06-18): the SDK decides.
		return peek{}, true
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		writeRPCError(w, http.StatusBadRequest, idOf(trimmed), jsonrpc.CodeInvalidRequest, "Invalid request: not a JSON-RPC 2.0 message")
		return peek{}, false
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return peek{}, true // a response to a request of ours
	}
	switch {
	case clientMethods[req.Method]:
		if paramsRequired[req.Method] && isAbsent(req.Params) && req.IsCall() {
			writeRPCError(w, http.StatusOK, req.ID, jsonrpc.CodeInvalidParams, fmt.Sprintf("Invalid params: %q requires params", req.Method))
			return peek{}, false
		}
	case strings.HasPrefix(req.Method, "notifications/"):
		if !req.IsCall() && !knownNotification(req.Method) {
			// A notification nobody handles is ignored, as JSON-RPC says.
			w.WriteHeader(http.StatusAccepted)
			return peek{}, false
		}
	default:
		if !req.IsCall() {
			w.WriteHeader(http.StatusAccepted)
			return peek{}, false
		}
		writeRPCError(w, http.StatusOK, req.ID, jsonrpc.CodeMethodNotFound, fmt.Sprintf("Method not found: %q", req.Method))
		return peek{}, false
	}
	return peek{req: req}, true
}

func knownNotification(m string) bool {
	switch m {
	case "notifications/initialized", "notifications/cancelled", "notifications/progress", "notifications/roots/list_changed":
		return true
	}
	return false
}

func isAbsent(p json.RawMessage) bool {
	p = bytes.TrimSpace(p)
	return len(p) == 0 || string(p) == "null"
}

// idOf returns the id member of a JSON object that is not a valid
// JSON-RPC message, when it is a string or a number (else the null id).
func idOf(b []byte) jsonrpc.ID {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(b, &m) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(m.ID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// writeRPCError answers with a JSON-RPC error response.
func writeRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, code int64, msg string) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}

// origin refuses, with 403, a request whose Origin is present and not
// allowed (DNS rebinding: a web page the user visits posting to serve).
func (s *Server) origin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !originAllowed(r, s.opts.AllowOrigins) {
			s.log.LogAttrs(r.Context(), slog.LevelWarn, "request refused",
				slog.String("reason", "origin not allowed"), slog.String("origin", r.Header.Get("Origin")),
				slog.String("remote", r.RemoteAddr))
			http.Error(w, errOriginRejected, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// guard checks a request's JSON-RPC shape and, for a tools/call, its
// principal's quota, before next (the SDK's handler) sees it.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		pk, ok := readMessage(w, r)
		if !ok {
			return
		}
		if pk.req != nil && pk.req.Method == "tools/call" && pk.req.IsCall() {
			if v := s.viewOf(r); v != nil && v.quota != nil {
				release, retry, why := v.quota.acquire(time.Now())
				if release == nil {
					s.log.LogAttrs(r.Context(), slog.LevelWarn, "request refused",
						slog.String("reason", "quota: "+why), slog.String("principal", v.name),
						slog.String("session", r.Header.Get("Mcp-Session-Id")), slog.String("remote", r.RemoteAddr))
					tooMany(w, retry, why, pk.req.ID)
					return
				}
				defer release()
			}
		}
		next.ServeHTTP(w, r)
	})
}
