package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/lifeline-dev/lifeline/cmd/internal/outfile"
	"github.com/spf13/cobra"
)

// output is where a command with -o writes: standard output, or a file that is replaced only
// when the command succeeds (written beside it and renamed), so a failed run leaves it as it was.
type output struct {
	*bufio.Writer
	file *outfile.File // nil for standard output
	path string
}

// openOutput returns the output for -o path (standard output when empty or "-").
func openOutput(cmd *cobra.Command, path string) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: bufio.NewWriterSize(cmd.OutOrStdout(), 256<<10)}, nil
	}
	f, err := outfile.Create(path)
	if err != nil {
		return nil, err
	}
	return &output{Writer: bufio.NewWriterSize(f, 256<<10), file: f, path: path}, nil
}

// commit flushes the output and, for a file, puts it in place.
func (o *output) commit() error {
	if err := o.Flush(); err != nil {
		o.abort()
		return err
	}
	if o.file == nil {
		return nil
	}
	return o.file.Commit()
}

// abort drops a file output (standard output is flushed: what was written stays written). It
// does nothing after commit.
func (o *output) abort() {
	if o.file == nil {
		o.Flush()
		return
	}
	o.file.Abort()
}

// refuseHTMLOnTerminal refuses --format html when it would go to a terminal (a whole page of
// markup and script, useless there): it says to use suggestion instead.
func refuseHTMLOnTerminal(cmd *cobra.Command, format, out, suggestion string) error {
	if format != "html" || (out != "" && out != "-") || !isTerminal(cmd.OutOrStdout()) {
		return nil
	}
	return &exitError{code: exitFailure, err: fmt.Errorf("--format html writes a whole web page, not for a terminal: use %s and open it in a browser", suggestion)}
}

// unchanged adds to err, for a file output, that the file was not written.
func (o *output) unchanged(err error) error {
	if o.file == nil {
		return err
	}
	return fmt.Errorf("%w (%s left unchanged)", err, o.path)
}

// writeJSON writes v as indented JSON, the shape of every --format json listing.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
