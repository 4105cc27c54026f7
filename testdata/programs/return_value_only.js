return { ok: true, list: [], nested: {}, n: 1.5 };
