const s = "caf\u00e9 \u{1F600} line\u2028sep \u2029 \u0000nul";
console.log(s);
return { s, len: s.length, astral: "\u{1F600}".codePointAt(0) };
