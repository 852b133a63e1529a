// Package graph is a LangGraph port's state graph (reduced from
// github.com/smallnest/langgraphgo@v0.5.0 graph/graph.go, schema.go, callbacks.go, utils.go,
// state_graph.go): a node is a struct whose Function field holds the func the caller handed
// AddNode (graph.go:53-63), kept in a map by name, and the compiled runnable runs supersteps:
// the current nodes in goroutines, their results merged through a schema, the next nodes
// from conditional or static edges, until only END is left.
package graph

import (
	"context"
	"errors"
	"fmt"
	"reflect"
)

// END is the virtual end node (graph.go:11).
const END = "END"

var (
	// ErrEntryPointNotSet is returned by Compile without an entry point.
	ErrEntryPointNotSet = errors.New("entry point not set")
	// ErrNodeNotFound is returned when a node is not found in the graph.
	ErrNodeNotFound = errors.New("node not found")
	// ErrNoOutgoingEdge is returned when a node has no outgoing edge.
	ErrNoOutgoingEdge = errors.New("no outgoing edge found for node")
)

// Node represents a node in the graph (graph.go:53-63).
type Node struct {
	Name        string
	Description string
	Function    func(ctx context.Context, state interface{}) (interface{}, error)
}

// Edge represents an edge in the graph.
type Edge struct {
	From string
	To   string
}

// StateMerger merges multiple state updates into a single state.
type StateMerger func(ctx context.Context, currentState interface{}, newStates []interface{}) (interface{}, error)

// StateSchema defines how node results update the state (schema.go:13).
type StateSchema interface {
	Init() interface{}
	Update(current, new interface{}) (interface{}, error)
}

// CleaningStateSchema clears ephemeral values after each step (schema.go:23).
type CleaningStateSchema interface {
	StateSchema
	Cleanup(state interface{}) interface{}
}

// Reducer merges a key's new value into its current one.
type Reducer func(current, new interface{}) (interface{}, error)

// MapSchema is a schema over map states with a reducer per key (schema.go:31-82).
type MapSchema struct {
	Reducers map[string]Reducer
}

// NewMapSchema returns an empty map schema.
func NewMapSchema() *MapSchema { return &MapSchema{Reducers: make(map[string]Reducer)} }

// RegisterReducer adds a reducer for a key.
func (s *MapSchema) RegisterReducer(key string, reducer Reducer) { s.Reducers[key] = reducer }

// Init returns an empty map.
func (s *MapSchema) Init() interface{} { return make(map[string]interface{}) }

// Update merges the new map into the current map using the registered reducers.
func (s *MapSchema) Update(current, new interface{}) (interface{}, error) {
	if current == nil {
		current = make(map[string]interface{})
	}
	currMap, ok := current.(map[string]interface{})
	if !ok {
		return nil, errors.New("current state is not a map[string]interface{}")
	}
	newMap, ok := new.(map[string]interface{})
	if !ok {
		return nil, errors.New("new state is not a map[string]interface{}")
	}
	result := make(map[string]interface{}, len(currMap))
	for k, v := range currMap {
		result[k] = v
	}
	for k, v := range newMap {
		if reducer, ok := s.Reducers[k]; ok {
			merged, err := reducer(result[k], v)
			if err != nil {
				return nil, err
			}
			result[k] = merged
		} else {
			result[k] = v
		}
	}
	return result, nil
}

// AppendReducer (schema.go:146-184) appends the new value to the current slice.
func AppendReducer(current, new interface{}) (interface{}, error) {
	if current == nil {
		// If current is nil, start a new slice
		// We need to know the type? We can infer from new.
		newVal := reflect.ValueOf(new)
		if newVal.Kind() == reflect.Slice {
			return new, nil
		}
		// Create slice of type of new
		sliceType := reflect.SliceOf(reflect.TypeOf(new))
		slice := reflect.MakeSlice(sliceType, 0, 1)
		slice = reflect.Append(slice, newVal)
		return slice.Interface(), nil
	}

	currVal := reflect.ValueOf(current)
	newVal := reflect.ValueOf(new)

	if currVal.Kind() != reflect.Slice {
		return nil, fmt.Errorf("current value is not a slice")
	}

	if newVal.Kind() == reflect.Slice {
		// Append slice to slice
		// Check if types are compatible? reflect.AppendSlice handles it or panics.
		// We should probably check types to avoid panics.
		if currVal.Type().Elem() != newVal.Type().Elem() {
			// Try to append as generic interface slice?
			// For now, let's assume types match or rely on reflect to panic/convert if possible.
			// Actually reflect.AppendSlice requires exact match.
			return reflect.AppendSlice(currVal, newVal).Interface(), nil
		}
		return reflect.AppendSlice(currVal, newVal).Interface(), nil
	}

	// Append single element
	return reflect.Append(currVal, newVal).Interface(), nil
}

// Command is a node result that also says where to go (command.go:5).
type Command struct {
	Update interface{}
	Goto   interface{}
}

// GraphCallbackHandler is told of each superstep (callbacks.go:33).
type GraphCallbackHandler interface {
	OnGraphStep(ctx context.Context, stepNode string, state interface{})
}

// Config is a run's configuration (callbacks.go:41).
type Config struct {
	Callbacks []GraphCallbackHandler
}

type configKey struct{}

// WithConfig puts the config in the context (utils.go:54).
func WithConfig(ctx context.Context, config *Config) context.Context {
	return context.WithValue(ctx, configKey{}, config)
}
