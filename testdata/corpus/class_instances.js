// ptc: tools=tools.json
// Small classes, printed and returned: inspect shows the class name.
class Money {
  constructor(amount, currency) {
    this.amount = amount;
    this.currency = currency;
  }
  add(other) {
    return new Money(Math.round((this.amount + other.amount) * 100) / 100, this.currency);
  }
  toString() {
    return this.amount.toLocaleString("en-US", { style: "currency", currency: this.currency });
  }
}

class Cart {
  #items = [];
  static count = 0;
  constructor(owner) {
    this.owner = owner;
    Cart.count++;
  }
  add(sku, price, qty = 1) {
    this.#items.push({ sku, price, qty });
    return this;
  }
  get total() {
    return this.#items.reduce((m, it) => m.add(new Money(it.price.amount * it.qty, "USD")), new Money(0, "USD"));
  }
  get size() {
    return this.#items.length;
  }
}

const [w, g] = await Promise.all([tools.get_inventory({ sku: "WID-001" }), tools.get_inventory({ sku: "GAD-002" })]);
const cart = new Cart("C-1002").add(w.sku, new Money(w.unitCost, "USD"), 3).add(g.sku, new Money(g.unitCost, "USD"));
console.log(cart);
console.log(`cart of ${cart.size} lines, total ${cart.total}`);
console.log(new Money(5, "EUR"));
console.log(String(new Money(1234.5, "EUR")), `${new Money(99, "GBP")}`);
console.log([new Money(1, "USD"), new Money(2, "USD")]);
console.log("carts created:", Cart.count, "| is Money:", cart.total instanceof Money);
return cart.total;
