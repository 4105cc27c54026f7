// ptc: tools=tools.json
// TextEncoder/TextDecoder byte counts and base64 with btoa/atob.
const langs = ["fr", "de", "ja", "es"];
const translations = await Promise.all(langs.map((target) => tools.translate({ text: "Your order has shipped", target })));
const enc = new TextEncoder();
const dec = new TextDecoder();

for (const [i, t] of translations.entries()) {
  const bytes = enc.encode(t.text);
  console.log(`${langs[i]}: ${t.text} — ${t.text.length} UTF-16 units, ${bytes.length} bytes`);
}
const ja = enc.encode(translations[2].text);
console.log("first bytes:", Array.from(ja.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join(" "));
console.log("round trip:", dec.decode(ja) === translations[2].text);
console.log("encoding:", enc.encoding, dec.encoding);
console.log(enc.encode("héllo"));

const token = btoa("api-user:s3cr3t!");
console.log("basic auth:", `Basic ${token}`);
console.log("decoded:", atob(token));
// btoa takes Latin-1 only: UTF-8 text goes through TextEncoder first.
const utf8b64 = btoa(String.fromCharCode(...enc.encode("café ✓")));
console.log("utf-8 base64:", utf8b64);
console.log("back:", dec.decode(Uint8Array.from(atob(utf8b64), (c) => c.charCodeAt(0))));
try {
  btoa("✓");
} catch (e) {
  console.log("btoa rejects non-Latin-1:", e.name);
}
return translations.map((t) => t.text);
