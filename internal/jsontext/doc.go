// Package jsontext scans and compares JSON text: how deeply it nests,
// without parsing it, and whether two documents are the same.
package jsontext
