// wpt.js is one expression: a function of (URL, data) that runs the
// web-platform-tests' URL tests on a URL implementation, as their harnesses
// do (url-constructor, url-origin, url-setters, toascii), and returns one
// [name, passed, why] per test. data holds the WPT data files, parsed:
// {urltestdata, urltestdataJavaScriptOnly (may be absent), setters,
// toascii, percentEncoding}. host/url_wpt_test.go runs it, unchanged, with
// Node 20's URL and with the guest's. percent-encoding.json is run through
// URL (so UTF-8 only): WPT itself runs it through <a> in documents of
// several encodings.
(function wpt(URL, data) {
  const results = [];
  const run = (name, fn) => {
    try {
      const why = fn();
      results.push([name, why === undefined, why === undefined ? '' : why]);
    } catch (e) {
      results.push([name, false, 'threw ' + String(e && e.name) + ': ' + String(e && e.message)]);
    }
  };
  const eq = (what, got, want) => got === want ? undefined : `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
  const first = (...whys) => whys.find((w) => w !== undefined);
  const throwsTypeError = (fn) => {
    try { fn(); } catch (e) { return e instanceof TypeError ? undefined : 'threw ' + String(e && e.name) + ', not TypeError'; }
    return 'did not throw';
  };

  const parsing = (file, cases) => cases.forEach((c, i) => {
    if (typeof c === 'string') return;
    const base = c.base !== null ? c.base : undefined;
    const at = `${file}#${i} <${c.input}> ${base === undefined ? 'without base' : 'against <' + base + '>'}`;
    run('constructor ' + at, () => {
      if (c.failure) return throwsTypeError(() => new URL(c.input, base));
      const u = new URL(c.input, base);
      const whys = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']
        .map((k) => eq(k, u[k], c[k]));
      if ('searchParams' in c) whys.push(eq('searchParams', u.searchParams.toString(), c.searchParams));
      return first(...whys);
    });
    if (!c.failure && 'origin' in c) run('origin ' + at, () => eq('origin', new URL(c.input, base).origin, c.origin));
  });
  parsing('urltestdata.json', data.urltestdata);
  if (data.urltestdataJavaScriptOnly) parsing('urltestdata-javascript-only.json', data.urltestdataJavaScriptOnly);

  for (const prop of Object.keys(data.setters)) {
    if (prop === 'comment') continue;
    data.setters[prop].forEach((c, i) => run(`setters_tests.json ${prop}#${i} <${c.href}>.${prop} = '${c.new_value}'`, () => {
      const u = new URL(c.href);
      u[prop] = c.new_value;
      return first(...Object.keys(c.expected).map((k) => eq(k, u[k], c.expected[k])));
    }));
  }

  data.toascii.forEach((c, i) => {
    if (typeof c === 'string') return;
    run(`toascii.json#${i} ${c.input} (using URL)`, () => {
      if (c.output === null) return throwsTypeError(() => new URL('https://' + c.input + '/x'));
      const u = new URL('https://' + c.input + '/x');
      return first(eq('host', u.host, c.output), eq('hostname', u.hostname, c.output), eq('pathname', u.pathname, '/x'),
        eq('href', u.href, 'https://' + c.output + '/x'));
    });
    for (const prop of ['host', 'hostname']) {
      run(`toascii.json#${i} ${c.input} (using URL.${prop})`, () => {
        const u = new URL('https://x/x');
        u[prop] = c.input;
        return eq(prop, u[prop], c.output === null ? 'x' : c.output);
      });
    }
  });

  data.percentEncoding.forEach((c, i) => {
    if (typeof c === 'string') return;
    run(`percent-encoding.json#${i} ${c.input} (UTF-8, using URL)`, () => {
      const u = new URL('https://doesnotmatter.invalid/?' + c.input + '#' + c.input);
      return first(eq('search', u.search, '?' + c.output['utf-8']), eq('hash', u.hash, '#' + c.output['utf-8']));
    });
  });
  return results;
})
