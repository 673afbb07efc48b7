package server

import (
	"fmt"
	"sort"
	"strconv"
)

// vars are the server's console variables (Source's names).
type vars struct {
	unlag       bool    // sv_unlag
	maxUnlag    float64 // sv_maxunlag, seconds
	showImpacts bool    // sv_showimpacts
	mutualKills bool    // sv_mutualkills
}

// CvarInfo describes one server console variable.
type CvarInfo struct {
	Name, Default, Help string
	Min, Max            float64
}

// ServerCvars lists the server's console variables with range and help.
var ServerCvars = []CvarInfo{
	{"sv_unlag", "1", "lag compensation: rewind other players' hitboxes to what the shooter saw (1) or trace against the present (0)", 0, 1},
	{"sv_maxunlag", "1", "the furthest back, in seconds, lag compensation rewinds", 0, 1},
	{"sv_showimpacts", "0", "tell the shooter where the server traced its target, to draw beside where the shooter drew it (1)", 0, 1},
	{"sv_mutualkills", "0", "two players killing each other in one tick: the command run first wins (0, as CS:GO) or both die (1, as Overwatch)", 0, 1},
}

func defaultVars() vars {
	return vars{unlag: true, maxUnlag: 1}
}

// set changes a variable, checking its name and range.
func (v *vars) set(name, value string) error {
	var info *CvarInfo
	for i := range ServerCvars {
		if ServerCvars[i].Name == name {
			info = &ServerCvars[i]
		}
	}
	if info == nil {
		names := make([]string, 0, len(ServerCvars))
		for _, c := range ServerCvars {
			names = append(names, c.Name)
		}
		sort.Strings(names)
		return fmt.Errorf("unknown server cvar %q (known: %v)", name, names)
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil || f != f {
		return fmt.Errorf("%s: %q is not a number", name, value)
	}
	if f < info.Min || f > info.Max {
		return fmt.Errorf("%s: %v outside [%g, %g]", name, f, info.Min, info.Max)
	}
	switch name {
	case "sv_unlag":
		v.unlag = f != 0
	case "sv_maxunlag":
		v.maxUnlag = f
	case "sv_showimpacts":
		v.showImpacts = f != 0
	case "sv_mutualkills":
		v.mutualKills = f != 0
	}
	return nil
}

// get returns a variable's value as text.
func (v *vars) get(name string) string {
	b := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	switch name {
	case "sv_unlag":
		return b(v.unlag)
	case "sv_maxunlag":
		return strconv.FormatFloat(v.maxUnlag, 'g', -1, 64)
	case "sv_showimpacts":
		return b(v.showImpacts)
	case "sv_mutualkills":
		return b(v.mutualKills)
	}
	return ""
}
