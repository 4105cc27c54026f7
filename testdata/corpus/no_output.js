// ptc: tools=tools.json
// A side effect only: nothing printed, nothing returned.
const urgent = await tools.run_sql({ query: "SELECT * FROM support_tickets WHERE status = 'open'" });
for (const t of urgent.filter((t) => t.priority === "urgent")) {
  await tools.create_ticket({ title: `Escalation: ${t.subject}`, priority: "urgent", customerId: t.account_id });
}
