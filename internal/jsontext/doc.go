// Package jsontext scans JSON text without parsing it.
package jsontext
