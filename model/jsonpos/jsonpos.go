// Package jsonpos finds the source line of every value of a JSON document, so that data read
// from an embedded JSON file can cite where it is written.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// Lines returns the 1-based line on which each value of the JSON document data begins, keyed
// by its JSON Pointer (RFC 6901: "" the document, "/rules/0" the first rule, "/a~1b" the key
// "a/b").
func Lines(data []byte) (map[string]int, error) {
	var starts []int // offsets of line starts
	starts = append(starts, 0)
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	line := func(off int) int { return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) }
	dec := json.NewDecoder(bytes.NewReader(data))
	out := map[string]int{}
	var walk func(path string) error
	walk = func(path string) error {
		off := int(dec.InputOffset())
		for off < len(data) && bytes.IndexByte([]byte(" \t\r\n:,"), data[off]) >= 0 {
			off++
		}
		out[path] = line(off)
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("line %d: %w", line(off), err)
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return fmt.Errorf("line %d: %w", line(int(dec.InputOffset())), err)
				}
				if err := walk(path + "/" + escape(k.(string))); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(path + "/" + strconv.Itoa(i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	if err := walk(""); err != nil {
		return nil, err
	}
	return out, nil
}

func escape(key string) string {
	return string(bytes.ReplaceAll(bytes.ReplaceAll([]byte(key), []byte("~"), []byte("~0")), []byte("/"), []byte("~1")))
}
