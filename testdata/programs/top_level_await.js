const v = await new Promise((resolve) => resolve(41));
const w = await Promise.all([1, Promise.resolve(2), (async () => 3)()]);
console.log("awaited", v + 1);
return w;
