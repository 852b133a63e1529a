package agents

// DefaultMaxTurns is the number of turns a run may take when its config says nothing.
const DefaultMaxTurns = 10
