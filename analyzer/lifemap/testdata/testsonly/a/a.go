// Package a is analyzed with its tests; it imports b, which Load adds as an extra package.
package a

import "example.com/testsonly/b"

// Run calls b.
func Run() int { return b.Step() }
