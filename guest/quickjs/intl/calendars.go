//go:build ignore

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// calendarPackages are the calendars the guest formats besides the
// Gregorian one, with the CLDR package holding their names and patterns.
// entry.js does their arithmetic (@internationalized/date's, ICU's
// algorithms) and must return the era codes of calendarEras.
var calendarPackages = map[string]string{
	"buddhist": "cldr-cal-buddhist-modern",
	"persian":  "cldr-cal-persian-full",
}

// calendarEras are the era codes entry.js's calendars return, by calendar;
// CLDR numbers the eras (0).
var calendarEras = map[string][]string{
	"buddhist": {"BE"},
	"persian":  {"AP"},
}

// calendarPrefs is what ICU chooses a locale's default calendar by: the
// calendars CLDR prefers in its region (calendarPreferenceData.json), the
// region being the locale's own or its likely one (likelySubtags.json).
type calendarPrefs struct {
	likely   map[string]string
	byRegion map[string][]string
}

func readCalendarPrefs(dir string) (*calendarPrefs, error) {
	sup := filepath.Join(dir, "node_modules", "cldr-core", "supplemental")
	var likely struct {
		Supplemental struct {
			LikelySubtags map[string]string `json:"likelySubtags"`
		} `json:"supplemental"`
	}
	var prefs struct {
		Supplemental struct {
			CalendarPreferenceData map[string][]string `json:"calendarPreferenceData"`
		} `json:"supplemental"`
	}
	for name, v := range map[string]any{"likelySubtags.json": &likely, "calendarPreferenceData.json": &prefs} {
		b, err := os.ReadFile(filepath.Join(sup, name))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	c := &calendarPrefs{likely: likely.Supplemental.LikelySubtags, byRegion: map[string][]string{}}
	for region, list := range prefs.Supplemental.CalendarPreferenceData {
		if len(list) > 0 {
			c.byRegion[region] = list
		}
	}
	if len(c.likely) == 0 || len(c.byRegion["001"]) == 0 {
		return nil, fmt.Errorf("cldr-core: no likely subtags or calendar preferences: has its format changed?")
	}
	return c, nil
}

// region is a locale's region subtag, or its likely region.
func (c *calendarPrefs) region(locale string) string {
	parts := strings.Split(locale, "-")
	for _, p := range parts[1:] {
		if isRegion(p) {
			return p
		}
	}
	for n := len(parts); n >= 1; n-- {
		if full, ok := c.likely[strings.Join(parts[:n], "-")]; ok {
			fp := strings.Split(full, "-")
			if r := fp[len(fp)-1]; isRegion(r) {
				return r
			}
		}
	}
	return "001"
}

func isRegion(s string) bool {
	if len(s) == 2 {
		return s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
	}
	return len(s) == 3 && s[0] >= '0' && s[0] <= '9'
}

// preferred is the locale's default calendar by CLDR's name (gregorian,
// buddhist, persian).
func (c *calendarPrefs) preferred(locale string) string {
	list, ok := c.byRegion[c.region(locale)]
	if !ok {
		list = c.byRegion["001"]
	}
	return list[0]
}

// addCalendar gives a locale whose default calendar is one of
// calendarPackages (th's buddhist, fa's persian, ps's) that calendar, from
// its CLDR package, first in its list (data.ca), as ICU resolves it:
// data.calendarData[cal] holds its eras, months and date styles and
// data.formats[cal] its date skeletons. Times, zones, interval patterns
// and the patterns joining a date to a time stay the Gregorian's (data.js
// builds the calendar's combined date-and-time entries from them). A
// locale the package lacks keeps the Gregorian calendar.
func addCalendar(dir, locale string, v any, prefs *calendarPrefs) error {
	cal := prefs.preferred(locale)
	pkg, ok := calendarPackages[cal]
	if !ok {
		return nil
	}
	type names = map[string]map[string]string
	var doc struct {
		Main map[string]struct {
			Dates struct {
				Calendars map[string]struct {
					Months struct {
						Format     names `json:"format"`
						StandAlone names `json:"stand-alone"`
					} `json:"months"`
					Eras            map[string]map[string]string `json:"eras"`
					DateFormats     map[string]any               `json:"dateFormats"`
					DateTimeFormats struct {
						AvailableFormats map[string]any `json:"availableFormats"`
					} `json:"dateTimeFormats"`
				} `json:"calendars"`
			} `json:"dates"`
		} `json:"main"`
	}
	if found, err := readLocaleJSON(dir, pkg, locale, "ca-"+cal+".json", &doc); !found || err != nil {
		return err
	}
	c, ok := doc.Main[locale].Dates.Calendars[cal]
	if !ok {
		return fmt.Errorf("%s: no main.%s.dates.calendars.%s", pkg, locale, cal)
	}
	data, _ := v.(map[string]any)["data"].(map[string]any)
	formats, _ := data["formats"].(map[string]any)
	if data == nil || formats == nil {
		return fmt.Errorf("no data.formats")
	}
	// FormatJS's widths narrow, short and long are CLDR's narrow,
	// abbreviated and wide.
	widths := [][2]string{{"narrow", "narrow"}, {"short", "abbreviated"}, {"long", "wide"}}
	months := func(src names) (map[string]any, error) {
		out := map[string]any{}
		for _, w := range widths {
			m := src[w[1]]
			if len(m) != 12 {
				return nil, fmt.Errorf("%s: %s: %d %s month names, want 12", pkg, locale, len(m), w[1])
			}
			list := make([]any, len(m))
			for i := range list {
				name, ok := m[fmt.Sprint(i+1)]
				if !ok {
					return nil, fmt.Errorf("%s: %s: month %d has no %s name", pkg, locale, i+1, w[1])
				}
				list[i] = name
			}
			out[w[0]] = list
		}
		return out, nil
	}
	month, err := months(c.Months.Format)
	if err != nil {
		return err
	}
	standalone, err := months(c.Months.StandAlone)
	if err != nil {
		return err
	}
	era := map[string]any{}
	for _, w := range [][2]string{{"narrow", "eraNarrow"}, {"short", "eraAbbr"}, {"long", "eraNames"}} {
		m := map[string]any{}
		for i, code := range calendarEras[cal] {
			name, ok := c.Eras[w[1]][fmt.Sprint(i)]
			if !ok {
				return fmt.Errorf("%s: %s: era %d has no %s", pkg, locale, i, w[1])
			}
			m[code] = name
		}
		era[w[0]] = m
	}
	styles := map[string]any{}
	for _, k := range []string{"full", "long", "medium", "short"} {
		p, ok := c.DateFormats[k].(string)
		if !ok {
			return fmt.Errorf("%s: %s: no %s date format", pkg, locale, k)
		}
		styles[k] = p
	}
	// The date skeletons. CLDR writes some of a calendar's with yyyy
	// (yyyyMMMd); ECMA-402's year is y, and a skeleton of y's own wins.
	skeletons := map[string]any{}
	for k, p := range c.DateTimeFormats.AvailableFormats {
		ps, ok := p.(string)
		// Times are the Gregorian's; FormatJS has no quarters or weeks.
		if !ok || strings.Contains(k, "-") || strings.ContainsAny(k, "abBhHkKjJmsSAzZOvVXxQqwW") {
			continue
		}
		if strings.HasPrefix(k, "yyyy") {
			k = "y" + k[4:]
			if _, own := c.DateTimeFormats.AvailableFormats[k]; own {
				continue
			}
		}
		skeletons[k] = ps
	}
	formats[cal] = skeletons
	cd, _ := data["calendarData"].(map[string]any)
	if cd == nil {
		cd = map[string]any{}
		data["calendarData"] = cd
	}
	cd[cal] = map[string]any{"era": era, "month": month, "monthStandalone": standalone, "dateFormat": styles}
	ca := []any{cal}
	list, _ := data["ca"].([]any)
	for _, x := range list {
		if x != cal {
			ca = append(ca, x)
		}
	}
	data["ca"] = ca
	return nil
}
