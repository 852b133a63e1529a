// Package b is imported by a.
package b

// Step returns 1.
func Step() int { return 1 }
