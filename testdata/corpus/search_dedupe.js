// ptc: tools=tools.json
// Search several queries, dedupe by URL with a Set, keep the best score.
const queries = ["reset password", "sso", "api rate limits", "quantum billing"];
const responses = await Promise.all(queries.map((query) => tools.search_docs({ query, limit: 5 })));

const best = new Map();
responses.forEach((res, i) => {
  console.log(`"${queries[i]}": ${res.total} hits`);
  for (const hit of res.results) {
    const prev = best.get(hit.url);
    if (!prev || hit.score > prev.score) best.set(hit.url, { ...hit, query: queries[i] });
  }
});

const seen = new Set(responses.flatMap((r) => r.results.map((h) => h.id)));
console.log(`unique docs: ${seen.size} of ${responses.reduce((n, r) => n + r.results.length, 0)} hits`);
const top = [...best.values()].sort((a, b) => b.score - a.score).slice(0, 3);
for (const doc of top) console.log(`- ${doc.title} (${(doc.score * 100).toFixed(0)}%) ← "${doc.query}"\n  ${doc.snippet}`);
return top.map(({ title, url }) => ({ title, url }));
