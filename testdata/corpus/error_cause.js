// ptc: tools=tools.json
// Wrapping errors with a cause, and Promise.any / AggregateError.
async function loadAccount(id) {
  try {
    return await tools.get_customer({ id });
  } catch (err) {
    throw new Error(`could not load account ${id}`, { cause: err });
  }
}

try {
  await loadAccount("C-0000");
} catch (e) {
  console.log(e.message);
  console.log("  caused by:", e.cause.name, e.cause.code, "-", e.cause.message);
}

// The first weather service to answer wins.
const fastest = await Promise.any([
  tools.get_weather({ city: "Atlantis" }),
  tools.get_weather({ city: "Sydney" }),
  tools.get_weather({ city: "London" }),
]);
console.log("first answer:", fastest.city);

try {
  await Promise.any([tools.get_weather({ city: "Atlantis" }), tools.get_weather({ city: "El Dorado" })]);
} catch (e) {
  console.log(e.constructor.name, e.errors.length, e.errors.map((x) => x.message));
}

class ValidationError extends Error {
  constructor(field, message) {
    super(message);
    this.name = "ValidationError";
    this.field = field;
  }
}
const customer = await tools.get_customer({ id: "C-1003" });
try {
  if (!customer.tags.length) throw new ValidationError("tags", "customer has no tags");
} catch (e) {
  console.log(`${e.name} on ${e.field}: ${e.message}`, e instanceof ValidationError);
}
return customer.email;
