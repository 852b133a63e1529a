// Package broken does not type-check: lifeline must refuse it with a clear error.
package broken

func Run() int { return "not an int" }
