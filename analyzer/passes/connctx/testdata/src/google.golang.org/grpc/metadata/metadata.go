// Package metadata is the part of google.golang.org/grpc/metadata (v1.76.0) the connctx tests
// use, with the same declarations.
package metadata

// MD is a mapping from metadata keys to values.
type MD map[string][]string
