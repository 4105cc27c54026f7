// observe.js is one expression: a function of (URL, row) giving what a row
// of hosts.json observes of a URL implementation. gen.js records it with
// Node 20's URL; host/url_test.go runs it, unchanged, with the guest's.
//
// A parse row ({input, base}) is new URL(input, base): its href, host and
// hostname, or {failure: "Name: message"} when it throws. A setter row
// ({href, set, value}) sets the property set ("host" or "hostname") of
// new URL(href) to value; setters never throw.
(function observe(URL, row) {
  const seen = (u) => ({ href: u.href, host: u.host, hostname: u.hostname });
  if (row.set) {
    const u = new URL(row.href);
    u[row.set] = row.value;
    return seen(u);
  }
  try {
    return seen(row.base === null ? new URL(row.input) : new URL(row.input, row.base));
  } catch (e) {
    return { failure: String(e && e.name) + ': ' + String(e && e.message) };
  }
})
