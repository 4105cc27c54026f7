// ptc: tools=tools.json
// Numeric and string enums, and serial ticket creation.
enum Severity {
  Low,
  Medium,
  High,
  Urgent,
}
enum Channel {
  Email = "email",
  Chat = "chat",
}
const enum Limits {
  MaxTickets = 3,
}

type Priority = "low" | "medium" | "high" | "urgent";
interface Ticket {
  ticketId: string;
  status: string;
  slaHours: number;
}

const toPriority = (s: Severity): Priority => Severity[s].toLowerCase() as Priority;

const issues: Array<{ title: string; severity: Severity; customerId: string }> = [
  { title: "Export fails with 500", severity: Severity.Urgent, customerId: "C-1004" },
  { title: "Typo on invoice", severity: Severity.Low, customerId: "C-1002" },
  { title: "Webhook retries", severity: Severity.High, customerId: "C-1001" },
  { title: "Extra issue over the limit", severity: Severity.Medium, customerId: "C-1003" },
];

console.log("Severity.High =", Severity.High, "| Severity[3] =", Severity[3], "| Channel.Chat =", Channel.Chat);
const created: Ticket[] = [];
for (const issue of issues.slice(0, Limits.MaxTickets)) {
  const t = await tools.create_ticket({ title: issue.title, priority: toPriority(issue.severity), customerId: issue.customerId });
  created.push(t as Ticket);
  console.log(`${t.ticketId} [${toPriority(issue.severity)}] ${issue.title} (SLA ${t.slaHours}h via ${Channel.Email})`);
}
console.log(Object.keys(Severity));
return created.map((t) => t.ticketId);
