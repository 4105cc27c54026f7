package registry

// Scope names one layer of the registry. The zero Scope is the deployment;
// Scope{Preset: "p"} is a preset beneath it; Scope{Preset: "p", Agent: "a"}
// is an agent of that preset (an agent may also sit directly beneath the
// deployment, with Preset ""). Lookups walk from a scope towards the
// deployment (from {p, a} to {p} to {}) and the nearest registration of a
// name wins.
//
// Scope is comparable and may be used as a map key.
type Scope struct {
	Preset string
	Agent  string
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
