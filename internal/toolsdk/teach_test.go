package toolsdk

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ptchost/ptc/internal/sdkgen"
)

func TestNearest(t *testing.T) {
	names := []string{"get_customer", "list_orders", "get_weather", "send_email", "search_docs"}
	for _, c := range []struct {
		in   string
		want string
	}{
		{"get_customers", "get_customer"},
		{"getWeather", "get_weather"},
		{"list_order", "list_orders"},
		{"find_customer", "get_customer"},
		{"zzz", ""},
	} {
		got := strings.Join(nearest(c.in, names, 3), ",")
		if !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("nearest(%q) = %q, want it to start with %q", c.in, got, c.want)
		}
	}
	if d := editDistance("abcd", "abdc"); d != 1 {
		t.Errorf("transposition distance %d, want 1", d)
	}
}

func TestSDK_unknownTool(t *testing.T) {
	s := &SDK{tools: []sdkgen.Tool{{Name: "get_customer"}, {Name: "get_orders"}}}
	want := "tools.get_customers is not a tool; did you mean get_customer? The tools are: get_customer, get_orders."
	if got := s.unknownTool("get_customers"); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	var many []sdkgen.Tool
	for i := range 30 {
		many = append(many, sdkgen.Tool{Name: "tool_" + strconv.Itoa(i)})
	}
	s = &SDK{tools: many}
	if got := s.unknownTool("nothing_like_it"); !strings.HasSuffix(got, "Use tools.$search(query) to find tools by what they do.") || strings.Contains(got, "did you mean") {
		t.Errorf("got %q", got)
	}
}
