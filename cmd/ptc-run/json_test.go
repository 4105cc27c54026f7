package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// TestWriteJSON_errorInfo is the regression test for "ErrorInfo is dropped
// by --json": a denial's structured detail is error.info for the run_code
// call itself and subcalls[].info for a subcall; null when there is none.
func TestWriteJSON_errorInfo(t *testing.T) {
	reg := registry.New()
	for _, name := range []string{"ok", "denied"} {
		_, err := reg.Register(registry.MustDefine(registry.RawSpec{
			Name:    name,
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return "fine", nil },
		}))
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "denied" {
			return pipeline.Decision{Verdict: pipeline.VerdictDeny, Reason: "not now", Info: &pipeline.ErrorInfo{Name: "PolicyDenied", Code: "P1", UserReason: "ask an admin"}}
		}
		return d
	})
	ctx := context.Background()
	ok := pipe.Call(ctx, pipeline.RawCall{Name: "ok", Arguments: json.RawMessage(`{}`)}, pipeline.Env{})
	denied := pipe.Call(ctx, pipeline.RawCall{Name: "denied", Arguments: json.RawMessage(`{}`)}, pipeline.Env{})
	require.NoError(t, ok.Err())
	require.Equal(t, "DENIED", pipeline.CodeOf(denied.Err()))

	wantInfo := map[string]any{"name": "PolicyDenied", "code": "P1", "userReason": "ask an admin"}
	tests := []struct {
		name      string
		r         *ptc.Result
		errorInfo any
		subInfos  []any
	}{
		{"subcalls", &ptc.Result{
			Content: []registry.Part{registry.TextPart("done")},
			Outcome: ok,
			Subcalls: []ptc.Subcall{
				{N: 1, Tool: "ok", Arguments: json.RawMessage(`{}`), OK: true, Outcome: ok},
				{N: 2, Tool: "denied", Arguments: json.RawMessage(`{}`), Code: "DENIED", Outcome: denied},
			},
		}, nil, []any{nil, wantInfo}},
		{"the call itself denied", &ptc.Result{
			Content: denied.Content(),
			IsError: true,
			Outcome: denied,
		}, wantInfo, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, writeJSON(&buf, tc.r))
			var got struct {
				Error    map[string]any
				Subcalls []map[string]any
			}
			require.NoError(t, json.Unmarshal(buf.Bytes(), &got))
			if tc.errorInfo == nil {
				require.Nil(t, got.Error)
			} else {
				require.Contains(t, got.Error, "info")
				require.Equal(t, tc.errorInfo, got.Error["info"])
			}
			require.Len(t, got.Subcalls, len(tc.subInfos))
			for i, want := range tc.subInfos {
				require.Contains(t, got.Subcalls[i], "info", "info is always present, null when there is none")
				require.Equal(t, want, got.Subcalls[i]["info"])
			}
		})
	}
}
