// ptc: timeout=300ms
console.log("spinning");
for (;;) {}
