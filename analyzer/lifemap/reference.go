package lifemap

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/lifeline-dev/lifeline/model"
)

// referenceMapJSON is the map of the reference runtime that TestRuntimeMap pins: a fresh map of
// this checkout's model/runtime must equal it (go test -update rewrites it).
//
//go:embed testdata/runtime.map.json
var referenceMapJSON []byte

// ReferenceMap returns the lifecycle map of lifeline's reference runtime (model/runtime) as
// lifemap maps this checkout, with positions relative to the repository root. It needs no
// source: the map is the one TestRuntimeMap keeps current.
func ReferenceMap() (*model.Map, error) {
	var m model.Map
	if err := json.Unmarshal(referenceMapJSON, &m); err != nil {
		return nil, fmt.Errorf("map of the reference runtime: %w", err)
	}
	return &m, nil
}
