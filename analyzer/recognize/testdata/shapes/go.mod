module example.com/shapes

go 1.26.0

require (
	github.com/google/uuid v1.6.0
	golang.org/x/sync v0.24.0
)
