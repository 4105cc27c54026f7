package registry

import (
	"strconv"
	"strings"
)

// PlainText renders content as plain text, one part per line: text as
// is, an image as "[image <mime> <n> bytes]", a JSON part as its document
// and a resource as "[resource <uri>]". It is how ptc-run prints what the
// model sees.
func PlainText(content []Part) string {
	var b strings.Builder
	for i, p := range content {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch p.Type {
		case PartText:
			b.WriteString(p.Text)
		case PartImage:
			b.WriteString("[image " + p.MimeType + " " + strconv.Itoa(len(p.Data)) + " bytes]")
		case PartJSON:
			b.Write(p.JSON)
		case PartResource:
			b.WriteString("[resource " + p.URI + "]")
		default:
			b.WriteString("[" + string(p.Type) + "]")
		}
	}
	return b.String()
}
