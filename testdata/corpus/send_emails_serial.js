// ptc: tools=tools.json
// Send emails in a loop, one after another; a bounce is logged and skipped.
const recipients = [
  { name: "Ada", email: "ada@example.com" },
  { name: "Bounce", email: "bounce@example.com" },
  { name: "Grace", email: "grace@example.com" },
  { name: "Linus", email: "linus@example.org" },
];
const sent = [];
const failed = [];
for (const r of recipients) {
  try {
    const res = await tools.send_email({
      to: r.email,
      subject: "Your March invoice",
      body: `Hi ${r.name},\n\nyour invoice for March is ready.\n`,
    });
    sent.push(res.id);
    console.log(`sent to ${r.email}: ${res.id} (${res.status})`);
  } catch (e) {
    failed.push({ email: r.email, reason: e.message });
    console.error(`could not email ${r.email}: ${e.message}`);
  }
}
return { sent, failed };
