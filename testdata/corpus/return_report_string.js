// ptc: tools=tools.json
// Build a Markdown report and return it as a string (printed as is).
const tickets = await tools.run_sql({ query: "SELECT * FROM support_tickets WHERE status = 'open'" });
const order = { urgent: 0, high: 1, medium: 2, low: 3 };
tickets.sort((a, b) => order[a.priority] - order[b.priority] || a.id - b.id);

const fmt = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
const lines = [
  "# Open tickets",
  "",
  `There are **${tickets.length}** open tickets.`,
  "",
  "| # | Priority | Subject | Opened |",
  "|---|----------|---------|--------|",
  ...tickets.map((t) => `| ${t.id} | ${t.priority.toUpperCase()} | ${t.subject} | ${fmt.format(new Date(t.opened_at))} |`),
  "",
  `_Urgent or high: ${tickets.filter((t) => order[t.priority] <= 1).length}_`,
];
return lines.join("\n");
