// ptc: tools=tools.json
// Typed query building with URLSearchParams and a structuredClone'd draft.
type Params = Record<string, string | number | boolean | undefined>;

function buildUrl(base: string, path: string, params: Params): string {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined) url.searchParams.append(k, String(v));
  }
  return url.toString();
}

interface Draft {
  to: string;
  subject: string;
  body: string;
  meta: { links: string[]; createdAt: Date };
}

const { results } = await tools.search_docs({ query: "api rate limits", limit: 2 });
const link = buildUrl("https://docs.example.com", "/search", { q: "rate limits & quotas", page: 1, exact: true, lang: undefined });
console.log(link);

const draft: Draft = {
  to: "grace@example.com",
  subject: "About rate limits",
  body: results.map((r: { title: string; url: string }) => `- ${r.title}: ${r.url}`).join("\n"),
  meta: { links: [link], createdAt: new Date("2024-03-28T10:00:00Z") },
};
const copy = structuredClone(draft);
copy.meta.links.push("https://docs.example.com/api");
console.log(draft.meta.links.length, copy.meta.links.length, copy.meta.createdAt.getTime() === draft.meta.createdAt.getTime());
const sent = await tools.send_email({ to: copy.to, subject: copy.subject, body: copy.body });
console.log(copy.body);
return { id: sent.id, links: copy.meta.links, createdAt: copy.meta.createdAt };
