package persist

// This file bounds what loading agents.json costs: records are decoded one
// at a time, so a file with more than MaxRegistryRecords is refused after
// the limit, not after decoding them all, and each record's fields are
// checked against the limits in limits.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// UnmarshalJSON implements json.Unmarshaler. It accepts what the default
// decoding would (key case is ignored, unknown keys are skipped, "panes":
// null is no panes) but stops at MaxRegistryRecords+1 records.
func (r *Registry) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		if err := r.decodeField(dec); err != nil {
			return err
		}
	}
	return expectDelim(dec, '}')
}

// decodeField decodes one key and its value.
func (r *Registry) decodeField(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	key, _ := tok.(string) // object keys are always strings
	switch {
	case strings.EqualFold(key, "schema_version"):
		return dec.Decode(&r.SchemaVersion)
	case strings.EqualFold(key, "panes"):
		panes, err := decodePanes(dec)
		r.Panes = panes
		return err
	}
	var skip json.RawMessage
	return dec.Decode(&skip)
}

// decodePanes decodes the panes array (or null) record by record.
func decodePanes(dec *json.Decoder) ([]PaneRecord, error) {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("panes is %v, not a list", tok)
	}
	var panes []PaneRecord
	for dec.More() {
		if len(panes) == MaxRegistryRecords {
			return nil, &limitError{msg: fmt.Sprintf("it holds more than %d records, the limit", MaxRegistryRecords)}
		}
		panes = append(panes, PaneRecord{})
		if err := dec.Decode(&panes[len(panes)-1]); err != nil {
			return nil, fmt.Errorf("pane %d: %w", len(panes)-1, err)
		}
	}
	return panes, expectDelim(dec, ']')
}

// expectDelim reads one token and fails unless it is d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("found %v where %v was expected", tok, d)
	}
	return nil
}

// checkSizes reports the first field over its limit.
func (p *PaneRecord) checkSizes() error {
	errs := []error{
		checkLen("id", p.ID, maxShortField),
		checkLen("name", p.Name, maxNameField),
		checkLen("adapter", p.Adapter, maxShortField),
		checkLen("session", p.Session, maxShortField),
		checkLen("cwd", p.Cwd, maxPathField),
		checkLen("boot_id", p.BootID, maxShortField),
		checkLen("nonce", p.Nonce, maxShortField),
		checkLen("cgroup", p.Cgroup, maxPathField),
		checkLen("token", p.Token, maxShortField),
		checkArgs("argv", p.Argv),
		checkArgs("resume_argv", p.ResumeArgv),
		p.checkEnvKeys(),
	}
	if w := p.Worktree; w != nil {
		for _, f := range [...]struct{ name, v string }{
			{"worktree.repo", w.Repo}, {"worktree.path", w.Path}, {"worktree.branch", w.Branch}, {"worktree.base", w.Base},
		} {
			errs = append(errs, checkLen(f.name, f.v, maxPathField))
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkEnvKeys reports too many env keys or one too long.
func (p *PaneRecord) checkEnvKeys() error {
	if len(p.EnvKeys) > maxEnvKeys {
		return overLimit("env_keys", int64(len(p.EnvKeys)), maxEnvKeys, countUnit("items"))
	}
	for i, k := range p.EnvKeys {
		if len(k) > maxPathField {
			return overLimit(fmt.Sprintf("env_keys[%d]", i), int64(len(k)), maxPathField, bytesUnit)
		}
	}
	return nil
}
