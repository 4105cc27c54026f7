// A class whose toJSON says which key it was serialised under, as models'
// domain objects (money, dates, ids) often do.
class Money {
  constructor(cents) { this.cents = cents }
  toJSON(key) { return `${key || "(top)"}: ${(this.cents / 100).toFixed(2)}` }
}
const invoice = {
  total: new Money(12345),
  lines: [new Money(100), new Money(250)],
  nested: { tax: new Money(99) },
}
console.log(JSON.stringify(invoice))
return invoice
