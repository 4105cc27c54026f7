function f() { return f() + 1; }
try { f(); } catch (e) { console.log("caught", e.name, e.message); }
try { JSON.parse("[".repeat(1e6)); } catch (e) { console.log("caught", e.name, e.message); }
try { eval("(".repeat(1e5)); } catch (e) { console.log("caught", e.name, e.message); }
let deep = [];
for (let i = 0; i < 100000; i++) deep = [deep];
try { JSON.stringify(deep); } catch (e) { console.log("caught", e.name, e.message); }
return "still alive";
