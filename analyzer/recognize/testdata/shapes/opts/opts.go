// Package opts holds the agent's options and their defaults, set by functional options.
package opts

// DefaultMaxIterations bounds the loop when no option says otherwise.
const DefaultMaxIterations = 10

// Options configure an agent.
type Options struct {
	MaxIterations int
}

// Option sets an option.
type Option func(*Options)

// WithMaxIterations sets the bound.
func WithMaxIterations(n int) Option { return func(o *Options) { o.MaxIterations = n } }

// Apply returns the options with their defaults.
func Apply(os ...Option) Options {
	o := Options{MaxIterations: DefaultMaxIterations}
	for _, f := range os {
		f(&o)
	}
	return o
}
