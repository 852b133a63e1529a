package store

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"
)

// index is the run index: one row per run, written whole when the store opens and then
// session by session as the projection changes, and the journal length it covers.
type index struct {
	db *sql.DB
}

const schema = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT NOT NULL, session_id TEXT NOT NULL, agent TEXT NOT NULL, status TEXT NOT NULL,
  stop_reason TEXT NOT NULL, error TEXT NOT NULL, turns INTEGER NOT NULL, steps INTEGER NOT NULL,
  tool_calls INTEGER NOT NULL, tokens INTEGER NOT NULL, cost_usd REAL NOT NULL,
  start_ns INTEGER NOT NULL, duration_ns INTEGER NOT NULL, findings INTEGER NOT NULL,
  PRIMARY KEY (session_id, run_id));
CREATE INDEX IF NOT EXISTS runs_status ON runs(status, stop_reason);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`

func openIndex(path string) (*index, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, fmt.Errorf("store: opening the index %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: creating the index %s: %w", path, err)
	}
	return &index{db: db}, nil
}

func (x *index) close() error { return x.db.Close() }

// replace writes rows as the whole index, covering size bytes of journal, in one transaction.
func (x *index) replace(rows []RunRow, size int64) error {
	return x.write(true, nil, rows, size)
}

// update replaces the rows of the given sessions by rows (the new rows of those sessions),
// covering size bytes of journal, in one transaction.
func (x *index) update(sessions []string, rows []RunRow, size int64) error {
	return x.write(false, sessions, rows, size)
}

func (x *index) write(all bool, sessions []string, rows []RunRow, size int64) error {
	tx, err := x.db.Begin()
	if err != nil {
		return fmt.Errorf("store: index: %w", err)
	}
	defer tx.Rollback()
	if all {
		if _, err := tx.Exec(`DELETE FROM runs`); err != nil {
			return fmt.Errorf("store: index: %w", err)
		}
	} else if len(sessions) > 0 {
		del, err := tx.Prepare(`DELETE FROM runs WHERE session_id = ?`)
		if err != nil {
			return fmt.Errorf("store: index: %w", err)
		}
		defer del.Close()
		for _, id := range sessions {
			if _, err := del.Exec(id); err != nil {
				return fmt.Errorf("store: index: session %s: %w", id, err)
			}
		}
	}
	st, err := tx.Prepare(`INSERT OR REPLACE INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return fmt.Errorf("store: index: %w", err)
	}
	defer st.Close()
	for _, r := range rows {
		var start int64
		if !r.Start.IsZero() {
			start = r.Start.UnixNano()
		}
		if _, err := st.Exec(r.RunID, r.SessionID, r.Agent, r.Status, r.StopReason, r.Error, r.Turns, r.Steps, r.ToolCalls,
			r.Tokens, r.CostUSD, start, int64(r.Duration), r.Findings); err != nil {
			return fmt.Errorf("store: index: run %s: %w", r.RunID, err)
		}
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO meta VALUES ('journal_bytes', ?)`, size); err != nil {
		return fmt.Errorf("store: index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: index: %w", err)
	}
	return nil
}

func (x *index) runs(q Query) ([]RunRow, error) {
	var where []string
	var args []any
	if q.Status != "" {
		where, args = append(where, "status = ?"), append(args, q.Status)
	}
	if q.StopReason != "" {
		where, args = append(where, "stop_reason = ?"), append(args, q.StopReason)
	}
	if q.Search != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q.Search) + "%"
		where = append(where, `(run_id LIKE ? ESCAPE '\' OR session_id LIKE ? ESCAPE '\' OR agent LIKE ? ESCAPE '\' OR error LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like, like)
	}
	if q.Failed {
		where = append(where, "(status NOT IN ('completed', 'running', 'waiting', 'queued') OR findings > 0)")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 500
	}
	sqlText := `SELECT run_id, session_id, agent, status, stop_reason, error, turns, steps, tool_calls, tokens, cost_usd, start_ns, duration_ns, findings FROM runs`
	if len(where) > 0 {
		sqlText += " WHERE " + strings.Join(where, " AND ")
	}
	sqlText += " ORDER BY start_ns DESC, run_id LIMIT ?"
	args = append(args, limit)
	rs, err := x.db.Query(sqlText, args...)
	if err != nil {
		return nil, fmt.Errorf("store: querying the index: %w", err)
	}
	defer rs.Close()
	var out []RunRow
	for rs.Next() {
		var r RunRow
		var start, dur int64
		if err := rs.Scan(&r.RunID, &r.SessionID, &r.Agent, &r.Status, &r.StopReason, &r.Error, &r.Turns, &r.Steps, &r.ToolCalls,
			&r.Tokens, &r.CostUSD, &start, &dur, &r.Findings); err != nil {
			return nil, fmt.Errorf("store: reading the index: %w", err)
		}
		if start != 0 {
			r.Start = time.Unix(0, start).UTC()
		}
		r.Duration = time.Duration(dur)
		out = append(out, r)
	}
	return out, rs.Err()
}

func (x *index) countByStatus() ([]StatusCount, error) {
	rs, err := x.db.Query(`SELECT status, stop_reason, COUNT(*) FROM runs GROUP BY status, stop_reason ORDER BY status, stop_reason`)
	if err != nil {
		return nil, fmt.Errorf("store: querying the index: %w", err)
	}
	defer rs.Close()
	var out []StatusCount
	for rs.Next() {
		var c StatusCount
		if err := rs.Scan(&c.Status, &c.StopReason, &c.Runs); err != nil {
			return nil, fmt.Errorf("store: reading the index: %w", err)
		}
		out = append(out, c)
	}
	return out, rs.Err()
}
