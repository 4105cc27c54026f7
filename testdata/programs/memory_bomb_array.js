// ptc: memory=33554432
const keep = [];
for (;;) keep.push(new Array(100000).fill(keep.length));
