// ptc: tools=tools.json
// main().catch(...) with an error thrown deep inside: handled, printed.
async function loadProfile(id) {
  const customer = await tools.get_customer({ id });
  if (!customer.tags.length) {
    throw new Error(`customer ${id} has no tags`);
  }
  return customer;
}

async function main() {
  const a = await loadProfile("C-1001");
  console.log("loaded", a.name, a.tags);
  const b = await loadProfile("C-1003");
  console.log("loaded", b.name);
}

main()
  .then(() => console.log("finished"))
  .catch((err) => console.error("failed:", err.message))
  .finally(() => console.log("cleanup"));
console.log("main scheduled");
