package ptc

import (
	"strconv"
	"strings"

	"github.com/ptchost/ptc/registry"
)

// ContentText renders content as plain text, one part per line: text as
// is, an image as "[image <mime> <n> bytes]", a JSON part as its document
// and a resource as "[resource <uri>]". It is how ptc-run prints what the
// model sees.
func ContentText(content []registry.Part) string {
	var b strings.Builder
	for i, p := range content {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch p.Type {
		case registry.PartText:
			b.WriteString(p.Text)
		case registry.PartImage:
			b.WriteString("[image " + p.MimeType + " " + strconv.Itoa(len(p.Data)) + " bytes]")
		case registry.PartJSON:
			b.Write(p.JSON)
		case registry.PartResource:
			b.WriteString("[resource " + p.URI + "]")
		default:
			b.WriteString("[" + string(p.Type) + "]")
		}
	}
	return b.String()
}
