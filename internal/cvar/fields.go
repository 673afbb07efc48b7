package cvar

import "strings"

// Fields splits a console line into words as Source's tokenizer does:
// spaces separate words, double quotes group them (no escapes; an
// unterminated quote runs to the end of the line), and "//" outside quotes
// starts a comment. The client's config.cfg and console and the server's
// server.cfg (ConfigFields) read lines with it.
func Fields(line string) []string { return fields(line, false) }

// ConfigFields is Fields for config files that also take shell-style
// comments: a word that starts with "#" outside quotes starts a comment
// too (`sv_unlag 1  # rewind hitboxes`); a quoted "#" is kept
// (`hostname "LAN #1"`).
func ConfigFields(line string) []string { return fields(line, true) }

func fields(line string, hash bool) []string {
	var out []string
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				out = append(out, line[i+1:])
				return out
			}
			out = append(out, line[i+1:i+1+j])
			i += j + 2
		case strings.HasPrefix(line[i:], "//"), hash && c == '#':
			return out
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '"' && line[j] != '\r' {
				j++
			}
			out = append(out, line[i:j])
			i = j
		}
	}
	return out
}
