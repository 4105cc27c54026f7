//go:build ignore

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// timeZoneIDs reads the time zone identifiers ICU knows from CLDR's BCP 47
// data (cldr-bcp47's timezone.json): one line per zone, its canonical ID
// first and then every other name it is known by, "|"-separated. A
// deprecated entry's names join the entry it points to (Asia/Chongqing
// is Asia/Shanghai), and the names of Etc/UTC and Etc/GMT join "UTC", the
// ID V8 reports for both. Etc/Unknown is left out: ICU does not accept it.
// V8 resolves a time zone to the canonical ID of the entry naming it,
// case-insensitively, and rejects any other.
func timeZoneIDs(dir string) (string, error) {
	var doc struct {
		Keyword struct {
			U struct {
				TZ map[string]json.RawMessage `json:"tz"`
			} `json:"u"`
		} `json:"keyword"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "cldr-bcp47", "bcp47", "timezone.json"))
	if err != nil {
		return "", err
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return "", fmt.Errorf("cldr-bcp47 timezone.json: %w", err)
	}
	type entry struct {
		Alias      string `json:"_alias"`
		Deprecated string `json:"_deprecated"`
		Preferred  string `json:"_preferred"`
	}
	entries := map[string]entry{}
	for k, raw := range doc.Keyword.U.TZ {
		var e entry
		if strings.HasPrefix(k, "_") || json.Unmarshal(raw, &e) != nil || e.Alias == "" {
			continue
		}
		entries[k] = e
	}
	names := map[string][]string{} // canonical ID -> its names, canonical first
	for k, e := range entries {
		target := k
		for seen := 0; entries[target].Preferred != ""; seen++ {
			if seen > len(entries) {
				return "", fmt.Errorf("cldr-bcp47 timezone.json: %s: preferred entries loop", k)
			}
			target = entries[target].Preferred
		}
		t, ok := entries[target]
		if !ok {
			return "", fmt.Errorf("cldr-bcp47 timezone.json: %s: preferred entry %q has no names", k, target)
		}
		id := strings.Fields(t.Alias)[0]
		switch id {
		case "Etc/Unknown":
			continue
		case "Etc/UTC", "Etc/GMT":
			id = "UTC"
		}
		names[id] = append(names[id], strings.Fields(e.Alias)...)
	}
	if len(names) < 400 || names["UTC"] == nil || names["Asia/Calcutta"] == nil {
		return "", fmt.Errorf("cldr-bcp47 timezone.json: %d zones: has its format changed?", len(names))
	}
	ids := make([]string, 0, len(names))
	for id := range names {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	lines := make([]string, len(ids))
	for i, id := range ids {
		others := []string{}
		seen := map[string]bool{id: true}
		for _, n := range names[id] {
			if !seen[n] {
				seen[n] = true
				others = append(others, n)
			}
		}
		sort.Strings(others)
		lines[i] = strings.Join(append([]string{id}, others...), " ")
	}
	return strings.Join(lines, "|"), nil
}

// currentCurrencies lists the currencies CLDR says are legal tender in
// some region today (cldr-core's currencyData.json: no end date, not
// marked as not tender), sorted: what supportedValuesOf("currency") gives.
func currentCurrencies(dir string) ([]string, error) {
	var doc struct {
		Supplemental struct {
			CurrencyData struct {
				Region map[string][]map[string]struct {
					To     string `json:"_to"`
					Tender string `json:"_tender"`
				} `json:"region"`
			} `json:"currencyData"`
		} `json:"supplemental"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "cldr-core", "supplemental", "currencyData.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("cldr-core currencyData.json: %w", err)
	}
	set := map[string]bool{}
	for _, list := range doc.Supplemental.CurrencyData.Region {
		for _, m := range list {
			for code, c := range m {
				if c.To == "" && c.Tender != "false" {
					set[code] = true
				}
			}
		}
	}
	if len(set) < 100 || !set["EUR"] || !set["USD"] {
		return nil, fmt.Errorf("cldr-core currencyData.json: %d current currencies: has its format changed?", len(set))
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out, nil
}
