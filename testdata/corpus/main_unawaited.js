// ptc: tools=tools.json
// The classic script shape: an async main() called without await. The run
// ends when main's work is done, as a Node process would.
async function main() {
  console.log("starting");
  const customers = await Promise.all(["C-1001", "C-1002", "C-1005"].map((id) => tools.get_customer({ id })));
  for (const c of customers) {
    const { orders } = await tools.list_orders({ customerId: c.id });
    const total = orders.reduce((s, o) => s + o.total, 0);
    console.log(`${c.name} (${c.tier}): ${orders.length} orders, $${total.toFixed(2)}`);
  }
  console.log("done");
}

main();
