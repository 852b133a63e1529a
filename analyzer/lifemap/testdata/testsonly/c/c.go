// Package c is imported by b's tests only: loading a with its tests must not list it.
package c

// One is 1.
const One = 1
