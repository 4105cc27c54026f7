// ptc: tools=tools.json
// Build URLs and query strings with URL and URLSearchParams.
const { results } = await tools.search_docs({ query: "reset password", limit: 3 });

const params = new URLSearchParams({ q: "reset password", page: "2", lang: "en" });
params.append("tag", "account");
params.append("tag", "security");
params.set("page", "3");
console.log(params.toString());
console.log("tags:", params.getAll("tag"), "has lang:", params.has("lang"));
params.delete("lang");
params.sort();
console.log([...params].map(([k, v]) => `${k}=${v}`).join(" & "));
console.log(new URLSearchParams("a=1&b=caf%C3%A9&c=x+y&c=z").getAll("c"), new URLSearchParams("b=caf%C3%A9").get("b"));

const links = results.map((r) => {
  const url = new URL(r.url);
  url.searchParams.set("utm_source", "assistant");
  url.searchParams.set("ref", r.id);
  url.hash = "top";
  return url.href;
});
console.log(links.join("\n"));

const u = new URL("https://user:pw@docs.example.com:8443/api/v2/search?q=r%C3%A9sum%C3%A9&limit=10#results");
console.log({
  protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port,
  pathname: u.pathname, search: u.search, hash: u.hash, origin: u.origin,
  username: u.username, q: u.searchParams.get("q"),
});
console.log(new URL("../guides/start?x=1", "https://docs.example.com/api/v2/").toString());
console.log(encodeURIComponent("a b&c=d/é"), decodeURIComponent("%E2%9C%93"));
try {
  new URL("not a url");
} catch (e) {
  console.log("invalid URL rejected:", e instanceof TypeError);
}
return `https://docs.example.com/search?${new URLSearchParams({ q: "api rate limits", page: 1 })}`;
