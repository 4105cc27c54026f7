// ptc: tools=tools.json
// Pulling structured data out of text with named groups and matchAll.
type Hit = { id: string; title: string; url: string; score: number; snippet: string };

const [a, b] = await Promise.all([
  tools.search_docs({ query: "api rate limits" }),
  tools.search_docs({ query: "sso" }),
]);
const hits: Hit[] = [...a.results, ...b.results];

const pathRe = /^https:\/\/(?<host>[^/]+)\/(?<section>[a-z]+)\/(?<slug>[\w-]+)$/;
for (const h of hits) {
  const m = pathRe.exec(h.url);
  const { section, slug } = m?.groups ?? {};
  console.log(`${h.id}: section=${section} slug=${slug}`);
}

const text = hits.map((h) => h.snippet).join(" ");
const numbers = [...text.matchAll(/\b(\d+(?:\.\d+)?)\b/g)].map((m) => Number(m[1]));
console.log("numbers in snippets:", numbers);
const providers = text.match(/\b(Okta|Azure AD|SAML \d\.\d)\b/g);
console.log("providers:", providers);
console.log("slugs:", hits.map((h) => h.url.split("/").pop()!.replaceAll("-", " ")).join(" | "));
const words = text.toLowerCase().split(/\W+/).filter((w: string) => w.length > 3);
const freq = new Map<string, number>();
for (const w of words) freq.set(w, (freq.get(w) ?? 0) + 1);
const top = [...freq].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).slice(0, 5);
return Object.fromEntries(top);
