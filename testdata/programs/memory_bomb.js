// ptc: memory=33554432
const keep = [];
for (;;) keep.push("x".repeat(1 << 20) + keep.length);
