package registry

// Scope names one layer of the registry. The zero Scope is the deployment;
// Scope{Preset: "p"} is a preset beneath it; Scope{Preset: "p", Agent: "a"}
// is an agent of that preset (an agent may also sit directly beneath the
// deployment, with Preset ""). Lookups walk from a scope towards the
// deployment and the nearest registration of a name wins.
//
// Scope is comparable and may be used as a map key.
type Scope struct {
	Preset string
	Agent  string
}

// IsDeployment reports whether s is the deployment scope.
func (s Scope) IsDeployment() bool { return s == Scope{} }

// Parent returns the next scope towards the deployment; the deployment's
// parent is itself.
func (s Scope) Parent() Scope {
	if s.Agent != "" {
		return Scope{Preset: s.Preset}
	}
	return Scope{}
}

// Contains reports whether scope t is s or lies beneath it, that is whether
// s is one of the layers t's lookups walk.
func (s Scope) Contains(t Scope) bool {
	for _, l := range t.path() {
		if l == s {
			return true
		}
	}
	return false
}

// String returns "deployment", "preset p", "agent a" or "agent p/a".
func (s Scope) String() string {
	switch {
	case s.Agent != "" && s.Preset != "":
		return "agent " + s.Preset + "/" + s.Agent
	case s.Agent != "":
		return "agent " + s.Agent
	case s.Preset != "":
		return "preset " + s.Preset
	}
	return "deployment"
}

// path returns the layers a lookup in s walks, farthest (the deployment)
// first and s itself last.
func (s Scope) path() []Scope {
	p := make([]Scope, 0, 3)
	p = append(p, Scope{})
	if s.Preset != "" {
		p = append(p, Scope{Preset: s.Preset})
	}
	if s.Agent != "" {
		p = append(p, s)
	}
	return p
}
