package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// TestServer_scopes: a principal sees and may call only the tools its
// patterns match; another tool is UNKNOWN_TOOL exactly as a tool that does
// not exist, in every text the program can read.
func TestServer_scopes(t *testing.T) {
	ex, reg := plainExecutor(t, host.Limits{})
	for _, name := range []string{"secret_export", "fs__read_file", "fs__write_file"} {
		_, err := reg.Register(registry.MustDefine(registry.Spec[struct{}, string]{
			Name: name, Description: "The " + name + " tool.",
			Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return name + " ran", nil },
		}))
		require.NoError(t, err)
	}
	c, err := mcp.ParseAuthConfig([]byte(fmt.Sprintf(`{"principals": [
	  {"name": "all", "keySha256": %q, "tools": ["*"]},
	  {"name": "reader", "keySha256": %q, "tools": ["double", "fs__read_*"]},
	  {"name": "none", "keySha256": %q}]}`, keyHash("k-all"), keyHash("k-reader"), keyHash("k-none"))))
	require.NoError(t, err)
	var logs syncBuffer
	logger := slog.New(mcp.AuditHandler(slog.NewJSONHandler(&logs, nil)))
	s := mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Logger: logger})
	defer ex.Pipeline().OnResult(pipeline.SlogResult(logger))()
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	url := hs.URL + "/mcp"

	all := connectAs(t, url, "k-all", nil)
	reader := connectAs(t, url, "k-reader", nil)
	none := connectAs(t, url, "k-none", nil)

	desc := func(cs *sdk.ClientSession) string {
		res, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		require.Len(t, res.Tools, 1)
		return res.Tools[0].Description
	}
	require.Contains(t, desc(all), "secret_export")
	d := desc(reader)
	require.Contains(t, d, "fs__read_file")
	require.Contains(t, d, "double")
	for _, hidden := range []string{"secret_export", "fs__write_file"} {
		require.NotContains(t, d, hidden)
	}
	require.NotContains(t, desc(none), "double")

	// Calls: the reader's call of a hidden tool reads exactly as the call
	// of a tool that does not exist.
	probe := func(name string) string {
		return fmt.Sprintf(`let out = [];
const probe = async f => { try { out.push(JSON.stringify(await f())); } catch (e) { out.push(e.name, e.code, e.tool, e.message); } };
await probe(() => tools.%s({}));
await probe(() => tools.$search(%q));
await probe(() => tools.$describe(%q));
out.push(typeof tools.%s);
return out.join("\n");`, name, name, name, name)
	}
	hiddenText := text(runCode(t, reader, probe("secret_export")))
	absentText := text(runCode(t, reader, probe("nosuch_export")))
	require.Contains(t, hiddenText, "UNKNOWN_TOOL")
	require.Equal(t, strings.ReplaceAll(absentText, "nosuch_export", "secret_export"), hiddenText)
	hiddenText = text(runCode(t, reader, probe("fs__write_file")))
	absentText = text(runCode(t, reader, probe("fs__wrxte_file")))
	require.Equal(t, strings.ReplaceAll(absentText, "fs__wrxte_file", "fs__write_file"), hiddenText)
	require.NotContains(t, hiddenText, "secret_export")

	// The visible tools run; the principal with every tool runs the others.
	require.Equal(t, "fs__read_file ran", text(runCode(t, reader, `return await tools.fs__read_file({})`)))
	require.Equal(t, "secret_export ran", text(runCode(t, all, `return await tools.secret_export({})`)))
	res := runCode(t, none, `return await tools.double({n: 1})`)
	require.True(t, res.IsError)
	require.Contains(t, text(res), "tools.double is not a tool. There are no tools.")

	// A tool registered later follows the patterns.
	_, err = reg.Register(registry.MustDefine(registry.Spec[struct{}, string]{
		Name: "fs__read_dir", Description: "Later.",
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return "dir", nil },
	}))
	require.NoError(t, err)
	require.Equal(t, "dir", text(runCode(t, reader, `return await tools.fs__read_dir({})`)))
	require.Contains(t, desc(reader), "fs__read_dir")

	// Run and subcall records name the principal.
	var runs, subcalls int
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct{ Msg, Tool, Principal string }
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		switch {
		case rec.Msg == "run" && rec.Principal != "":
			runs++
		case rec.Msg == "tool result" && rec.Tool == "fs__read_file":
			require.Equal(t, "reader", rec.Principal, line)
			subcalls++
		}
	}
	require.Equal(t, 8, runs)
	require.Equal(t, 1, subcalls)

	// Shutdown lifts the restrictions it made.
	require.NoError(t, s.Shutdown(context.Background()))
	require.Len(t, reg.Definitions(registry.Scope{Agent: "reader"}, nil), 5)
}
